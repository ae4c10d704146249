//go:build !unix

package catalog

import (
	"io/fs"
	"os"
)

// openNoFollow opens a file for reading. Without O_NOFOLLOW, a symlinked
// skill file is detected with Lstat first.
func openNoFollow(path string) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, errSymlink
	}
	return os.Open(path)
}

func openFollow(path string) (*os.File, error) { return os.Open(path) }

type symlinkError struct{}

func (symlinkError) Error() string { return "is a symlink" }

var errSymlink error = symlinkError{}

func isSymlinkErr(err error) bool { return err == errSymlink }

func stampOf(fi fs.FileInfo) stamp {
	return stamp{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
}
