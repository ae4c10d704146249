package lint

import (
	"context"
	"fmt"
	"io"
	"os"
	"testing"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/benchtree/tree"
)

// BenchmarkRun lints a generated tree (internal/benchtree, seed 1) as
// skillet lint --json does: Run, then the JSON report. The tree is written
// once per size into a temporary folder.
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
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/skill")
		})
	}
}
