package fsx

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

func write(t *testing.T, path, s string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	write(t, file, "hello", 0o644)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		max  int64
		want string
		err  error
	}{
		{file, 5, "hello", nil},
		{file, 4, "", ErrTooLarge},
		{fifo, 100, "", ErrNotRegular}, // would block without O_NONBLOCK
		{dir, 100, "", ErrNotRegular},
		{filepath.Join(dir, "missing"), 100, "", os.ErrNotExist},
	} {
		data, v, err := ReadRegular(tc.path, tc.max)
		if !errors.Is(err, tc.err) || string(data) != tc.want {
			t.Errorf("ReadRegular(%s, %d) = %q, %v; want %q, %v", filepath.Base(tc.path), tc.max, data, err, tc.want, tc.err)
		}
		if err == nil && !v.Equal(data) {
			t.Errorf("version of %s does not match its bytes", tc.path)
		}
	}
}

func TestReplaceKeeps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "SKILL.md")
	write(t, path, "old", 0o644)
	if err := os.Chmod(path, 0o644|os.ModeSetuid|os.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	xattr := unix.Setxattr(path, "user.skillet-test", []byte("kept"), 0)
	owner := os.Geteuid() == 0
	if owner {
		if err := os.Chown(path, 1234, 5678); err != nil {
			t.Fatal(err)
		}
	}
	before, _ := os.Stat(path)
	_, v, err := ReadRegular(path, 100)
	if err != nil {
		t.Fatal(err)
	}
	if err := Replace(path, v, []byte("new")); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	after, _ := os.Stat(path)
	if string(got) != "new" {
		t.Errorf("content %q, want new", got)
	}
	if after.Mode() != before.Mode() {
		t.Errorf("mode %s, want %s", after.Mode(), before.Mode())
	}
	if owner {
		st := after.Sys().(*syscall.Stat_t)
		if st.Uid != 1234 || st.Gid != 5678 {
			t.Errorf("owner %d:%d, want 1234:5678", st.Uid, st.Gid)
		}
	} else {
		t.Log("not root: the owner case is not checked")
	}
	if xattr == nil {
		buf := make([]byte, 16)
		n, err := unix.Getxattr(path, "user.skillet-test", buf)
		if err != nil || string(buf[:n]) != "kept" {
			t.Errorf("xattr user.skillet-test = %q, %v; want kept", buf[:max(n, 0)], err)
		}
	} else {
		t.Logf("no user xattrs here (%v): that case is not checked", xattr)
	}
	assertNoTemp(t, dir)
}

func TestReplaceRefuses(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		setup func(path string)
		err   error
		msg   string
	}{
		{"read-only", func(p string) { os.Chmod(p, 0o444) }, ErrRefused, "read-only"},
		{"hard link", func(p string) { os.Link(p, p+".link") }, ErrRefused, "2 hard links"},
		{"changed", func(p string) { os.WriteFile(p, []byte("edited"), 0o644) }, ErrChanged, ""},
		{"changed same size", func(p string) { os.WriteFile(p, []byte("OLD"), 0o644) }, ErrChanged, ""},
		{"replaced", func(p string) { os.Remove(p); os.WriteFile(p, []byte("old"), 0o644) }, ErrChanged, ""},
		{"fifo", func(p string) { os.Remove(p); syscall.Mkfifo(p, 0o644) }, ErrRefused, "named pipe"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
			write(t, path, "old", 0o644)
			_, v, err := ReadRegular(path, 100)
			if err != nil {
				t.Fatal(err)
			}
			tc.setup(path)
			before, _, _ := ReadRegular(path, 100)
			err = Replace(path, v, []byte("new"))
			if !errors.Is(err, tc.err) || !strings.Contains(fmt.Sprint(err), tc.msg) {
				t.Fatalf("Replace: %v, want %v (%q)", err, tc.err, tc.msg)
			}
			if after, _, _ := ReadRegular(path, 100); !bytes.Equal(after, before) {
				t.Errorf("the file changed to %q", after)
			}
		})
	}
	assertNoTemp(t, dir)
}

func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".skillet-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

// TestReplaceRace runs Replace against an editor that saves the same file
// once per round, at a random moment, alternately in place (truncate and
// write) and as editors do it safely (a new file renamed over). Whatever
// the timing, the editor's save must be what is on disk afterwards: a
// replacement computed from the old bytes may land before it, never after.
func TestReplaceRace(t *testing.T) {
	rounds := 2000
	if testing.Short() {
		rounds = 200
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "SKILL.md")
	old, fixed := []byte("description: a: b\n"), []byte("description: \"a: b\"\n")
	putBack.Store(0)
	rescued.Store(0)
	syncWrites = false
	defer func() { syncWrites = true }()
	var replaced, changed int
	for i := range rounds {
		write(t, path, string(old), 0o644)
		edit := fmt.Appendf(nil, "description: edit %d\n", i)
		_, v, err := ReadRegular(path, 1<<10)
		if err != nil {
			t.Fatal(err)
		}
		spin := rand.IntN(400)
		var wg sync.WaitGroup
		wg.Go(func() {
			for range spin {
				runtime.Gosched()
			}
			if i%2 == 0 {
				if err := os.WriteFile(path, edit, 0o644); err != nil {
					t.Error(err)
				}
				return
			}
			tmp := path + ".editor"
			if err := os.WriteFile(tmp, edit, 0o644); err != nil {
				t.Error(err)
			}
			if err := os.Rename(tmp, path); err != nil {
				t.Error(err)
			}
		})
		err = Replace(path, v, fixed)
		wg.Wait()
		switch {
		case err == nil:
			replaced++
		case errors.Is(err, ErrChanged):
			changed++
		default:
			t.Fatalf("round %d: %v", i, err)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, edit) {
			t.Fatalf("round %d: the editor's save was lost: the file holds %q, want %q (Replace: %v; %d put back, %d rescued)", i, got, edit, err, putBack.Load(), rescued.Load())
		}
	}
	assertNoTemp(t, dir)
	t.Logf("%d rounds: %d replaced before the save, %d refused as changed; %d edits put back after the exchange, %d saves in place rescued",
		rounds, replaced, changed, putBack.Load(), rescued.Load())
	if replaced == 0 || changed == 0 {
		t.Errorf("the rounds never raced both ways (%d replaced, %d changed): the test proves nothing", replaced, changed)
	}
}

func TestReadOpenAndHead(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	write(t, file, "hello world", 0o644)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		path  string
		head  bool
		max   int64
		want  string
		err   error
		msg   string
		label string
	}{
		{"whole, no limit", file, false, -1, "hello world", nil, "", "f"},
		{"whole, at the limit", file, false, 11, "hello world", nil, "", "f"},
		{"whole, over", file, false, 10, "", ErrTooLarge, "f: file too large: 11 bytes, over the 10-byte limit", "f"},
		{"whole, over, unnamed", file, false, 3, "", ErrTooLarge, "file too large: 11 bytes, over the 3-byte limit", ""},
		{"head cuts", file, true, 5, "hello", nil, "", "f"},
		{"head of a shorter file", file, true, 100, "hello world", nil, "", "f"},
		{"head of a FIFO", fifo, true, 5, "", ErrNotRegular, "not a regular file (a named pipe)", ""},
		{"whole folder", dir, false, 5, "", ErrNotRegular, "d: not a regular file (a folder)", "d"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Open(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			read := ReadOpen
			if tc.head {
				read = ReadHead
			}
			data, fi, err := read(f, tc.label, tc.max)
			if !errors.Is(err, tc.err) || string(data) != tc.want {
				t.Fatalf("got %q, %v; want %q, %v", data, err, tc.want, tc.err)
			}
			if err != nil && err.Error() != tc.msg {
				t.Errorf("message %q, want %q", err, tc.msg)
			}
			if err == nil && fi.Size() != 11 {
				t.Errorf("stat size %d, want 11", fi.Size())
			}
		})
	}
}

func TestReadErrorGrew(t *testing.T) {
	e := &ReadError{Name: "x", Err: ErrTooLarge, Size: -1, Max: 7}
	if got, want := e.Error(), "x: file too large: it grew past the 7-byte limit while it was read"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

func TestSkipDir(t *testing.T) {
	for name, want := range map[string]bool{
		".git": true, ".hg": true, ".svn": true, "node_modules": true, "__pycache__": true, ".venv": true,
		"scripts": false, ".github": false, "_private": false, "venv": false, "": false,
	} {
		if got := SkipDir(name); got != want {
			t.Errorf("SkipDir(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestEscapes(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink("/etc/hostname", filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, p := range []string{"../x", "out"} {
		if _, err := root.Open(p); err == nil || !Escapes(err) {
			t.Errorf("root.Open(%q): %v, which Escapes does not recognise", p, err)
		}
	}
	if _, err := root.Open("missing"); err == nil || Escapes(err) {
		t.Errorf("root.Open(missing): %v is taken for an escape", err)
	}
}
