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
// last collection measured it, reaches a step's size (listGCSteps).
//
// The live heap is read from runtime.ReadMemStats' NextGC, the heap goal
// the last collection set: under GOGC=g (the process started with neither
// GOGC nor GOMEMLIMIT, and liveGC knows the g it set) that goal is 1 + g/100
// times the heap the collection found live, plus the goroutine stacks and
// the globals (a few hundred KB). runtime/metrics'
// /gc/heap/live:bytes says the same without the doubling, but linking
// runtime/metrics cost every command 0.08 ms and 15 KB in 95 allocations
// at start (its package initialisation, GODEBUG=inittrace=1) and the
// binary 150 KB, against 6.3 µs for each ReadMemStats (BenchmarkLiveHeap;
// it stops the world) every listGCEvery skills: 100 of them at 100,000
// skills (docs/performance.md, "list --json, 6 December 10:30 UTC").

// listGC is the GOGC steps of a large list --json (liveGC): set by Main
// to listGCSteps when the process has no GOGC or GOMEMLIMIT of its own
// (listGCOn), nil (GOGC left alone) otherwise.
var listGC []gcStep

// gcStep is a GOGC a listing runs with once its live heap reaches
// atLeast bytes.
type gcStep struct {
	atLeast uint64
	percent int
}

// listGCSteps are a large listing's GOGC steps: 50 from 8 MiB live, 35
// from 16 MiB. At 100,000 skills the live heap is 17-20 MB from the walk's
// end on, and GOGC=50 left a peak of 48-50 MB (docs/performance.md,
// "list --json, 6 December 10:30 UTC"); 35 from the start gave 46.6 MB for
// 5% more CPU.
var listGCSteps = []gcStep{{8 << 20, 50}, {16 << 20, 35}}

// listGCEvery is how many skills are handed out between two looks at the
// live heap.
const listGCEvery = 1024

// listGCOn reports whether the command named lowers GOGC for a large
// listing: list, in a process started with neither GOGC nor GOMEMLIMIT.
func listGCOn(command string, getenv func(string) string) bool {
	return command == "list" && getenv("GOGC") == "" && getenv("GOMEMLIMIT") == ""
}

// liveGC sets GOGC to each step's percent once the live heap has reached
// its atLeast bytes, looking every listGCEvery skills; nil does nothing.
type liveGC struct {
	steps []gcStep // those not yet taken, by atLeast
	gogc  int      // GOGC now: 100, then each step's taken
	n     int
	// live reads the live heap, in bytes, under GOGC gogc (liveHeap);
	// tests replace it.
	live func(gogc int) uint64
	set  func(int) int
}

// newLiveGC returns the liveGC of steps, nil when there are none.
func newLiveGC(steps []gcStep) *liveGC {
	if len(steps) == 0 {
		return nil
	}
	return &liveGC{steps: steps, gogc: 100, live: liveHeap, set: debug.SetGCPercent}
}

// liveHeap returns the live heap the last collection found, in bytes, as
// the heap goal it set (runtime.MemStats.NextGC) over 1 + gogc/100: exact
// but for the stacks and globals the goal also counts, and 4 MiB over
// 1 + gogc/100 (the runtime's smallest goal) before any collection.
func liveHeap(gogc int) uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.NextGC * 100 / uint64(100+gogc)
}

// skill counts a skill handed out and, every listGCEvery, takes each step
// the live heap has reached; with none left, it looks no more.
func (g *liveGC) skill() {
	if g == nil || len(g.steps) == 0 {
		return
	}
	g.n++
	if g.n%listGCEvery != 0 {
		return
	}
	live := g.live(g.gogc)
	for len(g.steps) > 0 && live >= g.steps[0].atLeast {
		g.gogc = g.steps[0].percent
		g.set(g.gogc)
		g.steps = g.steps[1:]
	}
}
