package agent

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// closestRank is where closest's doc comment ranks a name: by rank (1 to
// 3), then distance, then name. near says it is near at all.
type closestRank struct {
	near       bool
	rank, dist int
}

// queryRuns are the runs of spaces and "_" a query's words are split at.
var queryRuns = regexp.MustCompile(`[ _]+`)

// rankByRule ranks name nm for query q (made as closest's doc says) by
// the rule of the doc comment, every distance whole (levenshtein) and
// every start of the name tried.
func rankByRule(q, nm string) closestRank {
	qn, c := len([]rune(q)), len([]rune(nm))
	if d := levenshtein(q, nm); d <= max(2, c/3) && d < max(qn, c) {
		return closestRank{true, 1, d}
	}
	if qn >= 3 {
		best := -1
		keep := func(d int) {
			if best < 0 || d < best {
				best = d
			}
		}
		rs := []rune(nm)
		for l := 1; l <= c; l++ {
			if l >= qn-1 && l <= qn+1 {
				keep(levenshtein(q, string(rs[:l])))
			}
		}
		for _, w := range strings.Split(nm, "-") {
			keep(levenshtein(q, w))
		}
		if best >= 0 && best <= qn/3 {
			return closestRank{true, 2, best}
		}
	}
	if qn >= 4 && strings.Contains(nm, q) || c >= 4 && strings.Contains(q, nm) {
		return closestRank{true, 3, 0}
	}
	return closestRank{}
}

// closestByRule is closest as its doc comment states it, another way
// than closest computes it: each name's (rank, distance, name) by brute
// force (rankByRule), the near ones sorted by that tuple, the first n kept.
func closestByRule(name string, names []string, n int) []string {
	if len(name) > maxEchoBytes {
		return nil
	}
	q := strings.Trim(name, " _")
	q = strings.ToLower(queryRuns.ReplaceAllString(q, "-"))
	type ranked struct {
		closestRank
		name string
	}
	var near []ranked
	for _, nm := range names {
		if r := rankByRule(q, nm); r.near {
			near = append(near, ranked{r, nm})
		}
	}
	sort.SliceStable(near, func(i, j int) bool {
		a, b := near[i], near[j]
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		if a.dist != b.dist {
			return a.dist < b.dist
		}
		return a.name < b.name
	})
	var out []string
	for i := 0; i < n && i < len(near); i++ {
		out = append(out, near[i].name)
	}
	return out
}

// TestClosestByRule holds closest to closestByRule, its doc comment's
// rule, on random names and queries: words of a small pool joined by "-",
// with letters dropped, doubled or changed, upper case, non-ASCII letters,
// invalid UTF-8, empty words ("a--b"), spaces and "_" in queries (at their
// ends too), pieces of names, words past the 64 code points closest's bit vectors hold, and
// queries about maxEchoBytes long; many names tie. It checks that each
// rank was seen, so that the inputs reach every rule.
func TestClosestByRule(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 21))
	pool := []string{"release", "notes", "pdf", "go", "a", "ü", "日本", "x\xff", "", "deploy", "review", "Notes", "GO"}
	word := func() string {
		if rng.IntN(40) == 0 {
			return strings.Repeat(pool[rng.IntN(len(pool))], 1+rng.IntN(40))
		}
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
	ends := []string{"", "", "", " ", "_", " _", "-"}
	rounds := 2000
	if testing.Short() {
		rounds = 1000
	}
	seen := map[int]int{}
	for range rounds {
		var names []string
		for range rng.IntN(30) {
			names = append(names, phrase("-"))
		}
		q := phrase([]string{"-", " ", "_", "__", " - "}[rng.IntN(5)])
		if len(names) > 0 && rng.IntN(4) == 0 {
			// A piece of a name, as typed from memory.
			nm := names[rng.IntN(len(names))]
			i := rng.IntN(len(nm) + 1)
			q = nm[i : i+rng.IntN(len(nm)-i+1)]
		}
		q = ends[rng.IntN(len(ends))] + q + ends[rng.IntN(len(ends))]
		if rng.IntN(50) == 0 {
			q = strings.Repeat("a", maxEchoBytes-1+rng.IntN(3))
			names = append(names, q[:len(q)-1])
		}
		n := rng.IntN(5)
		want, got := closestByRule(q, names, n), closest(q, names, n)
		if !slices.Equal(want, got) || (want == nil) != (got == nil) {
			t.Fatalf("closest(%q, %q, %d) = %q, the rule %q", q, names, n, got, want)
		}
		lq := strings.ToLower(queryRuns.ReplaceAllString(strings.Trim(q, " _"), "-"))
		for _, nm := range want {
			seen[rankByRule(lq, nm).rank]++
		}
	}
	for rank := 1; rank <= 3; rank++ {
		if seen[rank] < 5 {
			t.Errorf("rank %d given %d times in all: the inputs barely reach its rule", rank, seen[rank])
		}
	}
}
