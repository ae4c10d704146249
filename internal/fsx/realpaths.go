package fsx

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// RealPaths is filepath.EvalSymlinks remembered for one run (a resolution
// of the roots, a lint --compat run): the real path of a clean absolute
// path that is no symlink is its folder's real path joined with its name,
// so a path costs one lstat once its folder is known, where EvalSymlinks
// lstats every element from "/" at each call. A symlink, a path not
// absolute or not clean (a ".." after a symlink leads up from the link's
// target), and every path on Windows (whose EvalSymlinks also normalises
// letter case and short names) are asked of EvalSymlinks itself.
// TestRealPathsIsEvalSymlinks holds the two together on generated trees.
//
// The zero value is ready; it is not safe for concurrent use. What a path
// was is not what it is a minute later: keep one for one run only.
type RealPaths struct {
	// Mode is the lstat mode of a clean absolute path, or lstat's error;
	// nil is os.Lstat. A caller that already knows (a memo of its own
	// lstats, a folder it listed) spares the system call.
	Mode  func(p string) (fs.FileMode, error)
	reals map[string]realPath
}

type realPath struct {
	path string
	err  error
}

// Eval is filepath.EvalSymlinks(p): the path with every symlink resolved,
// or the error of an element that does not exist or cannot be looked at
// (for a path that does not exist, lstat's error rather than
// EvalSymlinks' own, which names the element it stopped at).
func (r *RealPaths) Eval(p string) (string, error) {
	if runtime.GOOS == "windows" {
		return filepath.EvalSymlinks(p)
	}
	if res, ok := r.reals[p]; ok {
		return res.path, res.err
	}
	if r.reals == nil {
		r.reals = map[string]realPath{}
	}
	res := r.eval(p)
	r.reals[p] = res
	return res.path, res.err
}

func (r *RealPaths) eval(p string) realPath {
	dir, base := filepath.Split(p)
	dir = filepath.Clean(dir)
	if !filepath.IsAbs(p) || p != filepath.Clean(p) || dir == p || base == "" {
		s, err := filepath.EvalSymlinks(p)
		return realPath{s, err}
	}
	mode, err := r.mode(p)
	if err != nil {
		return realPath{err: err} // EvalSymlinks fails at p or before it
	}
	if mode&fs.ModeSymlink == 0 {
		if d, err := r.Eval(dir); err == nil {
			return realPath{path: filepath.Join(d, base)}
		}
	}
	s, err := filepath.EvalSymlinks(p)
	return realPath{s, err}
}

func (r *RealPaths) mode(p string) (fs.FileMode, error) {
	if r.Mode != nil {
		return r.Mode(p)
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return 0, err
	}
	return fi.Mode(), nil
}
