package lint

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillet-go/skillet/skill"
)

// TestSortFindings: sortFindings gives exactly skill.SortDiagnostics'
// order, ties included (Related numbers each finding, so the order of
// findings equal in the sort key shows), for findings in runs per path as
// a report has them and for findings in any order, handed over in parts
// of any length; sorted on one goroutine and, with parallelSortMin 1, on
// a goroutine a processor.
func TestSortFindings(t *testing.T) {
	for _, min := range []int{parallelSortMin, 1} {
		t.Run(fmt.Sprint("parallel from ", min), func(t *testing.T) {
			defer func(old int) { parallelSortMin = old }(parallelSortMin)
			parallelSortMin = min
			testSortFindings(t)
		})
	}
}

func testSortFindings(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	paths := []string{"/w/a/SKILL.md", "/w/a-b/SKILL.md", "/w/a/b/SKILL.md", "/w/a/link", "/w", "/w/b/SKILL.md", ""}
	codes := []skill.Code{skill.CodeBrokenReference, skill.CodeBodyTooLong, skill.CodeNameMismatch}
	msgs := []string{"m1", "m2", ""}
	for n := range 400 {
		var diags []skill.Diagnostic
		for range r.IntN(60) {
			d := skill.Diagnostic{Path: paths[r.IntN(len(paths))], Line: r.IntN(4), Column: r.IntN(3),
				Code: codes[r.IntN(len(codes))], Message: msgs[r.IntN(len(msgs))]}
			// Runs of one path in line order, as a skill's checks report.
			for k := r.IntN(5); k > 0; k-- {
				diags = append(diags, d)
				d.Line += r.IntN(3)
			}
			diags = append(diags, d)
		}
		if n%2 == 1 {
			r.Shuffle(len(diags), func(i, j int) { diags[i], diags[j] = diags[j], diags[i] })
		}
		for i := range diags {
			diags[i].Related = fmt.Sprint(i)
		}
		want := slices.Clone(diags)
		skill.SortDiagnostics(want)
		// In parts, as Run hands them over.
		var parts [][]skill.Diagnostic
		for rest := slices.Clone(diags); len(rest) > 0; {
			k := r.IntN(len(rest) + 1)
			parts = append(parts, rest[:k])
			rest = rest[k:]
		}
		got := sortFindings(parts)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("case %d: sortFindings differs from skill.SortDiagnostics (-want +got):\n%s", n, diff)
		}
	}
}
