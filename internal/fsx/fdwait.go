package fsx

import (
	"errors"
	"sync/atomic"
	"syscall"
	"time"
)

// Out-of-descriptor retries. A listing reads with several goroutines at
// once, each holding a descriptor or two for a moment; under a low
// RLIMIT_NOFILE (a hard limit of 16, say, which Go cannot raise) one of
// them may find the table full while the others are about to close
// theirs. Reporting that file or folder as unreadable would drop a skill
// that a moment later opens fine, and which skills were dropped would
// change from run to run.
const (
	fdWaitFirst = time.Millisecond
	fdWaitMax   = 32 * time.Millisecond
	// fdWaitIdle bounds the waits of one open while no other open succeeds
	// (Opened): descriptors are still coming free as long as others get
	// them, however slowly a loaded machine runs the goroutines that hold
	// them, so the time counts only while nothing moves.
	fdWaitIdle = 500 * time.Millisecond
	// fdWaitTotal bounds the waits of one open in all, however much moves.
	fdWaitTotal = 10 * time.Second
	// fdWaitQuiet is how long, after one open waited fdWaitIdle in vain,
	// the others do not wait at all: the descriptors are then held by
	// something that is not about to let go, and each file waiting half a
	// second would only make the listing slow as well as short.
	fdWaitQuiet = 2 * time.Second
)

// fdGiveUpUntil is the UnixNano time before which OpenRetry does not wait.
var fdGiveUpUntil atomic.Int64

// fdOpened counts the opens that succeeded, through OpenRetry or told by
// Opened: a waiting open sees by it that descriptors still come free.
var fdOpened atomic.Int64

// Opened tells the waiting opens of OpenRetry that a descriptor was just
// opened by a call that does not go through OpenRetry (the listing's
// openat2 reads of skill files, OpenDirAt): a descriptor came free for it,
// so descriptors are still moving. Without it, a waiting open counted only
// the other waiting ones, while most of a listing's opens take the fast
// paths, which never wait: a walk waiting for a folder while the readers'
// openat2 calls take each descriptor that comes free could see nothing
// move and give up after 500 ms, and the 2 s without waits that follow
// then report readable skills unreadable.
func Opened() { fdOpened.Add(1) }

// OutOfFDs reports whether err is EMFILE (the process's descriptor table
// is full) or ENFILE (the system's is).
func OutOfFDs(err error) bool {
	return errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE)
}

// OpenRetry calls open, and again while it fails with EMFILE or ENFILE
// (OutOfFDs), sleeping between tries (1 ms, doubling up to 32 ms); it
// returns what the last call returned. It gives up once 500 ms pass in
// which no other open succeeded (through it or told by Opened: descriptors
// stopped coming free), or after 10 s in all; then calls in the next 2 s
// of the process do not wait.
func OpenRetry[T any](open func() (T, error)) (T, error) {
	v, err := open()
	if err == nil {
		fdOpened.Add(1)
		return v, err
	}
	if !OutOfFDs(err) || time.Now().UnixNano() < fdGiveUpUntil.Load() {
		return v, err
	}
	wait, idle, total := fdWaitFirst, time.Duration(0), time.Duration(0)
	seen := fdOpened.Load()
	for idle < fdWaitIdle && total < fdWaitTotal {
		time.Sleep(wait)
		idle += wait
		total += wait
		wait = min(2*wait, fdWaitMax)
		if v, err = open(); err == nil || !OutOfFDs(err) {
			if err == nil {
				fdOpened.Add(1)
			}
			return v, err
		}
		if n := fdOpened.Load(); n != seen {
			seen, idle = n, 0
		}
	}
	fdGiveUpUntil.Store(time.Now().Add(fdWaitQuiet).UnixNano())
	return v, err
}
