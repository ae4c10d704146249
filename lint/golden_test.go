package lint

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/benchtree/tree"
	"github.com/skillet-go/skillet/internal/testcorpus"
)

var update = flag.Bool("update", false, "rewrite the golden reports under testdata/reports")

// TestReportGoldens: lint's report over the published corpus and over a
// generated tree (internal/benchtree, seed 7, a quarter of its skills broken: broken references, body
// limits, bundled files, broken skills of every kind) is, in every format,
// byte for byte the golden under testdata/reports, with the folder linted
// written as $DIR (and the corpus run's workspace as $WORKSPACE). For the
// generated tree the checks run as the listing reads each file, and again
// with every early result refused, so that they run after the listing on
// bodies read again: the same bytes. Work on lint's speed must not change one byte of what
// it prints; a deliberate change of a report is made with -update and
// reviewed in the diff.
func TestReportGoldens(t *testing.T) {
	gen := t.TempDir()
	if _, err := tree.Generate(gen, &tree.Options{N: 40, Seed: 7, BrokenPercent: 25}); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(gen, "skills"), 0o755); err != nil {
		t.Fatal(err)
	}
	corpus := testcorpus.Dir(t)
	// Every rule, those off by default too: the goldens hold each report's
	// form for every code.
	all := &Rules{Select: []string{"all"}}
	genOpts := &Options{Catalog: &catalog.Options{Workspace: gen, NoConfigFile: true, NoUser: true}, Rules: all}
	for _, c := range []struct {
		name, golden, dir string
		opts              *Options
		// early is how the checks must run: as the listing reads each
		// file (with no targets, or with targets outside the workspace,
		// which a second listing reads), or after it; mismatch makes Run take
		// every early result for another file's (earlyMismatch), so the
		// checks run again after the listing on bodies read again.
		early, mismatch bool
	}{
		{"corpus", "corpus", corpus, &Options{Catalog: &catalog.Options{Workspace: t.TempDir(), NoConfigFile: true, NoUser: true},
			Targets: []string{corpus}, Rules: all}, true, false},
		{"generated", "generated", gen, genOpts, true, false},
		{"generated-reread", "generated", gen, genOpts, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			runs := map[bool]int{}
			onChecks = func(_ string, early bool) { mu.Lock(); runs[early]++; mu.Unlock() }
			earlyMismatch = c.mismatch
			r, err := Run(context.Background(), c.opts)
			onChecks, earlyMismatch = nil, false
			if err != nil {
				t.Fatal(err)
			}
			wantEarly, wantAfter := 0, runs[false]
			switch {
			case c.early && c.mismatch:
				wantEarly, wantAfter = runs[true], runs[true] // every file twice
			case c.early:
				wantEarly, wantAfter = runs[true], 0
			}
			if runs[true]+runs[false] == 0 || runs[true] != wantEarly || runs[false] != wantAfter {
				t.Errorf("checks ran early %d times and after the listing %d times, want %d and %d", runs[true], runs[false], wantEarly, wantAfter)
			}
			if len(r.Diagnostics) == 0 {
				t.Fatal("no findings: the goldens would show nothing")
			}
			for _, f := range []struct {
				ext   string
				write func(*bytes.Buffer) error
			}{
				{"json", func(b *bytes.Buffer) error { return r.WriteJSON(b) }},
				{"sarif", func(b *bytes.Buffer) error { return r.WriteSARIF(b, "test") }},
				{"txt", func(b *bytes.Buffer) error { return r.WriteText(b, c.dir) }},
				{"github", func(b *bytes.Buffer) error { return r.WriteGitHub(b, c.dir) }},
			} {
				var b bytes.Buffer
				if err := f.write(&b); err != nil {
					t.Fatal(err)
				}
				got := strings.ReplaceAll(b.String(), filepath.ToSlash(c.dir), "$DIR")
				if r.Workspace != c.dir {
					got = strings.ReplaceAll(got, filepath.ToSlash(r.Workspace), "$WORKSPACE")
				}
				golden := filepath.Join("testdata", "reports", c.golden+"."+f.ext)
				if *update && c.golden == c.name {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if *update {
					continue
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test ./lint -run TestReportGoldens -update)", err)
				}
				if got != string(want) {
					t.Errorf("%s differs from %s: %s", f.ext, golden, firstDiff(got, string(want)))
				}
			}
		})
	}
}

// firstDiff describes the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return "line " + strconv.Itoa(i+1) + ":\n  got  " + g[i] + "\n  want " + w[i]
		}
	}
	return "got " + strconv.Itoa(len(g)) + " lines, want " + strconv.Itoa(len(w))
}
