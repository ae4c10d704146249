//go:build linux && (amd64 || arm64)

package catalog

import (
	"context"
	"errors"
	"runtime"
	"testing"
)

// TestEachCancelledMidWalk cancels Each while its walk is halfway through
// a generated tree and holds skill files open for the readers (the walk
// waits in lockstep with the skills handed out, and the context is
// cancelled as it finds a file): Each returns the context's error after
// the skills found before, and no descriptor and no goroutine is left
// behind. Then an fn that fails halfway, without lockstep: the same.
func TestEachCancelledMidWalk(t *testing.T) {
	defer func(f func(string)) { eachLockstep = f }(eachLockstep)
	const n = 300
	ws := benchTree(t, n) // read only, shared with TestEachStops
	opts := &Options{Workspace: ws, NoUser: true, NoConfigFile: true}
	fds, goroutines := openFDs(t), runtime.NumGoroutine()
	for _, mode := range []string{"cancelled", "fn fails"} {
		c, err := New(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		found, handed := 0, 0
		eachLockstep = nil
		if mode == "cancelled" {
			eachLockstep = func(string) {
				if found++; found == n/2 {
					cancel()
				}
			}
		}
		stop := errors.New("stop")
		finishes(t, func() {
			_, err = c.each(ctx, func(*Listing, *Skill) error {
				if handed++; mode == "fn fails" && handed == n/2 {
					return stop
				}
				return nil
			})
		})
		cancel()
		want := context.Canceled
		if mode == "fn fails" {
			want = stop
		}
		if !errors.Is(err, want) {
			t.Errorf("%s: Each returned %v, want %v", mode, err, want)
		}
		if mode == "cancelled" && (handed == 0 || handed >= n/2) {
			t.Errorf("%s: %d skills handed out, want those found before (some, fewer than %d)", mode, handed, n/2)
		}
		if after := openFDs(t); after != fds {
			t.Errorf("%s: %d descriptors open before Each, %d after", mode, fds, after)
		}
		// A goroutine that has said it is done may still be on its way
		// out: wait for those (settled: it times nothing, and only a leak
		// reaches its bound).
		if after := settled(goroutines); after > goroutines { // fewer: one from before has ended
			t.Errorf("%s: %d goroutines before Each, %d after", mode, goroutines, after)
		}
	}
}
