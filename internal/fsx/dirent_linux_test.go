//go:build linux && (amd64 || arm64)

package fsx

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestDirents: Dirents reads what os.ReadDir lists (names, types, and in
// name order after SortByName), with a raw buffer smaller than one
// folder's records, and lets go of a large folder's memory on Release.
func TestDirents(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i := range 300 {
		p := filepath.Join(dir, fmt.Sprintf("f%03d-%s", 299-i, "padding-to-make-records-longer"))
		if i%3 == 0 {
			if err := os.Mkdir(p, 0o755); err != nil {
				t.Fatal(err)
			}
		} else if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("f000", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	name := append([]byte(dir), 0)
	opened := fdOpened.Load()
	fd, e := OpenDirAt(AtFDCWD, &name[0], 0)
	if e != 0 {
		t.Fatal(e)
	}
	defer syscall.Close(fd)
	if fdOpened.Load() == opened {
		t.Error("OpenDirAt opened a folder and did not tell the waiting opens (Opened)")
	}
	var d Dirents
	if !d.Read(fd, 1024) {
		t.Fatal("Read failed")
	}
	d.SortByName()
	if d.Len() != len(want) {
		t.Fatalf("%d entries, os.ReadDir lists %d", d.Len(), len(want))
	}
	for i, w := range want {
		if d.Name(i) != w.Name() || d.Type(i) != w.Type() {
			t.Errorf("entry %d: %q %v, os.ReadDir: %q %v", i, d.Name(i), d.Type(i), w.Name(), w.Type())
		}
	}
	d.Release(len(want))
	if !d.held() {
		t.Error("Release(Len) let go of the memory")
	}
	d.Release(10)
	if d.held() {
		t.Error("Release(10) kept the memory of 301 entries")
	}
	if _, e := OpenDirAt(AtFDCWD, &append([]byte(filepath.Join(dir, "link")), 0)[0], syscall.O_NOFOLLOW); e == 0 {
		t.Error("OpenDirAt with O_NOFOLLOW opened a symlink")
	}
}

// held reports whether d holds memory for entries (what Release lets go of).
func (d *Dirents) held() bool { return d.ents != nil || d.names != nil }
