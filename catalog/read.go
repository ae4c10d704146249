package catalog

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"unicode/utf8"
)

// stamp identifies one version of a file for the mtime cache (D4.7).
type stamp struct {
	size  int64
	mtime int64
	ino   uint64
	dev   uint64
}

// readResult is a skill file's first bytes.
type readResult struct {
	data      []byte // at most maxSkillBytes, cut at a rune boundary
	truncated bool
	size      int64 // size on disk
	stamp     stamp
	buf       *[]byte // pooled buffer backing data
}

func (r *readResult) release() {
	if r.buf != nil {
		bufPool.Put(r.buf)
		r.buf = nil
		r.data = nil
	}
}

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, DefaultMaxSkillBytes+1); return &b }}

// errEscape is returned when a skill file is a symlink whose target is
// outside the allowed boundary.
type errEscape struct{ target string }

func (e *errEscape) Error() string {
	return "resolves to " + e.target + ", outside its root's boundary"
}
func (e *errEscape) Unwrap() error { return ErrOutside }

// readSkillFile reads up to max bytes of a skill file. It never blocks on a
// FIFO or device: the file is opened non-blocking and must be regular. When
// the file is a symlink, allowed (if not nil) must accept its resolved
// target.
func readSkillFile(path string, max int, allowed func(string) bool) (*readResult, error) {
	f, err := openNoFollow(path)
	if err != nil && isSymlinkErr(err) {
		real, rerr := filepath.EvalSymlinks(path)
		if rerr != nil {
			return nil, rerr
		}
		if allowed != nil && !allowed(real) {
			return nil, &errEscape{target: real}
		}
		f, err = openFollow(path)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%w (%s)", ErrNotFile, fileKind(fi.Mode()))
	}
	bp := bufPool.Get().(*[]byte)
	buf := (*bp)[:0]
	if cap(buf) < max+1 {
		buf = make([]byte, 0, max+1)
	}
	buf = buf[:max+1]
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		*bp = buf[:0]
		bufPool.Put(bp)
		return nil, err
	}
	*bp = buf[:0]
	r := &readResult{data: buf[:n], size: fi.Size(), stamp: stampOf(fi), buf: bp}
	if n > max {
		r.truncated = true
		r.data = cutRune(buf[:max])
	}
	// A file that changed while it was read gets no stamp, so the next
	// List reads it again.
	if fi2, err := f.Stat(); err != nil || stampOf(fi2) != r.stamp {
		r.stamp = stamp{}
	}
	if r.size < int64(n) {
		r.size = int64(n)
	}
	return r, nil
}

// cutRune drops a trailing partial UTF-8 sequence.
func cutRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}

func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeDevice != 0 || m&fs.ModeCharDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}

func statStamp(path string) (stamp, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return stamp{}, err
	}
	return stampOf(fi), nil
}
