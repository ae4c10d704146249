package agent

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// closestPlain is closest as it was written first, with a string
// conversion, a split and two rows allocated per comparison: the
// reference TestClosestSameAsPlain holds closest to.
func closestPlain(name string, names []string, n int) []string {
	if len(name) > maxEchoBytes {
		return nil
	}
	q := strings.ToLower(strings.Join(strings.FieldsFunc(name, func(r rune) bool {
		return r == ' ' || r == '_'
	}), "-"))
	qn := utf8.RuneCountInString(q)
	partLimit := max(1, qn/3)
	type cand struct {
		name  string
		score int
	}
	var cands []cand
	for _, nm := range names {
		nn := utf8.RuneCountInString(nm)
		limit := min(max(2, nn/3), max(qn, nn)-1)
		score := -1
		if d := levenshtein(q, nm); d <= limit {
			score = d
		} else if qn >= 3 {
			runes := []rune(nm)
			best := qn
			for l := qn - 1; l <= qn+1; l++ {
				if l > 0 && l <= len(runes) {
					best = min(best, levenshtein(q, string(runes[:l])))
				}
			}
			for _, w := range strings.Split(nm, "-") {
				best = min(best, levenshtein(q, w))
			}
			switch {
			case best <= partLimit:
				score = 100 + best
			case qn >= 4 && strings.Contains(nm, q), len(nm) >= 4 && strings.Contains(q, nm):
				score = 200
			}
		}
		if score >= 0 {
			cands = append(cands, cand{nm, score})
		}
	}
	slices.SortStableFunc(cands, func(a, b cand) int {
		if a.score != b.score {
			return a.score - b.score
		}
		return strings.Compare(a.name, b.name)
	})
	var out []string
	for _, c := range cands[:min(n, len(cands))] {
		out = append(out, c.name)
	}
	return out
}

// TestClosestSameAsPlain holds closest, which reuses its buffers, to
// closestPlain on random names and queries: words of a small pool joined
// by "-", with letters dropped, doubled or changed, non-ASCII letters,
// invalid UTF-8, empty words ("a--b") and spaces and "_" in queries.
func TestClosestSameAsPlain(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 21))
	pool := []string{"release", "notes", "pdf", "go", "a", "ü", "日本", "x\xff", "", "deploy", "review"}
	word := func() string {
		w := []rune(pool[rng.IntN(len(pool))])
		if len(w) > 1 && rng.IntN(3) == 0 {
			i := rng.IntN(len(w))
			switch rng.IntN(3) {
			case 0:
				w = append(w[:i:i], w[i+1:]...)
			case 1:
				w = slices.Insert(w, i, w[i])
			default:
				w[i] = 'q'
			}
		}
		return string(w)
	}
	phrase := func(sep string) string {
		var ws []string
		for range 1 + rng.IntN(3) {
			ws = append(ws, word())
		}
		return strings.Join(ws, sep)
	}
	rounds := 2000
	if testing.Short() {
		rounds = 300
	}
	for range rounds {
		var names []string
		for range rng.IntN(30) {
			names = append(names, phrase("-"))
		}
		q := phrase([]string{"-", " ", "_"}[rng.IntN(3)])
		if want, got := closestPlain(q, names, 3), closest(q, names, 3); !cmp.Equal(want, got) {
			t.Fatalf("closest(%q, %q) = %q, the plain one %q", q, names, got, want)
		}
	}
}
