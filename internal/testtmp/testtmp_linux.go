package testtmp

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

const (
	// shm is the memory file system's mount point, tmpfsMagic the f_type
	// statfs(2) gives a tmpfs (linux/magic.h TMPFS_MAGIC).
	shm        = "/dev/shm"
	tmpfsMagic = 0x01021994
	// prefix starts the name of every folder M makes.
	prefix = "skillet-test-"
	// stale is how long a dead process's folder is left alone: a process
	// of another PID namespace that shares the mount may still use it.
	stale = time.Hour
	// mode is the folder's, /tmp's: a test that runs a step as another
	// user (catalog's TestPermissionDenied, as nobody) reaches its folders.
	mode = os.ModeSticky | 0o777
)

// memDir returns a new folder in shm named for this process
// (skillet-test-PID-RANDOM, mode 1777 as /tmp), or "" when shm is not a tmpfs, has less than
// minFree bytes free or cannot be written. It first sweeps shm.
func memDir() string {
	var st syscall.Statfs_t
	if syscall.Statfs(shm, &st) != nil || st.Type != tmpfsMagic || st.Bavail*uint64(st.Bsize) < minFree {
		return ""
	}
	sweep(shm, time.Now())
	dir, err := os.MkdirTemp(shm, fmt.Sprintf("%s%d-", prefix, os.Getpid()))
	if err != nil {
		return ""
	}
	if err := os.Chmod(dir, mode); err != nil {
		os.Remove(dir)
		return ""
	}
	return dir
}

// sweep removes the folders of dir that an earlier run of M left behind: named
// prefix+PID+"-"..., for a process that no longer runs (kill(2) with
// signal 0 gives ESRCH), owned by this user and last changed at least
// stale before now.
func sweep(dir string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		pid, _, ok2 := strings.Cut(rest, "-")
		n, err := strconv.Atoi(pid)
		if !ok || !ok2 || err != nil || n <= 0 || !e.IsDir() {
			continue
		}
		info, err := e.Info()
		if err != nil || now.Sub(info.ModTime()) < stale {
			continue
		}
		if st, ok := info.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Getuid() {
			continue
		}
		if syscall.Kill(n, 0) == syscall.ESRCH {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}
