//go:build unix

package filecache

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/skillet-go/skillet/internal/fsx"
)

func TestUntrusted(t *testing.T) {
	for _, tt := range []struct {
		name     string
		spoil    func(dir, file string) error
		onFolder bool
		want     string
	}{
		{"folder writable by its group", func(dir, _ string) error { return os.Chmod(dir, 0o770) }, true,
			"the index folder is writable by its group or others (mode 0770)"},
		{"folder writable by others", func(dir, _ string) error { return os.Chmod(dir, 0o703) }, true,
			"the index folder is writable by its group or others (mode 0703)"},
		{"file writable by its group", func(_, file string) error { return os.Chmod(file, 0o620) }, false,
			"the index file is writable by its group or others (mode 0620)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "cache")
			c := New(dir, "index")
			put(t, c, "k", "v")
			if why := c.Distrust(); why != "" {
				t.Fatalf("a fresh folder is distrusted: %s", why)
			}
			if err := tt.spoil(dir, c.Path("k")); err != nil {
				t.Fatal(err)
			}
			var ue *UntrustedError
			if tt.onFolder {
				if why := c.Distrust(); why != tt.want {
					t.Errorf("Distrust = %q, want %q", why, tt.want)
				}
				err := c.Put("k", func(f *os.File) error { _, err := f.WriteString("forged"); return err })
				if !errors.As(err, &ue) || ue.Path != dir || ue.Why != tt.want {
					t.Errorf("Put into an untrusted folder: %v", err)
				}
				return
			}
			_, err := get(t, c, "k")
			if !errors.As(err, &ue) || ue.Path != c.Path("k") || ue.Why != tt.want {
				t.Errorf("Open of an untrusted file: %v, want %q", err, tt.want)
			}
		})
	}
}

func TestOpenFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "k"), 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	done := make(chan error, 1)
	go func() { _, err := get(t, New(dir, "index"), "k"); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, fsx.ErrNotRegular) {
			t.Fatalf("Open of a FIFO: %v, want ErrNotRegular", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Open of a FIFO hangs")
	}
}
