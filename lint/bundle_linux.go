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
	w := &bundleWalk{links: bundleLinks{s: s}, seen: 1, buf: direntBufs.Get().(*[]byte), view: view}
	defer direntBufs.Put(w.buf)
	w.dir(fd, s.baseDir, "")
	return w.links.result()
}

type bundleWalk struct {
	links bundleLinks
	seen  int
	buf   *[]byte
	view  *folderView // what the walk saw, for the body check
}

var direntBufs = sync.Pool{New: func() any { b := make([]byte, 8<<10); return &b }}

type bundleEntry struct {
	name string
	typ  fs.FileMode
}

// dir walks the open folder fd (path, rel below the skill folder; "" for
// the folder itself) and closes it; false means the walk stops.
func (w *bundleWalk) dir(fd int, path, rel string) bool {
	ents, ok := readEntries(fd, *w.buf)
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
	for {
		fd, _, e := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(dirfd), uintptr(unsafe.Pointer(p)),
			uintptr(syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC), 0, 0, 0)
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			return -1, e
		}
		return int(fd), nil
	}
}

// readEntries reads the entries of the open folder fd with getdents64
// into buf (reused), in the order the file system gives them; the names are
// copied into one allocation. false means it could not be read.
func readEntries(fd int, buf []byte) ([]bundleEntry, bool) {
	var ents []bundleEntry
	var names []byte
	type ref struct {
		off, n int
		typ    fs.FileMode
	}
	var refs []ref
	for {
		n, err := syscall.Getdents(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, false
		}
		if n <= 0 {
			break
		}
		ok := fsx.ParseDirents(buf[:n], func(name []byte, typ fs.FileMode) {
			refs = append(refs, ref{off: len(names), n: len(name), typ: typ})
			names = append(names, name...)
		})
		if !ok {
			return nil, false
		}
	}
	if len(refs) == 0 {
		return nil, true
	}
	all := unsafe.String(&names[0], len(names)) // names is not written after this
	ents = make([]bundleEntry, len(refs))
	for i, r := range refs {
		ents[i] = bundleEntry{name: all[r.off : r.off+r.n], typ: r.typ}
	}
	return ents, true
}
