// Package pool is skillet's one way to spread work over goroutines: a
// fixed number of workers, on an errgroup (golang.org/x/sync), take the
// items 0..n-1 in order until none is left. Every worker pool in skillet
// is an Each; its size follows one rule (Size), documented in
// docs/performance.md#workers.
package pool

import (
	"context"
	"runtime"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// The kinds of work Size tells apart, as workers per CPU
// (runtime.GOMAXPROCS).
const (
	// CPU is work that keeps a core busy from start to end: parsing,
	// checking, sorting. More workers than cores only wait for one.
	CPU = 1
	// Disk is work that mostly waits for the file system: opening,
	// reading and statting files. Four workers a core keep the core busy
	// while the others wait.
	Disk = 4
)

// MaxWorkers bounds every pool, so a machine with many cores does not
// open hundreds of files at once.
const MaxWorkers = 32

// Size is how many workers work on n items of a kind (CPU or Disk): one a
// core (CPU) or four a core (Disk), never more than n or MaxWorkers, and
// at least 1 when n > 0 (0 when n is 0).
func Size(n, kind int) int {
	return max(min(n, runtime.GOMAXPROCS(0)*kind, MaxWorkers), 0)
}

// Each calls fn with every index 0..n-1 on Size(n, kind) workers and
// returns when every call has returned; with one worker it calls fn on
// the calling goroutine. Once ctx is done no further index is handed out
// (calls under way finish), and Each returns ctx's error; otherwise nil.
// fn must be safe for concurrent use; each index is handed out once.
func Each(ctx context.Context, n, kind int, fn func(i int)) error {
	if Size(n, kind) <= 1 {
		for i := range n {
			if err := ctx.Err(); err != nil {
				return err
			}
			fn(i)
		}
		return ctx.Err()
	}
	return Start(ctx, n, kind, fn)()
}

// Start is Each that returns at once: the workers go on, and wait waits
// for them and returns what Each would. Call wait once.
func Start(ctx context.Context, n, kind int, fn func(i int)) (wait func() error) {
	workers := Size(n, kind)
	var next atomic.Int64
	var g errgroup.Group
	g.SetLimit(max(workers, 1))
	for range workers {
		g.Go(func() error {
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= n {
					return nil
				}
				fn(i)
			}
			return nil
		})
	}
	return func() error {
		g.Wait()
		return ctx.Err()
	}
}
