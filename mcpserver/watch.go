package mcpserver

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// maxWatchClimb is how many parent folders of a missing root are tried for
// a watch, so that creating the root is seen.
const maxWatchClimb = 3

// skipWatch are folders never watched (nor served).
var skipWatch = map[string]bool{".git": true, ".hg": true, ".svn": true, "node_modules": true, "__pycache__": true}

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
			debounce.Reset(w.s.opts.Debounce)
		case err, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				debounce.Reset(w.s.opts.Debounce)
				continue
			}
			w.s.log.Warn("file notifications failed; polling for changes", "interval", w.s.opts.PollInterval, "error", err)
			w.poll = true
		case <-debounce.C:
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

// addTree watches dir and every folder below it.
func (w *watcher) addTree(dir string) {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return
	}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if !d.IsDir() {
			if d.Type()&fs.ModeSymlink != 0 && p != dir {
				// A symlinked folder (a linked skill) is watched too;
				// WalkDir does not enter it.
				if fi, err := os.Stat(p); err == nil && fi.IsDir() {
					w.add(p)
				}
			}
			return nil
		}
		if p != dir && skipWatch[d.Name()] {
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
