//go:build unix

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/skillet-go/skillet/internal/hostws"
	"github.com/skillet-go/skillet/internal/testcorpus"
)

// Every workspace parses and names what it shows; those with symlinks lay
// out with every link resolving (the others are laid out by the comparison
// test of the host profiles, so they are not written twice).
func TestWorkspaces(t *testing.T) {
	ws, err := hostws.LoadDir("../testdata/workspaces")
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) < 20 {
		t.Fatalf("%d workspaces, want at least 20", len(ws))
	}
	corpus := testcorpus.Find()
	for _, w := range ws {
		t.Run(w.Name, func(t *testing.T) {
			if w.Describe == "" {
				t.Error("no describe: line")
			}
			if len(w.Symlinks) == 0 {
				return
			}
			if len(w.Corpus) > 0 && corpus == "" {
				t.Skip("corpus not found")
			}
			sb, err := w.Materialize(t.TempDir(), &hostws.Options{CorpusDir: corpus})
			if err != nil {
				t.Fatal(err)
			}
			if fi, err := os.Stat(sb.Cwd); err != nil || !fi.IsDir() {
				t.Errorf("cwd %s: %v", w.Cwd, err)
			}
			for _, l := range w.Symlinks {
				if _, err := os.Stat(filepath.Join(sb.Root, filepath.FromSlash(l.Link))); err != nil {
					t.Errorf("symlink %s does not resolve: %v", l.Link, err)
				}
			}
		})
	}
}

// Every recording reads back, names a workspace that exists and is meant
// for its host, and ran at least 3 times.
func TestRecordingsMatchWorkspaces(t *testing.T) {
	ws, err := hostws.LoadDir("../testdata/workspaces")
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*hostws.Workspace{}
	for _, w := range ws {
		byName[w.Name] = w
	}
	rs, err := hostws.LoadRecordings("../testdata/recordings")
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) == 0 {
		t.Fatal("no recordings")
	}
	for _, r := range rs {
		w := byName[r.Workspace]
		switch {
		case w == nil:
			t.Errorf("%s/%s: no such workspace", r.Host, r.Workspace)
		case !w.ForHost(r.Host):
			t.Errorf("%s/%s: the workspace is not for this host", r.Host, r.Workspace)
		case hostByName(r.Host) == nil:
			t.Errorf("%s/%s: unknown host", r.Host, r.Workspace)
		case r.Runs < 3:
			t.Errorf("%s/%s: %d runs, want at least 3", r.Host, r.Workspace, r.Runs)
		}
	}
}
