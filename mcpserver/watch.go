package mcpserver

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/skillet-go/skillet/internal/fsx"
)

// maxWatchClimb is how many parent folders of a missing root are tried for
// a watch, so that creating the root is seen.
const maxWatchClimb = 3

// Watch keeps the server in step with the disk until ctx is done, then
// returns nil. It watches every root and every folder below it with
// fsnotify (which is not recursive: a folder created later is added when
// it appears), and reloads once changes have been quiet for
// Options.Debounce. Where a watch cannot be set (no inotify, too many
// watches) or the watcher fails, it polls: a reload every
// Options.PollInterval, which costs about one stat per file when nothing
// changed. Options.Poll forces polling.
func (s *Server) Watch(ctx context.Context) error {
	w := &watcher{s: s, watched: map[string]bool{}, poll: s.opts.Poll}
	if !w.poll {
		fw, err := fsnotify.NewWatcher()
		if err != nil {
			s.log.Warn("file notifications unavailable; polling for changes", "interval", s.opts.PollInterval, "error", err)
			w.poll = true
		} else {
			w.fw = fw
			defer fw.Close()
			w.sync()
		}
	}
	// Catch what changed between New and the first watch.
	w.reload(ctx)
	return w.run(ctx)
}

type watcher struct {
	s       *Server
	fw      *fsnotify.Watcher
	watched map[string]bool
	poll    bool
}

func (w *watcher) run(ctx context.Context) error {
	var events <-chan fsnotify.Event
	var errs <-chan error
	if w.fw != nil {
		events, errs = w.fw.Events, w.fw.Errors
	}
	debounce := time.NewTimer(time.Hour)
	debounce.Stop()
	// Changes that never pause (a log file written every 100 ms in a
	// watched folder) must not hold a reload back forever: one happens at
	// the latest maxWait after the first change.
	maxWait := max(10*w.s.opts.Debounce, time.Second)
	var pending time.Time
	settle := func() {
		if pending.IsZero() {
			pending = time.Now()
		}
		wait := w.s.opts.Debounce
		if left := maxWait - time.Since(pending); left < wait {
			wait = max(left, 0)
		}
		debounce.Reset(wait)
	}
	var tick <-chan time.Time
	startPoll := func() {
		if tick == nil {
			t := time.NewTicker(w.s.opts.PollInterval)
			context.AfterFunc(ctx, t.Stop)
			tick = t.C
		}
	}
	for {
		if w.poll {
			startPoll()
		}
		select {
		case <-ctx.Done():
			debounce.Stop()
			return nil
		case ev, ok := <-events:
			if !ok {
				events = nil
				w.s.log.Warn("file notifications stopped; polling for changes", "interval", w.s.opts.PollInterval)
				w.poll = true
				continue
			}
			if ev.Op == fsnotify.Chmod {
				continue
			}
			if ev.Op.Has(fsnotify.Remove) || ev.Op.Has(fsnotify.Rename) {
				delete(w.watched, ev.Name) // the kernel dropped the watch
			}
			if ev.Op.Has(fsnotify.Create) {
				w.addTree(ev.Name)
			}
			settle()
		case err, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				settle()
				continue
			}
			w.s.log.Warn("file notifications failed; polling for changes", "interval", w.s.opts.PollInterval, "error", err)
			w.poll = true
		case <-debounce.C:
			pending = time.Time{}
			w.reload(ctx)
		case <-tick:
			w.reload(ctx)
		}
	}
}

func (w *watcher) reload(ctx context.Context) {
	if _, err := w.s.Reload(ctx); err != nil && ctx.Err() == nil {
		w.s.log.Warn("reload failed", "error", err)
	}
	if w.fw != nil {
		w.sync()
	}
	w.s.watchPasses.add()
}

// passes counts events (the watcher's reload passes) for goroutines that
// wait for one: tests wait on it rather than sleep.
type passes struct {
	mu sync.Mutex
	n  int
	ch chan struct{} // closed at the next add
}

func (p *passes) add() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	if p.ch != nil {
		close(p.ch)
		p.ch = nil
	}
}

// next returns how many events have happened and a channel that is
// closed at the next one.
func (p *passes) next() (int, <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ch == nil {
		p.ch = make(chan struct{})
	}
	return p.n, p.ch
}

// sync adds watches for every root (or, for a root that does not exist
// yet, the nearest existing parent) and every folder below, and for the
// folder of every served skill.
func (w *watcher) sync() {
	sn := w.s.snap.Load()
	for _, r := range sn.listing.Roots {
		p := r.Path
		if r.File {
			p = filepath.Dir(p)
		}
		if !r.Exists || r.File {
			for i := 0; i <= maxWatchClimb; i++ {
				if fi, err := os.Stat(p); err == nil && fi.IsDir() {
					w.add(p)
					break
				}
				parent := filepath.Dir(p)
				if parent == p {
					break
				}
				p = parent
			}
			if !r.Exists {
				continue
			}
		}
		w.addTree(p)
	}
	for _, sv := range sn.skills {
		if !sv.cat.Flat {
			w.addTree(sv.cat.BaseDir)
		}
	}
}

// addTree watches dir and every folder below it. A symlinked folder (a
// symlinked root, a linked skill) is watched where it leads, all the way
// down; WalkDir itself does not follow links.
func (w *watcher) addTree(dir string) { w.addTreeVisit(dir, map[string]bool{}) }

// addTreeVisit is addTree with the set of resolved folders already walked
// in this call, which stops symlink loops.
func (w *watcher) addTreeVisit(dir string, visited map[string]bool) {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	if visited[dir] {
		return
	}
	visited[dir] = true
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if !d.IsDir() {
			if d.Type()&fs.ModeSymlink != 0 {
				if fi, err := os.Stat(p); err == nil && fi.IsDir() {
					w.addTreeVisit(p, visited)
				}
			}
			return nil
		}
		if p != dir && fsx.SkipDir(d.Name()) {
			return filepath.SkipDir
		}
		if !w.add(p) {
			return filepath.SkipAll
		}
		return nil
	})
}

// add watches one folder; it returns false when watches cannot be added
// (and polling has been turned on).
func (w *watcher) add(dir string) bool {
	if w.watched[dir] {
		return true
	}
	if err := w.fw.Add(dir); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return true
		}
		if !w.poll {
			w.s.log.Warn("cannot watch a folder; polling for changes", "folder", dir, "interval", w.s.opts.PollInterval, "error", err)
			w.poll = true
		}
		return false
	}
	w.watched[dir] = true
	return true
}
