package fsx

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	write(t, file, "hello", 0o644)
	fifo := filepath.Join(dir, "fifo")
	mkfifo(t, fifo)
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

func TestReplaceRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, path string)
		err   error
		msg   string
	}{
		{"read-only", func(t *testing.T, p string) { os.Chmod(p, 0o444) }, ErrRefused, "read-only"},
		{"hard link", func(t *testing.T, p string) { os.Link(p, p+".link") }, ErrRefused, "2 hard links"},
		{"changed", func(t *testing.T, p string) { os.WriteFile(p, []byte("edited"), 0o644) }, ErrChanged, ""},
		{"changed same size", func(t *testing.T, p string) { os.WriteFile(p, []byte("OLD"), 0o644) }, ErrChanged, ""},
		{"replaced", func(t *testing.T, p string) { os.Remove(p); os.WriteFile(p, []byte("old"), 0o644) }, ErrChanged, ""},
		{"fifo", func(t *testing.T, p string) { os.Remove(p); mkfifo(t, p) }, ErrRefused, "named pipe"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
			write(t, path, "old", 0o644)
			_, v, err := ReadRegular(path, 100)
			if err != nil {
				t.Fatal(err)
			}
			tc.setup(t, path)
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

func TestReadOpenAndHead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	write(t, file, "hello world", 0o644)
	fifo := filepath.Join(dir, "fifo")
	mkfifo(t, fifo)
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
	t.Parallel()
	e := &ReadError{Name: "x", Err: ErrTooLarge, Size: -1, Max: 7}
	if got, want := e.Error(), "x: file too large: it grew past the 7-byte limit while it was read"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

func TestSkipDir(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
