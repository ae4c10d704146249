package catalog

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/skillet-go/skillet/internal/fsx"
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
// The real paths are fsx.RealPaths' (the one home of that memo, which
// lint --compat's file keys use too), asking this memo's lstat.
//
// The zero value is not ready; newPathMemo makes one. A nil *pathMemo asks
// the file system every time. It lives for one resolution (resolveRoots),
// one host listing's roots and search (hostJudge without a share), or one
// searchHosts (hostShare.paths: every profile's roots and searches in a
// lint --compat run): what a path was is not what it is a minute later.
type pathMemo struct {
	lstats map[string]statResult
	stats  map[string]statResult
	reals  fsx.RealPaths
}

// memoStat and memoLstat are os.Stat and os.Lstat of a pathMemo; tests
// count the calls.
var memoStat, memoLstat = os.Stat, os.Lstat

type statResult struct {
	fi  fs.FileInfo
	err error
}

func newPathMemo() *pathMemo {
	m := &pathMemo{lstats: map[string]statResult{}, stats: map[string]statResult{}}
	m.reals.Mode = func(p string) (fs.FileMode, error) {
		fi, err := m.lstat(p)
		if err != nil {
			return 0, err
		}
		return fi.Mode(), nil
	}
	return m
}

// lstat is os.Lstat(p), asked once.
func (m *pathMemo) lstat(p string) (fs.FileInfo, error) {
	if m == nil {
		return os.Lstat(p)
	}
	r, ok := m.lstats[p]
	if !ok {
		r.fi, r.err = memoLstat(p)
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
		r.fi, r.err = memoStat(p)
		m.stats[p] = r
	}
	return r.fi, r.err
}

// realPath is realPath(p): the real path of p (fsx.RealPaths.Eval), or,
// when p does not exist, the real path of its longest existing prefix
// joined with the rest. TestPathMemoIsRealPath holds the two together on
// generated trees.
func (m *pathMemo) realPath(p string) string {
	if m == nil {
		return realPath(p)
	}
	if r, err := m.reals.Eval(p); err == nil {
		return r
	}
	dir, base := filepath.Split(p)
	dir = filepath.Clean(dir)
	if dir == p || dir == "." || dir == "" {
		return p
	}
	return filepath.Join(m.realPath(dir), base)
}
