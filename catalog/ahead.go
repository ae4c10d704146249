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
// those lstats from the last subfolder backwards while the walk goes
// forwards, and the walk takes the helper's result where there is one.
// They meet in the middle; each subfolder is looked at once, by one of
// them, with the same lstat from the same open folder, so the walk finds
// what it would have found (only sooner).

// probeAheadMin is the fewest entries a folder needs for a helper.
var probeAheadMin = 256

// probe states.
const (
	probeFree = iota // nobody has taken it
	probeBusy        // the helper is making the lstat
	probeDone        // the helper's result is in
	probeWalk        // the walk makes the lstat itself
)

// probe is the helper's lstat of one subfolder's SKILL.md: 64 bytes, one
// for every entry of the folder (state and mode side by side: 72 apart).
type probe struct {
	state atomic.Uint32
	mode  fs.FileMode
	st    stamp
	err   error
}

// prober is the helper of one folder's walk; nil when there is none.
type prober struct {
	at       dirAt
	children []child
	probes   []probe
	stopped  atomic.Bool
	wg       sync.WaitGroup
}

// probeAhead starts a helper for the subfolders of the folder being walked
// (w.at, held open until entries returns), or returns nil: only in a
// one-shot listing, with more than one processor, a folder read with its
// descriptor open, and at least probeAheadMin entries.
func (w *walker) probeAhead(children []child) *prober {
	if !w.s.oneShot || len(children) < probeAheadMin || w.at.fd < 0 || runtime.GOMAXPROCS(0) < 2 {
		return nil
	}
	pr := &prober{at: w.at, children: children, probes: make([]probe, len(children))}
	pr.wg.Go(pr.run)
	return pr
}

func (pr *prober) run() {
	for k := len(pr.children) - 1; k >= 0 && !pr.stopped.Load(); k-- {
		e := &pr.children[k]
		if !e.typ.IsDir() {
			continue // files and symlinks: the walk decides
		}
		p := &pr.probes[k]
		if !p.state.CompareAndSwap(probeFree, probeBusy) {
			return // the walk is here
		}
		p.st, p.mode, p.err = lstatAt(pr.at, e.skill())
		p.state.Store(probeDone)
	}
}

// take returns the helper's result for entry i, waiting while it is being
// made, or nil when the walk is to look itself.
func (pr *prober) take(i int) *probe {
	if pr == nil {
		return nil
	}
	p := &pr.probes[i]
	if p.state.CompareAndSwap(probeFree, probeWalk) {
		return nil
	}
	for p.state.Load() == probeBusy {
		runtime.Gosched()
	}
	return p
}

// stop ends the helper and waits for it, before the folder is closed.
func (pr *prober) stop() {
	if pr == nil {
		return
	}
	pr.stopped.Store(true)
	pr.wg.Wait()
}
