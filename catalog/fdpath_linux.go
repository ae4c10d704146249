//go:build linux

package catalog

import (
	"os"
	"strconv"
)

// openedPath returns the path of the file an open descriptor refers to,
// as the kernel knows it (symlinks resolved, at the moment of the open),
// so a check on it cannot race with a rename or a symlink swap.
func openedPath(f *os.File) (string, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return "", err
	}
	var p string
	var rerr error
	if err := rc.Control(func(fd uintptr) {
		p, rerr = os.Readlink("/proc/self/fd/" + strconv.FormatUint(uint64(fd), 10))
	}); err != nil {
		return "", err
	}
	if rerr != nil {
		// No /proc: fall back to resolving the name (not race-free).
		return evalName(f)
	}
	return p, nil
}
