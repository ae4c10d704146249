package catalog

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/skillet-go/skillet/skill"
)

// entry is one cached skill file: its stamp and what parsing it gave.
type entry struct {
	stamp     stamp
	skill     *skill.Skill // nil when rejected
	diags     []skill.Diagnostic
	size      int64
	truncated bool
	readErr   error
	// listed is the catalog Skill built from this entry by the last List,
	// reused while nothing about it changes.
	listed *Skill
}

// List discovers skills under every root and returns the listing. Files
// whose size, modification time and inode are unchanged since the last
// List are not read again, and folders whose stamp is unchanged are not
// read again either (docs/discovery.md#caching): a warm List costs about one stat per skill and
// no allocation per unchanged skill. Edits, additions and removals are
// seen. One bad entry never fails the listing: it becomes a diagnostic. The
// error is non-nil only when ctx is done.
func (c *Catalog) List(ctx context.Context) (*Listing, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !c.profile.Native {
		return c.listHost(ctx)
	}
	l := &Listing{Workspace: c.workspace}
	diags := slices.Clone(c.cfgDiags)
	if !c.wsExists {
		diags = append(diags, skill.Diagnostic{
			Code: skill.CodeWorkspaceMissing, Severity: skill.SeverityError, Path: c.workspace,
			Message: "the workspace folder does not exist; project roots are not scanned",
		})
	}
	roots, rootDiags := c.resolveRoots()
	diags = append(diags, rootDiags...)
	// A persistent index answers when nothing it covers has changed
	// (index.go); a catalog with files cached in memory already has a
	// cheaper check than the index's.
	if c.opts.Index != "" && len(c.cache) == 0 {
		if il := c.fromIndex(roots); il != nil {
			c.snapMu.Lock()
			c.snap = il
			c.snapMu.Unlock()
			return il, nil
		}
	}
	start := time.Now()

	// Walk every root, in precedence order.
	if c.nextDirs == nil {
		c.nextDirs = map[string]*dirState{}
	}
	clear(c.nextDirs)
	cands := c.candBuf[:0]
	var ignoredCands []candidate
	// With nothing cached (the first List), files are read and parsed
	// while the walk goes on; later Lists walk first and read only what
	// changed.
	var early *pipeline
	if len(c.cache) == 0 {
		early = c.startPipeline(ctx)
	}
	// Each root is held open while its files are read (readBeneath).
	rootFDs := make([]rootDir, 0, len(roots))
	defer func() {
		for _, d := range rootFDs {
			d.close()
		}
	}()
	for _, r := range roots {
		w := &walker{ctx: ctx, c: c, root: r, cands: cands, rootFD: -1, at: noDir}
		if r.Exists && !r.File {
			w.rootFD = openRootDir(r.Path, w.allowed)
			rootFDs = append(rootFDs, w.rootFD)
		}
		if early != nil {
			w.emit = early.send
		}
		before := len(cands)
		w.walkRoot()
		cands = w.cands
		ignoredCands = append(ignoredCands, w.ignored...)
		diags = append(diags, w.diags...)
		diags = append(diags, withholdSkills(r, cands[before:])...)
		l.Roots = append(l.Roots, *r)
	}
	var entries []*entry
	if early != nil {
		entries = early.wait(len(cands))
	}
	// Ignored files come last, so one that is the same file as a skill
	// (through a symlink) never takes that file's place.
	cands = append(cands, ignoredCands...)
	c.dirs, c.nextDirs = c.nextDirs, c.dirs
	c.candBuf = cands[:0]
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	// Read and parse what changed (and was not read early), in parallel;
	// the rest comes from the cache.
	entries = c.readAll(ctx, cands, entries)
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	// Precedence: first found wins (docs/discovery.md#precedence).
	if c.nextCache == nil {
		c.nextCache = make(map[string]*entry, len(cands))
	}
	next := c.nextCache
	clear(next)
	if c.byName == nil {
		c.byName, c.seenFile = map[string]*Skill{}, map[stamp]int{}
	}
	byName, seenFile := c.byName, c.seenFile
	clear(byName)
	clear(seenFile)
	// The same file reached twice (through symlinks) is loaded once (Brute):
	// through the path that is most its own, a directory-form SKILL.md
	// that is not itself a symlink, else the first found.
	for i := range cands {
		e := entries[i]
		if e == nil || e.readErr != nil || e.stamp.ino == 0 {
			continue
		}
		key := stamp{ino: e.stamp.ino, dev: e.stamp.dev}
		if j, ok := seenFile[key]; !ok || ownPath(&cands[i], &cands[j]) {
			seenFile[key] = i
		}
	}
	l.Skills = make([]*Skill, 0, len(cands))
	// Candidates point into one backing array: no allocation per skill.
	// lost are the candidates that do not load, whose folders nestedDiags
	// searches.
	var lost []*candidate
	cdBuf := make([]Candidate, 0, len(cands))
	l.Candidates = make([]*Candidate, 0, len(cands))
	addCandidate := func(cand *candidate) *Candidate {
		cdBuf = append(cdBuf, Candidate{Path: cand.path, Root: cand.root.Path, Scope: cand.root.Scope, Flat: cand.flat, Ignored: cand.ignored})
		cd := &cdBuf[len(cdBuf)-1]
		l.Candidates = append(l.Candidates, cd)
		return cd
	}
	for i := range cands {
		cand := &cands[i]
		e := entries[i]
		if e == nil {
			continue
		}
		if e.readErr != nil {
			diags = append(diags, readDiag(*cand, e.readErr))
			addCandidate(cand)
			lost = append(lost, cand)
			continue
		}
		next[cand.path] = e
		if e.stamp.ino != 0 && seenFile[stamp{ino: e.stamp.ino, dev: e.stamp.dev}] != i {
			continue // another path to the same file is loaded (Brute)
		}
		cd := addCandidate(cand)
		diags = append(diags, e.diags...)
		if cand.fileCase {
			diags = append(diags, skill.Diagnostic{Code: skill.CodeFileCase, Severity: skill.SeverityWarning, Path: cand.path,
				Message: fmt.Sprintf("the skill file is named %s; %s is the standard name", filepath.Base(cand.path), SkillFile)})
		}
		if e.truncated {
			diags = append(diags, skill.Diagnostic{Code: skill.CodeTooLarge, Severity: skill.SeverityWarning, Path: cand.path,
				Message: fmt.Sprintf("the file is %d bytes; only the first %d (maxSkillBytes) are read and %d are left out", e.size, c.settings.MaxSkillBytes, max(e.size-int64(c.settings.MaxSkillBytes), 0))})
		}
		if e.skill == nil {
			lost = append(lost, cand)
			continue
		}
		s := e.listed
		if s == nil || s.Location != cand.path || s.BaseDir != cand.dir || s.Root != cand.root.Path || s.Scope != cand.root.Scope || s.Flat != cand.flat || s.boundary != cand.root.Boundary {
			s = &Skill{Location: cand.path, BaseDir: cand.dir, Root: cand.root.Path,
				Scope: cand.root.Scope, Folder: cand.root.Label, Flat: cand.flat, Bytes: e.size, Truncated: e.truncated, c: c,
				boundary: cand.root.Boundary}
			s.setParsed(e.skill)
			e.listed = s
		}
		cd.Skill = s
		if cand.ignored {
			continue
		}
		if w, ok := byName[s.Name]; ok {
			if d, ok := otherFolder(w, s); ok {
				diags = append(diags, d)
				if d.Code != skill.CodeDuplicateCopy {
					lost = append(lost, cand)
				}
				continue
			}
			if w.Root == s.Root && ownName(s) && !ownName(w) {
				// Two skills of one root: the copy whose name is its
				// folder's wins over the one found first.
				diags = append(diags, skill.Diagnostic{Code: skill.CodeDuplicateName, Severity: skill.SeverityError,
					Path: w.Location, Skill: s.Name, Related: s.Location,
					Message: fmt.Sprintf("the skill %q is also defined at %s, which loads because its folder has the skill's name; this copy, in the folder %q, does not",
						s.Name, s.Location, folderName(w))})
				l.Skills[slices.Index(l.Skills, w)] = s
				byName[s.Name] = s
				lost = append(lost, &candidate{root: cand.root, path: w.Location, dir: w.BaseDir, flat: w.Flat})
				continue
			} else if w.Scope == s.Scope {
				diags = append(diags, skill.Diagnostic{Code: skill.CodeDuplicateName, Severity: skill.SeverityError,
					Path: s.Location, Skill: s.Name, Related: w.Location,
					Message: fmt.Sprintf("the skill %q is also defined at %s, which loads; this copy does not", s.Name, w.Location)})
			} else {
				diags = append(diags, skill.Diagnostic{Code: skill.CodeShadowed, Severity: skill.SeverityWarning,
					Path: s.Location, Skill: s.Name, Related: w.Location,
					Message: fmt.Sprintf("the %s skill %q is shadowed by the %s skill at %s", s.Scope, s.Name, w.Scope, w.Location)})
			}
			lost = append(lost, cand)
			continue
		}
		byName[s.Name] = s
		l.Skills = append(l.Skills, s)
	}
	c.cache, c.nextCache = next, c.cache
	diags = append(diags, c.nestedDiags(ctx, lost)...)
	if len(l.Skills) == 0 {
		diags = append(diags, c.skippedDiags(roots)...)
	}

	// maxSkills (docs/discovery.md#limits): the catalog lists at most that many visible skills.
	// Skills are never changed once handed out: one whose Listed flag
	// changes is copied.
	var left []string
	var copied map[*Skill]*Skill
	listed := 0
	for i, s := range l.Skills {
		want := false
		if !s.Hidden() {
			if listed < c.settings.MaxSkills {
				want = true
				listed++
			} else {
				left = append(left, s.Name)
			}
		}
		if s.Listed != want {
			cp := *s
			cp.Listed = want
			l.Skills[i] = &cp
			if e := c.cache[s.Location]; e != nil {
				e.listed = &cp
			}
			if copied == nil {
				copied = map[*Skill]*Skill{}
			}
			copied[s] = &cp
		}
	}
	for _, cd := range l.Candidates {
		if cp, ok := copied[cd.Skill]; ok {
			cd.Skill = cp
		}
	}
	if len(left) > 0 {
		diags = append(diags, skill.Diagnostic{Code: skill.CodeCatalogTruncated, Severity: skill.SeverityWarning,
			Path: c.workspace,
			Message: fmt.Sprintf("the catalog lists %s (maxSkills %d); %d more %s loadable by name and findable by search: %s",
				countOf(listed, "skill"), c.settings.MaxSkills, len(left), map[bool]string{true: "stays", false: "stay"}[len(left) == 1], strings.Join(left, ", "))})
	}
	skill.SortDiagnostics(diags)
	l.Diagnostics = diags

	c.snapMu.Lock()
	c.snap = l
	c.snapMu.Unlock()
	if c.opts.Index != "" && ctx.Err() == nil {
		c.saveIndex(l, roots, start)
	}
	return l, nil
}

// ownName reports whether a skill's name is its folder's (its file stem's,
// for a flat-form skill).
func ownName(s *Skill) bool { return s.Name == folderName(s) }

// folderName is the folder name of a directory-form skill, the file stem
// of a flat-form one.
func folderName(s *Skill) string {
	if s.Flat {
		base := filepath.Base(s.Location)
		return strings.TrimSuffix(base, filepath.Ext(base))
	}
	return filepath.Base(s.BaseDir)
}

// maxNested bounds the nested SKILL.md files reported below one skill
// folder that does not load.
const maxNested = 100

// nestedDiags names the SKILL.md files inside the folders of the lost
// candidates: skills that do not load (rejected, unreadable, or a name
// clash lost). Nothing below a skill
// folder is discovered (docs/discovery.md#shapes): while the outer skill
// loads they are its bundled files, but when it does not, they would
// vanish without a word. The folders searched are few, so they are
// walked on every List.
func (c *Catalog) nestedDiags(ctx context.Context, lost []*candidate) []skill.Diagnostic {
	var out []skill.Diagnostic
	for _, cand := range lost {
		if cand.flat || cand.ignored || ctx.Err() != nil {
			continue
		}
		n := 0
		var walk func(dir string, depth int)
		walk = func(dir string, depth int) {
			if depth > c.settings.MaxDepth || n >= maxNested {
				return
			}
			ents, err := os.ReadDir(dir)
			if err != nil {
				return
			}
			for _, e := range ents {
				if !e.IsDir() || ignored(e.Name()) || n >= maxNested {
					continue // symlinks are not followed
				}
				sub := filepath.Join(dir, e.Name())
				if f := skillFileIn(sub); f != "" {
					n++
					out = append(out, skill.Diagnostic{Code: skill.CodeNestedSkill, Severity: skill.SeverityWarning,
						Path: f, Related: cand.path,
						Message: fmt.Sprintf("this skill is inside the skill folder %s, whose own skill does not load (see its diagnostic); nothing below a skill folder is discovered, so this one does not load either: move it out, or fix the outer skill", cand.dir)})
				}
				walk(sub, depth+1)
			}
		}
		walk(cand.dir, 1)
	}
	return out
}

// skillFileIn returns the skill file of dir (SKILL.md, or skill.md in
// another letter case), or "".
func skillFileIn(dir string) string {
	if fi, err := os.Lstat(filepath.Join(dir, SkillFile)); err == nil && !fi.IsDir() {
		return filepath.Join(dir, SkillFile)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, e := range ents {
		if !e.IsDir() && strings.EqualFold(e.Name(), SkillFile) {
			return filepath.Join(dir, e.Name())
		}
	}
	return ""
}

// countOf is "1 skill" or "N skills".
func countOf(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// ownPath reports whether candidate a is a better path to a file than b,
// which reaches the same file: not ignored over ignored, directory form
// over flat form, a SKILL.md that is a regular file over a symlink.
func ownPath(a, b *candidate) bool {
	if a.ignored != b.ignored {
		return !a.ignored
	}
	if a.flat != b.flat {
		return !a.flat
	}
	aLink, bLink := a.stamp == (stamp{}), b.stamp == (stamp{})
	return bLink && !aLink
}

// readAll returns the entry of every candidate, index-aligned with cands:
// those in done (read early), from the cache when the file is unchanged,
// else read and parsed by a bounded pool of workers.
func (c *Catalog) readAll(ctx context.Context, cands []candidate, done []*entry) []*entry {
	out := c.entBuf[:0]
	if cap(out) < len(cands) {
		out = make([]*entry, 0, len(cands))
	}
	out = out[:len(cands)]
	c.entBuf = out
	todo := c.todoBuf[:0]
	for i := range cands {
		switch {
		case i < len(done) && done[i] != nil:
			out[i] = done[i]
		default:
			if e := c.cached(&cands[i]); e != nil {
				out[i] = e
			} else {
				out[i] = nil
				todo = append(todo, i)
			}
		}
	}
	c.todoBuf = todo[:0]
	if len(todo) == 0 {
		return out
	}
	workers := min(readWorkers(), len(todo))
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				mu.Lock()
				k := next
				next++
				mu.Unlock()
				if k >= len(todo) || ctx.Err() != nil {
					return
				}
				i := todo[k]
				out[i] = c.readOne(cands[i])
			}
		})
	}
	wg.Wait()
	return out
}

// readWorkers is how many files are read and parsed at once.
func readWorkers() int { return min(max(runtime.GOMAXPROCS(0)*4, 4), 32) }

// pipeline reads and parses candidates as the walk finds them.
type pipeline struct {
	c    *Catalog
	jobs chan job
	wg   sync.WaitGroup
	mu   sync.Mutex
	out  []*entry
}

type job struct {
	i    int
	cand candidate
}

func (c *Catalog) startPipeline(ctx context.Context) *pipeline {
	p := &pipeline{c: c, jobs: make(chan job, 256)}
	for range readWorkers() {
		p.wg.Go(func() {
			for j := range p.jobs {
				if ctx.Err() != nil {
					continue
				}
				e := c.readOne(j.cand)
				p.mu.Lock()
				if j.i >= len(p.out) {
					p.out = append(p.out, make([]*entry, j.i+1-len(p.out))...)
				}
				p.out[j.i] = e
				p.mu.Unlock()
			}
		})
	}
	return p
}

// send hands one candidate (index i of the listing's candidates) to the
// readers.
func (p *pipeline) send(i int, c candidate) { p.jobs <- job{i, c} }

// wait returns the entries of the first n candidates once all are read.
func (p *pipeline) wait(n int) []*entry {
	close(p.jobs)
	p.wg.Wait()
	if len(p.out) < n {
		p.out = append(p.out, make([]*entry, n-len(p.out))...)
	}
	return p.out[:n]
}

// cached returns the cache entry of a candidate whose file is unchanged,
// or nil.
func (c *Catalog) cached(cand *candidate) *entry {
	old, ok := c.cache[cand.path]
	if !ok || old.stamp == (stamp{}) {
		return nil
	}
	st := cand.stamp
	if st == (stamp{}) {
		// A symlinked skill file: stat through the link.
		var err error
		if st, err = statStamp(cand.path); err != nil {
			return nil
		}
	}
	if st != old.stamp {
		return nil
	}
	return old
}

// readOne reads and parses a skill file.
func (c *Catalog) readOne(cand candidate) *entry {
	rf, err, ok := readBeneath(cand.rootFD, cand.rel, cand.path, c.settings.MaxSkillBytes)
	if !ok {
		root := cand.root
		rf, err = readSkillFile(cand.path, c.settings.MaxSkillBytes, func(real string) bool {
			return within(real, root.Boundary) || c.trusted(real)
		})
	}
	if err != nil {
		return &entry{readErr: err}
	}
	defer rf.release()
	s, diags := skill.Parse(rf.data, &skill.Options{
		Path: cand.path, Flat: cand.flat, Mode: c.settings.Mode,
		MaxDescriptionChars: c.settings.MaxDescriptionChars, SkipBody: !c.opts.Bodies, Truncated: rf.truncated,
	})
	return &entry{stamp: rf.stamp, skill: s, diags: diags, size: rf.size, truncated: rf.truncated}
}

// readDiag turns a failed read into the diagnostic of docs/discovery.md#boundaries.
func readDiag(cand candidate, err error) skill.Diagnostic {
	d := skill.Diagnostic{Path: cand.path, Severity: skill.SeverityWarning}
	var esc *errEscape
	switch {
	case errors.As(err, &esc):
		d.Code, d.Severity = skill.CodePathEscape, skill.SeverityError
		d.Message = fmt.Sprintf("the skill file %s; skipped", esc.Error())
	case errors.Is(err, syscall.ELOOP) || strings.Contains(err.Error(), "too many links"):
		d.Code = skill.CodeSymlinkLoop
		d.Message = "the skill file is a symlink loop; skipped"
	case errors.Is(err, fs.ErrNotExist):
		if fi, lerr := os.Lstat(cand.path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(cand.path)
			d.Code = skill.CodeBrokenLink
			d.Message = fmt.Sprintf("the skill file is a symlink to %q, which does not exist; skipped", target)
		} else {
			d.Code = skill.CodeUnreadable
			d.Message = "the skill file disappeared while it was being read; skipped"
		}
	case errors.Is(err, errUnstable):
		d.Code = skill.CodeUnreadable
		d.Message = fmt.Sprintf("the skill file kept changing while it was read (%d attempts); skipped until it settles", readAttempts)
	case errors.Is(err, ErrNotFile):
		d.Code = skill.CodeUnreadable
		d.Message = fmt.Sprintf("the skill file is %s; skipped", err)
	default:
		d.Code = skill.CodeUnreadable
		d.Message = fmt.Sprintf("the skill file cannot be read: %s; skipped", errText(err))
	}
	return d
}
