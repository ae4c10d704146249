package cli

import (
	"runtime"
	"runtime/debug"
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
//
// The live heap is read from runtime.ReadMemStats' NextGC, the heap goal
// the last collection set: at GOGC=100 (the process started with neither
// GOGC nor GOMEMLIMIT, and liveGC looks no more once it lowers it) that
// goal is twice the heap the collection found live, plus the goroutine
// stacks and the globals (a few hundred KB). runtime/metrics'
// /gc/heap/live:bytes says the same without the doubling, but linking
// runtime/metrics cost every command 0.08 ms and 15 KB in 95 allocations
// at start (its package initialisation, GODEBUG=inittrace=1) and the
// binary 150 KB, against about 10 µs for each ReadMemStats (it stops the
// world) every listGCEvery skills: 100 of them at 100,000 skills.

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
	// live reads the live heap, in bytes (liveHeap); tests replace it.
	live func() uint64
	set  func(int) int
}

// newLiveGC returns the liveGC of percent, nil when percent is 0.
func newLiveGC(percent int, atLeast uint64) *liveGC {
	if percent == 0 {
		return nil
	}
	return &liveGC{percent: percent, atLeast: atLeast, live: liveHeap, set: debug.SetGCPercent}
}

// liveHeap returns the live heap the last collection found, in bytes,
// as half the heap goal it set (runtime.MemStats.NextGC): exact at
// GOGC=100 but for the stacks and globals the goal also counts, and 2
// MiB (half the runtime's smallest goal, 4 MiB) before any collection.
func liveHeap() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.NextGC / 2
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
