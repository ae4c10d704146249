package lint

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/benchtree/tree"
	"github.com/skillet-go/skillet/internal/testcorpus"
)

// BenchmarkRun lints a generated tree (internal/benchtree, seed 1) as
// skillet lint --json does: Run, then the JSON report, and reports the
// time, allocations and bytes allocated per skill (allocs/skill, B/skill:
// what the checks' reused memory, such as runScratch's folder view, keeps
// down). The tree is written once per size into a temporary folder.
//
//	go test ./lint -run '^$' -bench Run/10000 -benchtime 3x -cpuprofile /tmp/cpu.out
func BenchmarkRun(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dir := b.TempDir()
			if _, err := tree.Generate(dir, &tree.Options{N: n, Seed: 1}); err != nil {
				b.Fatal(err)
			}
			if err := os.MkdirAll(dir+"/skills", 0o755); err != nil {
				b.Fatal(err)
			}
			opts := &Options{Catalog: &catalog.Options{Workspace: dir, NoUser: true, NoConfigFile: true}}
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			b.ResetTimer()
			for b.Loop() {
				r, err := Run(context.Background(), opts)
				if err != nil {
					b.Fatal(err)
				}
				if err := r.WriteJSON(io.Discard); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			runtime.ReadMemStats(&after)
			per := float64(b.N) * float64(n)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/per, "ns/skill")
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/per, "allocs/skill")
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/per, "B/skill")
		})
	}
}

// BenchmarkCompat lints the published corpus and the community sample
// ($SKILLET_CORPUS and the corpus-community folder beside it, as targets)
// without and with the compatibility report, as skillet lint --json
// [--compat] CORPUS CORPUS-COMMUNITY does; --compat's cost is the second
// over the first (docs/performance.md#closer-to-the-limit-measured-5-december);
// allocs/file and B/file are per skill file reported. The host listings'
// reads of the files lint's listing read are guarded by
// BenchmarkHostSearchGiven (package catalog: reads/file).
//
//	go test ./lint -run '^$' -bench Compat -benchtime 5x -cpuprofile /tmp/cpu.out
func BenchmarkCompat(b *testing.B) {
	corpus := testcorpus.Dir(b)
	targets := []string{corpus}
	if community := filepath.Join(filepath.Dir(corpus), "corpus-community"); dirExists(community) {
		targets = append(targets, community)
	}
	for _, compat := range []bool{false, true} {
		name := map[bool]string{false: "plain", true: "compat"}[compat]
		b.Run(name, func(b *testing.B) {
			opts := &Options{
				Catalog: &catalog.Options{Workspace: b.TempDir(), NoUser: true, NoConfigFile: true},
				Targets: targets,
				Compat:  compat,
			}
			files := 0
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for b.Loop() {
				r, err := Run(context.Background(), opts)
				if err != nil {
					b.Fatal(err)
				}
				files = len(r.Files)
			}
			runtime.ReadMemStats(&after)
			per := float64(b.N) * float64(max(files, 1))
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/per, "ns/file")
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/per, "allocs/file")
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/per, "B/file")
		})
	}
}

func dirExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// BenchmarkWalkBundle walks every skill folder of a generated tree of
// 1,000 skills (internal/benchtree, seed 1) as the checks of one skill
// file do (walkBundle with a folder view), and reports the allocations
// and bytes of a walk (allocs/op and B/op divided by the folders:
// allocs/skill, B/skill).
//
//	go test ./lint -run '^$' -bench WalkBundle
func BenchmarkWalkBundle(b *testing.B) {
	dir := b.TempDir()
	if _, err := tree.Generate(dir, &tree.Options{N: 1000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	ents, err := os.ReadDir(filepath.Join(dir, "skills"))
	if err != nil {
		b.Fatal(err)
	}
	var subs []*subject
	for _, e := range ents {
		if e.IsDir() {
			base := filepath.Join(dir, "skills", e.Name())
			subs = append(subs, &subject{location: filepath.Join(base, "SKILL.md"), baseDir: base, name: e.Name()})
		}
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for b.Loop() {
		for _, s := range subs {
			var view folderView
			walkBundle(s, &view)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	n := float64(b.N) * float64(len(subs))
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/n, "allocs/skill")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/n, "B/skill")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/skill")
}
