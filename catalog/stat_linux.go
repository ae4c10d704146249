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
	return fstatatIn(noDir, ref, flags)
}

// dirAt is a folder the walk holds open, so the paths below it are looked
// up from it (a few path components) instead of from "/" (all of them).
type dirAt struct {
	fd   int
	path string
}

// noDir is no open folder: paths are looked up whole.
var noDir = dirAt{fd: -1}

// rel returns the NUL-terminated path of ref below at, and at's descriptor,
// or ref's whole path and AT_FDCWD when ref is not below at.
func (at dirAt) rel(ref pathRef) (int, *byte) {
	n := len(at.path)
	if at.fd >= 0 && len(ref.path) > n+1 && ref.path[n] == '/' && ref.path[:n] == at.path && len(ref.z) == len(ref.path)+1 {
		return at.fd, &ref.z[n+1]
	}
	return atFDCWD, &ref.z[0]
}

func (at dirAt) close() {
	if at.fd >= 0 {
		syscall.Close(at.fd)
	}
}

func lstatAt(at dirAt, ref pathRef) (stamp, fs.FileMode, error) {
	return fstatatIn(at, ref, atSymlinkNoFollow)
}

func statAt(at dirAt, ref pathRef) (stamp, fs.FileMode, error) { return fstatatIn(at, ref, 0) }

func fstatatIn(at dirAt, ref pathRef, flags int) (stamp, fs.FileMode, error) {
	var st syscall.Stat_t
	dirfd, name := at.rel(ref)
	for {
		_, _, e := syscall.Syscall6(sysFstatat, uintptr(dirfd), uintptr(unsafe.Pointer(name)),
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
	s := stamp{size: st.Size, mtime: st.Mtim.Sec*1e9 + st.Mtim.Nsec, ctime: st.Ctim.Sec*1e9 + st.Ctim.Nsec, ino: uint64(st.Ino), dev: uint64(st.Dev)}
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
