//go:build linux || darwin || freebsd

package fsx

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

func TestReplaceKeeps(t *testing.T) {
	t.Parallel()
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
