//go:build unix

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/skillet-go/skillet/internal/hostws"
)

// oracle reports whether a candidate workspace still shows the
// disagreement being shrunk. The real one runs the agent once and compares
// its list with the profile's (shrinkOracle); the tests give a fake.
type oracle func(ctx context.Context, w *hostws.Workspace) (bool, error)

// shrinker makes a workspace that shows a disagreement smaller while the
// oracle says it still shows it: it removes files, symlinks, git roots and
// corpus copies, moves the working folder up to proj, then removes lines
// of each file and shortens long lines, and repeats all of that until a
// whole round removes nothing. Each candidate is asked once (the same
// archive is never asked twice) and at most maxRuns candidates are asked
// in all; past that it stops with the smallest workspace found so far.
type shrinker struct {
	keep    oracle
	maxRuns int
	// protect names files never removed (the file of the skill the
	// disagreement is about): a candidate without it cannot show it, so
	// asking would only spend a run.
	protect map[string]bool
	log     io.Writer

	runs  int
	asked map[string]bool
}

// errBudget ends a shrink when maxRuns candidates have been asked.
var errBudget = fmt.Errorf("the cap on agent runs is reached")

// try asks the oracle about cand (canonical: as written to and read back
// from an archive) unless it was asked before. It returns the canonical
// candidate when the disagreement persists.
func (s *shrinker) try(ctx context.Context, cand *hostws.Workspace) (*hostws.Workspace, bool, error) {
	data, err := cand.Format()
	if err != nil {
		return nil, false, nil // not writable as an archive: not a candidate
	}
	if s.asked[string(data)] {
		return nil, false, nil
	}
	if s.runs >= s.maxRuns {
		return nil, false, errBudget
	}
	s.asked[string(data)] = true
	s.runs++
	w, err := hostws.Parse(cand.Name, data)
	if err != nil {
		return nil, false, err
	}
	ok, err := s.keep(ctx, w)
	if err != nil {
		return nil, false, err
	}
	if ok && s.log != nil {
		fmt.Fprintf(s.log, "shrink: run %d: %d files, %d bytes\n", s.runs, len(w.Files), len(data))
	}
	return w, ok, nil
}

// shrink returns the smallest workspace found that still shows the
// disagreement. The starting workspace must show it (asked first); a
// reached cap is not an error (the result is then smaller, not minimal,
// and done reports false).
func (s *shrinker) shrink(ctx context.Context, w *hostws.Workspace) (small *hostws.Workspace, done bool, err error) {
	if s.asked == nil {
		s.asked = map[string]bool{}
	}
	cur, ok, err := s.try(ctx, w)
	if err != nil {
		return nil, false, err
	}
	if !ok {
		return nil, false, fmt.Errorf("the workspace does not show the disagreement (as written to an archive)")
	}
	for {
		next, err := s.round(ctx, cur)
		if next != nil {
			cur = next
		}
		switch {
		case err == errBudget:
			return cur, false, nil
		case err != nil:
			return nil, false, err
		case next == nil:
			return cur, true, nil
		}
	}
}

// round runs every pass once over w and returns the result, or nil when no
// pass removed anything.
func (s *shrinker) round(ctx context.Context, w *hostws.Workspace) (*hostws.Workspace, error) {
	changed := false
	passes := []func(context.Context, *hostws.Workspace) (*hostws.Workspace, error){
		s.dropFiles, s.dropLinks, s.dropGit, s.dropCorpus, s.raiseCwd, s.dropLines, s.cutLines,
	}
	for _, pass := range passes {
		next, err := pass(ctx, w)
		if next != nil {
			w, changed = next, true
		}
		if err != nil {
			return w, err
		}
	}
	if !changed {
		return nil, nil
	}
	return w, nil
}

// chunks removes items of a list of n while the disagreement persists:
// halves first, then quarters, down to single items (each chunk tried
// once per size). without(w, drop) is w without the items whose indexes
// are in drop; fixed(i) keeps item i always. It returns the last
// workspace that showed the disagreement, or nil when none was removed.
func (s *shrinker) chunks(ctx context.Context, w *hostws.Workspace, n func(*hostws.Workspace) int,
	without func(w *hostws.Workspace, drop map[int]bool) *hostws.Workspace, fixed func(w *hostws.Workspace, i int) bool) (*hostws.Workspace, error) {
	var out *hostws.Workspace
	for size := max(n(w)/2, 1); ; size /= 2 {
		for i := 0; i < n(w); {
			drop := map[int]bool{}
			for j := i; j < min(i+size, n(w)); j++ {
				if fixed == nil || !fixed(w, j) {
					drop[j] = true
				}
			}
			if len(drop) == 0 {
				i += size
				continue
			}
			next, ok, err := s.try(ctx, without(w, drop))
			if err != nil {
				return out, err
			}
			if ok {
				w, out = next, next // the items after the chunk moved down to i
				continue
			}
			i += size
		}
		if size == 1 {
			return out, nil
		}
	}
}

// clone copies w's lists, so that a candidate never shares them with w.
func clone(w *hostws.Workspace) *hostws.Workspace {
	c := *w
	c.Git = slices.Clone(w.Git)
	c.Symlinks = slices.Clone(w.Symlinks)
	c.Corpus = slices.Clone(w.Corpus)
	c.Hosts = slices.Clone(w.Hosts)
	c.Files = slices.Clone(w.Files)
	return &c
}

func dropIndexes[T any](list []T, drop map[int]bool) []T {
	var out []T
	for i, x := range list {
		if !drop[i] {
			out = append(out, x)
		}
	}
	return out
}

func (s *shrinker) dropFiles(ctx context.Context, w *hostws.Workspace) (*hostws.Workspace, error) {
	return s.chunks(ctx, w, func(w *hostws.Workspace) int { return len(w.Files) },
		func(w *hostws.Workspace, drop map[int]bool) *hostws.Workspace {
			c := clone(w)
			c.Files = dropIndexes(w.Files, drop)
			return c
		},
		func(w *hostws.Workspace, i int) bool { return s.protect[w.Files[i].Name] })
}

func (s *shrinker) dropLinks(ctx context.Context, w *hostws.Workspace) (*hostws.Workspace, error) {
	return s.chunks(ctx, w, func(w *hostws.Workspace) int { return len(w.Symlinks) },
		func(w *hostws.Workspace, drop map[int]bool) *hostws.Workspace {
			c := clone(w)
			c.Symlinks = dropIndexes(w.Symlinks, drop)
			return c
		}, nil)
}

func (s *shrinker) dropGit(ctx context.Context, w *hostws.Workspace) (*hostws.Workspace, error) {
	return s.chunks(ctx, w, func(w *hostws.Workspace) int { return len(w.Git) },
		func(w *hostws.Workspace, drop map[int]bool) *hostws.Workspace {
			c := clone(w)
			c.Git = dropIndexes(w.Git, drop)
			return c
		}, nil)
}

func (s *shrinker) dropCorpus(ctx context.Context, w *hostws.Workspace) (*hostws.Workspace, error) {
	return s.chunks(ctx, w, func(w *hostws.Workspace) int { return len(w.Corpus) },
		func(w *hostws.Workspace, drop map[int]bool) *hostws.Workspace {
			c := clone(w)
			c.Corpus = dropIndexes(w.Corpus, drop)
			return c
		}, nil)
}

// raiseCwd moves the working folder up, one folder at a time, to proj.
func (s *shrinker) raiseCwd(ctx context.Context, w *hostws.Workspace) (*hostws.Workspace, error) {
	var out *hostws.Workspace
	for w.Cwd != "proj" && strings.HasPrefix(w.Cwd, "proj/") {
		c := clone(w)
		c.Cwd = w.Cwd[:strings.LastIndex(w.Cwd, "/")]
		next, ok, err := s.try(ctx, c)
		if err != nil || !ok {
			return out, err
		}
		w, out = next, next
	}
	return out, nil
}

// lines splits data after each line end: after each \n, or after each \r
// when the data holds no \n (a file of lone CRs).
func lines(data []byte) [][]byte {
	sep := byte('\n')
	if !bytes.Contains(data, []byte{'\n'}) {
		sep = '\r'
	}
	var out [][]byte
	for len(data) > 0 {
		i := bytes.IndexByte(data, sep)
		if i < 0 {
			i = len(data) - 1
		}
		out = append(out, data[:i+1])
		data = data[i+1:]
	}
	return out
}

// withFile is w with file i's data replaced.
func withFile(w *hostws.Workspace, i int, data []byte) *hostws.Workspace {
	c := clone(w)
	c.Files[i] = hostws.File{Name: w.Files[i].Name, Data: data}
	return c
}

// dropLines removes lines of each file, in chunks.
func (s *shrinker) dropLines(ctx context.Context, w *hostws.Workspace) (*hostws.Workspace, error) {
	var out *hostws.Workspace
	for f := 0; f < len(w.Files); f++ {
		name := w.Files[f].Name
		next, err := s.chunks(ctx, w, func(w *hostws.Workspace) int { return len(lines(fileData(w, name))) },
			func(w *hostws.Workspace, drop map[int]bool) *hostws.Workspace {
				i := fileIndex(w, name)
				return withFile(w, i, bytes.Join(dropIndexes(lines(w.Files[i].Data), drop), nil))
			}, nil)
		if next != nil {
			w, out = next, next
		}
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// cutLines shortens each line longer than 24 bytes (its line end kept)
// while the disagreement persists, to the shortest prefix of at least 24
// bytes that keeps it (a binary search: half first, then less): a long
// value becomes a short one.
func (s *shrinker) cutLines(ctx context.Context, w *hostws.Workspace) (*hostws.Workspace, error) {
	const floor = 24
	var out *hostws.Workspace
	for f := 0; f < len(w.Files); f++ {
		for l := 0; l < len(lines(w.Files[f].Data)); l++ {
			n := len(bytes.TrimRight(lines(w.Files[f].Data)[l], "\r\n"))
			for keep := max(n/2, floor); keep < n; {
				ls := lines(w.Files[f].Data)
				line := ls[l]
				body := bytes.TrimRight(line, "\r\n")
				ls[l] = append(slices.Clone(body[:keep]), line[len(body):]...)
				next, ok, err := s.try(ctx, withFile(w, f, bytes.Join(ls, nil)))
				if err != nil {
					return out, err
				}
				if ok {
					w, out, n = next, next, keep
					keep = max(n/2, floor)
				} else {
					keep += (n - keep + 1) / 2
				}
			}
		}
	}
	return out, nil
}

func fileIndex(w *hostws.Workspace, name string) int {
	for i, f := range w.Files {
		if f.Name == name {
			return i
		}
	}
	return -1
}

func fileData(w *hostws.Workspace, name string) []byte {
	if i := fileIndex(w, name); i >= 0 {
		return w.Files[i].Data
	}
	return nil
}
