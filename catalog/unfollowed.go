package catalog

import (
	"errors"
	"io/fs"
	"strings"
	"syscall"
)

// Paths the listing could not follow, in the persistent index
// (docs/performance.md#persistent-index). A symlink whose target is
// missing, or that is part of a loop, is a diagnostic of the listing
// (broken-link, symlink-loop) and leaves no stamp of a folder or file the
// walk read: its target appearing, or the loop being broken, outside
// every folder the walk read changes no stamp, and an index would go on
// answering with the diagnostic. Such a path is kept in the index stamped
// missing (a stat that follows links fails on it), so that a stat that
// succeeds later is a change. A skill file that did not read for another
// reason (permission, a file that kept changing, not a regular file) could
// read later with no stamp changing: then no index is written.

// unfollowedPaths are the paths one List could not follow, for its index
// (saveIndex).
type unfollowedPaths struct {
	stamps []pathStamp
	// bad says a path could not be stamped as unfollowedStamp requires:
	// no index is written.
	bad bool
}

// add records path, which could not be followed or read (err).
func (u *unfollowedPaths) add(path string, err error) {
	if ps, ok := unfollowedStamp(path, err); ok {
		u.stamps = append(u.stamps, ps)
	} else {
		u.bad = true
	}
}

// reset empties u for the next List, keeping its memory.
func (u *unfollowedPaths) reset() { *u = unfollowedPaths{stamps: u.stamps[:0]} }

// unfollowedStamp is the stamp the index keeps of path, which the listing
// could not follow or read (err): missing, when err says a symlink's
// target is missing or loops and a stat of path that follows links fails
// now too. ok is false for any other error, and when the stat succeeds
// (the path changed since it failed): then no index may be written.
func unfollowedStamp(path string, err error) (ps pathStamp, ok bool) {
	if !errors.Is(err, fs.ErrNotExist) && !isLinkLoop(err) {
		return pathStamp{}, false
	}
	ps = indexStat(path)
	return ps, ps.missing
}

// isLinkLoop reports whether err is a symlink loop (ELOOP, or the
// resolver's own "too many links" from filepath.EvalSymlinks).
func isLinkLoop(err error) bool {
	return errors.Is(err, syscall.ELOOP) || strings.Contains(err.Error(), "too many links")
}

// unfollow records a path the listing could not follow or read (err) for
// the index being written: the stream's while Each lists (from the walk's
// goroutine or Each's), else a List's, kept until it saves its index. A
// one-shot listing that writes no index keeps nothing.
func (s *listScratch) unfollow(path string, err error) {
	switch {
	case s.stream != nil:
		s.stream.unfollowed(path, err)
	case !s.oneShot:
		s.unfollowed.add(path, err)
	}
}
