package benchcpu

import (
	"runtime"
	"testing"
	"time"
)

// TestNowAdvances: where the system gives it, the CPU time grows while
// one thread computes, and by no more than the wall time allows.
func TestNowAdvances(t *testing.T) {
	start, wall := Now(), time.Now()
	if start < 0 {
		if runtime.GOOS == "windows" || runtime.GOOS == "js" || runtime.GOOS == "wasip1" || runtime.GOOS == "plan9" {
			t.Skipf("no CPU time on %s", runtime.GOOS)
		}
		t.Fatalf("no CPU time on %s", runtime.GOOS)
	}
	x := uint64(1)
	for range 50_000_000 {
		x = x*6364136223846793005 + 1442695040888963407
	}
	got, elapsed := Now()-start, time.Since(wall)
	if got <= 0 {
		t.Fatalf("CPU time grew by %d ns over %v of computing (x %d)", got, elapsed, x)
	}
	if limit := int64(runtime.NumCPU())*elapsed.Nanoseconds() + 20e6; got > limit {
		t.Fatalf("CPU time grew by %d ns in %v of wall time on %d processors", got, elapsed, runtime.NumCPU())
	}
}
