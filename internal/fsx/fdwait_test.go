package fsx

import (
	"errors"
	"io/fs"
	"syscall"
	"testing"
	"time"
)

// TestOpenRetry: an open that runs out of descriptors is tried again until
// it succeeds or fails otherwise; one that never gets a descriptor gives
// up, and the next open does not wait; other errors are not retried.
func TestOpenRetry(t *testing.T) {
	fdGiveUpUntil.Store(0)
	defer fdGiveUpUntil.Store(0)
	emfile := &fs.PathError{Op: "open", Path: "x", Err: syscall.EMFILE}
	failing := func(fails int, then error) (func() (int, error), *int) {
		calls := new(int)
		return func() (int, error) {
			*calls++
			if *calls <= fails {
				return 0, emfile
			}
			return 7, then
		}, calls
	}
	for _, tt := range []struct {
		name      string
		fails     int
		then      error
		wantCalls int
		wantErr   error
	}{
		{"opens at once", 0, nil, 1, nil},
		{"opens at the fourth try", 3, nil, 4, nil},
		{"ENFILE too", 2, nil, 3, nil},
		{"another error at the second try", 1, syscall.EACCES, 2, syscall.EACCES},
	} {
		open, calls := failing(tt.fails, tt.then)
		if tt.name == "ENFILE too" {
			inner := open
			open = func() (int, error) {
				v, err := inner()
				if err != nil && errors.Is(err, syscall.EMFILE) {
					err = syscall.ENFILE
				}
				return v, err
			}
		}
		v, err := OpenRetry(open)
		if *calls != tt.wantCalls || !errors.Is(err, tt.wantErr) || err == nil && v != 7 {
			t.Errorf("%s: %d calls, %v, %v; want %d calls, %v", tt.name, *calls, v, err, tt.wantCalls, tt.wantErr)
		}
	}
	open, calls := failing(1<<30, nil)
	if _, err := OpenRetry(open); !OutOfFDs(err) || *calls < 10 {
		t.Fatalf("never a descriptor: %d calls, %v; want EMFILE after 10 tries or more", *calls, err)
	}
	open, calls = failing(1<<30, nil)
	if _, err := OpenRetry(open); !OutOfFDs(err) || *calls != 1 {
		t.Fatalf("right after giving up: %d calls, %v; want 1 call and EMFILE", *calls, err)
	}
}

// TestOpenRetryWhileOthersOpen: an open keeps waiting past 500 ms as long
// as other opens succeed, told by Opened as the listing's openat and
// openat2 calls tell it (descriptors are coming free, only slowly, as on a
// loaded machine), and gets its descriptor in the end.
func TestOpenRetryWhileOthersOpen(t *testing.T) {
	fdGiveUpUntil.Store(0)
	defer fdGiveUpUntil.Store(0)
	emfile := &fs.PathError{Op: "open", Path: "x", Err: syscall.EMFILE}
	free := make(chan struct{})
	stop := make(chan struct{})
	go func() { // others get descriptors every 50 ms, for 1.2 s
		defer close(free)
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for i := 0; i < 24; i++ {
			select {
			case <-tick.C:
				Opened()
			case <-stop:
				return
			}
		}
	}()
	defer close(stop)
	calls := 0
	v, err := OpenRetry(func() (int, error) {
		calls++
		select {
		case <-free:
			return 7, nil
		default:
			return 0, emfile
		}
	})
	if err != nil || v != 7 {
		t.Fatalf("after %d calls: %v, %v; want the descriptor once the others stop holding them", calls, v, err)
	}
}
