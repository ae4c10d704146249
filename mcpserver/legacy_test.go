package mcpserver

import (
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func TestDropKeys(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{`{"ttlMs":60000,"cacheScope":"public","resources":[]}`, `{"resources":[]}`},
		{`{"a":1,"ttlMs":5,"b":{"ttlMs":1}}`, `{"a":1,"b":{"ttlMs":1}}`},
		{`{"text":"\"ttlMs\":1","cacheScope":"x"}`, `{"text":"\"ttlMs\":1"}`},
		{`{}`, `{}`},
		{`{"ttlMs":1}`, `{}`},
		{` { "a" : [1, {"b":"}"}] , "cacheScope" : null } `, `{"a" : [1, {"b":"}"}]}`},
		{`{"a":1,}`, `{"a":1,}`}, // not JSON: unchanged
		{`[1]`, `[1]`},
	} {
		if got := string(dropKeys([]byte(tt.in), "ttlMs", "cacheScope")); got != tt.want {
			t.Errorf("dropKeys(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// FuzzDropKeys: for any JSON object the result is JSON, the same object
// without the two keys; anything else comes back unchanged.
func FuzzDropKeys(f *testing.F) {
	f.Add([]byte(`{"ttlMs":60000,"cacheScope":"public","contents":[{"uri":"skill://a/SKILL.md","text":"x"}]}`))
	f.Add([]byte(`{"a":"\u0022ttlMs\u0022","ttlMs":[{"x":[]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		out := dropKeys(data, "ttlMs", "cacheScope")
		var in map[string]any
		if json.Unmarshal(data, &in) != nil || in == nil {
			if json.Valid(data) && data[skipSpace(data, 0)] == '{' {
				t.Fatalf("a valid object %q was not read", data)
			}
			return
		}
		var got map[string]any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("dropKeys(%q) = %q: %v", data, out, err)
		}
		delete(in, "ttlMs")
		delete(in, "cacheScope")
		if !reflect.DeepEqual(in, got) {
			t.Fatalf("dropKeys(%q) = %q", data, out)
		}
	})
}

// jsonStringEnd is what scanString finds, said as a regular expression
// (not the byte loop scanString ends with): a quote, then characters other
// than a quote or a backslash and backslashes each with the character
// after it, then a quote. The quote and the backslash are ASCII, never
// part of another character, so matching characters where scanString
// steps over bytes ends at the same quote.
var jsonStringEnd = regexp.MustCompile(`(?s)^"(?:[^"\\]|\\.)*"`)

// scanStringRule is scanString by jsonStringEnd: the index after the
// string at data[i], or errJSON.
func scanStringRule(data []byte, i int) (int, error) {
	if i > len(data) {
		return 0, errJSON
	}
	m := jsonStringEnd.Find(data[i:])
	if m == nil {
		return 0, errJSON
	}
	return i + len(m), nil
}

// scanStringSeeds are strings with and without escapes, cut short, with a
// backslash last, escaped backslashes before a quote, quotes and
// backslashes at every offset of a word, and things that are not strings.
func scanStringSeeds() []string {
	seeds := []string{
		`""`, `"a"`, `"abc" tail`, `"a\"b"`, `"a\\"b"`, `"a\\\"b"`, `"\\"`, `"\"`, `"abc`, `"abc\`, `x"a"`, ``,
		`"` + strings.Repeat("a", 40) + `\"` + strings.Repeat("b", 40) + `"`, `"\u00e9\n\t"`, `"\\\\\\"`,
		`"io.modelcontextprotocol/protocolVersion":"2026-07-28"`,
	}
	for n := range 20 {
		for _, c := range []string{`"`, `\`, `\"`, `\\"`} {
			seeds = append(seeds, `"`+strings.Repeat("x", n)+c+strings.Repeat("y", 9)+`"z`)
		}
	}
	return seeds
}

func TestScanString(t *testing.T) {
	t.Parallel()
	for _, s := range scanStringSeeds() {
		for i := range len(s) + 1 {
			got, gerr := scanString([]byte(s), i)
			want, werr := scanStringRule([]byte(s), i)
			if got != want || (gerr == nil) != (werr == nil) {
				t.Errorf("scanString(%q, %d) = %d, %v; by the rule %d, %v", s, i, got, gerr, want, werr)
			}
		}
	}
}

func FuzzScanString(f *testing.F) {
	for _, s := range scanStringSeeds() {
		f.Add([]byte(s), 0)
	}
	f.Fuzz(func(t *testing.T, data []byte, i int) {
		if i < 0 || i > len(data) {
			return
		}
		got, gerr := scanString(data, i)
		want, werr := scanStringRule(data, i)
		if got != want || (gerr == nil) != (werr == nil) {
			t.Fatalf("scanString(%q, %d) = %d, %v; by the rule %d, %v", data, i, got, gerr, want, werr)
		}
	})
}
