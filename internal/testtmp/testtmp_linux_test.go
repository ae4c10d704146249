package testtmp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// callerTMPDIR is the TMPDIR the test binary was started with.
var callerTMPDIR = os.Getenv("TMPDIR")

func TestMain(m *testing.M) { os.Exit(M(m).Run()) }

// TestTempDirInMemory: under M, with TMPDIR not set by the caller and
// /dev/shm a tmpfs with room, t.TempDir is a folder of this process's on
// the tmpfs, in a folder of mode 1777 as /tmp.
func TestTempDirInMemory(t *testing.T) {
	var st syscall.Statfs_t
	if syscall.Statfs(shm, &st) != nil || st.Type != tmpfsMagic || st.Bavail*uint64(st.Bsize) < minFree {
		t.Skip("no tmpfs with room at " + shm)
	}
	if callerTMPDIR != "" {
		t.Skip("TMPDIR set by the caller: " + callerTMPDIR)
	}
	dir := t.TempDir()
	want := filepath.Join(shm, prefix+strconv.Itoa(os.Getpid())+"-")
	if !strings.HasPrefix(dir, want) {
		t.Errorf("t.TempDir is %s, not under %s*", dir, want)
	}
	if err := syscall.Statfs(dir, &st); err != nil || st.Type != tmpfsMagic {
		t.Errorf("t.TempDir %s is not on a tmpfs (%v, type %#x)", dir, err, st.Type)
	}
	if fi, err := os.Stat(os.TempDir()); err != nil || fi.Mode()&(os.ModeSticky|os.ModePerm) != mode {
		t.Errorf("%s: %v, want mode %v as /tmp's (%v)", os.TempDir(), fi.Mode(), mode, err)
	}
}

// TestSweep: sweep removes a stale folder of a process that has ended and
// leaves a fresh one of it, one of this running process, and folders of
// other names.
func TestSweep(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	dead := strconv.Itoa(cmd.Process.Pid)
	live := strconv.Itoa(os.Getpid())
	old := time.Now().Add(-2 * stale)
	folders := map[string]bool{ // name: removed
		prefix + dead + "-1": true,
		prefix + dead + "-2": false, // fresh
		prefix + live + "-1": false,
		prefix + "x-1":       false,
		"other-" + dead:      false,
	}
	for name := range folders {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Join(p, "a", "b"), 0o755); err != nil {
			t.Fatal(err)
		}
		if name != prefix+dead+"-2" {
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	sweep(dir, time.Now())
	for name, removed := range folders {
		_, err := os.Stat(filepath.Join(dir, name))
		if gone := os.IsNotExist(err); gone != removed {
			t.Errorf("%s: removed %v, want %v (%v)", name, gone, removed, err)
		}
	}
}
