package yamlx

import (
	"errors"
	"testing"
)

func TestScalarTyping(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want any
	}{
		{"v: 1.10", 1.1},
		{"v: 017", int64(17)},
		{"v: 0x1F", int64(31)},
		{"v: 0o17", int64(15)},
		{"v: -3", int64(-3)},
		{"v: 1e3", 1000.0},
		{"v: yes", "yes"},
		{"v: no", "no"},
		{"v: True", true},
		{"v: ~", nil},
		{"v:", nil},
		{"v: 2001-12-14", "2001-12-14"},
		{"v: .inf", ".inf"},
		{"v: 1_000", "1_000"},
		{`v: "1.10"`, "1.10"},
		{"v: '42'", "42"},
		{"v: !!str 42", "42"},
		{"v: |\n  42\n", "42\n"},
		{"v: 99999999999999999999", "99999999999999999999"},
	} {
		root, err := Parse([]byte(tt.src))
		if err != nil {
			t.Fatalf("%q: %v", tt.src, err)
		}
		if got := Scalar(root.Content[1]); got != tt.want {
			t.Errorf("%q: got %#v, want %#v", tt.src, got, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tt := range []struct {
		src        string
		line, col  int
		mappingVal bool
	}{
		{"name: x\ndescription: Use when: X\n", 2, 22, true},
		{"k: \"open\n", 2, 1, false},
		{"a: 1\n---\nb: 2\n", 0, 0, false},
	} {
		_, err := Parse([]byte(tt.src))
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("%q: error %v is not a *SyntaxError", tt.src, err)
		}
		if tt.line > 0 && (se.Line != tt.line || se.Column != tt.col) {
			t.Errorf("%q: at %d:%d, want %d:%d", tt.src, se.Line, se.Column, tt.line, tt.col)
		}
		if se.MappingValueError() != tt.mappingVal {
			t.Errorf("%q: MappingValueError %v", tt.src, se.MappingValueError())
		}
	}
}

func TestParseEmpty(t *testing.T) {
	for _, src := range []string{"", "  \n", "# only a comment\n"} {
		n, err := Parse([]byte(src))
		if n != nil || err != nil {
			t.Errorf("%q: got %v, %v; want nil, nil", src, n, err)
		}
	}
}
