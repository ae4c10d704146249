package catalog

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// pathMemo remembers, for one resolution of the roots, what the file
// system said of each path it was asked about: its lstat, its stat and its
// real path (symlinks resolved). Resolving the roots asks about the same
// folders again and again (the workspace's real path, each parent's, each
// root's), and filepath.EvalSymlinks lstats every element of a path from
// "/" each time: resolving the roots of a `skillet show NAME` four folders
// below /tmp made 87 stat-like calls and makes 52 with the memo (strace),
// and catalog's index tests, which resolve the roots once a narrowed
// read, spent 58% of their CPU there (pprof of
// TestIndexOneSkillDifferential; 10.6 s of CPU before, 7.9 s after).
//
// The zero value is not ready; newPathMemo makes one. A nil *pathMemo asks
// the file system every time. It lives for one call (resolveRoots,
// hostRoots): what a path was is not what it is a minute later.
type pathMemo struct {
	lstats map[string]statResult
	stats  map[string]statResult
	reals  map[string]string
}

type statResult struct {
	fi  fs.FileInfo
	err error
}

func newPathMemo() *pathMemo {
	return &pathMemo{lstats: map[string]statResult{}, stats: map[string]statResult{}, reals: map[string]string{}}
}

// lstat is os.Lstat(p), asked once.
func (m *pathMemo) lstat(p string) (fs.FileInfo, error) {
	if m == nil {
		return os.Lstat(p)
	}
	r, ok := m.lstats[p]
	if !ok {
		r.fi, r.err = os.Lstat(p)
		m.lstats[p] = r
	}
	return r.fi, r.err
}

// stat is os.Stat(p), asked once; a path whose lstat found no link needs
// no second call.
func (m *pathMemo) stat(p string) (fs.FileInfo, error) {
	if m == nil {
		return os.Stat(p)
	}
	if r, ok := m.lstats[p]; ok && (r.err != nil || r.fi.Mode()&fs.ModeSymlink == 0) {
		return r.fi, r.err
	}
	r, ok := m.stats[p]
	if !ok {
		r.fi, r.err = os.Stat(p)
		m.stats[p] = r
	}
	return r.fi, r.err
}

// realPath is realPath(p) (a path not absolute or not clean is asked of
// realPath itself), built from the real path
// of p's folder and one lstat of p: a path that is no symlink (or does not
// exist, or cannot be looked at) is its folder's real path and its name,
// which is what filepath.EvalSymlinks (or realPath's fallback to the
// longest existing prefix) gives; a symlink is resolved by realPath
// itself. TestPathMemoIsRealPath holds the two together on generated trees.
func (m *pathMemo) realPath(p string) string {
	if m == nil || runtime.GOOS == "windows" {
		// Windows's EvalSymlinks also normalises each element's
		// letter case and short name: ask it every time.
		return realPath(p)
	}
	if r, ok := m.reals[p]; ok {
		return r
	}
	r := m.resolve(p)
	m.reals[p] = r
	return r
}

func (m *pathMemo) resolve(p string) string {
	dir, base := filepath.Split(p)
	dir = filepath.Clean(dir)
	if !filepath.IsAbs(p) || dir == p || base == "" || base == "." || base == ".." || p != filepath.Clean(p) {
		// Not clean: a ".." after a symlink leads up from the link's
		// target (EvalSymlinks), not from the link's folder.
		return realPath(p)
	}
	if fi, err := m.lstat(p); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return realPath(p)
	}
	return filepath.Join(m.realPath(dir), base)
}
