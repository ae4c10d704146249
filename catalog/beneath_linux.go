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
// NUL-terminated; path is the full path, for errors. ok is false when the
// general path must be taken instead.
func readBeneath(d rootDir, rel []byte, path string, max int) (r readResult, err error, ok bool) {
	if d < 0 || len(rel) < 2 || rel[len(rel)-1] != 0 || noOpenat2.Load() {
		return readResult{}, nil, false
	}
	how := unix.OpenHow{
		Flags:   uint64(unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOFOLLOW | unix.O_CLOEXEC),
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
	}
	var fd uintptr
	for {
		var e syscall.Errno
		fd, _, e = syscall.Syscall6(unix.SYS_OPENAT2, uintptr(d), uintptr(unsafe.Pointer(&rel[0])),
			uintptr(unsafe.Pointer(&how)), unsafe.Sizeof(how), 0, 0)
		if e == syscall.EINTR {
			continue
		}
		if e == syscall.ENOSYS || e == syscall.EPERM || e == syscall.EINVAL {
			noOpenat2.Store(true)
		}
		if e != 0 {
			return readResult{}, nil, false
		}
		break
	}
	defer syscall.Close(int(fd))
	bp := bufPool.Get().(*[]byte)
	if cap(*bp) < max+1 {
		*bp = make([]byte, 0, max+1)
	}
	fail := func(err error) (readResult, error, bool) {
		bufPool.Put(bp)
		return readResult{}, err, true
	}
	for range readAttempts {
		st, mode, err := fstatFD(int(fd), path)
		if err != nil {
			return fail(err)
		}
		if !mode.IsRegular() {
			return fail(notFileError(mode))
		}
		want := max + 1
		if st.size < int64(want) {
			want = int(st.size)
		}
		buf := (*bp)[:want]
		n := 0
		for n < want {
			m, err := syscall.Pread(int(fd), buf[n:], int64(n))
			if err == syscall.EINTR {
				continue
			}
			if err != nil {
				return fail(&fs.PathError{Op: "read", Path: path, Err: err})
			}
			if m == 0 {
				break
			}
			n += m
		}
		st2, _, err := fstatFD(int(fd), path)
		if err != nil {
			return fail(err)
		}
		if st2 != st {
			continue
		}
		r := readResult{data: buf[:n], size: st.size, stamp: st, buf: bp}
		if n > max {
			r.truncated = true
			r.data = cutRune(buf[:max])
		}
		return r, nil, true
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
