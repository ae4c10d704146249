package catalog

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/pool"
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
	// trust is the stamp the last List's walk gave the file when that
	// walk found it single (candidate.single), else zero: a List told its
	// folder is untouched takes it instead of an lstat (walker.untouched).
	trust stamp
}

// List discovers skills under every root and returns the listing. Files
// whose size, modification time and inode are unchanged since the last
// List are not read again, and folders whose stamp is unchanged are not
// read again either (docs/discovery.md#caching): a warm List costs about one stat per skill and
// no allocation per unchanged skill. Edits, additions and removals are
// seen. One bad entry never fails the listing: it becomes a diagnostic. The
// error is non-nil only when ctx is done. Skills of other sources
// (Options.Sources) and the enable and disable lists are applied by
// listAll (merge.go).
func (c *Catalog) List(ctx context.Context) (*Listing, error) {
	if c.merged {
		return c.listAll(ctx)
	}
	return c.listDisk(ctx)
}

// listDisk is List of the local file system alone.
func (c *Catalog) listDisk(ctx context.Context) (*Listing, error) { return c.listDiskTouched(ctx, nil) }

// listDiskTouched is listDisk; with touched, a skill folder it reports
// untouched is taken as the last List left it (listTouched).
func (c *Catalog) listDiskTouched(ctx context.Context, touched func(dir string) bool) (*Listing, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.last = nil
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !c.profile.Native {
		return c.listHost(ctx)
	}
	d := c.newDiskList(ctx, touched)
	// A persistent index answers when nothing it covers has changed
	// (index.go); a catalog with files cached in memory already has a
	// cheaper check than the index's.
	if c.opts.index != "" && len(c.cache) == 0 {
		if il := c.fromIndex(d.roots); il != nil {
			c.snapMu.Lock()
			c.snap = il
			c.snapMu.Unlock()
			return il, nil
		}
	}
	// Every listing of a catalog whose index was found untrusted says so.
	d.diags = append(d.diags, c.indexDiagnostic()...)
	start := time.Now()
	l, err := d.run()
	if err != nil {
		return nil, err
	}
	c.snapMu.Lock()
	c.snap = l
	c.snapMu.Unlock()
	if c.opts.index != "" && ctx.Err() == nil {
		c.saveIndex(l, d.roots, start, &d.s.unfollowed)
	}
	return l, nil
}

// diskList is one List of the local file system (listDiskTouched), made
// per call and dropped when it returns: its steps (walkRoots, readAll,
// applyPrecedence, applyMaxSkills, keepWalk) are its methods, and what one
// step gives the next is in its fields. What outlives the call is the
// catalog's: the cache and folder states it reads and hands over (Catalog.cache
// and Catalog.dirs), the walk listEdited patches (Catalog.last) and the
// scratch memory it borrows (Catalog.spare). c.mu is held throughout.
type diskList struct {
	c   *Catalog
	ctx context.Context
	// touched, for a List told what changed (listTouched), reports whether
	// a folder may have changed since the last List (walker.untouched);
	// nil otherwise.
	touched func(dir string) bool
	s       *listScratch // the catalog's spare
	roots   []*Root
	l       *Listing
	diags   []skill.Diagnostic
	// The walk's: the candidates in precedence order, their entries
	// (index-aligned; nil until readAll, unless read while the walk went
	// on), the roots held open for readBeneath, and whether a root was
	// reached through a symlink (keepWalk).
	cands   []candidate
	entries []*entry
	rootFDs []rootDir
	linked  bool
	// lost are the candidates that do not load (applyPrecedence), whose
	// folders nestedDiags searches.
	lost []*candidate
}

// newDiskList starts a List: the listing's workspace, its roots and the
// diagnostics every listing starts with (startDiags, resolveRoots). c.mu
// is held.
func (c *Catalog) newDiskList(ctx context.Context, touched func(dir string) bool) diskList {
	if c.spare == nil {
		c.spare = &listScratch{}
	}
	d := diskList{c: c, ctx: ctx, touched: touched, s: c.spare, l: &Listing{Workspace: c.workspace}}
	d.diags = c.startDiags()
	roots, rootDiags := c.resolveRoots()
	d.roots, d.diags = roots, append(d.diags, rootDiags...)
	return d
}

// run walks, reads what changed (and was not read early) in parallel and
// takes the rest from the cache, applies precedence and maxSkills, and
// returns the listing with its diagnostics sorted; the error is ctx's.
func (d *diskList) run() (*Listing, error) {
	defer d.closeRoots()
	d.walkRoots()
	if err := d.ctx.Err(); err != nil {
		return nil, err
	}
	d.readAll()
	if err := d.ctx.Err(); err != nil {
		return nil, err
	}
	d.applyPrecedence()
	d.diags = append(d.diags, d.c.nestedDiags(d.ctx, d.lost)...)
	if len(d.l.Skills) == 0 {
		d.diags = append(d.diags, d.c.skippedDiags(d.roots)...)
	}
	d.applyMaxSkills()
	skill.SortDiagnostics(d.diags)
	d.l.Diagnostics = d.diags
	d.keepWalk()
	return d.l, nil
}

// closeRoots closes the roots the walk held open.
func (d *diskList) closeRoots() {
	for _, r := range d.rootFDs {
		r.close()
	}
}

// walkRoots walks every root, in precedence order, into l.Roots and
// d.cands, the ignored files last (so one that is the same file as a
// skill, through a symlink, never takes that file's place), and hands the
// folder states it read over to the catalog (Catalog.dirs). With nothing
// cached (the first List), files are read and parsed while the walk goes
// on, and d.entries holds them; later Lists walk first and read only what
// changed (d.entries nil). Each root is held open while its files are
// read (readBeneath), in d.rootFDs until closeRoots.
func (d *diskList) walkRoots() {
	c, s := d.c, d.s
	if s.nextDirs == nil {
		s.nextDirs = map[string]*dirState{}
	}
	clear(s.nextDirs)
	s.unfollowed.reset()
	cands := s.candBuf[:0]
	var ignoredCands []candidate
	var early *pipeline
	if len(c.cache) == 0 {
		early = c.startPipeline(d.ctx, readWorkers())
	}
	d.rootFDs = make([]rootDir, 0, len(d.roots))
	for _, r := range d.roots {
		w := &walker{ctx: d.ctx, c: c, s: s, touched: d.touched, root: r, cands: cands, rootFD: -1, at: noDir, pl: early}
		d.rootFDs = w.openRoot(d.rootFDs)
		w.walkRoot()
		d.linked = d.linked || w.rootLinked
		ignoredCands = append(ignoredCands, w.ignored...)
		d.diags = append(d.diags, w.diags...)
		if early != nil {
			d.diags = append(d.diags, early.withhold(r, w.found, w.allowed)...)
		} else {
			cands = w.cands
			from := len(cands) - w.found
			d.diags = append(d.diags, withholdSkills(r, w.found, func(i int) *candidate { return &cands[from+i] }, w.allowed)...)
		}
		d.l.Roots = append(d.l.Roots, *r)
	}
	if early != nil {
		d.entries = early.wait()
		cands = early.cands.appendTo(cands)
	}
	cands = append(cands, ignoredCands...)
	c.dirs, s.nextDirs = s.nextDirs, c.dirs
	s.candBuf = cands[:0]
	d.cands = cands
}

// applyPrecedence decides which candidates load (docs/discovery.md#precedence:
// first found wins) into l.Skills and l.candidates, hands the entries read
// over to the catalog as its cache (Catalog.cache), adds precedence's
// findings to d.diags and keeps the candidates that do not load in d.lost
// (for nestedDiags).
func (d *diskList) applyPrecedence() {
	c, s, l, cands, entries := d.c, d.s, d.l, d.cands, d.entries
	if s.nextCache == nil {
		s.nextCache = make(map[string]*entry, len(cands))
	}
	next := s.nextCache
	clear(next)
	if s.byName == nil {
		s.byName, s.seenFile = map[string]*Skill{}, map[stamp]int{}
	}
	seenFile := s.seenFile
	clear(s.byName)
	clear(seenFile)
	// The same file reached twice (through symlinks) is loaded once (Brute):
	// through the path that is most its own, a directory-form SKILL.md
	// that is not itself a symlink nor reached through a folder symlink,
	// else the first found.
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
	p := &prec{c: c, diags: d.diags, byName: s.byName, next: next, unfollowed: &s.unfollowed,
		skills: make([]*Skill, 0, len(cands)), cdBuf: make([]candidateFile, 0, len(cands))}
	l.candidates = make([]*candidateFile, 0, len(cands))
	p.cands = &l.candidates
	// The candidates withheld or ignored come after the others, in
	// order, as Each settles them (eachRun.run), so that the index the
	// first show writes as it lists holds the candidates and
	// diagnostics in List's order: they never change what loads.
	for _, ignored := range []bool{false, true} {
		for i := range cands {
			if cands[i].ignored != ignored {
				continue
			}
			e := entries[i]
			loaded := e == nil || e.readErr != nil || e.stamp.ino == 0 || seenFile[stamp{ino: e.stamp.ino, dev: e.stamp.dev}] == i
			p.add(&cands[i], e, loaded)
		}
	}
	l.Skills = p.skills
	c.cache, s.nextCache = next, c.cache
	d.diags, d.lost = p.diags, p.lost
}

// applyMaxSkills marks the visible skills past maxSkills as not listed
// (docs/discovery.md#limits) and adds catalog-truncated to d.diags; a
// candidate's skill that is not in the listing (shadowed, a duplicate,
// withheld) is not listed either, though the previous List, whose skill
// this one reuses, listed it. Skills are never changed once handed out:
// one whose Listed flag changes is copied (and the catalog's cache entry
// given the copy).
func (d *diskList) applyMaxSkills() {
	c, l := d.c, d.l
	copied := map[*Skill]*Skill{}
	relist := func(s *Skill, want bool) *Skill {
		if cp, ok := copied[s]; ok || s.Listed == want {
			return cmp.Or(cp, s)
		}
		cp := *s
		cp.Listed = want
		if e := c.cache[s.Location]; e != nil && e.listed == s {
			e.listed = &cp
		}
		copied[s] = &cp
		return &cp
	}
	lim := limit{max: c.settings.MaxSkills}
	for i, s := range l.Skills {
		l.Skills[i] = relist(s, lim.take(s, s.Name))
		copied[l.Skills[i]] = l.Skills[i]
	}
	for _, cd := range l.candidates {
		if cd.Skill != nil {
			cd.Skill = relist(cd.Skill, false)
		}
	}
	d.diags = lim.truncated(d.diags, c.workspace)
}

// ownName reports whether a skill's name is its folder's (its file stem's,
// for a flat-form skill).
func ownName(s *Skill) bool {
	return s.OwnName() == folderName(s)
}

// startDiags are the diagnostics every listing starts with: the
// configuration's, and workspace-missing when the workspace folder does
// not exist.
func (c *Catalog) startDiags() []skill.Diagnostic {
	diags := slices.Clone(c.cfgDiags)
	if !c.wsExists {
		diags = append(diags, skill.Diagnostic{
			Code: diagcode.WorkspaceMissing, Severity: skill.SeverityError, Path: c.workspace,
			Message: "the workspace folder does not exist; project roots are not scanned",
		})
	}
	return diags
}

// folderName is the folder name of a directory-form skill, the file stem
// of a flat-form one.
func folderName(s *Skill) string { return skill.DefaultName(s.Location, s.Flat) }

// maxNested bounds the nested SKILL.md files reported below one skill
// folder that does not load.
const maxNested = 100

// nestedDiags names the SKILL.md files inside the folders of the lost
// candidates: skills that do not load (rejected, unreadable, or a name
// clash lost). Nothing below a skill
// folder is discovered (docs/discovery.md#shapes): while the outer skill
// loads they are its bundled files, but when it does not, they would
// vanish without a word. The folders searched are few, so they are
// walked on every List; each is read once (nestedWalk).
func (c *Catalog) nestedDiags(ctx context.Context, lost []*candidate) []skill.Diagnostic {
	var out []skill.Diagnostic
	for _, cand := range lost {
		if cand.flat || cand.ignored || ctx.Err() != nil {
			continue
		}
		w := nestedWalk{maxDepth: c.settings.MaxDepth}
		w.visit(cand.dir(), 1, false)
		for _, f := range w.found {
			out = append(out, skill.Diagnostic{Code: diagcode.NestedSkill, Severity: skill.SeverityWarning,
				Path: f, Related: cand.path,
				Message: fmt.Sprintf("this skill is inside the skill folder %s, whose own skill does not load (see its diagnostic); nothing below a skill folder is discovered, so this one does not load either: move it out, or fix the outer skill", cand.dir())})
		}
	}
	return out
}

// nestedWalk finds the skill files below one skill folder, at most
// maxNested of them, in the order of a walk that reads each folder once.
// Symlinks are not followed.
type nestedWalk struct {
	maxDepth int
	found    []string
}

// visit reads dir, at depth (the skill folder is 1), and when check is
// set notes its skill file; below maxDepth it visits the subfolders.
func (w *nestedWalk) visit(dir string, depth int, check bool) {
	if len(w.found) >= maxNested {
		return
	}
	ents, err := os.ReadDir(dir)
	if check {
		if f := skillFileIn(dir, ents, err); f != "" {
			w.found = append(w.found, f)
		}
	}
	if err != nil || depth > w.maxDepth {
		return
	}
	for _, e := range ents {
		if e.IsDir() && !ignored(e.Name()) {
			w.visit(filepath.Join(dir, e.Name()), depth+1, true)
		}
	}
}

// skillFileIn returns the skill file of dir (SKILL.md, or skill.md in
// another letter case) among ents, its entries as os.ReadDir read them
// (with err), or "". A folder that cannot be listed is asked for
// SKILL.md by name.
func skillFileIn(dir string, ents []os.DirEntry, err error) string {
	if err != nil {
		if fi, err := os.Lstat(filepath.Join(dir, SkillFile)); err == nil && !fi.IsDir() {
			return filepath.Join(dir, SkillFile)
		}
		return ""
	}
	other := ""
	for _, e := range ents {
		if e.IsDir() || !strings.EqualFold(e.Name(), SkillFile) {
			continue
		}
		if e.Name() == SkillFile {
			return filepath.Join(dir, SkillFile)
		}
		if other == "" {
			other = filepath.Join(dir, e.Name())
		}
	}
	return other
}

// ownPath reports whether candidate a is a better path to a file than b,
// which reaches the same file: not ignored over ignored, directory form
// over flat form, a SKILL.md that is a regular file reached through
// folders only over a symlink or a path through a folder symlink.
func ownPath(a, b *candidate) bool {
	if a.ignored != b.ignored {
		return !a.ignored
	}
	if a.flat != b.flat {
		return !a.flat
	}
	aLink, bLink := a.linked(), b.linked()
	return bLink && !aLink
}

// ownRank orders the paths to one file as ownPath does, as a number that
// outlives the candidate: ownPath(a, b) is ownRank(a) > ownRank(b). It is
// never 0.
func ownRank(c *candidate) uint8 {
	r := uint8(1)
	if !c.ignored {
		r += 4
	}
	if !c.flat {
		r += 2
	}
	if !c.linked() {
		r++
	}
	return r
}

// readAll sets d.entries to the entry of every candidate, index-aligned
// with d.cands: those the walk's readers read (d.entries), from the
// catalog's cache when the file is unchanged (Catalog.cached), else read
// and parsed by a bounded pool of workers.
func (d *diskList) readAll() {
	c, s, cands, done := d.c, d.s, d.cands, d.entries
	out := s.entBuf[:0]
	if cap(out) < len(cands) {
		out = make([]*entry, 0, len(cands))
	}
	out = out[:len(cands)]
	s.entBuf = out
	d.entries = out
	todo := s.todoBuf[:0]
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
	s.todoBuf = todo[:0]
	if len(todo) == 0 {
		return
	}
	pool.Each(d.ctx, len(todo), pool.Disk, func(k int) {
		i := todo[k]
		out[i] = c.readOne(cands[i])
	})
}

// readWorkers is how many files are read and parsed at once when there
// are many (internal/pool's rule for work that waits on the disk).
func readWorkers() int { return pool.Size(pool.MaxWorkers, pool.Disk) }

// candList holds candidates in chunks of a fixed size: adding one never
// copies the others, and a candidate's address never changes.
type candList struct {
	chunks [][]candidate
	n      int
}

const candChunk = 256

func (l *candList) add(c candidate) {
	if l.n%candChunk == 0 {
		l.chunks = append(l.chunks, make([]candidate, 0, candChunk))
	}
	k := len(l.chunks) - 1
	l.chunks[k] = append(l.chunks[k], c)
	l.n++
}

func (l *candList) at(i int) *candidate { return &l.chunks[i/candChunk][i%candChunk] }

// release lets go of chunk k (candidates k*candChunk up to the next
// chunk's); at must not be asked for them again.
func (l *candList) release(k int) { l.chunks[k] = nil }

// appendTo appends every candidate to cands.
func (l *candList) appendTo(cands []candidate) []candidate {
	for _, ch := range l.chunks {
		cands = append(cands, ch...)
	}
	return cands
}

// pipeline reads and parses candidates as the walk finds them. The walk
// pushes every candidate it finds onto cands, which never makes it wait;
// readers take them in order.
type pipeline struct {
	c   *Catalog
	ctx context.Context
	wg  sync.WaitGroup
	mu  sync.Mutex
	// work is signalled when a candidate is pushed, when take makes room
	// in the window and when the queue is closed; stored when an entry is
	// stored in out.
	work, stored sync.Cond
	cands        candList // every candidate pushed, in order
	next         int      // the first candidate no reader has taken
	closed       bool
	out          []*entry
	// With a window, no reader starts on a candidate window or more
	// places after the first one not yet taken.
	window, taken int
	// idle counts the readers waiting on work and taking whether one
	// waits on stored, so that a push or a read wakes no one when no one
	// could go on (a wake-up is a futex call and a thread switch).
	idle   int
	taking bool
	// With lockstep (tests: eachLockstep), push returns only once the
	// candidate pushed, and every one before it, has been taken and the
	// taker waits for the next (waiting is the index it waits for, -1
	// when it does not): whatever the taker hands out, it hands out
	// before the walk finds anything more.
	lockstep bool
	waiting  int
	stepped  sync.Cond
	onPush   func(path string) // with lockstep, called with each candidate's path
	// rootEnds is, for each root whose walk has ended, how many
	// candidates had been pushed then (Each).
	rootEnds []int
}

// skippedEntry marks a candidate a reader skipped because ctx was done.
var skippedEntry = &entry{}

// startPipeline starts workers readers.
func (c *Catalog) startPipeline(ctx context.Context, workers int) *pipeline {
	p := &pipeline{c: c, ctx: ctx, waiting: -1}
	p.work.L, p.stored.L, p.stepped.L = &p.mu, &p.mu, &p.mu
	p.start(workers)
	return p
}

// start adds n readers.
func (p *pipeline) start(n int) {
	for range n {
		p.wg.Go(p.reader)
	}
}

func (p *pipeline) reader() {
	p.mu.Lock()
	for {
		for !p.ready() {
			if p.closed && p.next >= p.cands.n {
				p.mu.Unlock()
				return
			}
			p.idle++
			p.work.Wait()
			p.idle--
		}
		p.readNext()
		if p.taking {
			p.stored.Signal()
		}
	}
}

// ready reports whether a reader may take the next candidate; p.mu is held.
// A cancelled listing lifts the window, so that once the queue is closed the
// readers run through what is left (skipping it).
func (p *pipeline) ready() bool {
	return p.next < p.cands.n && (p.window == 0 || p.next < p.taken+p.window || p.ctx.Err() != nil)
}

// readNext reads the next candidate and stores its entry; p.mu is held,
// and let go of during the read.
func (p *pipeline) readNext() {
	i := p.next
	p.next++
	cp := p.cands.at(i)
	cand := *cp
	p.mu.Unlock()
	e := skippedEntry
	if p.ctx.Err() == nil {
		e = p.c.readOne(cand)
	}
	p.mu.Lock()
	if i >= len(p.out) {
		p.out = append(p.out, make([]*entry, i+1-len(p.out))...)
	}
	p.out[i] = e
}

// push queues one candidate.
func (p *pipeline) push(c candidate) {
	if p.onPush != nil {
		p.onPush(c.path)
	}
	p.mu.Lock()
	p.cands.add(c)
	wake, taker := p.idle > 0 && p.ready(), p.taking
	if p.lockstep {
		if taker {
			p.stored.Signal()
		}
		if wake {
			p.work.Signal()
		}
		wake, taker = false, false
		for p.lockstep && p.waiting != p.cands.n {
			p.stepped.Wait()
		}
	}
	p.mu.Unlock()
	if wake {
		p.work.Signal()
	}
	if taker {
		p.stored.Signal() // pushed waits for it
	}
}

// endRoot records that the walk of a root has ended.
func (p *pipeline) endRoot() {
	p.mu.Lock()
	p.rootEnds = append(p.rootEnds, p.cands.n)
	p.mu.Unlock()
}

// unstep ends lockstep: the walk goes on without waiting for the taker.
func (p *pipeline) unstep() {
	p.mu.Lock()
	p.lockstep = false
	p.mu.Unlock()
	p.stepped.Broadcast()
}

// pushed waits until candidate i has been pushed, or the queue has been
// closed without it (nil). closed says the queue was closed: every
// candidate of the listing has been pushed. The candidate's fields are
// not written again, but the list that holds it is, until the queue is
// closed: reach other candidates only through pushed (or take) while it
// is open.
func (p *pipeline) pushed(i int) (c *candidate, closed bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i >= p.cands.n && !p.closed {
		if p.lockstep {
			p.waiting = i
			p.stepped.Broadcast()
		}
		p.taking = true
		p.stored.Wait()
		p.taking = false
	}
	p.waiting = -1
	if i >= p.cands.n {
		return nil, true
	}
	return p.cands.at(i), p.closed
}

// withhold applies withholdSkills to the last n candidates, those of root
// r, whose boundary allowed checks.
func (p *pipeline) withhold(r *Root, n int, allowed func(string) bool) []skill.Diagnostic {
	p.mu.Lock()
	defer p.mu.Unlock()
	from := p.cands.n - n
	return withholdSkills(r, n, func(i int) *candidate { return p.cands.at(from + i) }, allowed)
}

// close says no more candidates come.
func (p *pipeline) close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.work.Broadcast()
	p.stored.Broadcast()
}

// wait closes the queue and returns the entries of all candidates once
// all are read (nil for those skipped).
func (p *pipeline) wait() []*entry {
	p.close()
	return p.collect()
}

// collect waits for the entries of all candidates, the queue closed.
func (p *pipeline) collect() []*entry {
	p.mu.Lock()
	p.window = 0
	p.mu.Unlock()
	p.work.Broadcast()
	p.wg.Wait()
	n := p.cands.n
	if len(p.out) < n {
		p.out = append(p.out, make([]*entry, n-len(p.out))...)
	}
	for i, e := range p.out[:n] {
		if e == skippedEntry {
			p.out[i] = nil
		}
	}
	return p.out[:n]
}

// take waits for the entry of candidate i, which must have been pushed,
// and lets go of it (nil when it was skipped).
func (p *pipeline) take(i int) *entry {
	p.mu.Lock()
	for i >= len(p.out) || p.out[i] == nil {
		// Rather than wait for a reader, read the next candidate here
		// (one wake-up and switch less per skill).
		if p.ready() {
			p.readNext()
			continue
		}
		p.taking = true
		p.stored.Wait()
		p.taking = false
	}
	e := p.out[i]
	p.out[i] = nil
	p.taken = i + 1
	wake := p.idle > 0 && p.ready()
	p.mu.Unlock()
	if wake {
		p.work.Signal()
	}
	if e == skippedEntry {
		return nil
	}
	return e
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
	rf, err, ok := readBeneath(cand.rootFD(), cand.rel(), cand.path, c.settings.MaxSkillBytes, cand.stamp)
	if !ok {
		root := cand.root()
		rf, err = readSkillFile(cand.path, c.settings.MaxSkillBytes, func(real string) bool {
			return within(real, root.boundary) || c.trusted(real)
		})
	}
	if err != nil {
		return &entry{readErr: err}
	}
	defer rf.release()
	s, diags := parseSkill(rf.data, &skill.Options{
		Path: cand.path, Flat: cand.flat, Mode: c.settings.Mode,
		MaxDescriptionChars: c.settings.MaxDescriptionChars, SkipBody: !c.opts.bodies || c.onParsed != nil, Truncated: rf.truncated,
	}, cand.dir())
	if c.onParsed != nil && s != nil {
		c.onParsed(catalogx.Parsed{Path: cand.path, Dir: cand.dir(), Flat: cand.flat, Skill: s, Data: rf.data, Truncated: rf.truncated,
			Diags: diags, Mode: c.settings.Mode})
	}
	return &entry{stamp: rf.stamp, skill: s, diags: diags, size: rf.size, truncated: rf.truncated}
}

// readDiag turns a failed read into the diagnostic of docs/discovery.md#boundaries.
func readDiag(cand candidate, err error) skill.Diagnostic {
	d := skill.Diagnostic{Path: cand.path, Severity: skill.SeverityWarning}
	var esc *errEscape
	switch {
	case errors.As(err, &esc):
		d.Code, d.Severity = diagcode.PathEscape, skill.SeverityError
		d.Message = fmt.Sprintf("the skill file %s; skipped", esc.Error())
	case errors.Is(err, syscall.ELOOP) || strings.Contains(err.Error(), "too many links"):
		d.Code = diagcode.SymlinkLoop
		d.Message = "the skill file is a symlink loop; skipped"
	case errors.Is(err, fs.ErrNotExist):
		if fi, lerr := os.Lstat(cand.path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(cand.path)
			d.Code = diagcode.BrokenLink
			d.Message = fmt.Sprintf("the skill file is a symlink to %q, which does not exist; skipped", target)
		} else {
			d.Code = diagcode.Unreadable
			d.Message = "the skill file disappeared while it was being read; skipped"
		}
	case errors.Is(err, errUnstable):
		d.Code = diagcode.Unreadable
		d.Message = fmt.Sprintf("the skill file kept changing while it was read (%d attempts); skipped until it settles", readAttempts)
	case errors.Is(err, ErrNotFile):
		d.Code = diagcode.Unreadable
		d.Message = fmt.Sprintf("the skill file is %s; skipped", err)
	default:
		d.Code = diagcode.Unreadable
		d.Message = fmt.Sprintf("the skill file cannot be read: %s; skipped", errText(err))
	}
	return d
}
