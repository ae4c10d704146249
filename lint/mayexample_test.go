package lint

import "testing"

// TestMayExample holds the prefilter to the expressions it guards: wherever
// exampleMarker, introMarker or templateMarker match, the prefilter says
// they may.
func TestMayExample(t *testing.T) {
	for _, s := range []string{
		"e.g. scripts/run.sh", "E.G. this", "see e. g. that", "e.\tg. tab", "e.\fg. form feed",
		"For example, references/x.md", "for instance a/b", "FOR INSTANCE", "such as this", "SUCH AS",
		"Examples:", "example :", "Example", "ſuch as (long s)", "for inſtance", "[Description] a/b", "x [Component name]", "[a] [B]", "[",
		"plain text", "see the file.", "use e.x", "forexample", "e.", "",
	} {
		b := []byte(s)
		if (exampleMarker().MatchString(s) || introMarker().MatchString(s)) && !mayExample(b) {
			t.Errorf("%q: an example marker matches, but mayExample says no", s)
		}
		if templateMarker().Match(b) && !mayTemplate(b) {
			t.Errorf("%q: templateMarker matches, but mayTemplate says no", s)
		}
	}
	for _, s := range []string{"plain text", "see the file.", "use e.x"} {
		if mayExample([]byte(s)) {
			t.Errorf("%q: mayExample says yes to a text without any marker", s)
		}
	}
}

// FuzzMayExample checks the same on any input.
func FuzzMayExample(f *testing.F) {
	for _, s := range []string{"e.g.", "for instance", "such as", "Example:", "ſuch as", "e.\fg."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if (exampleMarker().MatchString(s) || introMarker().MatchString(s)) && !mayExample([]byte(s)) {
			t.Errorf("%q: an example marker matches, but mayExample says no", s)
		}
		if templateMarker().MatchString(s) && !mayTemplate([]byte(s)) {
			t.Errorf("%q: templateMarker matches, but mayTemplate says no", s)
		}
	})
}
