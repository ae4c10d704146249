package catalog

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/skillet-go/skillet/internal/benchcpu"
	"github.com/skillet-go/skillet/skill"
)

// TestDiagPackIsTheSlice: what a diagPack gives back is, in order, every
// diagnostic added to it, field for field: empty and long texts, negative
// and large numbers, codes and severities new and met before, fixes (kept
// whole), and enough of them to fill several blocks.
func TestDiagPackIsTheSlice(t *testing.T) {
	t.Parallel()
	fixed := skill.Diagnostic{Code: "with-fix", Severity: skill.SeverityError, Path: "/r/a/SKILL.md", Message: "m",
		Fixes: []skill.SuggestedFix{{Message: "quote it"}}}
	tests := []struct {
		name  string
		diags []skill.Diagnostic
	}{
		{"none", nil},
		{"one, every text empty", []skill.Diagnostic{{}}},
		{"every field", []skill.Diagnostic{{Code: "description-long", Severity: skill.SeverityWarning, Path: "/r/a/SKILL.md",
			Line: 3, Column: 14, Message: "the description is long", Skill: "a", Related: "/r/b/SKILL.md"}}},
		{"negative and large numbers", []skill.Diagnostic{{Code: "c", Line: -1, Column: math.MaxInt}}},
		{"a fix between two", []skill.Diagnostic{{Code: "a", Path: "p"}, fixed, {Code: "b", Path: "q"}}},
		{"a text longer than a block", []skill.Diagnostic{{Code: "a"}, {Code: "b", Message: strings.Repeat("x", diagBlock+1)}, {Code: "a", Skill: "s"}}},
		{"many blocks", randomDiags(rand.New(rand.NewPCG(1, 2)), 5000, fixed)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p diagPack
			for _, d := range tt.diags {
				p.add(d)
			}
			head := []skill.Diagnostic{{Code: "before"}}
			got := p.appendTo(head, 3)
			want := append([]skill.Diagnostic{{Code: "before"}}, tt.diags...)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("appendTo (-want +got):\n%s", diff)
			}
			if len(tt.diags) > 0 && cap(got)-len(got) < 3 {
				t.Errorf("room after: %d, want at least 3", cap(got)-len(got))
			}
		})
	}
}

// TestDiagPackEmptyIsNil: an Each without diagnostics gives nil, as List
// does.
func TestDiagPackEmptyIsNil(t *testing.T) {
	t.Parallel()
	var p diagPack
	if got := p.appendTo(nil, 3); got != nil {
		t.Errorf("appendTo(nil) of no diagnostics = %#v, want nil", got)
	}
}

// randomDiags returns n diagnostics of random texts, numbers and kinds,
// now and then fixed.
func randomDiags(r *rand.Rand, n int, fixed skill.Diagnostic) []skill.Diagnostic {
	text := func() string { return strings.Repeat(string(rune('a'+r.IntN(26))), r.IntN(200)) }
	out := make([]skill.Diagnostic, n)
	for i := range out {
		if r.IntN(50) == 0 {
			out[i] = fixed
			continue
		}
		out[i] = skill.Diagnostic{Code: skill.Code([]string{"a", "b", "c", "description-long"}[r.IntN(4)]),
			Severity: []skill.Severity{skill.SeverityError, skill.SeverityWarning}[r.IntN(2)],
			Path:     text(), Line: r.IntN(1000) - 1, Column: r.IntN(100), Message: text(), Skill: text(), Related: text()}
	}
	return out
}

// BenchmarkDiagPack holds the diagnostics of a listing of a generated
// tree of 10,000 skills (internal/benchtree, seed 1: 3% broken) until the
// listing's end and gives them back in one slice, as Each does: "slice" is
// the plain path (each name cloned, a slice grown by doubling, copied into
// the listing's), "pack" the diagPack. held-B is what is kept until the
// end: the slice's capacity and the texts it keeps alive (the clones,
// the paths and messages), or the blocks and kinds.
// cpu-ns/op is the process's CPU time an operation (internal/benchcpu).
//
// Six runs alternate the paths (-count would run each path its runs in a
// row):
//
//	for i in 1 2 3 4 5 6; do go test ./catalog -run '^$' -bench DiagPack -benchmem; done
func BenchmarkDiagPack(b *testing.B) {
	ws := benchTree(b, 10000)
	l, err := newBenchCatalog(b, ws).List(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	in := l.Diagnostics
	b.Run("slice", func(b *testing.B) {
		b.ReportAllocs()
		var held int
		cpu := benchcpu.Now()
		for b.Loop() {
			var kept []skill.Diagnostic
			held = 0
			for _, d := range in {
				if d.Skill != "" {
					d.Skill = strings.Clone(d.Skill)
				}
				held += len(d.Skill) + len(d.Path) + len(d.Message) + len(d.Related)
				kept = append(kept, d)
			}
			held += cap(kept) * int(unsafe.Sizeof(skill.Diagnostic{}))
			out := append([]skill.Diagnostic(nil), kept...)
			sinkDiags = out
		}
		benchcpu.Report(b, cpu)
		b.ReportMetric(float64(held), "held-B")
		b.ReportMetric(float64(len(in)), "diags")
	})
	b.Run("pack", func(b *testing.B) {
		b.ReportAllocs()
		var held int
		cpu := benchcpu.Now()
		for b.Loop() {
			var p diagPack
			for _, d := range in {
				p.add(d)
			}
			held = 0
			for _, blk := range p.blocks {
				held += cap(blk)
			}
			held += cap(p.kinds)*int(unsafe.Sizeof(diagKind{})) + cap(p.whole)*int(unsafe.Sizeof(skill.Diagnostic{}))
			sinkDiags = p.appendTo(nil, 8)
		}
		benchcpu.Report(b, cpu)
		b.ReportMetric(float64(held), "held-B")
		b.ReportMetric(float64(len(in)), "diags")
	})
}

// sinkDiags keeps a benchmark's result alive.
var sinkDiags []skill.Diagnostic
