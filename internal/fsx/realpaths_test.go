package fsx

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestRealPathsIsEvalSymlinks holds RealPaths.Eval to filepath.EvalSymlinks
// on trees generated from a seed: folders, files and symlinks (absolute
// and relative, to folders, files, other links, "..", nothing, and loops),
// asked for every path in the tree, a missing child of each, a path
// through each link and unclean spellings, in random order, so that
// answers built from remembered ones are checked too; once with os.Lstat
// and once with a Mode that counts its calls (each path asked once).
func TestRealPathsIsEvalSymlinks(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("Eval is EvalSymlinks itself on Windows")
	}
	rounds := 30
	if testing.Short() {
		rounds = 8
	}
	for seed := range uint64(rounds) {
		rng := rand.New(rand.NewPCG(seed, 40))
		top := t.TempDir()
		dirs := genRealTree(t, rng, top)
		var paths []string
		filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
			paths = append(paths, p, filepath.Join(p, "nope"), filepath.Join(p, "nope", "x"), p+"/./", p+"/../"+filepath.Base(p))
			if d != nil && d.Type()&fs.ModeSymlink != 0 {
				paths = append(paths, p+"/../f0", p+"/../d0/f0")
				for _, c := range []string{"f0", "d1", "l2", ".."} {
					paths = append(paths, filepath.Join(p, c), p+"/"+c)
				}
			}
			return nil
		})
		paths = append(paths, "/", filepath.Dir(top), "relative/x", "")
		for _, d := range dirs {
			paths = append(paths, filepath.Join(d, "f0"), filepath.Join(d, "l1", "f0"))
		}
		rng.Shuffle(len(paths), func(i, j int) { paths[i], paths[j] = paths[j], paths[i] })
		calls := map[string]int{}
		for _, r := range []*RealPaths{{}, {Mode: func(p string) (fs.FileMode, error) {
			calls[p]++
			fi, err := os.Lstat(p)
			if err != nil {
				return 0, err
			}
			return fi.Mode(), nil
		}}} {
			for _, p := range paths {
				got, err := r.Eval(p)
				want, werr := filepath.EvalSymlinks(p)
				if (err == nil) != (werr == nil) || err == nil && got != want {
					t.Fatalf("seed %d: Eval(%q) = %q, %v; EvalSymlinks %q, %v", seed, p, got, err, want, werr)
				}
			}
		}
		for p, n := range calls {
			if n > 1 {
				t.Fatalf("seed %d: %q lstat'ed %d times", seed, p, n)
			}
		}
	}
}

// genRealTree makes 3 to 8 folders below top, nested at random, each with
// files and symlinks of every kind; it returns the folders.
func genRealTree(t *testing.T, rng *rand.Rand, top string) []string {
	t.Helper()
	dirs := []string{top}
	for i := range 3 + rng.IntN(6) {
		d := filepath.Join(dirs[rng.IntN(len(dirs))], fmt.Sprint("d", i))
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, d)
	}
	for _, d := range dirs {
		if err := os.WriteFile(filepath.Join(d, "f0"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		for j := range 1 + rng.IntN(3) {
			other := dirs[rng.IntN(len(dirs))]
			target := []string{
				other, // absolute, to a folder
				filepath.Join(other, "f0"),
				"..",
				"../" + filepath.Base(d),
				"nowhere",
				fmt.Sprint("l", (j+1)%3), // another link of this folder, or a loop
				relTo(d, other),
			}[rng.IntN(7)]
			if err := os.Symlink(target, filepath.Join(d, fmt.Sprint("l", j))); err != nil && !os.IsExist(err) {
				t.Fatal(err)
			}
		}
	}
	return dirs
}

// relTo is the path of target from folder d.
func relTo(d, target string) string {
	r, err := filepath.Rel(d, target)
	if err != nil {
		return target
	}
	return r
}
