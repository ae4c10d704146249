package cli

import (
	"runtime/debug"
	"runtime/metrics"
)

// A one-shot list --json hands each skill out as it settles and keeps
// none, but what the listing holds while it runs grows with the tree
// (about 190 bytes a skill at 100,000: docs/performance.md#list---json-6-december-0730-utc),
// and with the default GOGC the heap grows to twice that before each
// collection. Where that live heap is large, a lower GOGC is cheap: at
// 100,000 skills GOGC=50 took the peak from 60.4 to 50.1 MB for 4% more
// CPU; at 10,000 skills, where the live heap is about 3 MB, it saved 1.8
// MB for 9% more. So the target is lowered only once the live heap, as the
// last collection measured it, reaches listGCLive.

// listGC is GOGC for a large list --json (liveGC): set by Main to
// listGCPercent when the process has no GOGC or GOMEMLIMIT of its own
// (listGCOn), 0 (GOGC left alone) otherwise.
var listGC int

const (
	// listGCPercent is the GOGC a large listing runs with.
	listGCPercent = 50
	// listGCLive is the live heap, in bytes, from which it does.
	listGCLive = 8 << 20
	// listGCEvery is how many skills are handed out between two looks
	// at the live heap.
	listGCEvery = 1024
)

// listGCOn reports whether the command named lowers GOGC for a large
// listing: list, in a process started with neither GOGC nor GOMEMLIMIT.
func listGCOn(command string, getenv func(string) string) bool {
	return command == "list" && getenv("GOGC") == "" && getenv("GOMEMLIMIT") == ""
}

// liveGC sets GOGC to percent once the live heap has reached atLeast
// bytes, looking every listGCEvery skills; nil does nothing.
type liveGC struct {
	percent int
	atLeast uint64
	n       int
	sample  []metrics.Sample
	// live reads the live heap (runtime/metrics' /gc/heap/live:bytes);
	// tests replace it.
	live func() uint64
	set  func(int) int
}

// newLiveGC returns the liveGC of percent, nil when percent is 0.
func newLiveGC(percent int, atLeast uint64) *liveGC {
	if percent == 0 {
		return nil
	}
	g := &liveGC{percent: percent, atLeast: atLeast, set: debug.SetGCPercent,
		sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	g.live = func() uint64 {
		metrics.Read(g.sample)
		if g.sample[0].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return g.sample[0].Value.Uint64()
	}
	return g
}

// skill counts a skill handed out and, every listGCEvery, lowers GOGC when
// the live heap is large enough; once lowered, it looks no more.
func (g *liveGC) skill() {
	if g == nil || g.percent == 0 {
		return
	}
	g.n++
	if g.n%listGCEvery != 0 || g.live() < g.atLeast {
		return
	}
	g.set(g.percent)
	g.percent = 0
}
