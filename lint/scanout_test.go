package lint

import (
	"bytes"
	"context"
	"testing"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/benchtree/tree"
	"github.com/skillet-go/skillet/internal/testcorpus"
)

// TestScannerOutputs: lint's reports over the published corpus and a
// generated tree are byte for byte the same with the scanner (and the
// mayReference shortcut) on and with every body parsed by goldmark
// (goldmarkOnly), in every format.
func TestScannerOutputs(t *testing.T) {
	gen := t.TempDir()
	if _, err := tree.Generate(gen, &tree.Options{N: 100, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		opts *Options
	}{
		{"corpus", &Options{Catalog: &catalog.Options{Workspace: t.TempDir(), NoConfigFile: true, NoUser: true},
			Targets: []string{testcorpus.Dir(t)}}},
		{"generated", &Options{Catalog: &catalog.Options{Workspace: gen, NoConfigFile: true, NoUser: true}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			outputs := func() (string, int) {
				r, err := Run(context.Background(), c.opts)
				if err != nil {
					t.Fatal(err)
				}
				var b bytes.Buffer
				for _, w := range []func() error{
					func() error { return r.WriteJSON(&b) },
					func() error { return r.WriteSARIF(&b, "test") },
					func() error { return r.WriteText(&b, "/") },
					func() error { return r.WriteGitHub(&b, "/") },
				} {
					if err := w(); err != nil {
						t.Fatal(err)
					}
				}
				return b.String(), len(r.Diagnostics)
			}
			got, n := outputs()
			goldmarkOnly = true
			want, _ := outputs()
			goldmarkOnly = false
			if got != want {
				t.Errorf("the reports differ with the scanner on and off")
			}
			if n == 0 {
				t.Errorf("no findings: the comparison shows nothing")
			}
		})
	}
}
