package lint

import (
	"context"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/catalogx"
)

// TestFileKeysAreFileKey: fileKeys, which resolves each folder once from
// its parent's real path, gives catalogx.FileKey of every path, asked in
// seeded random orders (so a folder is met before and after its parent),
// in a tree of real folders, symlinks to folders (through other symlinks,
// relative and absolute, below themselves), symlinked files, a dangling
// link, a link loop, missing paths, paths with "." and ".." and relative
// ones; with and without the folders the host searches of the tree found
// (catalogx.HostReads.Folder), which spare their lstats.
//
// Not parallel: it counts the keys' lstats through keyLstat.
func TestFileKeysAreFileKey(t *testing.T) {
	base := t.TempDir()
	mk := func(p string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(base, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file := func(p string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(base, p), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, p string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(base, p)); err != nil {
			t.Fatal(err)
		}
	}
	mk("real/a/b")
	mk("real/c")
	file("real/a/b/SKILL.md")
	file("real/c/SKILL.md")
	link(filepath.Join(base, "real/a"), "abs")
	link("real/a", "rel")
	link("rel", "relrel")
	link("../c", "real/a/up")
	link("b", "real/a/b2")
	link(filepath.Join(base, "real/c/SKILL.md"), "real/a/b/LINK.md")
	link("nowhere", "dangling")
	link("loop2", "loop1")
	link("loop1", "loop2")
	var paths []string
	for _, d := range []string{"real/a/b", "real/c", "abs/b", "rel/b", "relrel/b", "real/a/up", "real/a/b2", "abs/up",
		"relrel/up", "dangling", "loop1", "missing/x", "real/./a/../a/b", "real/a/b/", "relrel/b2/../b"} {
		for _, f := range []string{"SKILL.md", "LINK.md", "none.md"} {
			paths = append(paths, filepath.Join(base, d)+string(filepath.Separator)+f)
		}
	}
	paths = append(paths, base+"/real//a/b/SKILL.md", "SKILL.md", "real/a/b/SKILL.md", "/SKILL.md", "")
	// The folders the host searches of base found, which the keys then
	// do not lstat again.
	hr, err := catx.HostSearch(context.Background(), hostProfiles(), &catalog.Options{Workspace: t.TempDir(),
		NoUser: true, NoConfigFile: true, ExtraPaths: []string{base}})
	if err != nil {
		t.Fatal(err)
	}
	if hr.Folder == nil || !hr.Folder(filepath.Join(base, "real/a/b")) || hr.Folder(filepath.Join(base, "abs")) ||
		hr.Folder(filepath.Join(base, "real/c/SKILL.md")) {
		t.Fatalf("HostReads.Folder does not tell the folders of the search from the symlinks and files")
	}
	lstats := 0
	defer func(f func(string) (fs.FileInfo, error)) { keyLstat = f }(keyLstat)
	keyLstat = func(p string) (fs.FileInfo, error) { lstats++; return os.Lstat(p) }
	counts := map[bool]int{}
	for seed := range uint64(5) {
		rng := rand.New(rand.NewPCG(seed, 1))
		rng.Shuffle(len(paths), func(i, j int) { paths[i], paths[j] = paths[j], paths[i] })
		for _, listed := range []func(string) bool{nil, hr.Folder} {
			lstats = 0
			keys := newFileKeys(listed)
			for _, p := range paths {
				if got, want := keys.of(p), catalogx.FileKey(p); got != want {
					t.Errorf("seed %d, listed %v: key of %q = %q, catalogx.FileKey says %q", seed, listed != nil, p, got, want)
				}
			}
			counts[listed != nil] = lstats
		}
	}
	if counts[true] >= counts[false] {
		t.Errorf("the keys lstat'ed %d folders with the searches' folders, %d without", counts[true], counts[false])
	}
}
