package mcpserver

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/fsx"
)

// sync brings the watches in line with the snapshot and the catalog's
// last walk: the folders the walk read (or, where the catalog cannot say,
// every folder below each root), the parents of missing roots, the folder
// of every skill file found and the folders below it that can hold
// served files. The folders below a skill folder are looked for again
// when hint is nil or touches the folder; otherwise they are the last
// sync's. Every other watch is removed.
func (w *watcher) sync(hint *reloadHint) {
	sn := w.s.snap.Load()
	want := map[string]watchRole{}
	walked, ok := catx.WalkedDirs(w.s.cat)
	for _, d := range walked {
		want[d] |= roleWalked
	}
	for _, r := range sn.listing.Roots {
		w.wantRoot(want, r, !ok)
	}
	// Every skill folder found, loaded or not: a skill that does not load
	// now (a clash, a broken file) may load after an edit of its file
	// alone, which brings no sync.
	bases := map[string]bool{}
	for _, c := range catx.Candidates(sn.listing) {
		if !c.Flat && !c.Ignored {
			bases[filepath.Dir(c.Path)] = true
		}
	}
	for _, sv := range sn.skills {
		if !sv.cat.Flat {
			bases[sv.cat.BaseDir] = true
		}
	}
	w.wantTargets(want, sn, hint)
	for base := range bases {
		dirs, ok := w.skillDirs[base]
		if !ok || hint.touchesDir(base) {
			dirs = folders(base, w.s.opts.MaxFiles)
			w.skillDirs[base] = dirs
		}
		for _, d := range dirs {
			want[d] |= roleSkill
		}
	}
	for base := range w.skillDirs {
		if !bases[base] {
			delete(w.skillDirs, base)
		}
	}
	for p := range w.watched {
		if want[p] == 0 {
			w.unwatch(p)
		}
	}
	for p, role := range want {
		if wd := w.watched[p]; wd != nil {
			wd.role = role
		} else if !w.add(p, role) {
			return
		}
	}
}

// wantTargets adds to want the folder of the file each skill file that is
// a symlink leads to (docs/discovery.md#boundaries: it may lead anywhere
// inside its root's boundary): an edit there brings a reload, and the
// catalog lstats a symlinked skill file at every listing (its stamp is
// never trusted), so it is read again. A skill file is lstat'ed here when
// hint is nil or touches its folder; otherwise the last sync's answer
// stands.
func (w *watcher) wantTargets(want map[string]watchRole, sn *snapshot, hint *reloadHint) {
	links := map[string]string{}
	for _, c := range catx.Candidates(sn.listing) {
		target, ok := w.links[c.Path]
		if !ok || hint.touchesDir(filepath.Dir(c.Path)) {
			target = ""
			if fi, err := os.Lstat(c.Path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
				target, _ = filepath.EvalSymlinks(c.Path)
			}
		}
		links[c.Path] = target
		if target != "" {
			want[filepath.Dir(target)] |= roleTarget
		}
	}
	w.links = links
}

// wantRoot adds to want the folder watched for root r: for a root that
// does not exist yet (or a file), the nearest existing parent, so that
// its creation is seen; with all, every folder below r too.
func (w *watcher) wantRoot(want map[string]watchRole, r catalog.Root, all bool) {
	p := r.Path
	if r.File {
		p = filepath.Dir(p)
	}
	if fi, err := os.Lstat(p); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		// A root that is a symlink: its parent, so that the link's
		// replacement (ln -sfn, a deploy) is seen.
		want[filepath.Dir(p)] |= roleOther
	}
	if !r.Exists || r.File {
		for range maxWatchClimb + 1 {
			if fi, err := os.Stat(p); err == nil && fi.IsDir() {
				want[p] |= roleOther
				break
			}
			parent := filepath.Dir(p)
			if parent == p {
				break
			}
			p = parent
		}
		if !r.Exists {
			return
		}
	}
	if all {
		for _, d := range folders(p, math.MaxInt) {
			want[d] |= roleWalked
		}
	}
}

// touchesDir reports whether a changed path is dir, below it or above it;
// a nil hint touches everything.
func (h *reloadHint) touchesDir(dir string) bool {
	if h == nil {
		return true
	}
	return slices.ContainsFunc(h.paths, func(p string) bool { return within(p, dir) || within(dir, p) })
}

// folders returns dir (a symlink to a folder is followed) and the folders
// below it, at most limit, leaving out those never served (dot-folders,
// node_modules, __pycache__...; docs/discovery.md) and symlinks (a served
// file reached through one is inside the skill folder, whose own folders
// are watched). The paths are under dir as given.
func folders(dir string, limit int) []string {
	root := filepath.Clean(dir)
	var out []string
	_ = filepath.WalkDir(root+string(filepath.Separator), func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		p = filepath.Clean(p)
		if p != root && (fsx.SkipDir(d.Name()) || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		out = append(out, p)
		if len(out) >= limit {
			return filepath.SkipAll
		}
		return nil
	})
	return out
}

// addTree watches dir and the folders below it (see folders), at most
// limit, each with role (added to a role it has).
func (w *watcher) addTree(dir string, role watchRole, limit int) {
	for _, d := range folders(dir, limit) {
		if wd := w.watched[d]; wd != nil {
			wd.role |= role
		} else if !w.add(d, role) {
			return
		}
	}
}

// add watches one folder; it returns false when watches cannot be added
// (and polling has been turned on). A folder already watched under
// another path gets no second watch: its events are the first path's.
func (w *watcher) add(dir string, role watchRole) bool {
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		w.watchMoved(dir)
		return true // gone since: its parent's event brings a reload
	}
	id := idOf(dir, fi)
	if len(w.ids[id]) == 0 {
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
	}
	w.ids[id] = append(w.ids[id], dir)
	w.watched[dir] = &watchDir{role: role, id: id, pass: w.pass}
	w.added = append(w.added, dir)
	w.watchMoved(dir)
	return true
}

// unwatch stops watching dir. When another path to the same folder is
// still watched, the watch moves to it.
func (w *watcher) unwatch(dir string) {
	wd := w.watched[dir]
	if wd == nil {
		return
	}
	delete(w.watched, dir)
	w.watchMoved(dir)
	paths := w.ids[wd.id]
	holder := len(paths) > 0 && paths[0] == dir
	paths = slices.DeleteFunc(paths, func(p string) bool { return p == dir })
	if len(paths) == 0 {
		delete(w.ids, wd.id)
	} else {
		w.ids[wd.id] = paths
	}
	if holder {
		_ = w.fw.Remove(dir) // fails when the kernel already dropped it
		if len(paths) > 0 {
			if w.handover != nil {
				w.handover(dir, paths[0])
			}
			if err := w.fw.Add(paths[0]); err != nil {
				w.unwatch(paths[0])
			} else if nw := w.watched[paths[0]]; nw != nil {
				// Between the two, the folder was not watched.
				nw.pass = w.pass
				w.added = append(w.added, paths[0])
				w.watchMoved(paths[0])
			}
		}
	}
}

// unwatchTree stops watching dir and every folder below it: dir was
// removed or renamed, and a watch kept under its old path would hide a
// folder made there later.
func (w *watcher) unwatchTree(dir string) {
	for p := range w.watched {
		if within(p, dir) {
			w.unwatch(p)
		}
	}
}
