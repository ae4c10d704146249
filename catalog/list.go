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
}

// List discovers skills under every root and returns the listing. Files
// whose size, modification time and inode are unchanged since the last
// List are not read again (D4.7); edits, additions and removals are seen.
// One bad entry never fails the listing: it becomes a diagnostic. The error
// is non-nil only when ctx is done.
func (c *Catalog) List(ctx context.Context) (*Listing, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
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

	// Walk every root, in precedence order.
	var cands, ignored []candidate
	for _, r := range roots {
		w := &walker{ctx: ctx, c: c, root: r}
		w.walkRoot()
		cands = append(cands, w.cands...)
		ignored = append(ignored, w.ignored...)
		diags = append(diags, w.diags...)
		l.Roots = append(l.Roots, *r)
	}
	// Ignored files come last, so one that is the same file as a skill
	// (through a symlink) never takes that file's place.
	cands = append(cands, ignored...)
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	// Read and parse, in parallel; unchanged files come from the cache.
	entries := c.readAll(ctx, cands)
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	// Precedence: first found wins (D4.3).
	next := make(map[string]*entry, len(entries))
	byName := map[string]*Skill{}
	seenFile := map[stamp]string{}
	for i, cand := range cands {
		e := entries[i]
		if e == nil {
			continue
		}
		cd := &Candidate{Path: cand.path, Root: cand.root.Path, Scope: cand.root.Scope, Flat: cand.flat, Ignored: cand.ignored}
		if e.readErr != nil {
			diags = append(diags, readDiag(cand, e.readErr))
			l.Candidates = append(l.Candidates, cd)
			continue
		}
		next[cand.path] = e
		if e.stamp.ino != 0 {
			key := stamp{ino: e.stamp.ino, dev: e.stamp.dev}
			if _, dup := seenFile[key]; dup {
				continue // the same file reached twice through symlinks (000)
			}
			seenFile[key] = cand.path
		}
		l.Candidates = append(l.Candidates, cd)
		diags = append(diags, e.diags...)
		if cand.fileCase {
			diags = append(diags, skill.Diagnostic{Code: skill.CodeFileCase, Severity: skill.SeverityWarning, Path: cand.path,
				Message: fmt.Sprintf("the skill file is named %s; %s is the standard name", filepath.Base(cand.path), SkillFile)})
		}
		if e.truncated {
			diags = append(diags, skill.Diagnostic{Code: skill.CodeTooLarge, Severity: skill.SeverityWarning, Path: cand.path,
				Message: fmt.Sprintf("the file is %d bytes; only the first %d (maxSkillBytes) are read", e.size, c.settings.MaxSkillBytes)})
		}
		if e.skill == nil {
			continue
		}
		s := &Skill{Skill: e.skill, Location: cand.path, BaseDir: cand.dir, Root: cand.root.Path,
			Scope: cand.root.Scope, Flat: cand.flat, Bytes: e.size, Truncated: e.truncated, c: c}
		cd.Skill = s
		if cand.ignored {
			continue
		}
		if w, ok := byName[s.Name]; ok {
			if w.Scope == s.Scope {
				diags = append(diags, skill.Diagnostic{Code: skill.CodeDuplicateName, Severity: skill.SeverityError,
					Path: s.Location, Skill: s.Name, Related: w.Location,
					Message: fmt.Sprintf("the skill %q is also defined at %s, which loads; this copy does not", s.Name, w.Location)})
			} else {
				diags = append(diags, skill.Diagnostic{Code: skill.CodeShadowed, Severity: skill.SeverityWarning,
					Path: s.Location, Skill: s.Name, Related: w.Location,
					Message: fmt.Sprintf("the %s skill %q is shadowed by the %s skill at %s", s.Scope, s.Name, w.Scope, w.Location)})
			}
			continue
		}
		byName[s.Name] = s
		l.Skills = append(l.Skills, s)
	}
	c.cache = next

	// maxSkills (D4.5): the catalog lists at most that many visible skills.
	var left []string
	listed := 0
	for _, s := range l.Skills {
		if s.Hidden() {
			continue
		}
		if listed < c.settings.MaxSkills {
			s.Listed = true
			listed++
			continue
		}
		left = append(left, s.Name)
	}
	if len(left) > 0 {
		diags = append(diags, skill.Diagnostic{Code: skill.CodeCatalogTruncated, Severity: skill.SeverityWarning,
			Path: c.workspace,
			Message: fmt.Sprintf("the catalog lists %d skills (maxSkills %d); %d more stay loadable by name and findable by search: %s",
				listed, c.settings.MaxSkills, len(left), strings.Join(left, ", "))})
	}
	sortDiagnostics(diags)
	l.Diagnostics = diags

	c.snapMu.Lock()
	c.snap = l
	c.snapMu.Unlock()
	return l, nil
}

// readAll reads and parses the candidates with a bounded pool of workers.
// The result is index-aligned with cands.
func (c *Catalog) readAll(ctx context.Context, cands []candidate) []*entry {
	out := make([]*entry, len(cands))
	workers := min(max(runtime.GOMAXPROCS(0)*4, 4), 32, len(cands))
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(cands) || ctx.Err() != nil {
					return
				}
				out[i] = c.readOne(cands[i])
			}
		})
	}
	wg.Wait()
	return out
}

// readOne returns the cached entry when the file is unchanged, else reads
// and parses it.
func (c *Catalog) readOne(cand candidate) *entry {
	if old, ok := c.cache[cand.path]; ok && old.stamp != (stamp{}) {
		if st, err := statStamp(cand.path); err == nil && st == old.stamp {
			return old
		}
	}
	boundary := func(real string) bool {
		return within(real, cand.root.Boundary) || c.trusted(real)
	}
	rf, err := readSkillFile(cand.path, c.settings.MaxSkillBytes, boundary)
	if err != nil {
		return &entry{readErr: err}
	}
	defer rf.release()
	s, diags := skill.Parse(rf.data, &skill.Options{
		Path: cand.path, Flat: cand.flat, Mode: c.settings.Mode,
		MaxDescriptionChars: c.settings.MaxDescriptionChars, SkipBody: true, Truncated: rf.truncated,
	})
	return &entry{stamp: rf.stamp, skill: s, diags: diags, size: rf.size, truncated: rf.truncated}
}

// readDiag turns a failed read into the diagnostic of D4.4.
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
	case errors.Is(err, ErrNotFile):
		d.Code = skill.CodeUnreadable
		d.Message = fmt.Sprintf("the skill file is %s; skipped", err)
	default:
		d.Code = skill.CodeUnreadable
		d.Message = fmt.Sprintf("the skill file cannot be read: %s; skipped", errText(err))
	}
	return d
}

// sortDiagnostics orders diagnostics by path, line, column and code, so
// output is deterministic.
func sortDiagnostics(diags []skill.Diagnostic) {
	slices.SortStableFunc(diags, func(a, b skill.Diagnostic) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		if a.Column != b.Column {
			return a.Column - b.Column
		}
		return strings.Compare(string(a.Code), string(b.Code))
	})
}
