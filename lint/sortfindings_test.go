package lint

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/skillet-go/skillet/internal/diagcode"
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
	codes := []skill.Code{diagcode.BrokenReference, diagcode.BodyTooLong, diagcode.NameMismatch}
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
		if diff := quickDiff(want, got); diff != "" {
			t.Fatalf("case %d: sortFindings differs from skill.SortDiagnostics (-want +got):\n%s", n, diff)
		}
	}
}

// TestSortPieces: the report's findings sorted with the candidates' in
// their small form (findings) are those sorted in full (sortFindings of
// every piece written out with appendTo), ties included, on one goroutine
// and on a goroutine a processor; and findings.compact keeps in the small
// form only what it gives back unchanged, the rest (a position past int32,
// another path, a fix, another code or level) in full.
func TestSortPieces(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	paths := []string{"/w/a/SKILL.md", "/w/a-b/SKILL.md", "/w/a/b/SKILL.md", "/w/a/link", "/w", ""}
	sev := severity(diagcode.BrokenReference)
	for _, min := range []int{parallelSortMin, 1} {
		defer func(old int) { parallelSortMin = old }(parallelSortMin)
		parallelSortMin = min
		for n := range 300 {
			var ps []piece
			var parts [][]skill.Diagnostic
			seq := 0
			diag := func(p string) skill.Diagnostic {
				seq++
				d := skill.Diagnostic{Code: diagcode.BrokenReference, Severity: sev, Path: p, Line: r.IntN(4), Column: r.IntN(3),
					Message: fmt.Sprint("m", r.IntN(3)), Skill: "s"}
				switch r.IntN(8) {
				case 0:
					d.Code, d.Severity = diagcode.BodyTooLong, severity(diagcode.BodyTooLong)
				case 1:
					d.Line = math.MaxInt // past what a compact finding holds, where int has 64 bits
				case 2:
					d.Code, d.Severity = diagcode.NameMismatch, skill.SeverityError
				case 3:
					d.Related = fmt.Sprint(seq)
				}
				return d
			}
			for range r.IntN(12) {
				if r.IntN(3) == 0 {
					var part []skill.Diagnostic
					for range r.IntN(6) {
						part = append(part, diag(paths[r.IntN(len(paths))]))
					}
					ps = append(ps, piece{d: part})
					parts = append(parts, slices.Clone(part))
					continue
				}
				p := paths[r.IntN(len(paths))]
				var body []skill.Diagnostic
				for range r.IntN(6) {
					body = append(body, diag(p))
				}
				f := &findings{path: p, skill: "s"}
				if len(body) > 0 {
					f.compact(body)
				}
				if diff := quickDiff(body, f.appendTo(nil), cmpopts.EquateEmpty()); diff != "" {
					t.Fatalf("case %d: compact changed the findings (-want +got):\n%s", n, diff)
				}
				for i := range body {
					if d := body[i]; d.Line != int(int32(d.Line)) || d.Code == diagcode.NameMismatch {
						if len(f.file) > 0 {
							t.Fatalf("case %d: %v kept in the small form", n, d)
						}
					}
				}
				for range r.IntN(3) {
					f.rest = append(f.rest, diag(paths[r.IntN(len(paths))]))
				}
				ps = append(ps, piece{f: f})
				parts = append(parts, f.appendTo(nil))
			}
			want := sortFindings(parts)
			got := sortPieces(ps)
			if diff := quickDiff(want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("case %d (parallel from %d): sortPieces differs from sortFindings (-want +got):\n%s", n, min, diff)
			}
		}
	}
}

// quickDiff is cmp.Diff(want, got, opts...) for the many comparisons of a
// randomized test: values reflect.DeepEqual calls equal are equal under
// cmp too (its options here only loosen the comparison), so only unequal
// ones pay for cmp's walk, which took most of the test's CPU.
func quickDiff(want, got any, opts ...cmp.Option) string {
	if reflect.DeepEqual(want, got) {
		return ""
	}
	return cmp.Diff(want, got, opts...)
}
