//go:build linux && (amd64 || arm64)

package fsx

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestFstatat(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "f"), "12345", 0o644)
	if err := os.Symlink("f", filepath.Join(dir, "l")); err != nil {
		t.Fatal(err)
	}
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, tc := range []struct {
		name  string
		flags int
		mode  fs.FileMode
		size  int64
		errno syscall.Errno
	}{
		{"f", 0, 0, 5, 0},
		{"l", 0, 0, 5, 0},
		{"l", AtSymlinkNoFollow, fs.ModeSymlink, 1, 0},
		{".", 0, fs.ModeDir, -1, 0},
		{"missing", 0, 0, -1, syscall.ENOENT},
	} {
		var st syscall.Stat_t
		z := append([]byte(tc.name), 0)
		e := Fstatat(int(d.Fd()), &z[0], &st, tc.flags)
		if e != tc.errno {
			t.Errorf("Fstatat(%s, %#x): errno %v, want %v", tc.name, tc.flags, e, tc.errno)
			continue
		}
		if e != 0 {
			continue
		}
		if got := ModeType(st.Mode); got != tc.mode {
			t.Errorf("Fstatat(%s, %#x): type %v, want %v", tc.name, tc.flags, got, tc.mode)
		}
		if tc.size >= 0 && st.Size != tc.size {
			t.Errorf("Fstatat(%s, %#x): size %d, want %d", tc.name, tc.flags, st.Size, tc.size)
		}
	}
}
