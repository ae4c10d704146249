package jsonw

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func marshal(t testing.TB, s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// TestStr compares Str with encoding/json on hard strings.
func TestStr(t *testing.T) {
	for _, s := range []string{
		"", "plain", `q"uote`, `back\slash`, "\b\f\n\r\t\x00\x01\x1f\x7f", "<a> & b", "é ü 漢字 🎉",
		"bad \xff utf-8 \xc3", "line\u2028sep\u2029", "\xed\xa0\x80", "mixed\t\"\\\u2028\xfe",
	} {
		var w Writer
		w.Str(s)
		if got, want := string(w.B), marshal(t, s); got != want {
			t.Errorf("Str(%q) = %s, want %s", s, got, want)
		}
	}
}

// FuzzStr checks the same on any string.
func FuzzStr(f *testing.F) {
	f.Add("a\"b\\c\n\x00\xff\u2028<>&")
	f.Fuzz(func(t *testing.T, s string) {
		var w Writer
		w.Str(s)
		if got, want := string(w.B), marshal(t, s); got != want {
			t.Fatalf("Str(%q) = %s, want %s", s, got, want)
		}
	})
}

// TestKeyText: KeyText is the bytes Key appends.
func TestKeyText(t *testing.T) {
	for _, c := range []struct {
		i, depth int
		k        string
	}{{0, 0, "a"}, {1, 3, "description"}, {2, 20, `q"<k>`}} {
		var w Writer
		w.B = append(w.B, "x"...)
		w.Key(c.i, c.depth, c.k)
		if got, want := KeyText(c.i, c.depth, c.k), string(w.B[1:]); got != want {
			t.Errorf("KeyText(%d, %d, %q) = %q, want %q", c.i, c.depth, c.k, got, want)
		}
	}
}

// TestIndent: an object written with Key, Elem and End is what
// json.MarshalIndent writes.
func TestIndent(t *testing.T) {
	var w Writer
	w.B = append(w.B, '{')
	w.Key(0, 1, "a")
	w.Int(-3)
	w.Key(1, 1, "list")
	w.B = append(w.B, '[')
	w.Elem(0, 2)
	w.Str("x")
	w.Elem(1, 2)
	w.B = append(w.B, "[]"...)
	w.End(1, ']')
	w.End(0, '}')
	want, _ := json.MarshalIndent(map[string]any{"a": -3, "list": []any{"x", []any{}}}, "", "  ")
	if string(w.B) != string(want) {
		t.Errorf("got\n%s\nwant\n%s", w.B, want)
	}
}

// TestStrHTML compares StrHTML with json.Marshal, which escapes <, > and &.
func TestStrHTML(t *testing.T) {
	for _, s := range []string{"", "<a> & b", "x\u2028<\xff>&\"\n"} {
		var w Writer
		w.StrHTML(s)
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if string(w.B) != string(want) {
			t.Errorf("StrHTML(%q) = %s, want %s", s, w.B, want)
		}
	}
}

// FuzzStrHTML checks StrHTML against json.Marshal on any string.
func FuzzStrHTML(f *testing.F) {
	f.Add("a\"b\\c\n\x00\xff\u2028<>&0123456789<")
	f.Fuzz(func(t *testing.T, s string) {
		var w Writer
		w.StrHTML(s)
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if string(w.B) != string(want) {
			t.Fatalf("StrHTML(%q) = %s, want %s", s, w.B, want)
		}
	})
}

// TestNLDepths: NL writes a line break and two spaces per level at every
// depth, within the prebuilt indentation and past it.
func TestNLDepths(t *testing.T) {
	for d := range 40 {
		var w Writer
		w.NL(d)
		if want := "\n" + strings.Repeat("  ", d); string(w.B) != want {
			t.Errorf("NL(%d) = %q, want %q", d, w.B, want)
		}
	}
}
