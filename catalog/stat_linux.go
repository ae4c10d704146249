//go:build linux && (amd64 || arm64)

package catalog

import (
	"io/fs"
	"syscall"

	"github.com/skillet-go/skillet/internal/fsx"
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
	return fsx.AtFDCWD, &ref.z[0]
}

func (at dirAt) close() {
	if at.fd >= 0 {
		syscall.Close(at.fd)
	}
}

func statAt(at dirAt, ref pathRef) (stamp, fs.FileMode, error) { return fstatatIn(at, ref, 0) }

func fstatatIn(at dirAt, ref pathRef, flags int) (stamp, fs.FileMode, error) {
	st, mode, _, err := fstatatLinks(at, ref, flags)
	return st, mode, err
}

// lstatLinksAt is an lstat(2) of ref from at that also returns the
// file's link count (st_nlink).
func lstatLinksAt(at dirAt, ref pathRef) (stamp, fs.FileMode, uint64, error) {
	return fstatatLinks(at, ref, fsx.AtSymlinkNoFollow)
}

// fstatatLinks is fstatatIn that also returns the link count.
func fstatatLinks(at dirAt, ref pathRef, flags int) (stamp, fs.FileMode, uint64, error) {
	var st syscall.Stat_t
	dirfd, name := at.rel(ref)
	switch e := fsx.Fstatat(dirfd, name, &st, flags); e {
	case 0:
	case syscall.ENOENT, syscall.ENOTDIR:
		return stamp{}, 0, 0, e // no allocation for the common miss
	default:
		return stamp{}, 0, 0, &fs.PathError{Op: "stat", Path: ref.path, Err: e}
	}
	return statStampOf(&st), fsx.ModeType(st.Mode), uint64(st.Nlink), nil
}

// statStampOf is the stamp of a stat(2) result.
func statStampOf(st *syscall.Stat_t) stamp {
	return stamp{size: st.Size, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(), ino: uint64(st.Ino), dev: uint64(st.Dev)}
}

func lstatRef(ref pathRef) (stamp, fs.FileMode, error) { return fstatat(ref, fsx.AtSymlinkNoFollow) }
func statRef(ref pathRef) (stamp, fs.FileMode, error)  { return fstatat(ref, 0) }
