//go:build !unix

package fsx

import (
	"runtime"
	"testing"
)

// mkfifo skips the test: this system has no named pipes in the file tree.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	t.Skipf("%s: no named pipes on %s", path, runtime.GOOS)
}
