// Package fsx holds the file-system mechanisms the other packages share:
// the capped, non-blocking read of a regular file ([ReadFile],
// [ReadOpen]), the atomic, compare-and-swap replacement of a file that
// keeps what the file was (owner, mode, extended attributes) or refuses
// ([Replace]), the checks of relative paths ([CleanRel], [Within]) and
// the folders no walk enters ([SkipDir]).
package fsx

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"
)

// Errors of this package; they are wrapped with the path and details, so
// test them with errors.Is.
var (
	// ErrNotRegular: the path is not a regular file (a FIFO, a device, a
	// socket or a folder).
	ErrNotRegular = errors.New("not a regular file")
	// ErrTooLarge: the file is over the size limit given.
	ErrTooLarge = errors.New("file too large")
	// ErrChanged: the file on disk is no longer the version that was read.
	ErrChanged = errors.New("the file changed on disk since it was read")
	// ErrRefused: replacing the file would lose something it has (an
	// owner, a hard link, an extended attribute) or it is read-only; the
	// message says what.
	ErrRefused = errors.New("refused to replace the file")
)

// Version identifies one state of a file: its size, modification time,
// device and inode, mode and a SHA-256 of its bytes. [Replace] compares a
// file's current state with it.
type Version struct {
	Size    int64
	ModTime time.Time
	Mode    fs.FileMode
	Dev     uint64
	Ino     uint64
	Sum     [sha256.Size]byte
}

// ReadFile reads the whole file at path, which must be a regular file of at
// most max bytes (max < 0: no limit). It never blocks: the file is opened
// non-blocking, so a FIFO or device in its place is refused with
// ErrNotRegular instead of hanging, and a larger file is refused with
// ErrTooLarge (also when it grows past max while it is read); both are a
// [*ReadError] named path. Symlinks are followed.
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := openRead(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, _, err := ReadOpen(f, path, max)
	return data, err
}

// ReadRegular reads the file at path as [ReadFile] does and returns the
// bytes with their [Version], for a caller that may replace the file.
func ReadRegular(path string, max int64) ([]byte, *Version, error) {
	f, err := openRead(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	data, fi, err := ReadOpen(f, path, max)
	if err != nil {
		return nil, nil, err
	}
	v := versionOf(fi)
	v.Sum = sha256.Sum256(data)
	return data, v, nil
}

// Open opens path for reading as [ReadFile] does: non-blocking (a FIFO or
// a device never hangs the open or a read), close-on-exec, following
// symlinks.
func Open(path string) (*os.File, error) { return openRead(path) }

// ReadOpen reads the whole of f, already open (by [Open], or through an
// os.Root with O_NONBLOCK), which must be a regular file of at most max
// bytes (max < 0: no limit). A file of another kind, a larger file and one
// that grows past max while it is read are a [*ReadError] named name
// (wrapping ErrNotRegular or ErrTooLarge); a failed stat or read is
// returned as it is. It returns the file's stat from before the read.
func ReadOpen(f *os.File, name string, max int64) ([]byte, fs.FileInfo, error) {
	return read(f, name, max, true)
}

// ReadHead reads the first max bytes of f (max >= 0), already open as for
// [ReadOpen], which must be a regular file (else a [*ReadError] wrapping
// ErrNotRegular). A longer file is not an error: the caller that cuts it
// compares the returned stat's size with max and says so.
func ReadHead(f *os.File, name string, max int64) ([]byte, fs.FileInfo, error) {
	return read(f, name, max, false)
}

func read(f *os.File, name string, max int64, whole bool) ([]byte, fs.FileInfo, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, &ReadError{Name: name, Err: ErrNotRegular, Mode: fi.Mode()}
	}
	if whole && max >= 0 && fi.Size() > max {
		return nil, nil, &ReadError{Name: name, Err: ErrTooLarge, Size: fi.Size(), Max: max}
	}
	r, limit := io.Reader(f), int64(-1)
	switch {
	case whole && max >= 0:
		limit = max + 1
	case !whole:
		limit = max
	}
	if limit >= 0 {
		r = io.LimitReader(f, limit)
	}
	data, err := readSized(r, fi.Size(), limit)
	if err != nil {
		return nil, nil, err
	}
	if whole && max >= 0 && int64(len(data)) > max {
		return nil, nil, &ReadError{Name: name, Err: ErrTooLarge, Size: -1, Max: max}
	}
	return data, fi, nil
}

// readSized reads r to its end, as io.ReadAll does, into a buffer sized
// from the file's stat: size bytes and one more, so that the read which
// finds the end needs no larger buffer, and no more than limit (limit < 0:
// none), all r can give (it stops there without asking r for its end). io.ReadAll starts at 512 bytes and grows by
// copying: a 7 KB skill file cost five buffers and four copies, 2.3 times
// its size allocated (BenchmarkReadOpen). A file that grew since the stat,
// or reports no size (/proc), grows the buffer as append does.
func readSized(r io.Reader, size, limit int64) ([]byte, error) {
	n := size + 1
	if limit >= 0 && n > limit {
		n = limit
	}
	b := make([]byte, 0, max(n, 512))
	for {
		if limit >= 0 && int64(len(b)) == limit {
			return b, nil // all r can give
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		m, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+m]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// ReadError is a read refused by [ReadFile], [ReadRegular] or [ReadOpen]:
// the file is not a regular file, or it is over the limit.
type ReadError struct {
	// Name is the file as the caller named it; "" leaves it out of the
	// message.
	Name string
	// Err is ErrNotRegular or ErrTooLarge.
	Err error
	// Mode is the file's mode (ErrNotRegular).
	Mode fs.FileMode
	// Size is the file's size in bytes before the read, or -1 when it grew
	// past Max while it was read (ErrTooLarge).
	Size int64
	// Max is the limit in bytes (ErrTooLarge).
	Max int64
}

// Error reads "NAME: not a regular file (a named pipe)", "NAME: file too
// large: 5000 bytes, over the 4000-byte limit" or "NAME: file too large:
// it grew past the 4000-byte limit while it was read".
func (e *ReadError) Error() string {
	var msg string
	switch {
	case e.Err == ErrNotRegular:
		msg = e.Err.Error() + " (" + Kind(e.Mode) + ")"
	case e.Size < 0:
		msg = fmt.Sprintf("%v: it grew past the %d-byte limit while it was read", e.Err, e.Max)
	default:
		msg = fmt.Sprintf("%v: %d bytes, over the %d-byte limit", e.Err, e.Size, e.Max)
	}
	if e.Name == "" {
		return msg
	}
	return e.Name + ": " + msg
}

// Unwrap returns Err.
func (e *ReadError) Unwrap() error { return e.Err }

func versionOf(fi fs.FileInfo) *Version {
	v := &Version{Size: fi.Size(), ModTime: fi.ModTime(), Mode: fi.Mode()}
	v.Dev, v.Ino = devIno(fi)
	return v
}

// same reports whether the file at path is still version v: same device,
// inode, size, time and mode, and the same bytes.
func same(path string, v *Version) bool {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	cur := versionOf(fi)
	if cur.Dev != v.Dev || cur.Ino != v.Ino || cur.Size != v.Size || !cur.ModTime.Equal(v.ModTime) || cur.Mode != v.Mode {
		return false
	}
	data, err := ReadFile(path, v.Size)
	if err != nil {
		return false
	}
	return sha256.Sum256(data) == v.Sum
}

// Kind names the kind of a file that is not regular, for messages: "a
// folder", "a named pipe", "a socket", "a device", "a symlink", else "not
// a regular file".
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	}
	return "not a regular file"
}

// Replace writes data to path atomically, provided the file is still the
// version v that was read: the bytes go to a temporary file in the same
// folder that gets the file's owner, mode (setuid, setgid and sticky bits
// included) and extended attributes, which then takes the file's place in
// one rename. Right before that rename the file is compared with v (size,
// time, mode, device, inode and a hash of its bytes); on Linux the rename
// is an exchange (renameat2 RENAME_EXCHANGE), and the file taken out is
// compared again, so an edit that lands between the comparison and the
// rename is put back rather than lost. Either way a file that is not v any
// more is left as it is and Replace returns ErrChanged.
//
// Replace refuses (ErrRefused, saying why) a file that is read-only (no
// write bit), that has more than one hard link (a replacement would split
// them: the other names would keep the old bytes), whose owner or
// extended attributes cannot be given to the replacement, or that is not a
// regular file. path must not be a symlink: resolve it first.
func Replace(path string, v *Version, data []byte) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: %w: %s", path, ErrRefused, Kind(fi.Mode()))
	}
	if fi.Mode().Perm()&0o222 == 0 {
		return fmt.Errorf("%s: %w: it is read-only (mode %s); make it writable first", path, ErrRefused, fi.Mode().Perm())
	}
	if n := nlink(fi); n > 1 {
		return fmt.Errorf("%s: %w: it has %d hard links, and a new file would split them; edit it by hand", path, ErrRefused, n)
	}
	if !same(path, v) {
		return fmt.Errorf("%s: %w", path, ErrChanged)
	}
	tmp, err := prepare(path, fi, data)
	if err != nil {
		return err
	}
	return swap(tmp, path, v, data)
}

// syncWrites makes prepare flush the new file before it takes the old
// one's place (so a crash leaves the old bytes or the new, never neither).
// The race test turns it off: it is about ordering, not durability.
var syncWrites = true

// prepare writes data to a new temporary file beside path, with path's
// owner, mode and extended attributes, and returns its name.
func prepare(path string, fi fs.FileInfo, data []byte) (name string, err error) {
	dir, base := splitPath(path)
	f, err := os.CreateTemp(dir, "."+base+".skillet-*")
	if err != nil {
		return "", err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return "", err
	}
	if err = keep(path, fi, f); err != nil {
		return "", err
	}
	if syncWrites {
		if err = f.Sync(); err != nil {
			return "", err
		}
	}
	if err = f.Close(); err != nil {
		return "", err
	}
	return f.Name(), nil
}

// ours reports whether the file at name holds data and is not version v.
func ours(name string, data []byte) bool {
	got, err := ReadFile(name, int64(len(data)))
	return err == nil && bytes.Equal(got, data)
}
