package lint

import (
	"context"
	"io"
	"os"
	"testing"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/benchtree/tree"
)

// BenchmarkWriteJSON writes lint's JSON report of a generated tree of
// 10,000 skills (internal/benchtree, seed 1) the one-pass way (WriteJSON,
// internal/jsonw) and through encoding/json (writeJSONEncoded, the plain
// path TestWriteJSONIsEncodingJSON holds it to), one after the other, to a
// writer that counts the bytes (out-B, the same for both), with time and
// allocations. It is the measurement of docs/ARCHITECTURE.md's row of the
// JSON output:
//
//	go test ./lint -run '^$' -bench WriteJSON -benchtime 20x -count 3
func BenchmarkWriteJSON(b *testing.B) {
	dir := b.TempDir()
	if _, err := tree.Generate(dir, &tree.Options{N: 10000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	if err := os.MkdirAll(dir+"/skills", 0o755); err != nil {
		b.Fatal(err)
	}
	r, err := Run(context.Background(), &Options{Catalog: &catalog.Options{Workspace: dir, NoUser: true, NoConfigFile: true}})
	if err != nil {
		b.Fatal(err)
	}
	for _, w := range []struct {
		name  string
		write func(io.Writer) error
	}{{"jsonw", r.WriteJSON}, {"encoding", r.writeJSONEncoded}} {
		b.Run(w.name, func(b *testing.B) {
			b.ReportAllocs()
			var out countWriter
			for b.Loop() {
				if err := w.write(&out); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(out.n)/float64(b.N), "out-B")
		})
	}
}

// countWriter counts what is written to it.
type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}
