package filecache

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/skillet-go/skillet/internal/fsx"
)

func put(t *testing.T, c *Cache, key, value string) {
	t.Helper()
	if err := c.Put(key, func(f *os.File) error { _, err := f.WriteString(value); return err }); err != nil {
		t.Fatalf("Put(%s): %v", key, err)
	}
}

// get reads the value of key whole (safe in any goroutine).
func get(_ *testing.T, c *Cache, key string) (string, error) {
	f, fi, err := c.Open(key)
	if err != nil {
		return "", err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err == nil && int64(len(data)) != fi.Size() {
		err = fmt.Errorf("read %d bytes of a file of %d", len(data), fi.Size())
	}
	return string(data), err
}

func TestPutOpen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "cache")
	c := New(dir, "index")
	if _, err := get(t, c, "k.idx"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Open of a missing key: %v, want fs.ErrNotExist", err)
	}
	put(t, c, "k.idx", "one")
	put(t, c, "k.idx", "two, longer")
	if got, err := get(t, c, "k.idx"); err != nil || got != "two, longer" {
		t.Fatalf("Open = %q, %v", got, err)
	}
	fi, err := os.Stat(dir)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("folder %v, %v: want mode 0700", fi.Mode(), err)
	}
	// A write that fails leaves the old value and no temporary file.
	failed := errors.New("failed")
	if err := c.Put("k.idx", func(f *os.File) error { f.WriteString("torn"); return failed }); !errors.Is(err, failed) {
		t.Fatalf("Put of a failing write: %v", err)
	}
	if got, _ := get(t, c, "k.idx"); got != "two, longer" {
		t.Fatalf("after a failed Put the value is %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("entries %v, want the value alone", entries)
	}
}

func TestKeys(t *testing.T) {
	c := New(t.TempDir(), "index")
	for _, key := range []string{"", ".hidden", ".tmp-1", "a/b", "../up", "..", `a\b`} {
		if err := c.Put(key, func(*os.File) error { return nil }); !errors.Is(err, errKey) {
			t.Errorf("Put(%q) = %v, want errKey", key, err)
		}
		if _, _, err := c.Open(key); !errors.Is(err, errKey) {
			t.Errorf("Open(%q) = %v, want errKey", key, err)
		}
	}
}

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

func TestPrune(t *testing.T) {
	dir := t.TempDir()
	c := New(dir, "index")
	old := time.Now().Add(-48 * time.Hour)
	for _, name := range []string{"keep", "old", ".tmp-old", ".other", "fresh"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(name), 0o600); err != nil {
			t.Fatal(err)
		}
		if name != "fresh" {
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	c.Prune("keep", 24*time.Hour, 100)
	var left []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if want := []string{".other", "fresh", "keep"}; fmt.Sprint(left) != fmt.Sprint(want) {
		t.Fatalf("after Prune %v, want %v", left, want)
	}
}

// TestConcurrentPuts: writers of one key at once (goroutines here; a rename
// is as atomic between processes) never leave a reader a torn value: each
// read is one writer's whole value.
func TestConcurrentPuts(t *testing.T) {
	c := New(t.TempDir(), "index")
	values := make([][]byte, 4)
	for i := range values {
		values[i] = bytes.Repeat([]byte{byte('a' + i)}, 64<<10+i)
	}
	put(t, c, "k", string(values[0]))
	var wg sync.WaitGroup
	for i := range values {
		wg.Go(func() {
			for range 20 {
				if err := c.Put("k", func(f *os.File) error { _, err := f.Write(values[i]); return err }); err != nil {
					t.Error(err)
				}
			}
		})
	}
	for range 2 {
		wg.Go(func() {
			for range 40 {
				got, err := get(t, c, "k")
				if err != nil {
					t.Error(err)
					return
				}
				if i := int(got[0] - 'a'); i < 0 || i >= len(values) || got != string(values[i]) {
					t.Errorf("a read of %d bytes is no writer's whole value", len(got))
					return
				}
			}
		})
	}
	wg.Wait()
}
