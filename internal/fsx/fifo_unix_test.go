//go:build unix

package fsx

import (
	"syscall"
	"testing"
)

// mkfifo makes a named pipe at path (mkfifo(2)) or fails the test.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
}
