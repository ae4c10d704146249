//go:build !unix

package fsx

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

func openRead(path string) (*os.File, error) { return os.Open(path) }

func devIno(fs.FileInfo) (uint64, uint64) { return 0, 0 }

func nlink(fs.FileInfo) uint64 { return 1 }

func splitPath(p string) (string, string) { return filepath.Dir(p), filepath.Base(p) }

func keep(path string, fi fs.FileInfo, f *os.File) error {
	if err := f.Chmod(fi.Mode().Perm()); err != nil {
		return fmt.Errorf("%s: %w: cannot give a new file mode %s (%v)", path, ErrRefused, fi.Mode().Perm(), err)
	}
	return nil
}
