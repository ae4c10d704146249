package outfmt

import (
	"fmt"
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

func TestNames(t *testing.T) {
	many := make([]string, 343)
	for i := range many {
		many[i] = fmt.Sprintf("s%d", i)
	}
	for _, tt := range []struct {
		names []string
		want  string
	}{
		{nil, ""},
		{[]string{"a"}, "a"},
		{many[:10], "s0, s1, s2, s3, s4, s5, s6, s7, s8, s9"},
		{many[:11], "s0, s1, s2, s3, s4, s5, s6, s7, s8, s9 and 1 more"},
		{many, "s0, s1, s2, s3, s4, s5, s6, s7, s8, s9 and 333 more"},
	} {
		if got := Names(tt.names); got != tt.want {
			t.Errorf("Names(%d names) = %q, want %q", len(tt.names), got, tt.want)
		}
		// A caller that keeps only the first MaxNames names says the same.
		if got := NamesOf(tt.names[:min(len(tt.names), MaxNames)], len(tt.names)); got != tt.want {
			t.Errorf("NamesOf(first of %d names) = %q, want %q", len(tt.names), got, tt.want)
		}
	}
}
