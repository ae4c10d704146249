//go:build unix

package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/internal/hostws"
)

// fakeOracle stands for an agent and a profile that disagree exactly when
// the workspace has git root proj, a file x whose lines include "name: x",
// and a file y with a line starting "description: abcd". It counts the
// workspaces it is asked about.
type fakeOracle struct{ asked int }

const (
	fakeX = "proj/.opencode/skills/x/SKILL.md"
	fakeY = "home/.claude/skills/y/SKILL.md"
)

func (f *fakeOracle) keep(_ context.Context, w *hostws.Workspace) (bool, error) {
	f.asked++
	git := false
	for _, g := range w.Git {
		git = git || g == "proj"
	}
	x, y := false, false
	for _, file := range w.Files {
		for _, l := range strings.Split(string(file.Data), "\n") {
			x = x || (file.Name == fakeX && strings.TrimRight(l, "\r") == "name: x")
			y = y || (file.Name == fakeY && strings.HasPrefix(l, "description: abcd"))
		}
	}
	return git && x && y, nil
}

// fakeWorkspace is a generated workspace with the two files of the
// disagreement added, a symlink, a second git root and a deep working
// folder.
func fakeWorkspace(seed uint64) *hostws.Workspace {
	w := hostws.Generate(seed)
	w.Git = append(w.Git, "proj", "proj/pkg")
	w.Cwd = "proj/pkg/sub"
	w.Symlinks = append(w.Symlinks, hostws.Link{Link: "proj/.claude/skills/l", Target: "/outside"})
	w.Files = append(w.Files,
		hostws.File{Name: fakeX, Data: []byte("---\r\nname: x\r\ndescription: the x skill\r\n---\r\nbody\r\n")},
		hostws.File{Name: fakeY, Data: []byte("---\nname: y\ndescription: abcd " + strings.Repeat("long words ", 8) + "\n---\n\nBody.\n")})
	return w
}

// The shrinker leaves only what the disagreement needs: the two files, x
// with its one line, y with its one line cut short, git root proj, the
// working folder proj, no symlink; the oracle is asked at most the cap.
func TestShrink(t *testing.T) {
	for _, seed := range []uint64{1, 7, 12, 13} { // 12 is a catalog of hundreds of skills
		f := &fakeOracle{}
		s := &shrinker{keep: f.keep, maxRuns: 2000, protect: map[string]bool{fakeX: true}}
		got, done, err := s.shrink(context.Background(), fakeWorkspace(seed))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if !done || f.asked != s.runs || f.asked > 2000 {
			t.Errorf("seed %d: done %v after %d runs (oracle asked %d)", seed, done, s.runs, f.asked)
		}
		if len(got.Files) != 2 || got.Files[0].Name != fakeX || got.Files[1].Name != fakeY {
			var names []string
			for _, file := range got.Files {
				names = append(names, file.Name)
			}
			t.Fatalf("seed %d: files %v, want %s and %s", seed, names, fakeX, fakeY)
		}
		if x := string(got.Files[0].Data); x != "name: x\r\n" {
			t.Errorf("seed %d: x is %q, want its one line", seed, x)
		}
		if y := got.Files[1].Data; !bytes.HasPrefix(y, []byte("description: abcd")) || len(y) > 25 || bytes.Count(y, []byte("\n")) != 1 {
			t.Errorf("seed %d: y is %q, want its description line cut to at most 24 bytes", seed, y)
		}
		if len(got.Git) != 1 || got.Git[0] != "proj" || got.Cwd != "proj" || len(got.Symlinks) != 0 {
			t.Errorf("seed %d: git %v, cwd %s, symlinks %v", seed, got.Git, got.Cwd, got.Symlinks)
		}
		if ok, _ := f.keep(context.Background(), got); !ok {
			t.Errorf("seed %d: the result does not show the disagreement", seed)
		}
	}
}

// With a cap the shrinker stops at it and returns a smaller workspace
// that still shows the disagreement; a workspace that does not show it
// is refused after one run.
func TestShrinkCap(t *testing.T) {
	f := &fakeOracle{}
	w := fakeWorkspace(12)
	s := &shrinker{keep: f.keep, maxRuns: 5}
	got, done, err := s.shrink(context.Background(), w)
	if err != nil || done {
		t.Fatalf("done %v, err %v; want stopped at the cap", done, err)
	}
	if f.asked != 5 || len(got.Files) >= len(w.Files) {
		t.Errorf("asked %d (cap 5), %d files of %d", f.asked, len(got.Files), len(w.Files))
	}
	if ok, _ := f.keep(context.Background(), got); !ok {
		t.Error("the result does not show the disagreement")
	}
	f = &fakeOracle{}
	s = &shrinker{keep: f.keep, maxRuns: 5}
	if _, _, err := s.shrink(context.Background(), hostws.Generate(3)); err == nil || f.asked != 1 {
		t.Errorf("a workspace without the disagreement: err %v after %d runs", err, f.asked)
	}
}

// diffKey keeps the side and the place of a difference, whatever the name
// and description (which shrinking changes), with and without the
// observation of a host that picks one of several copies.
func TestDiffKey(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{`missing (host lists it): "" "Quoted \" at x" at proj/.opencode/skills/a/SKILL.md`, "host proj/.opencode/skills/a/SKILL.md"},
		{`extra (host does not list it): "a" "d" at home/.claude/skills/a/SKILL.md`, "profile home/.claude/skills/a/SKILL.md"},
		{`observation 2: extra (host does not list it): "a" "d" at p/SKILL.md`, "profile p/SKILL.md"},
		{`observation 1: missing (host lists it): "a" "d" at p/SKILL.md`, "host p/SKILL.md"},
		{`missing (host lists it): "a" "d"`, "host "},
		{`observation 1: 0 copies of "a" where the profile allows one of 2`, `copies "a"`},
	} {
		if got := diffKey(tc.line); got != tc.want {
			t.Errorf("diffKey(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
	out := "--- FAIL\n    recordings_test.go:1: opencode × shrink disagrees:\n          missing (host lists it): \"a\" \"d\" at p\n    ok line\n"
	if ds := diffLines(out); len(ds) != 1 || diffKey(ds[0]) != "host p" {
		t.Errorf("diffLines: %q", ds)
	}
}
