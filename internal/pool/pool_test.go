package pool

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

func TestSize(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	for _, tt := range []struct {
		n, kind, want int
	}{
		{0, CPU, 0},
		{1, Disk, 1},
		{1000, CPU, min(procs, MaxWorkers)},
		{1000, Disk, min(procs*4, MaxWorkers)},
		{2, Disk, min(2, procs*4)},
	} {
		if got := Size(tt.n, tt.kind); got != tt.want {
			t.Errorf("Size(%d, %d) = %d, want %d", tt.n, tt.kind, got, tt.want)
		}
	}
}

// TestEach: every index is handed out exactly once, and no more than
// Size workers run at once.
func TestEach(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 1000} {
		for _, kind := range []int{CPU, Disk} {
			seen := make([]atomic.Int32, n)
			var running, most atomic.Int32
			var mu sync.Mutex
			err := Each(context.Background(), n, kind, func(i int) {
				r := running.Add(1)
				mu.Lock()
				most.Store(max(most.Load(), r))
				mu.Unlock()
				seen[i].Add(1)
				runtime.Gosched()
				running.Add(-1)
			})
			if err != nil {
				t.Fatalf("n=%d: %v", n, err)
			}
			for i := range seen {
				if c := seen[i].Load(); c != 1 {
					t.Errorf("n=%d kind=%d: index %d handed out %d times", n, kind, i, c)
				}
			}
			if m := int(most.Load()); m > Size(n, kind) {
				t.Errorf("n=%d kind=%d: %d at once, Size is %d", n, kind, m, Size(n, kind))
			}
		}
	}
}

// TestEachStops: once ctx is done no index is handed out, and Each says so.
// A worker that took its index before the cancel may still be about to
// call fn, so at most one call a worker starts after cancel has returned
// (calls that start between the third call's cancel and its return are
// not counted: how many there are depends only on the scheduler).
func TestEachStops(t *testing.T) {
	for _, kind := range []int{CPU, Disk} {
		ctx, cancel := context.WithCancel(context.Background())
		var calls, late atomic.Int32
		var cancelled atomic.Bool
		err := Each(ctx, 10000, kind, func(i int) {
			if cancelled.Load() {
				late.Add(1)
			}
			if calls.Add(1) == 3 {
				cancel()
				cancelled.Store(true)
			}
		})
		if err != context.Canceled {
			t.Errorf("kind %d: err = %v, want context.Canceled", kind, err)
		}
		if c := late.Load(); c > int32(Size(10000, kind)) {
			t.Errorf("kind %d: %d calls started after cancel returned; want at most one a worker (%d)", kind, c, Size(10000, kind))
		}
		if c := calls.Load(); c == 10000 {
			t.Errorf("kind %d: every index was handed out", kind)
		}
	}
}

// TestStart: Start returns before the work is done, and wait after it.
func TestStart(t *testing.T) {
	release := make(chan struct{})
	var done atomic.Int32
	wait := Start(context.Background(), 100, Disk, func(i int) {
		<-release
		done.Add(1)
	})
	if d := done.Load(); d != 0 {
		t.Fatalf("%d calls done before any was let go", d)
	}
	close(release)
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	if d := done.Load(); d != 100 {
		t.Errorf("wait returned with %d of 100 calls done", d)
	}
}
