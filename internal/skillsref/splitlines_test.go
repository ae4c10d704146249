package skillsref

import (
	"reflect"
	"testing"
)

// splitLinesRef is splitLines as it was, each line grown rune by rune:
// the reference the one-slice cut is held to.
func splitLinesRef(text string) [][]rune {
	var out [][]rune
	var cur []rune
	for _, r := range text {
		if isBreak(r) {
			out = append(out, cur)
			cur = nil
			continue
		}
		cur = append(cur, r)
	}
	return append(out, cur)
}

var splitLinesCases = []string{
	"", "\n", "\n\n", "a", "a\n", "name: x\ndescription: y\n", "a\r\nb\rc\x85d\u2028e\u2029f",
	"\xff\xfe\n\xc3", "é\n\nü", " \t\n\t ",
}

func TestSplitLines(t *testing.T) {
	for _, c := range splitLinesCases {
		got, want := splitLines(c), splitLinesRef(c)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("splitLines(%q) = %q, want %q", c, got, want)
		}
		for i := range got {
			if len(got[i]) != cap(got[i]) {
				t.Errorf("splitLines(%q): line %d can grow into the next (len %d, cap %d)", c, i, len(got[i]), cap(got[i]))
			}
		}
	}
}

func FuzzSplitLines(f *testing.F) {
	for _, c := range splitLinesCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := splitLines(s), splitLinesRef(s); !reflect.DeepEqual(got, want) {
			t.Fatalf("splitLines(%q) = %q, want %q", s, got, want)
		}
	})
}
