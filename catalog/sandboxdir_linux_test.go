package catalog_test

import (
	"os"
	"syscall"
	"testing"
)

// tmpfsMagic is the f_type statfs(2) gives a tmpfs (linux/magic.h
// TMPFS_MAGIC).
const tmpfsMagic = 0x01021994

// sandboxDir returns a new folder for the sandboxes of generated
// workspaces, removed when t ends: in /dev/shm when it is a tmpfs we may
// write to, else t.TempDir(). Laying out the 700 generated workspaces
// (36,000 files in 49,000 folders) and removing them took 10-20 s of
// system time on a disk file system under load (ext4, 2 cores shared with
// other builds), about 2 s on a tmpfs; the profiles read the same names,
// contents and links either way.
func sandboxDir(t *testing.T) string {
	var st syscall.Statfs_t
	if syscall.Statfs("/dev/shm", &st) == nil && st.Type == tmpfsMagic {
		if dir, err := os.MkdirTemp("/dev/shm", "skillet-sandboxes-"); err == nil {
			t.Cleanup(func() {
				if err := os.RemoveAll(dir); err != nil {
					t.Errorf("removing the sandboxes: %v", err)
				}
			})
			return dir
		}
	}
	return t.TempDir()
}
