package catalog

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/profile"
)

// rootTree is a random folder tree TestProjectRootsByWalk builds, and
// what it put where: the model the expected roots are read from, not the
// file system.
type rootTree struct {
	top, real string // the tree's folder; its path with symlinks resolved
	outside   string // a folder outside the tree, where escaping links lead
	// levels are top (0) and the folders of the chain below it (1..k):
	// each one's path below top, its .git and its project roots.
	levels []rootLevel
	// ws is the workspace as given (through link when linkAt > 0: the
	// folder top/link is levels[linkAt], so levels 1..linkAt-1 are no
	// parents of it).
	ws     string
	linkAt int
}

// rootLevel is one folder of a rootTree's chain.
type rootLevel struct {
	rel string // below top, "/"-separated ("" for top)
	// git is what its .git is: "" none, "dir" a folder, "dirlink" a
	// symlink to a folder, "file" a .git file naming a gitdir that
	// exists, "broken" one naming none.
	git string
	// roots is each project root's kind: "" missing, "dir" a folder, "in"
	// a symlink to a folder inside this level's folder (outside the
	// chain below it), "out" a symlink to a folder outside the tree,
	// "gone" a dangling symlink.
	roots map[string]string
}

// rootLabels are the project roots of the profiles the test makes: names
// no folder above the test's temporary folder holds.
var rootLabels = []string{".skt-a/skills", "skt-b"}

// newRootTree builds a random tree in a new temporary folder: 1 to 6
// folders below top (non-ASCII names among them), each with a .git of a
// random kind or none and each project root of a random kind, and
// sometimes the workspace reached through a symlinked folder.
func newRootTree(t *testing.T, rng *rand.Rand) *rootTree {
	tr := &rootTree{top: t.TempDir(), outside: t.TempDir()}
	var err error
	if tr.real, err = filepath.EvalSymlinks(tr.top); err != nil {
		t.Fatal(err)
	}
	k := 1 + rng.IntN(6)
	rel := ""
	for i := 0; i <= k; i++ {
		if i > 0 {
			rel = strings.TrimPrefix(rel+"/"+[]string{"d", "ü", "src", "x y"}[rng.IntN(4)]+fmt.Sprint(i), "/")
		}
		lv := rootLevel{rel: rel, roots: map[string]string{}}
		if rng.IntN(3) == 0 {
			lv.git = []string{"dir", "dirlink", "file", "broken"}[rng.IntN(4)]
		}
		for _, l := range rootLabels {
			lv.roots[l] = []string{"", "", "dir", "in", "out", "gone"}[rng.IntN(6)]
		}
		tr.levels = append(tr.levels, lv)
	}
	for i, lv := range tr.levels {
		tr.build(t, i, lv)
	}
	tr.ws = filepath.Join(tr.top, filepath.FromSlash(tr.levels[k].rel))
	if k >= 2 && rng.IntN(3) == 0 {
		tr.linkAt = 1 + rng.IntN(k-1)
		mustDo(t, os.Symlink(tr.path(tr.linkAt), filepath.Join(tr.top, "link")))
		below, _ := strings.CutPrefix(tr.levels[k].rel, tr.levels[tr.linkAt].rel+"/")
		tr.ws = filepath.Join(tr.top, "link", filepath.FromSlash(below))
	}
	return tr
}

// build makes level i's folder, its .git and its project roots.
func (tr *rootTree) build(t *testing.T, i int, lv rootLevel) {
	dir := tr.path(i)
	mustDo(t, os.MkdirAll(dir, 0o755))
	dotgit := filepath.Join(dir, ".git")
	switch lv.git {
	case "dir":
		mustDo(t, os.Mkdir(dotgit, 0o755))
	case "dirlink":
		target := filepath.Join(tr.outside, fmt.Sprintf("git%d", i))
		mustDo(t, os.Mkdir(target, 0o755))
		mustDo(t, os.Symlink(target, dotgit))
	case "file":
		gd := filepath.Join(tr.outside, fmt.Sprintf("gitdir%d", i))
		mustDo(t, os.Mkdir(gd, 0o755))
		if i%2 == 0 { // relative to the .git file's folder, or absolute
			gd, _ = filepath.Rel(dir, gd)
		}
		mustDo(t, os.WriteFile(dotgit, []byte("gitdir: "+gd+"\n"), 0o644))
	case "broken":
		mustDo(t, os.WriteFile(dotgit, []byte("gitdir: ../no-such-gitdir\n"), 0o644))
	}
	for j, l := range rootLabels {
		p := filepath.Join(dir, filepath.FromSlash(l))
		mustDo(t, os.MkdirAll(filepath.Dir(p), 0o755))
		var target string
		switch lv.roots[l] {
		case "dir":
			mustDo(t, os.Mkdir(p, 0o755))
		case "in":
			target = filepath.Join(dir, fmt.Sprintf("in%d", j))
		case "out":
			target = filepath.Join(tr.outside, fmt.Sprintf("out%d-%d", i, j))
		case "gone":
			mustDo(t, os.Symlink(fmt.Sprintf("gone%d", j), p))
		}
		if target != "" {
			mustDo(t, os.Mkdir(target, 0o755))
			mustDo(t, os.Symlink(target, p))
		}
	}
}

// path is level i's folder below top.
func (tr *rootTree) path(i int) string {
	return filepath.Join(tr.top, filepath.FromSlash(tr.levels[i].rel))
}

// parents are the workspace as written and the parents of its real path,
// one folder at a time up to the file system root, each with its level
// (-1 above top) and its real path.
func (tr *rootTree) parents() (paths []string, levels []int, reals []string) {
	k := len(tr.levels) - 1
	for i := k; i >= 0; i-- {
		real := filepath.Join(tr.real, filepath.FromSlash(tr.levels[i].rel))
		p := real
		if i == k {
			p = tr.ws
		}
		paths, levels, reals = append(paths, p), append(levels, i), append(reals, real)
	}
	for d := filepath.Dir(tr.real); ; d = filepath.Dir(d) {
		paths, levels, reals = append(paths, d), append(levels, -1), append(reals, "")
		if filepath.Dir(d) == d {
			return paths, levels, reals
		}
	}
}

// mustDo fails the test on err.
func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// wantRootFolders is the rule of docs/discovery.md#roots and the
// profile's Roots (walkUp, noGit, gitMarker) stated as a walk: from the
// workspace up one folder at a time, first to find the git root, then to
// take the folders the mode names. gits is each folder's .git as
// rootLevel.git says. It returns the indexes into the parents taken,
// nearest first.
func wantRootFolders(r profile.Roots, paths []string, gits []string, home string) []int {
	git := -1
find:
	for i, g := range gits {
		switch {
		case g == "":
		case r.GitMarker == "dir" && g != "dir" && g != "dirlink":
			// A .git file does not stop the walk.
		case r.GitMarker == "git" && g == "broken":
			break find // git finds no repository at all
		default:
			git = i
			break find
		}
	}
	mode := r.WalkUp
	if git < 0 {
		mode = r.NoGit
	}
	var take []int
	for i := range paths {
		if mode == "home" && i > 0 && paths[i] == home {
			break // the home folder's own folders are the user roots
		}
		if mode != "cwd+git-root" || i == 0 || i == git {
			take = append(take, i)
		}
		if mode == "cwd" || i == git && mode != "all" {
			break
		}
	}
	return take
}

// TestProjectRootsByWalk holds the project roots resolveRoots lists (and
// the path-escape errors it gives instead) to the rule of
// docs/discovery.md#roots and #boundaries on random trees (newRootTree)
// and random profiles (every walkUp, noGit and gitMarker, nearest or
// farthest first), with the home folder the workspace, one of its
// parents, a folder beside them or "/". The parents are those of the
// workspace's real path (symlinks resolved, as git and the agents walk),
// the workspace itself as written. Each project
// root of a folder is listed when it is a folder or a symlink to one
// inside that folder, bounded by the folder's real path and labelled by
// its path from the workspace; one leading outside is a path-escape
// error (a preset's root, not a configured directory); a dangling one is
// a broken-link warning and absent, as a missing one is but in the
// workspace, where it is listed as missing.
func TestProjectRootsByWalk(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(22, 5))
	rounds := 300
	if testing.Short() {
		rounds = 60
	}
	agents, _ := profile.Lookup(catalogx.DefaultPreset)
	for round := range rounds {
		tr := newRootTree(t, rng)
		paths, levels, reals := tr.parents()
		gits := make([]string, len(paths))
		for i, lv := range levels {
			if lv >= 0 {
				gits[i] = tr.levels[lv].git
			} else if _, err := os.Lstat(filepath.Join(paths[i], ".git")); err == nil {
				t.Skipf("%s holds a .git: the trees below it are not what the test models", paths[i])
			}
		}
		homes := append(slices.Clone(paths), tr.outside, tr.path(max(0, tr.linkAt-1)))
		home := homes[rng.IntN(len(homes))]
		p := *agents
		p.Roots = profile.Roots{
			Project:      rootLabels,
			WalkUp:       []string{"cwd", "git-root", "cwd+git-root", "all"}[rng.IntN(4)],
			NoGit:        []string{"cwd", "all", "home"}[rng.IntN(3)],
			GitMarker:    []string{"", "any", "dir", "git"}[rng.IntN(4)],
			NearestFirst: rng.IntN(4) != 0,
		}
		c, err := New(context.Background(), &Options{Workspace: tr.ws, home: home, NoUser: true, NoConfigFile: true})
		mustDo(t, err)
		c.profile = &p
		roots, diags := c.resolveRoots()

		take := wantRootFolders(p.Roots, paths, gits, home)
		if !p.Roots.NearestFirst {
			slices.Reverse(take)
		}
		type root struct {
			Path, Label, Boundary string
			Exists                bool
		}
		want, got := map[string][]root{}, map[string][]root{}
		var wantEsc, gotEsc, wantBroken, gotBroken []string
		for _, l := range rootLabels {
			for _, i := range take {
				pth := filepath.Join(paths[i], filepath.FromSlash(l))
				kind := ""
				if levels[i] >= 0 {
					kind = tr.levels[levels[i]].roots[l]
				}
				switch {
				case kind == "out":
					wantEsc = append(wantEsc, pth)
				case kind == "gone":
					wantBroken = append(wantBroken, pth)
				}
				if kind == "dir" || kind == "in" || kind != "out" && i == 0 {
					want[l] = append(want[l], root{pth, strings.Repeat("../", i) + l, reals[i], kind == "dir" || kind == "in"})
				}
			}
		}
		for _, r := range roots {
			if r.Scope != ScopeProject {
				t.Fatalf("root %s of scope %s with NoUser and no extra path", r.Path, r.Scope)
			}
			l := rootLabels[0]
			if !strings.HasSuffix(r.Path, filepath.FromSlash(l)) {
				l = rootLabels[1]
			}
			got[l] = append(got[l], root{r.Path, r.display, r.boundary, r.Exists})
		}
		for _, d := range diags {
			switch d.Code {
			case diagcode.PathEscape:
				gotEsc = append(gotEsc, d.Path)
			case diagcode.BrokenLink:
				gotBroken = append(gotBroken, d.Path)
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("round %d: %s, workspace %s, home %s: project roots by label (-want +got):\n%s",
				round, tr.describe(p.Roots), tr.ws, home, strings.ReplaceAll(diff, tr.top, "TOP"))
		}
		if diff := cmp.Diff(wantBroken, gotBroken); diff != "" {
			t.Fatalf("round %d: %s, workspace %s: broken-link warnings (-want +got):\n%s",
				round, tr.describe(p.Roots), tr.ws, strings.ReplaceAll(diff, tr.top, "TOP"))
		}
		if diff := cmp.Diff(wantEsc, gotEsc); diff != "" {
			t.Fatalf("round %d: %s, workspace %s: path-escape errors (-want +got):\n%s",
				round, tr.describe(p.Roots), tr.ws, strings.ReplaceAll(diff, tr.top, "TOP"))
		}
	}
}

// describe says what a failing round's tree and profile were.
func (tr *rootTree) describe(r profile.Roots) string {
	var b strings.Builder
	fmt.Fprintf(&b, "walkUp %s, noGit %s, gitMarker %q, nearestFirst %v, link at level %d; levels:", r.WalkUp, r.NoGit, r.GitMarker, r.NearestFirst, tr.linkAt)
	for i, lv := range tr.levels {
		fmt.Fprintf(&b, "\n  %d %q .git=%q roots=%v", i, lv.rel, lv.git, lv.roots)
	}
	return b.String()
}
