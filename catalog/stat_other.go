//go:build !(linux && (amd64 || arm64))

package catalog

import (
	"io/fs"
	"os"
	"sync/atomic"
)

// lstatRef and statRef stat a path; on these platforms they allocate.
func lstatRef(ref pathRef) (stamp, fs.FileMode, error) {
	fi, err := os.Lstat(ref.path)
	if err != nil {
		return stamp{}, 0, err
	}
	return stampOf(fi), fi.Mode().Type(), nil
}

func statRef(ref pathRef) (stamp, fs.FileMode, error) {
	fi, err := os.Stat(ref.path)
	if err != nil {
		return stamp{}, 0, err
	}
	return stampOf(fi), fi.Mode().Type(), nil
}

// dirAt is a folder the walk holds open; on these platforms none is, and
// paths are looked up whole.
type dirAt struct {
	fd   int
	path string
}

var noDir = dirAt{fd: -1}

func (dirAt) close() {}

func statAt(_ dirAt, ref pathRef) (stamp, fs.FileMode, error) { return statRef(ref) }

// lstatLinksAt is an lstat of ref with the link count, which these
// platforms do not report here: 0, so a file is never trusted unstat'ed
// (listTouched).
func lstatLinksAt(_ dirAt, ref pathRef) (stamp, fs.FileMode, uint64, error) {
	st, mode, err := lstatRef(ref)
	return st, mode, 0, err
}

// checkStamps stats each path of part and sets changed when one no longer
// has its stamp; on these platforms each path is looked up whole.
func checkStamps(_, part []pathStamp, changed *atomic.Bool) {
	for _, ps := range part {
		if changed.Load() {
			return
		}
		now := indexStat(ps.path)
		if now.missing != ps.missing || now.stamp != ps.stamp {
			changed.Store(true)
			return
		}
	}
}
