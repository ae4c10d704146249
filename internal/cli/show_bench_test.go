package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillet-go/skillet/internal/benchtree/tree"
)

// BenchmarkShowWarm measures skillet show of one skill over a warm
// persistent index (the index written by a first run), per skill of the
// generated tree: every List over the index stats each folder and skill
// file it covers, so this follows how many times show lists (once; it
// was three times: docs/performance.md#persistent-index).
func BenchmarkShowWarm(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ws := b.TempDir()
			if _, err := tree.Generate(ws, &tree.Options{N: n, Seed: 1}); err != nil {
				b.Fatal(err)
			}
			old := time.Now().Add(-time.Hour)
			var paths []string
			filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error { paths = append(paths, p); return err })
			for i := len(paths) - 1; i >= 0; i-- {
				os.Chtimes(paths[i], old, old)
			}
			b.Setenv("XDG_CACHE_HOME", b.TempDir())
			var out bytes.Buffer
			Run(context.Background(), []string{"list", "--json", "-w", ws, "--no-user", "-q"}, &IO{Out: &out, Err: &out})
			var listed struct{ Skills []struct{ Name string } }
			if err := json.Unmarshal(out.Bytes(), &listed); err != nil || len(listed.Skills) == 0 {
				b.Fatalf("list --json: %v (%d skills)", err, len(listed.Skills))
			}
			// The middle skill: the first in the walk's order would be the
			// cheapest for a layout that checks only what precedes it.
			name := listed.Skills[len(listed.Skills)/2].Name
			show := func() {
				var o, e bytes.Buffer
				if code := Run(context.Background(), []string{"show", name, "-w", ws, "--no-user", "-q"}, &IO{Out: &o, Err: &e}); code != 0 {
					b.Fatalf("show %s: exit %d: %s", name, code, e.String())
				}
			}
			show() // writes the index
			b.ReportAllocs()
			for b.Loop() {
				show()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/skill")
		})
	}
}
