//go:build unix

package fsx

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

func openRead(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
}

func devIno(fi fs.FileInfo) (uint64, uint64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), uint64(st.Ino)
	}
	return 0, 0
}

func nlink(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

func splitPath(p string) (string, string) { return filepath.Dir(p), filepath.Base(p) }

// keep gives the temporary file f the owner, mode and extended attributes
// of the file at path (fi is its Lstat), or says why it cannot.
func keep(path string, fi fs.FileInfo, f *os.File) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("%s: %w: its owner is unknown", path, ErrRefused)
	}
	if int(st.Uid) != os.Geteuid() || int(st.Gid) != os.Getegid() {
		if err := f.Chown(int(st.Uid), int(st.Gid)); err != nil {
			return fmt.Errorf("%s: %w: it belongs to uid %d, gid %d, and a new file cannot (%v)", path, ErrRefused, st.Uid, st.Gid, err)
		}
	}
	// After chown, which clears setuid and setgid: the whole mode.
	if err := unix.Fchmod(int(f.Fd()), uint32(st.Mode&0o7777)); err != nil {
		return fmt.Errorf("%s: %w: cannot give a new file mode %o (%v)", path, ErrRefused, st.Mode&0o7777, err)
	}
	return copyXattrs(path, f)
}

// copyXattrs copies every extended attribute of path to f.
func copyXattrs(path string, f *os.File) error {
	names, err := listXattrs(path)
	if err != nil {
		return fmt.Errorf("%s: %w: cannot read its extended attributes (%v)", path, ErrRefused, err)
	}
	for _, name := range names {
		val, err := getXattr(path, name)
		if err != nil {
			return fmt.Errorf("%s: %w: cannot read extended attribute %s (%v)", path, ErrRefused, name, err)
		}
		if err := unix.Fsetxattr(int(f.Fd()), name, val, 0); err != nil {
			return fmt.Errorf("%s: %w: cannot keep extended attribute %s on a new file (%v)", path, ErrRefused, name, err)
		}
	}
	return nil
}

func listXattrs(path string) ([]string, error) {
	for size := 256; ; size *= 4 {
		buf := make([]byte, size)
		n, err := unix.Llistxattr(path, buf)
		switch {
		case errors.Is(err, unix.ERANGE) && size < 1<<20:
			continue
		case errors.Is(err, unix.ENOTSUP):
			return nil, nil
		case err != nil:
			return nil, err
		}
		var names []string
		for _, s := range strings.Split(string(buf[:n]), "\x00") {
			if s != "" {
				names = append(names, s)
			}
		}
		return names, nil
	}
}

func getXattr(path, name string) ([]byte, error) {
	for size := 256; ; size *= 4 {
		buf := make([]byte, size)
		n, err := unix.Lgetxattr(path, name, buf)
		if errors.Is(err, unix.ERANGE) && size < 1<<24 {
			continue
		}
		if err != nil {
			return nil, err
		}
		return buf[:n], nil
	}
}
