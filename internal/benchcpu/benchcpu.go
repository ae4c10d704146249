// Package benchcpu reports a benchmark's CPU time per operation: the
// process's user and system time (every thread, the collector's too),
// which the load of a shared machine inflates far less than the wall
// time of ns/op.
package benchcpu

import "testing"

// Now returns the process's user and system time so far, in nanoseconds,
// or -1 where the system does not give it.
func Now() int64 { return now() }

// Report reports the CPU time since start (a value of Now taken before
// the benchmark's loop) divided by b.N, as cpu-ns/op; nothing where the
// system does not give it.
func Report(b *testing.B, start int64) {
	if start < 0 || b.N == 0 {
		return
	}
	b.ReportMetric(float64(now()-start)/float64(b.N), "cpu-ns/op")
}
