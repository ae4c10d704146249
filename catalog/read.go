package catalog

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/skill"
)

// stamp identifies one version of a file for the mtime cache (docs/discovery.md#caching).
type stamp struct {
	size  int64
	mtime int64
	// ctime is the inode's change time, where the system reports it (0
	// elsewhere): a file rewritten with its size and modification time
	// put back (cp -p, unzip -o, fixed archive times) still changes it.
	ctime int64
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

// bufPool holds the buffers skill files are read into. One starts at
// readBufMin bytes, which holds most skill files, and grows when a file
// needs more (up to maxSkillBytes+1): a reader holds a buffer the size of
// the largest file it read, not of the largest file it could read.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, readBufMin); return &b }}

const readBufMin = 16 << 10

// sized returns (*bp)[:n], first growing the buffer to n bytes (rounded
// up to 4 KiB) when it is smaller.
func sized(bp *[]byte, n int) []byte {
	if cap(*bp) < n {
		*bp = make([]byte, 0, (n+4095)&^4095)
	}
	return (*bp)[:n]
}

// errEscape is returned when a skill file is a symlink whose target is
// outside the allowed boundary.
type errEscape struct{ target string }

func (e *errEscape) Error() string {
	return "resolves to " + e.target + ", outside its root's boundary"
}
func (e *errEscape) Unwrap() error { return ErrOutside }

// readAttempts bounds how often a file that changes while it is read is
// read again.
const readAttempts = 3

// errUnstable is a file that kept changing while it was read.
var errUnstable = errors.New("the file kept changing while it was being read")

// readSkillFile reads up to max bytes of a skill file. It never blocks on a
// FIFO or device: the file is opened non-blocking and must be regular. When
// the file is a symlink, allowed (if not nil) must accept its resolved
// target. A file whose size, time or inode changes during the read is read
// again, up to readAttempts times, so a torn read is never parsed.
func readSkillFile(path string, max int, allowed func(string) bool) (readResult, error) {
	f, err := openNoFollow(path)
	if err != nil && isSymlinkErr(err) {
		real, rerr := filepath.EvalSymlinks(path)
		if rerr != nil {
			return readResult{}, rerr
		}
		if allowed != nil && !allowed(real) {
			return readResult{}, &errEscape{target: real}
		}
		f, err = openFollow(path)
	}
	if err != nil {
		return readResult{}, err
	}
	defer f.Close()
	if err := checkOpened(f, allowed); err != nil {
		return readResult{}, err
	}
	bp := bufPool.Get().(*[]byte)
	fail := func(err error) (readResult, error) {
		bufPool.Put(bp)
		return readResult{}, err
	}
	for range readAttempts {
		fi, err := f.Stat()
		if err != nil {
			return fail(err)
		}
		if !fi.Mode().IsRegular() {
			return fail(notFileError(fi.Mode()))
		}
		want := max + 1
		if fi.Size() < int64(want) {
			want = int(fi.Size())
		}
		buf := sized(bp, want)
		n, err := f.ReadAt(buf, 0)
		if err != nil && !errors.Is(err, io.EOF) {
			return fail(err)
		}
		fi2, err := f.Stat()
		if err != nil {
			return fail(err)
		}
		if stampOf(fi2) != stampOf(fi) {
			continue
		}
		r := readResult{data: buf[:n], size: fi.Size(), stamp: stampOf(fi), buf: bp}
		if n > max {
			r.truncated = true
			r.data = cutRune(buf[:max])
		}
		return r, nil
	}
	return fail(errUnstable)
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

// notFileError is ErrNotFile for a file of mode m: "not a regular file (a
// named pipe)".
func notFileError(m fs.FileMode) error { return &fsx.ReadError{Err: ErrNotFile, Mode: m} }

func statStamp(path string) (stamp, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return stamp{}, err
	}
	return stampOf(fi), nil
}

func evalName(f *os.File) (string, error) { return filepath.EvalSymlinks(f.Name()) }

// checkOpened verifies that the file f, already open, lies where allowed
// accepts (the skill's boundary, docs/discovery.md#boundaries). It is the check that holds when a
// path is swapped for a symlink between the walk and the read.
func checkOpened(f *os.File, allowed func(string) bool) error {
	if allowed == nil {
		return nil
	}
	real, err := openedPath(f)
	if err != nil {
		return err
	}
	if !allowed(real) {
		return &errEscape{target: real}
	}
	return nil
}

// parsedFile is catalogx.Hooks.ParsedFile: the parse the last List made of
// the skill file of s, when fi is the version it read whole. The listing's
// parse has no body unless the catalog keeps bodies (catalogx.KeepBodies);
// it is then cut from data as skill.Parse cuts it (Skill.BodyOffset on,
// trailing white space dropped, line ends made "\n").
func (c *Catalog) parsedFile(s *Skill, fi fs.FileInfo, data []byte) (*skill.Skill, []skill.Diagnostic, bool) {
	if fi == nil || s.c != c {
		return nil, nil, false
	}
	c.mu.Lock()
	e := c.cache[s.Location]
	bodies := c.opts.bodies && c.onParsed == nil
	c.mu.Unlock()
	if e == nil || e.skill == nil || e.truncated || e.stamp != stampOf(fi) || int64(len(data)) != e.size ||
		e.skill.BodyOffset > len(data) {
		return nil, nil, false
	}
	if bodies {
		return e.skill, e.diags, true
	}
	p := *e.skill
	p.Body = parsedBody(data[p.BodyOffset:])
	return &p, e.diags, true
}

// parsedBody is a body as skill.Parse keeps it: without trailing white
// space, every "\r\n" and lone "\r" made "\n".
func parsedBody(b []byte) string {
	b = bytes.TrimRight(b, " \t\r\n")
	if bytes.IndexByte(b, '\r') < 0 {
		return string(b)
	}
	return strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(string(b))
}
