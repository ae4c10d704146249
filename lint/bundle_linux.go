//go:build linux && (amd64 || arm64)

package lint

import (
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/skill"
)

// walkBundle walks the skill folder as walkBundleDir does, entry for entry
// and in the same order, but reads each folder with getdents64 into reused
// memory and takes an entry's type from its d_type (an entry whose type
// the file system does not report is lstat'ed, as os.ReadDir does), so a
// folder costs an open, its getdents64 calls and a close, and an entry
// that is neither a folder nor a symlink costs nothing more. Folders are
// opened below their parent with O_NOFOLLOW: a skill folder that is a
// symlink is not walked (filepath.WalkDir does not follow it either).
//
// A walk allocates little (BenchmarkWalkBundle): the folder reader, the
// stack of entries and the buffer of a folder's name for openat are
// reused from walk to walk (bundleScratch), the names are cut from one
// growing arena of the walk's own (the view keeps some of them), and a
// path is joined only for a symlink.
//
// With --compat or --target the host searches have listed most of these
// folders just before (s.listed): a folder they listed whole is read from
// their listing, in the same order and with the same types, instead of
// opened and read again (one listing of each folder where there were
// two); the skill folder itself only when they saw it as a folder, not a
// symlink. A folder they did not list is opened by its path.
// TestWalkBundleListed holds the walk from the listings to the walk of
// the file system.
func walkBundle(s *subject, view *folderView) []skill.Diagnostic {
	sc := bundleScratches.Get().(*bundleScratch)
	defer sc.put()
	w := &bundleWalk{links: bundleLinks{s: s}, seen: 1, sc: sc, view: view}
	if ents, ok := w.listedAt(""); ok {
		w.dir(-1, ents, "")
		return w.links.result()
	}
	fd, err := sc.openDirAt(fsx.AtFDCWD, s.baseDir)
	if err != nil {
		return nil
	}
	w.dir(fd, nil, "")
	return w.links.result()
}

// listedAt returns the host searches' listing of the folder rel below the
// skill folder ("" for the folder itself; s.listed), false when there is
// none to take.
func (w *bundleWalk) listedAt(rel string) ([]catalogx.ListedEntry, bool) {
	l, base := w.links.s.listed, w.links.s.baseDir
	if l == nil {
		return nil, false
	}
	if rel == "" {
		if !l.folder(base) {
			return nil, false
		}
		return l.listed(base)
	}
	w.sc.path = append(append(append(w.sc.path[:0], base...), filepath.Separator), rel...)
	return l.listed(unsafe.String(unsafe.SliceData(w.sc.path), len(w.sc.path)))
}

type bundleWalk struct {
	links bundleLinks
	seen  int
	sc    *bundleScratch
	view  *folderView // what the walk saw, for the body check
	// arena holds the names and relative paths the walk cut, each
	// appended once and never written over (a new arena is made when
	// one is full), so that the view can keep them.
	arena []byte
}

// bundleScratch is the memory a walk reuses from the last: internal/fsx's
// folder reader, the stack of the entries of the folders under way, the
// NUL-terminated name openDirAt passes to openat, and the path of a
// folder listedAt looks up.
type bundleScratch struct {
	dirents fsx.Dirents
	ents    []bundleEntry
	used    int // the most of ents the walk held at once: what put clears
	name    []byte
	path    []byte
}

var bundleScratches = sync.Pool{New: func() any { return new(bundleScratch) }}

func (sc *bundleScratch) put() {
	if cap(sc.ents) > 1<<12 {
		sc.ents = nil // a rare large folder: let its memory go
	}
	clear(sc.ents[:min(sc.used, cap(sc.ents))]) // the names are the walk's arena's
	sc.ents, sc.used = sc.ents[:0], 0
	bundleScratches.Put(sc)
}

type bundleEntry struct {
	name string
	typ  fs.FileMode
}

// entries puts the entries of a folder on w.sc.ents: read from fd, or
// from listed (a host search's listing of it) when fd is negative. from is
// where they start; ok is false when fd cannot be read.
func (w *bundleWalk) entries(fd int, listed []catalogx.ListedEntry) (from int, ok bool) {
	if fd >= 0 {
		return w.readEntries(fd)
	}
	from = len(w.sc.ents)
	for _, e := range listed {
		w.sc.ents = append(w.sc.ents, bundleEntry{name: e.Name, typ: e.Type})
	}
	w.sc.used = max(w.sc.used, len(w.sc.ents))
	return from, true
}

// noteTop gives the folder view, if any, the names of the skill folder's
// own entries (ents, in the order read) and room for the entries seen,
// reusing the last skill's (spareTop, spareSeen).
func (w *bundleWalk) noteTop(ents []bundleEntry) {
	v := w.view
	if v == nil {
		return
	}
	names := v.spareTop[:0]
	if names == nil {
		names = make([]string, 0, len(ents))
	}
	for _, e := range ents {
		names = append(names, e.name)
	}
	v.top = names
	if v.seen == nil {
		v.seen = v.spareSeen[:0]
	}
	if v.seen == nil {
		v.seen = make([]seenEntry, 0, min(maxSeen, 16))
	}
}

// dir walks the open folder fd (rel below the skill folder; "" for the
// folder itself) and closes it; false means the walk stops. With fd -1 the
// folder's entries are listed, the host searches' listing of it.
func (w *bundleWalk) dir(fd int, listed []catalogx.ListedEntry, rel string) bool {
	from, ok := w.entries(fd, listed)
	if !ok {
		syscall.Close(fd)
		return true // as WalkDir: a folder that cannot be read is passed over
	}
	// The folder's entries stay at w.sc.ents[from:] while its subfolders'
	// go on the stack after them (which may move the stack: ents is read
	// from the copy it was cut from, not written after the sort).
	ents := w.sc.ents[from:]
	defer func() { w.sc.ents = w.sc.ents[:from] }()
	if rel == "" {
		w.noteTop(ents)
	}
	slices.SortFunc(ents, func(a, b bundleEntry) int { return strings.Compare(a.name, b.name) })
	if fd >= 0 {
		defer syscall.Close(fd)
	}
	for _, e := range ents {
		if w.seen++; w.seen > maxBundleEntries {
			return false
		}
		erel := e.name
		if rel != "" {
			erel = w.join(rel, e.name)
		}
		switch {
		case e.typ == fsx.ModeUnknown: // only from readEntries: a listing's types are known
			var st syscall.Stat_t
			if fd < 0 || fsx.Fstatat(fd, w.sc.cName(e.name), &st, fsx.AtSymlinkNoFollow) != 0 {
				w.seen-- // os.ReadDir leaves out an entry that vanished
				continue
			}
			e.typ = fsx.ModeType(st.Mode)
		}
		if v := w.view; v != nil && len(v.seen) < maxSeen && (e.typ == fs.ModeDir || e.typ == 0) {
			v.seen = append(v.seen, seenEntry{rel: erel, dir: e.typ == fs.ModeDir})
		}
		switch {
		case e.typ == fs.ModeDir:
			if fsx.SkipDir(e.name) || depth(erel) >= maxBundleDepth {
				continue
			}
			if sub, ok := w.listedAt(erel); ok {
				if !w.dir(-1, sub, erel) {
					return false
				}
				continue
			}
			sub, err := w.openSub(fd, e.name, erel)
			if err != nil {
				continue
			}
			if !w.dir(sub, nil, erel) {
				return false
			}
		case e.typ == fs.ModeSymlink:
			// The entry's path: the folder's names are plain (no "."
			// or ".."), so it is the skill folder joined with erel, as
			// filepath.WalkDir's path is.
			if !w.links.link(filepath.Join(w.links.s.baseDir, erel), erel) {
				return false
			}
		}
	}
	return true
}

// openSub opens the subfolder name of the folder fd, or, when fd is -1
// (a folder read from a listing), the folder rel below the skill folder
// by its path; neither follows a symlink at the last step.
func (w *bundleWalk) openSub(fd int, name, rel string) (int, error) {
	if fd >= 0 {
		return w.sc.openDirAt(fd, name)
	}
	return w.sc.openDirAt(fsx.AtFDCWD, filepath.Join(w.links.s.baseDir, rel))
}

// join is rel + the separator + name, cut from the arena.
func (w *bundleWalk) join(rel, name string) string {
	n := len(rel) + 1 + len(name)
	w.reserve(n)
	at := len(w.arena)
	w.arena = append(append(append(w.arena, rel...), filepath.Separator), name...)
	return unsafe.String(&w.arena[at], n)
}

// reserve makes room for n more bytes in the arena, in a new one when it
// is full (the old one stays with the strings cut from it).
func (w *bundleWalk) reserve(n int) {
	if cap(w.arena)-len(w.arena) < n {
		w.arena = make([]byte, 0, max(2*n, 128))
	}
}

// cName is name with a NUL after it, in sc's buffer (valid until the
// next call).
func (sc *bundleScratch) cName(name string) *byte {
	sc.name = append(append(sc.name[:0], name...), 0)
	return &sc.name[0]
}

// openDirAt opens the folder name below dirfd, not following a symlink.
func (sc *bundleScratch) openDirAt(dirfd int, name string) (int, error) {
	if strings.IndexByte(name, 0) >= 0 {
		return -1, syscall.EINVAL // as syscall.BytePtrFromString
	}
	fd, e := fsx.OpenDirAt(dirfd, sc.cName(name), syscall.O_NOFOLLOW)
	if e != 0 {
		return -1, e
	}
	return fd, nil
}

// readEntries reads the entries of the open folder fd with w's folder
// reader, in the order the file system gives them, onto the stack
// w.sc.ents, from from on; the names are copied into the arena. false
// means it could not be read.
func (w *bundleWalk) readEntries(fd int) (from int, ok bool) {
	d := &w.sc.dirents
	from = len(w.sc.ents)
	if !d.Read(fd, 8<<10) {
		return from, false
	}
	if d.Len() == 0 {
		return from, true
	}
	n := 0
	for i := range d.Len() {
		n += len(d.Name(i))
	}
	w.reserve(n)
	at := len(w.arena)
	for i := range d.Len() {
		w.arena = append(w.arena, d.Name(i)...)
	}
	all := unsafe.String(&w.arena[at], n) // not written after this
	k := 0
	for i := range d.Len() {
		m := len(d.Name(i))
		w.sc.ents = append(w.sc.ents, bundleEntry{name: all[k : k+m], typ: d.Type(i)})
		k += m
	}
	w.sc.used = max(w.sc.used, len(w.sc.ents))
	d.Release(1024)
	return from, true
}
