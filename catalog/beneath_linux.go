//go:build linux && (amd64 || arm64)

package catalog

import (
	"io/fs"
	"os"
	"strconv"
	"sync/atomic"
	"syscall"
	"unsafe"

	"github.com/skillet-go/skillet/internal/fsx"
	"golang.org/x/sys/unix"
)

// The listing reads each skill file with openat2(2) relative to a
// descriptor of its root, resolved with RESOLVE_BENEATH (no "..", no
// absolute symlink, nothing that leaves the root) and RESOLVE_NO_MAGICLINKS
// (no /proc/self/fd-style links). The kernel then guarantees what the
// general path (readSkillFile) checks by asking /proc which file a
// descriptor refers to: the file opened lies inside the root, which the
// walk checked lies inside its boundary (docs/discovery.md#boundaries). A
// rename or symlink swap between the walk and the read cannot move the open
// elsewhere. Anything else openat2 refuses (a symlink, a path that leaves
// the root, a missing file) goes the general way, which gives the same
// result and diagnostics as before.

// noOpenat2 is set when openat2 is missing (Linux before 5.6: ENOSYS) or
// forbidden (a seccomp filter: EPERM, or EINVAL from a kernel that does not
// know the resolve flags); every file then goes the general way.
var noOpenat2 atomic.Bool

// rootDir is an open descriptor of a root folder the walk checked, or -1.
type rootDir int

// openRootDir opens dir (O_PATH) for the reads of one List and checks, once,
// that the folder opened lies where allowed accepts. It returns -1 when the
// fast reads cannot be used for this root.
func openRootDir(dir string, allowed func(string) bool) rootDir {
	if noOpenat2.Load() {
		return -1
	}
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1
	}
	real, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
	if err != nil || !allowed(real) {
		unix.Close(fd)
		return -1
	}
	return rootDir(fd)
}

func (d rootDir) close() {
	if d >= 0 {
		unix.Close(int(d))
	}
}

// readBeneath reads a skill file as readSkillFile does (non-blocking,
// regular files only, at most max bytes, read again when it changes under
// the read) through openat2 relative to d. rel is the path below the root,
// NUL-terminated; path is the full path, for errors. pre, when not zero, is
// the file's stamp from the walk's lstat: the file is read at once and the
// stat after the read must equal it (else it is read again as usual). ok is
// false when the general path must be taken instead.
func readBeneath(d rootDir, rel []byte, path string, max int, pre stamp) (r readResult, err error, ok bool) {
	fd, e := openBeneath(d, rel)
	if e != 0 {
		return readResult{}, nil, false
	}
	defer syscall.Close(fd)
	r, err = readFD(fd, path, max, pre)
	return r, err, true
}

// openBeneath opens rel below d with openat2 (RESOLVE_BENEATH,
// RESOLVE_NO_MAGICLINKS, O_NOFOLLOW, O_NONBLOCK), and tells fsx.Opened
// when it opened. It returns the errno when
// the file was not opened; ENOSYS, EPERM and EINVAL turn openat2 off for
// the process.
func openBeneath(d rootDir, rel []byte) (int, syscall.Errno) {
	if d < 0 || len(rel) < 2 || rel[len(rel)-1] != 0 || noOpenat2.Load() {
		return -1, syscall.ENOSYS
	}
	how := unix.OpenHow{
		Flags:   uint64(unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOFOLLOW | unix.O_CLOEXEC),
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
	}
	for {
		fd, _, e := syscall.Syscall6(unix.SYS_OPENAT2, uintptr(d), uintptr(unsafe.Pointer(&rel[0])),
			uintptr(unsafe.Pointer(&how)), unsafe.Sizeof(how), 0, 0)
		switch e {
		case 0:
			fsx.Opened() // a waiting open (fsx.OpenRetry) sees descriptors move
			return int(fd), 0
		case syscall.EINTR:
			continue
		case syscall.ENOSYS, syscall.EPERM, syscall.EINVAL:
			noOpenat2.Store(true)
		}
		return -1, e
	}
}

// readFD reads the open skill file fd. Each attempt stats the file, reads
// it into a pooled buffer sized from that stat, and stats it again: a file
// whose stamp moved in between is read again, up to readAttempts times. pre,
// when not zero, stands for the first attempt's first stat (the walk's
// lstat of the path, a regular file); if the file then proves to be another
// one, or cannot be read, that attempt does not count.
func readFD(fd int, path string, max int, pre stamp) (readResult, error) {
	bp := bufPool.Get().(*[]byte)
	fail := func(err error) (readResult, error) {
		bufPool.Put(bp)
		return readResult{}, err
	}
	attempts := readAttempts
	if pre != (stamp{}) {
		attempts++
	}
	for range attempts {
		st := pre
		if st == (stamp{}) {
			var mode fs.FileMode
			var err error
			st, mode, err = fstatFD(fd, path)
			if err != nil {
				return fail(err)
			}
			if !mode.IsRegular() {
				return fail(notFileError(mode))
			}
		}
		guess := pre != (stamp{})
		pre = stamp{}
		want := max + 1
		if st.size < int64(want) {
			want = int(st.size)
		}
		buf := sized(bp, want)
		n := 0
		var rerr error
		for n < want {
			m, err := syscall.Pread(fd, buf[n:], int64(n))
			if err == syscall.EINTR {
				continue
			}
			if err != nil {
				rerr = &fs.PathError{Op: "read", Path: path, Err: err}
				break
			}
			if m == 0 {
				break
			}
			n += m
		}
		if rerr != nil {
			if guess {
				continue // perhaps not the file the walk saw: stat it first
			}
			return fail(rerr)
		}
		st2, mode2, err := fstatFD(fd, path)
		if err != nil {
			return fail(err)
		}
		if st2 != st {
			continue
		}
		if !mode2.IsRegular() {
			return fail(notFileError(mode2))
		}
		r := readResult{data: buf[:n], size: st.size, stamp: st, buf: bp}
		if n > max {
			r.truncated = true
			r.data = cutRune(buf[:max])
		}
		return r, nil
	}
	return fail(errUnstable)
}

func fstatFD(fd int, path string) (stamp, fs.FileMode, error) {
	var st syscall.Stat_t
	for {
		err := syscall.Fstat(fd, &st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return stamp{}, 0, &fs.PathError{Op: "stat", Path: path, Err: err}
		}
		break
	}
	return statStampOf(&st), fsx.ModeType(st.Mode), nil
}
