//go:build linux && (amd64 || arm64)

package catalog

import (
	"slices"
	"strings"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// checkStamps stats each path of part (sorted by path) and sets changed
// when one no longer has its stamp. Looking a path up from "/" was most of
// a warm show's time (the kernel's lookup of each component), so a folder
// whose next paths lie below it is opened (O_PATH) and its stamp read from
// the descriptor, and the paths below it are looked up from there: a skill
// file under a root costs one fstatat of two or three components. all is
// every stamp (sorted): a part that begins below a folder stamped before it
// opens that folder first.
func checkStamps(all, part []pathStamp, changed *atomic.Bool) {
	var stack []dirAt // open folders, each below the one before
	defer func() {
		for _, at := range stack {
			at.close()
		}
	}()
	var z []byte
	for i, ps := range part {
		if changed.Load() {
			return
		}
		for len(stack) > 0 && !isBelow(ps.path, stack[len(stack)-1].path) {
			stack[len(stack)-1].close()
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			if d, ok := openAncestor(all, ps.path); ok {
				stack = append(stack, d)
			}
		}
		at := noDir
		if len(stack) > 0 {
			at = stack[len(stack)-1]
		}
		z = append(append(z[:0], ps.path...), 0)
		ref := pathRef{path: ps.path, z: z}
		var now pathStamp
		if !ps.missing && i+1 < len(part) && isBelow(part[i+1].path, ps.path) {
			if d, st, ok := openDirAt(at, ref); ok {
				stack = append(stack, d)
				now = pathStamp{path: ps.path, stamp: st}
			} else {
				now = stampAt(at, ref)
			}
		} else {
			now = stampAt(at, ref)
		}
		if now.missing != ps.missing || now.stamp != ps.stamp {
			changed.Store(true)
			return
		}
	}
}

// openAncestor opens the deepest folder above p that all stamps as
// present, for the lookups of p and the paths after it.
func openAncestor(all []pathStamp, p string) (dirAt, bool) {
	for dir := p; ; {
		i := strings.LastIndexByte(dir, '/')
		if i <= 0 {
			return noDir, false
		}
		dir = dir[:i]
		k, found := slices.BinarySearchFunc(all, dir, func(ps pathStamp, d string) int { return strings.Compare(ps.path, d) })
		if !found || all[k].missing {
			continue
		}
		fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			return noDir, false
		}
		return dirAt{fd: fd, path: dir}, true
	}
}

// stampAt is indexStat looked up from at.
func stampAt(at dirAt, ref pathRef) pathStamp {
	st, _, err := statAt(at, ref)
	if err != nil {
		return pathStamp{path: ref.path, missing: true}
	}
	return pathStamp{path: ref.path, stamp: st}
}

// openDirAt opens ref's folder (following symlinks, as stat does) below
// at, and returns it with its stamp; ok is false when it is not a folder
// that opens, and the caller stats it instead.
func openDirAt(at dirAt, ref pathRef) (dirAt, stamp, bool) {
	dirfd, name := at.rel(ref)
	fd, err := unix.Openat(dirfd, unix.BytePtrToString(name), unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return noDir, stamp{}, false
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return noDir, stamp{}, false
	}
	return dirAt{fd: fd, path: ref.path}, statStampOf(&st), true
}
