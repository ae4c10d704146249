//go:build !unix

package catalog

import (
	"errors"
	"fmt"
	"runtime"
)

// mkfifo fails here: this system has no named pipes in the file tree, so
// the cases that need one skip.
func mkfifo(path string, mode uint32) error {
	return fmt.Errorf("%s: no named pipes on %s: %w", path, runtime.GOOS, errors.ErrUnsupported)
}
