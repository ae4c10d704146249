package catalog

import (
	"io/fs"
	"runtime"
	"sync"
	"sync/atomic"
)

// Probing ahead: in a one-shot listing (Catalog.Each) the walk runs
// alone on one processor for most of its time (the readers wait for it,
// docs/performance.md), and in a folder of many subfolders most of that
// time is the lstat of each subfolder's SKILL.md. A helper goroutine makes
// those lstats ahead of the walk, at most probeRing entries ahead, and the
// walk takes the helper's result where there is one; where the walk has
// caught up with the helper it makes the lstat itself, and the helper goes
// on past it. Each subfolder is looked at once, by one of them, with the
// same lstat from the same open folder, so the walk finds what it would
// have found (only sooner). The results wait in a ring of probeRing slots
// (64 bytes each), not in one slot per entry: a folder of 80,000
// subfolders held 5 MB of them.

// probeAheadMin is the fewest entries a folder needs for a helper.
var probeAheadMin = 256

// probeRing is how many entries the helper may be ahead of the walk: the
// slots of the ring. Tests make it small, so that the ring wraps around.
var probeRing = 256

// probe states, the low bits of a slot's word; the entry the slot is for
// is the rest (entry<<probeShift | state), so that a slot taken for one
// entry is never mistaken for the slot of the entry probeRing later.
const (
	probeFree  = iota // nobody has taken it
	probeBusy         // the helper is making the lstat
	probeDone         // the helper's result is in
	probeWalk         // the walk makes the lstat itself
	probeShift = 2
)

// probeWord is the word of a slot holding entry k in state.
func probeWord(k, state uint64) uint64 { return k<<probeShift | state }

// probeResult is one lstat of a subfolder's SKILL.md.
type probeResult struct {
	mode fs.FileMode
	st   stamp
	err  error
}

// probeSlot is a slot of the ring: whose entry it holds and in which
// state (the word), and the helper's result once the state is probeDone.
type probeSlot struct {
	word atomic.Uint64
	res  probeResult
}

// prober is the helper of one folder's walk; nil when there is none.
type prober struct {
	at       dirAt
	children []child
	slots    []probeSlot
	// walked is how many entries the walk is past: slot k%len(slots) is
	// free for entry k once walked > k-len(slots).
	walked  atomic.Int64
	waiting atomic.Bool // the helper waits for the walk to pass entry until
	until   atomic.Int64
	room    chan struct{} // wakes the helper (half the ring freed, or stop)
	stopped atomic.Bool
	wg      sync.WaitGroup
}

// probeLstat is the helper's lstat; tests slow it down.
var probeLstat = lstatAt

// probeOvertaken counts the entries the walk looked at itself while the
// helper was making their lstat (take); tests read it.
var probeOvertaken atomic.Int64

// probeAhead starts a helper for the subfolders of the folder being walked
// (w.at, held open until entries returns), or returns nil: only in a
// one-shot listing, with more than one processor, a folder read with its
// descriptor open, and at least probeAheadMin entries.
func (w *walker) probeAhead(children []child) *prober {
	if !w.s.oneShot || len(children) < probeAheadMin || w.at.fd < 0 || runtime.GOMAXPROCS(0) < 2 {
		return nil
	}
	n := max(min(probeRing, len(children)), 1)
	pr := &prober{at: w.at, children: children, slots: make([]probeSlot, n), room: make(chan struct{}, 1)}
	for k := range pr.slots {
		pr.slots[k].word.Store(probeWord(uint64(k), probeFree))
	}
	pr.wg.Go(pr.run)
	return pr
}

func (pr *prober) run() {
	n := int64(len(pr.slots))
	for k := int64(0); k < int64(len(pr.children)) && !pr.stopped.Load(); k++ {
		if !pr.children[k].typ.IsDir() {
			continue // files and symlinks: the walk decides
		}
		if w := pr.walked.Load(); k < w {
			k = w - 1 // the walk is past: go on from where it is
			continue
		}
		if !pr.wait(k - n) {
			return
		}
		s := &pr.slots[k%n]
		if !s.word.CompareAndSwap(probeWord(uint64(k), probeFree), probeWord(uint64(k), probeBusy)) {
			continue // the walk is here
		}
		s.res.st, s.res.mode, s.res.err = probeLstat(pr.at, pr.children[k].skill())
		if !s.word.CompareAndSwap(probeWord(uint64(k), probeBusy), probeWord(uint64(k), probeDone)) {
			// The walk came to the entry first and made the lstat
			// itself (take): the result is not wanted.
			s.res = probeResult{}
		}
	}
}

// wait waits until the walk is past entry k (its slot is free for the
// entry probeRing after it), false when the helper is stopped. When it
// must wait, it waits until half the ring is free, not one slot: woken
// for each slot, the helper and the walk took turns, a wake-up (a futex
// call and a thread switch) for every entry.
func (pr *prober) wait(k int64) bool {
	if pr.walked.Load() > k {
		return !pr.stopped.Load()
	}
	until := min(k+int64(len(pr.slots))/2, int64(len(pr.children))-1)
	for pr.walked.Load() <= until {
		pr.until.Store(until)
		pr.waiting.Store(true)
		if pr.walked.Load() > until || pr.stopped.Load() {
			pr.waiting.Store(false)
			break
		}
		<-pr.room
	}
	return !pr.stopped.Load()
}

// take returns the helper's result for entry i, copied into into, or nil
// when the walk is to look itself: when the helper has not come to the
// entry, and when it is making the lstat right now. The walk does not wait
// for it: waiting by yielding (runtime.Gosched) cost more CPU than the
// lstat, since the helper's thread may not be running at all on a busy
// machine (153,000 yields in one listing of 10,000 skills, 1.4 million at
// 100,000), and the helper's result, when it comes, is dropped (run).
// Every entry is taken, in order, once: that frees its slot.
func (pr *prober) take(i int, into *probeResult) *probeResult {
	if pr == nil {
		return nil
	}
	k := uint64(i)
	s := &pr.slots[k%uint64(len(pr.slots))]
	var got *probeResult
	switch {
	case s.word.CompareAndSwap(probeWord(k, probeFree), probeWord(k, probeWalk)):
	case s.word.CompareAndSwap(probeWord(k, probeBusy), probeWord(k, probeWalk)):
		probeOvertaken.Add(1)
	default: // probeDone: the helper's result is in
		*into = s.res
		s.res = probeResult{}
		got = into
	}
	s.word.Store(probeWord(k+uint64(len(pr.slots)), probeFree))
	pr.walked.Store(int64(i) + 1)
	pr.wake()
	return got
}

// wake wakes the helper if it waits for an entry the walk is past.
func (pr *prober) wake() {
	if pr.waiting.Load() && pr.walked.Load() > pr.until.Load() && pr.waiting.CompareAndSwap(true, false) {
		select {
		case pr.room <- struct{}{}:
		default:
		}
	}
}

// stop ends the helper and waits for it, before the folder is closed.
func (pr *prober) stop() {
	if pr == nil {
		return
	}
	pr.stopped.Store(true)
	select {
	case pr.room <- struct{}{}:
	default: // a wake-up is there already
	}
	pr.wg.Wait()
}
