package fsx

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// putBack and rescued count the edits Replace put back (the race test
// reports them): an edit seen in the file taken out by the exchange, and
// a save in place that reached the old file after it was removed.
var putBack, rescued atomic.Int64

// grace is how long Replace watches the old file after the exchange for a
// save in place that opened it just before.
const grace = 2 * time.Millisecond

// maxSwaps bounds the exchanges that put back edits made during Replace.
const maxSwaps = 8

// swap puts tmp (holding data) in path's place with an atomic exchange,
// then checks what came out: version v unchanged means done (it is
// removed); anything else is someone's edit, exchanged back in, and
// Replace reports ErrChanged. A save in place that opened the old file
// before the exchange but wrote after the check is seen through a
// descriptor kept on the old file, and its bytes are written back. A file
// system without RENAME_EXCHANGE gets the check and a plain rename.
func swap(tmp, path string, v *Version, data []byte) error {
	old, err := openRead(path)
	if err != nil {
		os.Remove(tmp)
		return err
	}
	defer old.Close()
	if !fdSame(old, v) || !same(path, v) {
		os.Remove(tmp)
		return fmt.Errorf("%s: %w", path, ErrChanged)
	}
	err = unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, path, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.ENOTSUP) {
		return renameChecked(tmp, path, v)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	// tmp now holds what path held an instant ago.
	if same(tmp, v) {
		if err := os.Remove(tmp); err != nil {
			return err
		}
		// The kernel resolves a path before it truncates, so a save in
		// place may have found the old file before the exchange and reach
		// it only now: look again after a grace period.
		time.Sleep(grace)
		if fdSame(old, v) {
			return nil
		}
		// A save in place was under way on the old file: give its bytes
		// back to path, unless path was saved again since.
		rescued.Add(1)
		saved := settle(old)
		cur, cv, err := ReadRegular(path, int64(max(len(data), len(saved)))+1)
		if fi, lerr := os.Lstat(path); err == nil && lerr == nil && bytes.Equal(cur, data) {
			if tmp2, err := prepare(path, fi, saved); err == nil {
				swap(tmp2, path, cv, saved)
			}
		}
		return fmt.Errorf("%s: %w", path, ErrChanged)
	}
	// An edit landed between the check and the exchange: put it back. What
	// comes out each time is ours (drop it) or a later edit (put it back).
	putBack.Add(1)
	for range maxSwaps {
		if err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, path, unix.RENAME_EXCHANGE); err != nil {
			return fmt.Errorf("%s: %w; the other version is kept as %s (%v)", path, ErrChanged, tmp, err)
		}
		if ours(tmp, data) {
			os.Remove(tmp)
			return fmt.Errorf("%s: %w", path, ErrChanged)
		}
	}
	return fmt.Errorf("%s: %w while skillet wrote it; the other version is kept as %s", path, ErrChanged, tmp)
}

// fdSame reports whether the open file f is still version v.
func fdSame(f *os.File, v *Version) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	cur := versionOf(fi)
	if cur.Dev != v.Dev || cur.Ino != v.Ino || cur.Size != v.Size || !cur.ModTime.Equal(v.ModTime) {
		return false
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, v.Size+1)); err != nil {
		return false
	}
	return [sha256.Size]byte(h.Sum(nil)) == v.Sum
}

// settle waits (up to about 100 ms) until the open file f stops changing
// and returns its bytes.
func settle(f *os.File) []byte {
	var last os.FileInfo
	for range 100 {
		fi, err := f.Stat()
		if err != nil {
			break
		}
		if last != nil && fi.Size() == last.Size() && fi.ModTime().Equal(last.ModTime()) && fi.Size() > 0 {
			break
		}
		last = fi
		time.Sleep(time.Millisecond)
	}
	data, _ := io.ReadAll(io.NewSectionReader(f, 0, 1<<30))
	return data
}
