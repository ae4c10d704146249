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
func walkBundle(s *subject, view *folderView) []skill.Diagnostic {
	fd, err := openDirAt(fsx.AtFDCWD, s.baseDir)
	if err != nil {
		return nil
	}
	w := &bundleWalk{links: bundleLinks{s: s}, seen: 1, dirents: direntReaders.Get().(*fsx.Dirents), view: view}
	defer direntReaders.Put(w.dirents)
	w.dir(fd, s.baseDir, "")
	return w.links.result()
}

type bundleWalk struct {
	links   bundleLinks
	seen    int
	dirents *fsx.Dirents // internal/fsx's folder reader, reused
	view    *folderView  // what the walk saw, for the body check
}

// direntReaders are the folder readers of walks under way and done.
var direntReaders = sync.Pool{New: func() any { return new(fsx.Dirents) }}

type bundleEntry struct {
	name string
	typ  fs.FileMode
}

// dir walks the open folder fd (path, rel below the skill folder; "" for
// the folder itself) and closes it; false means the walk stops.
func (w *bundleWalk) dir(fd int, path, rel string) bool {
	ents, ok := readEntries(fd, w.dirents)
	if !ok {
		syscall.Close(fd)
		return true // as WalkDir: a folder that cannot be read is passed over
	}
	if rel == "" && w.view != nil {
		names := make([]string, len(ents))
		for i, e := range ents {
			names[i] = e.name
		}
		w.view.top = names
	}
	slices.SortFunc(ents, func(a, b bundleEntry) int { return strings.Compare(a.name, b.name) })
	defer syscall.Close(fd)
	for _, e := range ents {
		if w.seen++; w.seen > maxBundleEntries {
			return false
		}
		erel := e.name
		if rel != "" {
			erel = rel + string(filepath.Separator) + e.name
		}
		switch {
		case e.typ == fsx.ModeUnknown:
			var st syscall.Stat_t
			name := append([]byte(e.name), 0)
			if fsx.Fstatat(fd, &name[0], &st, fsx.AtSymlinkNoFollow) != 0 {
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
			sub, err := openDirAt(fd, e.name)
			if err != nil {
				continue
			}
			if !w.dir(sub, filepath.Join(path, e.name), erel) {
				return false
			}
		case e.typ == fs.ModeSymlink:
			if !w.links.link(filepath.Join(path, e.name), erel) {
				return false
			}
		}
	}
	return true
}

func openDirAt(dirfd int, name string) (int, error) {
	p, err := syscall.BytePtrFromString(name)
	if err != nil {
		return -1, err
	}
	fd, e := fsx.OpenDirAt(dirfd, p, syscall.O_NOFOLLOW)
	if e != 0 {
		return -1, e
	}
	return fd, nil
}

// readEntries reads the entries of the open folder fd with d, in the
// order the file system gives them; the names are copied into one
// allocation. false means it could not be read.
func readEntries(fd int, d *fsx.Dirents) ([]bundleEntry, bool) {
	if !d.Read(fd, 8<<10) {
		return nil, false
	}
	if d.Len() == 0 {
		return nil, true
	}
	n := 0
	for i := range d.Len() {
		n += len(d.Name(i))
	}
	names := make([]byte, 0, n)
	for i := range d.Len() {
		names = append(names, d.Name(i)...)
	}
	all := unsafe.String(&names[0], len(names)) // names is not written after this
	ents := make([]bundleEntry, d.Len())
	at := 0
	for i := range ents {
		k := len(d.Name(i))
		ents[i] = bundleEntry{name: all[at : at+k], typ: d.Type(i)}
		at += k
	}
	d.Release(1024)
	return ents, true
}
