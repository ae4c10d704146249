package outfmt

import (
	"strings"
	"testing"
)

func TestJSON(t *testing.T) {
	var b strings.Builder
	if err := JSON(&b, map[string]any{"a": "<x> & y", "b": []int{1}}); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"a\": \"<x> & y\",\n  \"b\": [\n    1\n  ]\n}\n"
	if b.String() != want {
		t.Errorf("JSON = %q, want %q", b.String(), want)
	}
	if err := JSON(&b, func() {}); err == nil {
		t.Error("JSON of a func: no error")
	}
}

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{Count(0, "skill"), "0 skills"},
		{Count(1, "skill"), "1 skill"},
		{Count(12, "skill file"), "12 skill files"},
		{Count(-1, "byte"), "-1 bytes"},
		{CountOf(1, "entry", "entries"), "1 entry"},
		{CountOf(3, "entry", "entries"), "3 entries"},
	} {
		if tc.got != tc.want {
			t.Errorf("%q, want %q", tc.got, tc.want)
		}
	}
}
