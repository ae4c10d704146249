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
	// fdWaitTotal bounds the waits of one open.
	fdWaitTotal = 500 * time.Millisecond
	// fdWaitQuiet is how long, after one open waited fdWaitTotal in vain,
	// the others do not wait at all: the descriptors are then held by
	// something that is not about to let go, and each file waiting half a
	// second would only make the listing slow as well as short.
	fdWaitQuiet = 2 * time.Second
)

// fdGiveUpUntil is the UnixNano time before which OpenRetry does not wait.
var fdGiveUpUntil atomic.Int64

// OutOfFDs reports whether err is EMFILE (the process's descriptor table
// is full) or ENFILE (the system's is).
func OutOfFDs(err error) bool {
	return errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE)
}

// OpenRetry calls open, and again while it fails with EMFILE or ENFILE
// (OutOfFDs), sleeping between tries (1 ms, doubling up to 32 ms), for at
// most 500 ms in all; it returns what the last call returned. When one
// call has waited that long in vain, calls in the next 2 s of the process
// do not wait.
func OpenRetry[T any](open func() (T, error)) (T, error) {
	v, err := open()
	if err == nil || !OutOfFDs(err) || time.Now().UnixNano() < fdGiveUpUntil.Load() {
		return v, err
	}
	wait, waited := fdWaitFirst, time.Duration(0)
	for waited < fdWaitTotal {
		time.Sleep(wait)
		waited += wait
		wait = min(2*wait, fdWaitMax)
		if v, err = open(); err == nil || !OutOfFDs(err) {
			return v, err
		}
	}
	fdGiveUpUntil.Store(time.Now().Add(fdWaitQuiet).UnixNano())
	return v, err
}
