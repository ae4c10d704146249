//go:build unix

package catalog

import (
	"errors"
	"io/fs"
	"os"
	"syscall"

	"github.com/skillet-go/skillet/internal/fsx"
)

// openNoFollow opens a file for reading without following a final symlink
// and without blocking on FIFOs. While the process is out of descriptors
// it tries again for a moment (fsx.OpenRetry).
func openNoFollow(path string) (*os.File, error) {
	return fsx.OpenRetry(func() (*os.File, error) {
		return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
	})
}

func openFollow(path string) (*os.File, error) {
	return fsx.OpenRetry(func() (*os.File, error) {
		return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	})
}

// isSymlinkErr reports whether opening with O_NOFOLLOW failed because the
// final component is a symlink.
func isSymlinkErr(err error) bool {
	return errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EMLINK)
}

func stampOf(fi fs.FileInfo) stamp {
	s := stamp{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.ino = uint64(st.Ino)
		s.dev = uint64(st.Dev)
		s.ctime = changeTime(st)
	}
	return s
}
