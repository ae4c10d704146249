//go:build unix

package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestHostRead: a profile that reads a whole skill file (maxSkillBytes 0)
// gets an error for a file over hostReadLimit, never a silent cut; one
// that reads a head gets it cut at a rune boundary.
func TestHostRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	small := filepath.Join(dir, "small.md")
	if err := os.WriteFile(small, []byte("hé!"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.md")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, hostReadLimit+1); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		max  int
		want string
		err  error
		msg  string
	}{
		{small, 0, "hé!", nil, ""},
		{small, 100, "hé!", nil, ""},
		{small, 2, "h", nil, ""}, // the first byte of é is dropped
		{small, 3, "hé", nil, ""},
		{big, 0, "", ErrTooLarge, "file too large: 4194305 bytes, over the 4194304-byte limit"},
		{fifo, 0, "", ErrNotFile, "not a regular file (a named pipe)"},
		{fifo, 10, "", ErrNotFile, "not a regular file (a named pipe)"},
	} {
		data, err := hostRead(tc.path, tc.max)
		if !errors.Is(err, tc.err) || string(data) != tc.want {
			t.Errorf("hostRead(%s, %d) = %q, %v; want %q, %v", filepath.Base(tc.path), tc.max, data, err, tc.want, tc.err)
		}
		if err != nil && err.Error() != tc.msg {
			t.Errorf("hostRead(%s, %d): message %q, want %q", filepath.Base(tc.path), tc.max, err, tc.msg)
		}
	}
}
