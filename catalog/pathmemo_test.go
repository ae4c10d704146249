package catalog

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestPathMemoIsRealPath holds pathMemo.realPath to realPath (which asks
// filepath.EvalSymlinks) on newRootTree's random trees, with more links
// beside them (a relative one leading up, a link to a link, a dangling
// link's child, a file's child), for every path in the tree, paths that
// are not clean through each link, a child
// that does not exist of each, and a path through each link. One memo
// answers every path of a tree, in random order, so its answers built
// from ones it remembered are checked too.
func TestPathMemoIsRealPath(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("pathMemo asks realPath every time on Windows")
	}
	rng := rand.New(rand.NewPCG(7, 11))
	rounds := 40
	if testing.Short() {
		rounds = 10
	}
	for range rounds {
		tr := newRootTree(t, rng)
		mustDo(t, os.Symlink("..", filepath.Join(tr.top, "up")))
		mustDo(t, os.Symlink("link", filepath.Join(tr.top, "chain")))
		mustDo(t, os.Symlink(tr.outside, filepath.Join(tr.top, "out")))
		mustDo(t, os.WriteFile(filepath.Join(tr.top, "f"), nil, 0o644))
		var paths []string
		walk := func(top string) {
			mustDo(t, filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				paths = append(paths, p, filepath.Join(p, "nope"), filepath.Join(p, "nope", "deeper"))
				return nil
			}))
		}
		walk(tr.top)
		walk(tr.outside)
		for _, via := range []string{"up", "chain", "out", "link"} {
			if d, err := os.ReadDir(filepath.Join(tr.top, via)); err == nil {
				for _, e := range d {
					paths = append(paths, filepath.Join(tr.top, via, e.Name(), "x"), filepath.Join(tr.top, via, e.Name()))
				}
			}
			// Not clean: ".." after the link leads up from its target,
			// to an entry beside the target.
			link := filepath.Join(tr.top, via)
			paths = append(paths, link+"/../x", link+"/./x")
			if r, err := filepath.EvalSymlinks(link); err == nil {
				if d, err := os.ReadDir(filepath.Dir(r)); err == nil {
					for _, e := range d {
						paths = append(paths, link+"/../"+e.Name())
					}
				}
			}
		}
		paths = append(paths, filepath.Dir(tr.top), "/", tr.ws)
		rng.Shuffle(len(paths), func(i, j int) { paths[i], paths[j] = paths[j], paths[i] })
		m := newPathMemo()
		for _, p := range paths {
			if got, want := m.realPath(p), realPath(p); got != want {
				t.Fatalf("realPath(%q): the memo gives %q, EvalSymlinks %q", p, got, want)
			}
		}
	}
}

// TestPathMemoStat: the memo's stat and lstat are os.Stat's and os.Lstat's
// for a folder, a file, a link to each, a dangling link and a missing
// path, asked first by stat or first by lstat.
func TestPathMemoStat(t *testing.T) {
	t.Parallel()
	top := t.TempDir()
	mustDo(t, os.Mkdir(filepath.Join(top, "d"), 0o755))
	mustDo(t, os.WriteFile(filepath.Join(top, "f"), []byte("x"), 0o644))
	mustDo(t, os.Symlink("d", filepath.Join(top, "ld")))
	mustDo(t, os.Symlink("f", filepath.Join(top, "lf")))
	mustDo(t, os.Symlink("gone", filepath.Join(top, "lg")))
	for _, lstatFirst := range []bool{false, true} {
		m := newPathMemo()
		for _, n := range []string{"d", "f", "ld", "lf", "lg", "missing"} {
			p := filepath.Join(top, n)
			if lstatFirst {
				m.lstat(p)
			}
			gotS, errS := m.stat(p)
			gotL, errL := m.lstat(p)
			wantS, werrS := os.Stat(p)
			wantL, werrL := os.Lstat(p)
			if (errS == nil) != (werrS == nil) || errS == nil && (gotS.Mode() != wantS.Mode() || gotS.Size() != wantS.Size()) {
				t.Errorf("lstat first %v: stat(%s) = %v, %v; os.Stat %v, %v", lstatFirst, n, gotS, errS, wantS, werrS)
			}
			if (errL == nil) != (werrL == nil) || errL == nil && gotL.Mode() != wantL.Mode() {
				t.Errorf("lstat first %v: lstat(%s) = %v, %v; os.Lstat %v, %v", lstatFirst, n, gotL, errL, wantL, werrL)
			}
		}
	}
}
