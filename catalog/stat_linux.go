//go:build linux && (amd64 || arm64)

package catalog

import (
	"io/fs"
	"syscall"
	"unsafe"
)

const (
	atFDCWD           = -0x64
	atSymlinkNoFollow = 0x100
)

// fstatat calls fstatat(2) on a prebuilt NUL-terminated path, so the warm
// walk makes one system call and no allocation per skill.
func fstatat(ref pathRef, flags int) (stamp, fs.FileMode, error) {
	var st syscall.Stat_t
	dirfd := atFDCWD
	for {
		_, _, e := syscall.Syscall6(sysFstatat, uintptr(dirfd), uintptr(unsafe.Pointer(&ref.z[0])),
			uintptr(unsafe.Pointer(&st)), uintptr(flags), 0, 0)
		if e == syscall.EINTR {
			continue
		}
		if e == syscall.ENOENT || e == syscall.ENOTDIR {
			return stamp{}, 0, e // no allocation for the common miss
		}
		if e != 0 {
			return stamp{}, 0, &fs.PathError{Op: "stat", Path: ref.path, Err: e}
		}
		break
	}
	s := stamp{size: st.Size, mtime: st.Mtim.Sec*1e9 + st.Mtim.Nsec, ino: uint64(st.Ino), dev: uint64(st.Dev)}
	return s, modeType(st.Mode), nil
}

func lstatRef(ref pathRef) (stamp, fs.FileMode, error) { return fstatat(ref, atSymlinkNoFollow) }
func statRef(ref pathRef) (stamp, fs.FileMode, error)  { return fstatat(ref, 0) }

func modeType(m uint32) fs.FileMode {
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
