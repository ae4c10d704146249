//go:build linux && (amd64 || arm64)

package catalog

import (
	"fmt"
	"github.com/skillet-go/skillet/internal/fsx"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// TestEachEntry checks that the getdents64 folder reader lists what
// os.ReadDir lists, in the same order with the same types: files, folders,
// symlinks, a FIFO, names that sort differently as bytes and as text, and
// more entries than one read returns.
func TestEachEntry(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	names := []string{"b", "B", "é", "z.md", "_x", ".hidden", "10", "9"}
	for i := range 600 {
		names = append(names, fmt.Sprintf("entry-%04d-with-a-name-long-enough-to-fill-buffers", i))
	}
	for i, n := range names {
		p := filepath.Join(dir, n)
		var err error
		switch i % 3 {
		case 0:
			err = os.WriteFile(p, nil, 0o644)
		case 1:
			err = os.Mkdir(p, 0o755)
		default:
			err = os.Symlink("target", p)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	type ent struct {
		name string
		typ  fs.FileMode
	}
	collect := func(read func(size func(int), add func(string, fs.FileMode)) error) []ent {
		var out []ent
		sized := -1
		if err := read(func(n int) { sized = n }, func(name string, typ fs.FileMode) {
			out = append(out, ent{string([]byte(name)), typ})
		}); err != nil {
			t.Fatal(err)
		}
		if sized != len(out) {
			t.Errorf("size said %d entries, add saw %d", sized, len(out))
		}
		return out
	}
	var c listScratch
	got := collect(func(size func(int), add func(string, fs.FileMode)) error {
		open, err := c.eachEntry(noDir, newRef(dir), size, add)
		open.close()
		return err
	})
	want := collect(func(size func(int), add func(string, fs.FileMode)) error {
		return readDirEntries(dir, size, add)
	})
	if !slices.Equal(got, want) {
		t.Errorf("eachEntry lists %d entries, os.ReadDir %d; first difference at %d", len(got), len(want), firstDiff(got, want))
	}
	if len(want) != len(names)+1 {
		t.Errorf("os.ReadDir lists %d entries, want %d", len(want), len(names)+1)
	}
	// A folder that cannot be read gives os.ReadDir's error.
	// Read below an open parent, the same.
	parent, err := c.eachEntry(noDir, newRef(filepath.Dir(dir)), func(int) {}, func(string, fs.FileMode) {})
	if err != nil || parent.fd < 0 {
		t.Fatalf("the parent folder: %v, fd %d", err, parent.fd)
	}
	below := collect(func(size func(int), add func(string, fs.FileMode)) error {
		open, err := c.eachEntry(parent, newRef(dir), size, add)
		open.close()
		return err
	})
	parent.close()
	if !slices.Equal(below, want) {
		t.Errorf("read below its parent, eachEntry lists %d entries, os.ReadDir %d", len(below), len(want))
	}
	// A folder that cannot be read gives os.ReadDir's error.
	if _, err := c.eachEntry(noDir, newRef(filepath.Join(dir, "missing")), func(int) {}, func(string, fs.FileMode) {}); !os.IsNotExist(err) {
		t.Errorf("a missing folder: %v", err)
	}
}

func firstDiff[T comparable](a, b []T) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestDirentType: each d_type maps to the fs.FileMode type os.ReadDir
// gives; DT_UNKNOWN and types without a name are looked up (fsx.ModeUnknown).
func TestDirentType(t *testing.T) {
	t.Parallel()
	for typ, want := range map[byte]fs.FileMode{
		syscall.DT_REG:     0,
		syscall.DT_DIR:     fs.ModeDir,
		syscall.DT_LNK:     fs.ModeSymlink,
		syscall.DT_FIFO:    fs.ModeNamedPipe,
		syscall.DT_SOCK:    fs.ModeSocket,
		syscall.DT_CHR:     fs.ModeDevice | fs.ModeCharDevice,
		syscall.DT_BLK:     fs.ModeDevice,
		syscall.DT_UNKNOWN: fsx.ModeUnknown,
		syscall.DT_WHT:     fsx.ModeUnknown,
		3:                  fsx.ModeUnknown,
	} {
		if got := fsx.DirentMode(typ); got != want {
			t.Errorf("fsx.DirentMode(%d) = %v, want %v", typ, got, want)
		}
	}
}

// TestEachEntryLetsGoOfLargeFolders checks that the scratch of a folder of
// more than direntKeep entries is let go once its entries are passed on,
// that a small folder's is kept for the next one, and that a small folder
// read after a large one still lists right.
func TestEachEntryLetsGoOfLargeFolders(t *testing.T) {
	t.Parallel()
	large, small := t.TempDir(), t.TempDir()
	for i := range direntKeep + 1 {
		if err := os.WriteFile(filepath.Join(large, fmt.Sprintf("f%05d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []string{"b", "a", "c"} {
		if err := os.Mkdir(filepath.Join(small, n), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var s listScratch
	read := func(dir string) []string {
		var out []string
		open, err := s.eachEntry(noDir, newRef(dir), func(int) {}, func(name string, _ fs.FileMode) {
			out = append(out, string([]byte(name)))
		})
		open.close()
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if got := read(large); len(got) != direntKeep+1 || got[0] != "f00000" || got[direntKeep] != fmt.Sprintf("f%05d", direntKeep) {
		t.Fatalf("large folder: %d entries, first %q", len(got), got[0])
	}
	if s.dirents.Len() != 0 {
		t.Errorf("the scratch of %d entries is kept: it still holds %d", direntKeep+1, s.dirents.Len())
	}
	if got := read(small); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("small folder after a large one: %q", got)
	}
	if s.dirents.Len() != 3 {
		t.Errorf("the scratch of a small folder is let go: it holds %d entries, not 3", s.dirents.Len())
	}
}
