package lint

import (
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/skill"
)

// BenchmarkAfterChecks runs the processors that go through every sorted
// finding (dedupe, select, severity, counts) over findings shaped as those
// of the 10,000 tree of bench/compare.sh (BenchmarkRun/10000): 10,000
// skill files with eleven broken references each, one message a file;
// "plain" has no inline ignore (as that tree), "ignores" one of another
// code in a tenth of the files. It reports
// ns/finding and allocs/finding of those steps alone (the copy of the
// findings each round makes is outside the timer); they ran once per
// finding a copy of each finding onto itself (dedupeSorted) and map
// lookups by path and code (processSelect), which runs of one path and
// code now share.
//
//	go test ./lint -run '^$' -bench AfterChecks -benchmem
func BenchmarkAfterChecks(b *testing.B) {
	const files, per = 10000, 11
	sel, err := newSelection(nil, nil, "")
	if err != nil {
		b.Fatal(err)
	}
	sorted := make([]skill.Diagnostic, 0, files*per)
	var ignores []*fileIgnores
	for i := range files {
		path := fmt.Sprintf("/ws/skills/s-%05d/SKILL.md", i)
		name := fmt.Sprintf("s-%05d", i)
		msg := fmt.Sprintf("the body links to %q, which does not exist in the skill folder", "references/guide.md")
		for k := range per {
			sorted = append(sorted, skill.Diagnostic{Code: diagcode.BrokenReference, Severity: severity(diagcode.BrokenReference),
				Path: path, Line: 10 + 4*k, Column: 17, Message: msg, Skill: name})
		}
		if i%10 == 0 {
			ignores = append(ignores, &fileIgnores{path: path, dir: path[:len(path)-len("/SKILL.md")], skill: name,
				entries: []inlineIgnore{{entry: string(diagcode.BodyTooLong), line: 3, column: 1, codes: []skill.Code{diagcode.BodyTooLong}}}})
		}
	}
	steps := []string{"dedupe", "select", "severity", "counts"}
	var run []processor
	for _, p := range processors {
		if slices.Contains(steps, p.name) {
			run = append(run, p)
		}
	}
	if len(run) != len(steps) {
		b.Fatalf("processors %v: found %d of them", steps, len(run))
	}
	for _, c := range []struct {
		name    string
		ignores []*fileIgnores
	}{{"plain", nil}, {"ignores", ignores}} {
		b.Run(c.name, func(b *testing.B) { benchSteps(b, run, sel, sorted, c.ignores) })
	}
}

// benchSteps runs the processors run over a copy of sorted each round.
func benchSteps(b *testing.B, run []processor, sel *selection, sorted []skill.Diagnostic, ignores []*fileIgnores) {
	diags := make([]skill.Diagnostic, len(sorted))
	var before, after runtime.MemStats
	var mallocs uint64 // of the steps alone, not of each round's setup
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		copy(diags, sorted)
		files := make(map[string]*File, len(sorted)/11)
		for i := range sorted {
			if p := sorted[i].Path; files[p] == nil {
				files[p] = &File{Path: p, Skill: true, Loaded: true, Name: sorted[i].Skill} // as collect makes them
			}
		}
		st := &state{r: &Report{Workspace: "/ws"}, files: files, sel: sel, ignores: ignores, diags: diags}
		runtime.ReadMemStats(&before)
		b.StartTimer()
		for _, p := range run {
			p.process(st)
		}
		b.StopTimer()
		runtime.ReadMemStats(&after)
		mallocs += after.Mallocs - before.Mallocs
		b.StartTimer()
		// Each inline ignore suppresses nothing: one suppression-unused
		// finding for each.
		if want := len(sorted) + len(ignores); len(st.r.Diagnostics) != want {
			b.Fatalf("%d findings after the steps, want %d", len(st.r.Diagnostics), want)
		}
	}
	b.StopTimer()
	n := float64(b.N) * float64(len(sorted))
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/finding")
	b.ReportMetric(float64(mallocs)/n, "allocs/finding")
}
