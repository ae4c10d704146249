package skill

import (
	"regexp"
	"testing"
)

// TestSpecName checks the hand-written name rule against the regular
// expression it replaces, ^[a-z0-9]+(-[a-z0-9]+)*$, on edge cases and on
// every string of up to four characters over a small alphabet.
func TestSpecName(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	cases := []string{"", "-", "a", "a-b", "a--b", "-a", "a-", "A", "é", "a_b", "a.b", "pdf-2", "0", "a b"}
	alphabet := []byte{'a', '9', '-', 'Z', '_'}
	var gen func(prefix []byte, n int)
	gen = func(prefix []byte, n int) {
		cases = append(cases, string(prefix))
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			gen(append(prefix, c), n-1)
		}
	}
	gen(nil, 4)
	for _, s := range cases {
		if got, want := specName(s), re.MatchString(s); got != want {
			t.Errorf("specName(%q) = %v, the regular expression says %v", s, got, want)
		}
	}
}
