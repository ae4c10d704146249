//go:build unix

package catalog

import "syscall"

// mkfifo makes a named pipe at path (mkfifo(2)).
func mkfifo(path string, mode uint32) error { return syscall.Mkfifo(path, mode) }
