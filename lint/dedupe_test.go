package lint

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillet-go/skillet/skill"
)

// TestDedupeSorted: sorting and then dropping repeats gives what dropping
// repeats (keeping the first) and then sorting stably gives, on random
// findings with many near-repeats.
func TestDedupeSorted(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	pick := func(vals ...string) string { return vals[r.IntN(len(vals))] }
	for range 300 {
		var diags []skill.Diagnostic
		for range r.IntN(40) {
			diags = append(diags, skill.Diagnostic{
				Code: skill.Code(pick("a", "b")), Severity: skill.Severity(pick("error", "warning")),
				Path: pick("/x", "/y"), Line: r.IntN(2), Column: r.IntN(2),
				Message: pick("m", "n"), Skill: pick("", "s"), Related: pick("", "/r"),
			})
		}
		// Before: a map of the keys seen, in input order, then the sort.
		type key struct {
			code                     skill.Code
			sev                      skill.Severity
			path, msg, name, related string
			line, col                int
		}
		seen := map[key]bool{}
		want := slices.DeleteFunc(slices.Clone(diags), func(d skill.Diagnostic) bool {
			k := key{d.Code, d.Severity, d.Path, d.Message, d.Skill, d.Related, d.Line, d.Column}
			defer func() { seen[k] = true }()
			return seen[k]
		})
		skill.SortDiagnostics(want)
		got := slices.Clone(diags)
		skill.SortDiagnostics(got)
		got = dedupeSorted(got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("(-want +got):\n%s", diff)
		}
	}
}
