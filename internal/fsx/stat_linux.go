//go:build linux && (amd64 || arm64)

package fsx

import (
	"io/fs"
	"syscall"
	"unsafe"
)

// Flags and the current-folder descriptor of [Fstatat].
const (
	AtFDCWD           = -0x64
	AtSymlinkNoFollow = 0x100
)

// Fstatat is fstatat(2) on a NUL-terminated name below the folder dirfd
// (AtFDCWD: the current folder), filling st. It retries when a signal
// interrupts it and makes no allocation, so a walk pays one system call per
// entry; the error is the bare errno (0 when it succeeded).
func Fstatat(dirfd int, name *byte, st *syscall.Stat_t, flags int) syscall.Errno {
	for {
		_, _, e := syscall.Syscall6(sysFstatat, uintptr(dirfd), uintptr(unsafe.Pointer(name)),
			uintptr(unsafe.Pointer(st)), uintptr(flags), 0, 0)
		if e != syscall.EINTR {
			return e
		}
	}
}

// ModeType is the fs.FileMode type bits of a stat(2) mode.
func ModeType(m uint32) fs.FileMode {
	switch m & syscall.S_IFMT {
	case syscall.S_IFDIR:
		return fs.ModeDir
	case syscall.S_IFLNK:
		return fs.ModeSymlink
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return fs.ModeDevice
	}
	return 0
}
