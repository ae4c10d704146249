package skillsref

import (
	"reflect"
	"regexp"
	"testing"
)

// ruamelBreaks are the characters ruamel's reader counts a new line at
// (ruamel.yaml reader.py, Reader.forward: "\n", "\x85", "\u2028",
// "\u2029", and "\r"), written out here, not taken from isBreak.
var ruamelBreaks = regexp.MustCompile("[\n\r\u0085\u2028\u2029]")

// splitLinesRef is what splitLines' doc comment says, another way than it
// cuts them: the text split at every break (regexp.Split), each piece's
// code points (an invalid byte one U+FFFD), an empty line nil.
func splitLinesRef(text string) [][]rune {
	var out [][]rune
	for _, piece := range ruamelBreaks.Split(text, -1) {
		var line []rune
		if piece != "" {
			line = []rune(piece)
		}
		out = append(out, line)
	}
	return out
}

var splitLinesCases = []string{
	"", "\n", "\n\n", "a", "a\n", "name: x\ndescription: y\n", "a\r\nb\rc\x85d\u2028e\u2029f",
	"\xff\xfe\n\xc3", "é\n\nü", " \t\n\t ", "\xe2\x80\n\xa8", "\xc2\u2029\x85", "\v\f\x1c\x1d\x1e",
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
