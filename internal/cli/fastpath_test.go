package cli

import (
	"bytes"
	"context"
	"testing"

	"github.com/skillet-go/skillet/internal/benchtree/tree"
	"github.com/skillet-go/skillet/internal/testcorpus"
	"github.com/skillet-go/skillet/internal/yamlx"
)

// TestFastPathOutputs runs list --json, lint --json and prompt over the
// corpus and a generated tree (with broken skills) twice, with skill's
// frontmatter fast path on and with every file decoded by the YAML library,
// and requires byte-identical stdout, stderr and exit codes. -short runs
// only list --json on the corpus (skill's TestFastPathCorpus compares each
// corpus file's frontmatter both ways); go test ./... runs all four there.
//
// It does not run in parallel: yamlx.LibraryOnly turns the fast path off
// for every test of the binary while it is set.
func TestFastPathOutputs(t *testing.T) {
	gen := t.TempDir()
	if _, err := tree.Generate(gen, &tree.Options{N: 120, Seed: 11, BrokenPercent: 10}); err != nil {
		t.Fatal(err)
	}
	type ws struct {
		name string
		args []string
	}
	spaces := []ws{{"generated", []string{"-w", gen, "--no-user"}}}
	if c := testcorpus.Find(); c != "" {
		args := []string{"-w", c, "--no-user"}
		for _, r := range testcorpus.Roots(c) {
			args = append(args, "--root", r)
		}
		spaces = append(spaces, ws{"corpus", args})
	}
	run := func(args []string) (string, string, int) {
		var out, errb bytes.Buffer
		code := Run(context.Background(), args, &IO{Out: &out, Err: &errb})
		return out.String(), errb.String(), code
	}
	for _, w := range spaces {
		cmds := [][]string{{"list", "--json"}, {"lint", "--json"}, {"prompt"}, {"list", "--json", "--strict"}}
		if testing.Short() && w.name == "corpus" {
			cmds = cmds[:1]
		}
		for _, cmd := range cmds {
			args := append(append([]string{}, cmd...), w.args...)
			out1, err1, code1 := run(args)
			yamlx.LibraryOnly.Store(true)
			out2, err2, code2 := run(args)
			yamlx.LibraryOnly.Store(false)
			if out1 != out2 || err1 != err2 || code1 != code2 {
				t.Errorf("%s %v: fast path on and off differ (exit %d vs %d, %d vs %d bytes out, stderr %q vs %q)",
					w.name, cmd, code1, code2, len(out1), len(out2), err1, err2)
			}
			if len(out1) < 100 {
				t.Errorf("%s %v: only %d bytes of output: %q", w.name, cmd, len(out1), out1)
			}
		}
	}
}
