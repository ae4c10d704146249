//go:build unix

package hostws

import (
	"os"
	"syscall"
)

// writeFile is os.WriteFile(p, data, 0o644) for a sandbox's new file,
// without what os.OpenFile adds for a descriptor it may poll (four fcntl
// calls and a failed epoll_ctl a file on Linux): the open, the writes and
// the close alone, a sixth of the system calls of laying out a generated
// catalog (strace -c of TestProfilesMatchRecordings).
func writeFile(p string, data []byte) error {
	fd, err := syscall.Open(p, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_TRUNC|syscall.O_CLOEXEC, 0o644)
	if err != nil {
		return &os.PathError{Op: "open", Path: p, Err: err}
	}
	for len(data) > 0 {
		n, err := syscall.Write(fd, data)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			syscall.Close(fd)
			return &os.PathError{Op: "write", Path: p, Err: err}
		}
		data = data[n:]
	}
	if err := syscall.Close(fd); err != nil {
		return &os.PathError{Op: "close", Path: p, Err: err}
	}
	return nil
}

// rmdir removes the empty folder d (an error when it is not empty).
func rmdir(d string) error { return syscall.Rmdir(d) }
