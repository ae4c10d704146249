// Package fsx holds the file-system mechanisms the other packages share:
// the capped, non-blocking read of a regular file and the atomic,
// compare-and-swap replacement of a file that keeps what the file was
// (owner, mode, extended attributes) or refuses.
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

// ReadRegular reads the whole file at path, which must be a regular file of
// at most max bytes. It never blocks: the file is opened non-blocking, so a
// FIFO or device in its place is refused with ErrNotRegular instead of
// hanging, and a larger file is refused with ErrTooLarge (also when it grows
// past max while it is read). Symlinks are followed. It returns the bytes
// and their [Version].
func ReadRegular(path string, max int64) ([]byte, *Version, error) {
	f, err := openRead(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, kind(fi.Mode()))
	}
	if fi.Size() > max {
		return nil, nil, fmt.Errorf("%s: %w: %d bytes, over the %d-byte limit", path, ErrTooLarge, fi.Size(), max)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, nil, err
	}
	if int64(len(data)) > max {
		return nil, nil, fmt.Errorf("%s: %w: it grew past the %d-byte limit while it was read", path, ErrTooLarge, max)
	}
	v := versionOf(fi)
	v.Sum = sha256.Sum256(data)
	return data, v, nil
}

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
	data, _, err := ReadRegular(path, v.Size)
	if err != nil {
		return false
	}
	return sha256.Sum256(data) == v.Sum
}

// Equal reports whether data is the content v was taken of.
func (v *Version) Equal(data []byte) bool {
	return int64(len(data)) == v.Size && sha256.Sum256(data) == v.Sum
}

func kind(m fs.FileMode) string {
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
		return fmt.Errorf("%s: %w: %s", path, ErrRefused, kind(fi.Mode()))
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
	got, _, err := ReadRegular(name, int64(len(data)))
	return err == nil && bytes.Equal(got, data)
}
