package mcpserver

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// maxWatchClimb is how many parent folders of a missing root are tried for
// a watch, so that creating the root is seen.
const maxWatchClimb = 3

// fullCheckEvery is how often a server that watches reloads every skill
// although no notification called for it: a file edited through a hard
// link made after the last reload raises no notification in its folder
// (inotify reports a change to the folders of the path written through),
// so a reload that trusts untouched folders may miss it until then.
const fullCheckEvery = 10 * time.Minute

// maxHintPaths is how many changed paths a reload takes as a hint; past
// it, the reload is a full one.
const maxHintPaths = 1000

// Watch keeps the server in step with the disk until ctx is done, then
// returns nil. It watches, with fsnotify (which is not recursive), the
// folders the catalog's walk reads (roots and grouping folders, not past
// the walk's depth and folder limits, docs/discovery.md#shapes), the
// folder of every skill file found, the folders of every served skill
// but those never served (dot-folders, node_modules...), the folder of
// the file a symlinked skill file leads to and the parent of a root that is a symlink
// (docs/mcp.md#live-reload). A folder created later is watched when it
// appears, and one created where a watched one was (a symlink renamed
// over) is watched anew. Once changes have been quiet
// for Options.Debounce it reloads, reading again only the skills a
// changed path touches (the catalog lists again, with no stat of a skill
// file of one link in a folder watched since before the last reload that
// no changed path touches, catalogx.ListTouched; the other skills are
// served as they were); a write outside every skill folder to a file the
// catalog never reads (not Markdown, YAML, JSON, TOML or a dotfile)
// reloads nothing. A reload that finds a new folder to watch is followed,
// after Options.Debounce, by another that reads that folder again: a file
// changed there between the first reload's read and the watch raised no
// event. A reload looks at every skill again (a full reload, said in the
// log) after the watcher's queue overflowed, after a reload failed or
// when more than 1,000 paths changed, and quietly every fullCheckEvery
// (10 minutes). Where a watch cannot be set (no inotify, too
// many watches) or the watcher fails, it polls: a full reload every
// Options.PollInterval, which costs about one stat per file when nothing
// changed. Options.Poll forces polling.
func (s *Server) Watch(ctx context.Context) error {
	w := newWatcher(s)
	if !w.poll {
		fw, err := fsnotify.NewWatcher()
		if err != nil {
			s.log.Warn("file notifications unavailable; polling for changes", "interval", s.opts.PollInterval, "error", err)
			w.poll = true
		} else {
			w.fw = fw
			defer fw.Close()
			w.sync(nil)
		}
	}
	// Catch what changed between New and the first watch.
	w.full = "the first pass"
	recheck := w.reload(ctx)
	return w.run(ctx, recheck)
}

// watchDir is one watched folder: why it is watched and the file it is.
type watchDir struct {
	role watchRole
	id   fileID
	// pass is the watcher's reload pass when the watch was set.
	pass int
}

// watchRole says why a folder is watched.
type watchRole uint8

const (
	roleWalked watchRole = 1 << iota // a root or grouping folder the walk reads
	roleSkill                        // a skill folder or a folder below a served skill's
	roleOther                        // a parent of a missing or linked root, or a folder just created
	roleTarget                       // the folder of the file a symlinked skill file leads to
)

// fileID is a folder's device and inode: two paths to one folder (through
// a symlink) share one inotify watch, named by the first path.
// (path is set where the system gives no inode.)
type fileID struct {
	dev, ino uint64
	path     string
}

func newWatcher(s *Server) *watcher {
	return &watcher{s: s, watched: map[string]*watchDir{}, ids: map[fileID][]string{},
		skillDirs: map[string][]string{}, poll: s.opts.Poll}
}

type watcher struct {
	s       *Server
	fw      *fsnotify.Watcher
	watched map[string]*watchDir
	// ids are the paths watched for each folder; the first holds the
	// fsnotify watch, and events named under it are also the others'.
	ids  map[fileID][]string
	poll bool
	// changed are the paths events named since the last reload, and
	// structural says one was created, removed or renamed (the watches
	// are brought in line after the reload). full, when set, says why
	// the next reload looks at every skill.
	changed    []string
	structural bool
	full       string
	// skillDirs are the folders watched for each served skill, by its
	// folder.
	skillDirs map[string][]string
	// links are, for each skill file found, the path a symlink leads to
	// ("" for a file that is no symlink), as the last sync found them.
	links map[string]string
	// pass counts the reloads begun.
	pass int
	// added are the folders watched since the last reload began its sync.
	added []string
	// moved are the folders whose watch changed during the last pass or
	// this one (watchMoved), oldest first.
	moved []movedWatch
	// built, when set (tests), runs after a reload's snapshot is built
	// and before its watches are synced.
	built func()
	// handover, when set (tests), runs in unwatch between the removal of
	// a folder's watch under the path from and its watch under to,
	// another path to the folder: a change then raises no event.
	handover func(from, to string)
}

// run handles events until ctx is done; with recheck, a reload follows
// the debounce even if no event comes (see reload).
func (w *watcher) run(ctx context.Context, recheck bool) error {
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
	if recheck {
		settle()
	}
	check := time.NewTicker(fullCheckEvery)
	defer check.Stop()
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
			if w.event(ev) {
				settle()
			}
		case err, ok := <-errs:
			if !ok {
				errs = nil
			} else if w.failed(err) {
				settle()
			}
		case <-debounce.C:
			pending = time.Time{}
			if w.reload(ctx) {
				settle()
			}
		case <-tick:
			if w.fullReload(ctx, "polling") {
				settle()
			}
		case <-check.C:
			if !w.poll && w.fullReload(ctx, "the periodic full check") {
				settle()
			}
		}
	}
}

// failed handles an error of the file notifications and reports whether
// it calls for a reload: after an overflow, a full one; after any other,
// the watcher polls.
func (w *watcher) failed(err error) bool {
	if errors.Is(err, fsnotify.ErrEventOverflow) {
		w.full = "the file notification queue overflowed"
		return true
	}
	w.s.log.Warn("file notifications failed; polling for changes", "interval", w.s.opts.PollInterval, "error", err)
	w.poll = true
	return false
}

// fullReload is reload looking at every skill, for reason; it reports
// what reload does.
func (w *watcher) fullReload(ctx context.Context, reason string) bool {
	w.full = reason
	return w.reload(ctx)
}

// event notes one file notification and reports whether it calls for a
// reload.
func (w *watcher) event(ev fsnotify.Event) bool {
	if ev.Op == fsnotify.Chmod {
		// No reload for it, but the next one stats the file again: its
		// mode, owner or times changed (the catalog trusts an untouched
		// folder's skill file without a stat).
		w.note(w.aliases(ev.Name)...)
		if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() {
			// A folder made readable may hold folders to watch: the next
			// reload walks and syncs (it is no patch, hint.edits).
			w.structural = true
		}
		return false
	}
	if w.unread(ev) {
		return false
	}
	names := w.aliases(ev.Name)
	w.note(names...)
	if ev.Op.Has(fsnotify.Remove) || ev.Op.Has(fsnotify.Rename) {
		w.unwatchPaths(names) // the kernel dropped the watch, or it names the old path
		w.structural = true
	}
	if ev.Op.Has(fsnotify.Create) {
		w.structural = true
		// A path created over one watched (a symlink renamed over a
		// symlink to a folder) names another folder now: the old watch
		// would keep the old one's events.
		w.unwatchPaths(names)
		if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() {
			// Watched at once, so that files made in it before the reload
			// are seen; the reload's sync drops what the walk does not go to.
			w.addTree(ev.Name, roleOther, w.s.opts.MaxFiles)
		}
	}
	return true
}

// unwatchPaths is unwatchTree of each of names: one path under every
// watched path to its folder (aliases), since a root reached twice (a
// symlink to another root) has its events named under one of them.
func (w *watcher) unwatchPaths(names []string) {
	for _, n := range names {
		w.unwatchTree(n)
	}
}

// unread reports whether ev is a write to a file the catalog never reads,
// in a folder the walk reads that is no skill's: a log file beside the
// skills.
func (w *watcher) unread(ev fsnotify.Event) bool {
	if ev.Op != fsnotify.Write {
		return false
	}
	dir, name := filepath.Split(ev.Name)
	wd := w.watched[filepath.Clean(dir)]
	if wd == nil || wd.role != roleWalked || strings.HasPrefix(name, ".") {
		return false
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".md", ".markdown", ".yaml", ".yml", ".json", ".toml", "":
		return false
	}
	return true
}

// watchedSince returns reloadHint.watched for a reload after pass:
// whether dir has been watched since before reload pass began, so that
// every change in it after that reload read it was notified. A watch set
// during pass (the sync after it, or an event handled after its walk) is
// not enough.
func (w *watcher) watchedSince(pass int) func(dir string) bool {
	return func(dir string) bool {
		wd := w.watched[dir]
		return wd != nil && wd.pass < pass
	}
}

// settledSince returns reloadHint.settled for a reload after pass: whether
// the folder base and every folder the last sync watched below it have
// been watched since before reload pass began. A folder below base whose
// watch was set, moved or dropped (or found gone) since is in w.moved
// (watchMoved), so a skill's folders are checked without a look at each.
func (w *watcher) settledSince(pass int) func(base string) bool {
	before := w.watchedSince(pass)
	w.moved = slices.DeleteFunc(w.moved, func(m movedWatch) bool { return m.pass < pass })
	return func(base string) bool {
		return before(base) && !slices.ContainsFunc(w.moved, func(m movedWatch) bool { return within(m.dir, base) })
	}
}

// movedWatch is a folder whose watch changed during reload pass pass.
type movedWatch struct {
	dir  string
	pass int
}

// watchMoved notes that dir's watch was set, moved or dropped, or that dir
// was wanted and found gone, during the current pass.
func (w *watcher) watchMoved(dir string) {
	w.moved = append(w.moved, movedWatch{dir: dir, pass: w.pass})
}

// aliases returns p and the same path under every other path watched for
// its folder (or for p, a watched folder).
func (w *watcher) aliases(p string) []string {
	out := []string{p}
	dir, rest := p, ""
	wd := w.watched[p]
	if wd == nil {
		dir, rest = filepath.Dir(p), filepath.Base(p)
		wd = w.watched[dir]
	}
	if wd == nil {
		return out
	}
	for _, a := range w.ids[wd.id] {
		if a != dir {
			out = append(out, filepath.Join(a, rest))
		}
	}
	return out
}

// reload reloads the catalog (hinted by the changes noted since the last
// one, unless full is set) and brings the watches in line. It reports
// whether another reload must follow: the sync after a reload watches
// folders that reload found (a new skill folder, say), and a change made
// in one between the reload's read and the watch raised no event; the
// next reload reads those folders again.
func (w *watcher) reload(ctx context.Context) bool {
	w.pass++
	var hint *reloadHint
	if w.full == "" {
		hint = &reloadHint{paths: w.changed, settled: w.settledSince(w.pass - 1), watched: w.watchedSince(w.pass - 1)}
		// settledSince kept the watches moved since the last reload began.
		hint.edits = !w.structural && len(w.moved) == 0
	} else if w.full != "the first pass" && w.full != "polling" && w.full != "the periodic full check" {
		w.s.log.Info("reloading every skill", "reason", w.full)
	}
	full, structural := w.full != "", w.structural
	w.changed, w.structural, w.full = nil, false, ""
	if _, err := w.s.reload(ctx, hint); err != nil {
		// The changed paths it was given are not in the snapshot, and may
		// not be in the catalog's cache: the next reload looks at all.
		w.full = "the last reload failed"
		if ctx.Err() == nil {
			w.s.log.Warn("reload failed", "error", err)
		}
	}
	if w.built != nil {
		w.built()
	}
	recheck := false
	if w.fw != nil && (full || structural) {
		w.added = w.added[:0]
		w.sync(hint)
		recheck = len(w.added) > 0
		w.note(w.added...)
	}
	w.s.watchPasses.add()
	return recheck
}

// note adds changed paths to the next reload's hint; past maxHintPaths,
// the next reload is a full one.
func (w *watcher) note(paths ...string) {
	if w.full != "" || len(paths) == 0 {
		return
	}
	w.changed = append(w.changed, paths...)
	if len(w.changed) > maxHintPaths {
		w.full = "more than 1,000 paths changed"
	}
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
