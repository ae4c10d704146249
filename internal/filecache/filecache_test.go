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
	"testing"
	"time"
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
