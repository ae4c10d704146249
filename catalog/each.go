package catalog

import (
	"cmp"
	"context"
	"hash/maphash"
	"runtime"
	"slices"

	"github.com/skillet-go/skillet/skill"
)

// each lists the catalog as [Catalog.List] does and hands fn the skills of
// that listing one at a time, in the listing's order, instead of returning
// them: a skill is handed over as soon as no later skill file can change
// it, and nothing of it is kept afterwards except what precedence needs
// (its name and paths). It is for a program that lists once and prints or
// forwards each skill (skillet list --json): at 10,000 skills it holds a
// few megabytes where List holds the whole listing and the caches a next
// List would reuse (docs/performance.md).
//
// fn is given the listing as far as it is known (Workspace and Roots) and
// one skill; an error from fn stops the listing and is returned. The
// Listing returned has Workspace, Roots and Diagnostics (those List would
// give); Skills and the candidates lint reads are nil. Each keeps no cache and no
// snapshot, so a later List of the same Catalog walks and reads again. A
// Catalog with a persistent index (Options.index), one that has listed
// already, or a host profile other than the native one lists with List and
// hands out its skills.
func (c *Catalog) each(ctx context.Context, fn func(l *Listing, s *Skill) error) (*Listing, error) {
	c.mu.Lock()
	if c.merged || c.opts.index != "" || !c.profile.Native || len(c.cache) > 0 || len(c.dirs) > 0 {
		c.mu.Unlock()
		return c.eachListed(ctx, fn)
	}
	defer c.mu.Unlock()
	l, _, err := c.eachStream(ctx, nil, fn)
	return l, err
}

// eachStream is each past its choice of path, with c.mu held; with
// stream, it gives the indexStream that stream returns for the listing's
// start every folder, skill file, candidate and skill as they settle
// (eachIndexed). It returns the roots too.
func (c *Catalog) eachStream(ctx context.Context, stream func(l *Listing) *indexStream, fn func(l *Listing, s *Skill) error) (*Listing, []*Root, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	l := &Listing{Workspace: c.workspace}
	diags := c.startDiags()
	roots, rootDiags := c.resolveRoots()
	diags = append(diags, rootDiags...)
	// The walk does not change the roots: fn is given them all from the
	// first skill on, as List's listing has them.
	for _, r := range roots {
		l.Roots = append(l.Roots, *r)
	}
	var st *indexStream
	if stream != nil {
		st = stream(l)
	}
	ctx, cancel := context.WithCancel(ctx)
	w := c.startEachWalk(ctx, roots, st)
	defer w.stop(cancel)
	r := newEachRun(ctx, c, l, roots, w.pl, w.walked, fn)
	r.p.stream = st
	if err := r.run(); err != nil {
		return nil, nil, err
	}
	l.Diagnostics = r.finish(append(diags, w.diags...), roots)
	return l, roots, ctx.Err()
}

// eachWalk is the walk of one Each, on a goroutine of its own: it pushes
// each candidate onto the pipeline as it finds it. Each's goroutine takes
// the candidates in turn (reading one itself when no reader has:
// pipeline.take), applies precedence and hands out every skill that
// nothing the walk can still find can change (eachRun.handOut), while the
// walk goes on. Readers as many as there are processors less those two
// read beside them, at most eachWindow skills ahead of the one taken, and
// the rest join them when the walk has ended.
type eachWalk struct {
	c      *Catalog
	pl     *pipeline
	during int           // the readers started with the walk
	walked chan struct{} // closed when the walk has ended
	// Once walked is closed: the walk's diagnostics, and the roots it
	// opened, which stop closes once the readers are done.
	diags  []skill.Diagnostic
	rootFD []rootDir
	// stream, when set, is given the stamp of every folder read.
	stream *indexStream
}

// startEachWalk starts the pipeline and the walk of roots.
func (c *Catalog) startEachWalk(ctx context.Context, roots []*Root, st *indexStream) *eachWalk {
	w := &eachWalk{c: c, during: max(runtime.GOMAXPROCS(0)-2, 0), walked: make(chan struct{}), stream: st}
	w.pl = c.startPipeline(ctx, w.during)
	w.pl.window = eachWindow
	step := eachLockstep
	if c.lockstep != nil {
		step = c.lockstep.fn
	}
	w.pl.lockstep, w.pl.onPush = step != nil, step
	go func() {
		defer close(w.walked)
		w.walk(ctx, roots)
	}()
	return w
}

// stop ends the walk and the readers, in this order: cancel (which stops
// the walk and lifts the window), wait for the walk (the last to open a
// file), close the queue (which wakes the readers), wait for the readers,
// and close the roots they read beneath.
func (w *eachWalk) stop(cancel context.CancelFunc) {
	cancel()
	w.pl.unstep()
	<-w.walked
	w.pl.close()
	w.pl.wg.Wait()
	for _, d := range w.rootFD {
		d.close()
	}
}

// finish returns the listing's diagnostics once every skill is out: diags
// (the start's and the walk's), then precedence's, the nested skills',
// the skipped folders' and maxSkills'. What precedence kept goes first.
// They are in the order List gathers them, which the stable sort keeps
// where two compare equal.
func (r *eachRun) finish(diags []skill.Diagnostic, roots []*Root) []skill.Diagnostic {
	p := r.p
	diags = r.diags.appendTo(diags, len(p.diags)+len(p.lost)+8)
	r.release()
	diags = append(diags, p.diags...)
	diags = append(diags, r.c.nestedDiags(r.ctx, p.lost)...)
	if r.handed == 0 {
		diags = append(diags, r.c.skippedDiags(roots)...)
	}
	diags = r.lim.truncated(diags, r.c.workspace)
	skill.SortDiagnostics(diags)
	return diags
}

// eachRun is one listing of [Catalog.Each] past its start: the candidates
// as the walk pushes them, precedence so far, and the skills handed out.
// Its methods run on Each's goroutine only; the pipeline's lock guards
// what the walk and the readers share with it.
type eachRun struct {
	ctx    context.Context
	c      *Catalog
	l      *Listing
	fn     func(l *Listing, s *Skill) error
	pl     *pipeline
	cands  *candList     // while the walk runs, only through pl.pushed
	walked chan struct{} // closed when the walk has ended
	// walking is true until the last candidate has been pushed.
	walking bool

	p   *prec
	lim limit
	// diags holds the diagnostics of the candidates settled, packed.
	diags diagPack
	// handed counts the skills handed out; head is the first of p.skills
	// not handed out yet.
	handed, head int

	// seen is, for each file, the candidate that loads it so far and how
	// much that path is the file's own (ownRank), so that the candidate
	// can be let go.
	seen *fileSeen
	// Which of several paths to one file loads depends on the paths found
	// after it, unless it is a directory-form SKILL.md that is not a
	// symlink nor reached through one (ownRank's highest for a file not
	// ignored): a later path can then only rank lower, or equal and found
	// later, and gives way. So the candidates before the first other
	// loadable path are settled as they come; from that one on (all), the
	// walk is waited for, every file read, and the choice made as List
	// makes it. Ignored files never change what loads, so theirs is
	// settled at the end (ignored).
	all     []*entry
	ignored []heldEntry

	// A skill whose name is not its folder's gives way to a later skill
	// of its root with that name in a folder of that name (prec.add), so
	// it is held, and the skills after it, until the walk has ended and
	// the last candidate in a folder of that name is past (lastFolder),
	// or, while the walk goes on, until its root's walk has ended and the
	// last such candidate of that root is past (rootLast). The maps are
	// built on first use, of the candidates not let go yet (those let go
	// are past, which is all the answer needs to say), and keyed by a
	// hash of the folder name: two names with one hash only hold a skill
	// longer.
	freed      int // chunks of candidates let go (candList.release)
	seed       maphash.Seed
	lastIn     *folderLast
	rootAt     map[*Root]int
	rootLastIn []*folderLast
}

// heldEntry is an ignored candidate's file, held back to the end.
type heldEntry struct {
	i int
	e *entry
}

func newEachRun(ctx context.Context, c *Catalog, l *Listing, roots []*Root, pl *pipeline, walked chan struct{}, fn func(*Listing, *Skill) error) *eachRun {
	r := &eachRun{
		ctx: ctx, c: c, l: l, fn: fn, pl: pl, cands: &pl.cands, walked: walked, walking: true,
		p:          &prec{c: c, byName: map[string]*Skill{}, gone: newGoneSet(eachWindow)},
		lim:        limit{max: c.settings.MaxSkills},
		seen:       newFileSeen(),
		seed:       maphash.MakeSeed(),
		rootAt:     make(map[*Root]int, len(roots)),
		rootLastIn: make([]*folderLast, len(roots)),
	}
	for k, root := range roots {
		r.rootAt[root] = k
	}
	return r
}

// release lets go of what precedence and the hand-out kept, once every
// skill is out.
func (r *eachRun) release() {
	r.p.gone, r.p.byName, r.seen, r.lastIn, r.rootLastIn, r.diags = nil, nil, nil, nil, nil, diagPack{}
}

// run takes every candidate in turn, applies precedence and hands out the
// skills as they settle, then the ignored files and the skills still
// held once the walk has ended.
func (r *eachRun) run() error {
	for i := 0; ; i++ {
		cand, e, ok := r.next(i)
		if !ok {
			break
		}
		if err := r.ctx.Err(); err != nil {
			return err
		}
		if e == nil {
			continue
		}
		if err := r.settle(i, cand, e); err != nil {
			return err
		}
	}
	<-r.walked // the walk's diagnostics are in
	r.walking = false
	for _, h := range r.ignored {
		r.p.add(r.cands.at(h.i), h.e, r.seen.loads(seenKey(h.e), h.i))
	}
	return r.handOut(r.cands.n)
}

// next returns candidate i and its file as read, false past the last.
func (r *eachRun) next(i int) (*candidate, *entry, bool) {
	if r.all != nil {
		if i >= r.cands.n {
			return nil, nil, false
		}
		cand, e := r.cands.at(i), r.all[i]
		r.all[i] = nil
		return cand, e, true
	}
	if r.walking && len(r.p.skills)-r.head >= eachHeld {
		// Held long enough: the rest waits for the walk.
		r.pl.unstep()
		<-r.walked
	}
	cand, closed := r.pl.pushed(i)
	if closed {
		r.walking = false
	}
	if cand == nil {
		return nil, nil, false
	}
	if cand.ignored || !cand.flat && !cand.linked() {
		return cand, r.pl.take(i), true
	}
	// Another loadable path to a file: from here on, List's choice.
	r.pl.unstep()
	<-r.walked // every reader has started
	r.all = r.pl.collect()
	r.walking = false
	for j := i; j < r.cands.n; j++ {
		if e := r.all[j]; e != nil && e.readErr == nil && e.stamp.ino != 0 {
			r.seen.offer(seenKey(e), j, ownRank(r.cands.at(j)))
		}
	}
	e := r.all[i]
	r.all[i] = nil
	return cand, e, true
}

// settle applies precedence to candidate i, read as e, hands out what
// that settles, and lets go of the candidates no longer needed.
func (r *eachRun) settle(i int, cand *candidate, e *entry) error {
	loaded := true
	if e.readErr == nil && e.stamp.ino != 0 {
		switch {
		case r.all != nil:
			loaded = r.seen.loads(seenKey(e), i)
		case cand.ignored:
			r.seen.offer(seenKey(e), i, ownRank(cand))
			r.ignored = append(r.ignored, heldEntry{i, e})
			return nil
		default:
			// Taken one at a time, a candidate is not ignored nor
			// linked nor flat (next): of the highest rank.
			loaded = r.seen.settle(seenKey(e))
		}
	}
	p := r.p
	before, lost := len(p.diags), len(p.lost)
	p.add(cand, e, loaded)
	for k := lost; k < len(p.lost); k++ {
		if p.lost[k] == cand {
			cp := *cand
			p.lost[k] = &cp
		}
	}
	// The diagnostics are packed (which copies their texts: they do not
	// hold on to the skill's frontmatter nor the walk's paths).
	for k := before; k < len(p.diags); k++ {
		r.diags.add(p.diags[k])
	}
	clear(p.diags[before:])
	p.diags = p.diags[:before]
	if err := r.handOut(i); err != nil {
		return err
	}
	if (i+1)%candChunk == 0 {
		r.letGo(i + 1)
	}
	return nil
}

// handOut gives fn the skills that can no longer change, up to and
// including candidate done (all of them when done is past the last). A
// skill in a folder of its own name cannot: nothing found later takes its
// place (prec.add), and its path is its file's own.
func (r *eachRun) handOut(done int) error {
	p := r.p
	for r.head < len(p.skills) {
		s := p.skills[r.head]
		if !ownName(s) && !r.past(r.head, s.Name, done) {
			return nil
		}
		// A walk cut short by the context may have missed the skill that
		// takes this one's place.
		if err := r.ctx.Err(); err != nil {
			return err
		}
		p.skills[r.head] = nil
		root := p.at[r.head]
		p.at[r.head] = nil
		r.head++
		s.Listed = r.lim.take(s, s.Name)
		if p.stream != nil {
			p.stream.handed(s)
		}
		if err := r.fn(r.l, s); err != nil {
			return err
		}
		if err := r.ctx.Err(); err != nil {
			return err
		}
		r.handed++
		// What precedence needs of a skill handed out is its name,
		// location and root (prec.rival).
		delete(p.byName, s.Name)
		p.goneFrom(s.Name, s, root)
	}
	if r.head == len(p.skills) {
		p.skills, p.at, r.head = p.skills[:0], p.at[:0], 0
	}
	return nil
}

// past reports whether every candidate in a folder named name that could
// take the place of skill k (p.skills[k], whose name is not its folder's)
// is at or before candidate done.
func (r *eachRun) past(k int, name string, done int) bool {
	if r.walking {
		last, ended := r.rootLast(r.p.at[k], name)
		return ended && last <= done
	}
	return r.lastFolder(name) <= done
}

// lastFolder returns the last candidate not let go in a folder named
// name, -1 for none.
func (r *eachRun) lastFolder(name string) int {
	if r.lastIn == nil {
		r.lastIn = r.folders(r.freed*candChunk, r.cands.n)
	}
	return r.lastIn.last(maphash.String(r.seed, name))
}

// rootLast is lastFolder of root's candidates, once root's walk has ended
// (ended false before).
func (r *eachRun) rootLast(root *Root, name string) (last int, ended bool) {
	k := r.rootAt[root]
	if r.rootLastIn[k] == nil {
		r.pl.mu.Lock() // the walk is adding candidates
		if k < len(r.pl.rootEnds) {
			from := r.freed * candChunk
			if k > 0 {
				from = max(from, r.pl.rootEnds[k-1])
			}
			r.rootLastIn[k] = r.folders(from, r.pl.rootEnds[k])
		}
		r.pl.mu.Unlock()
		if r.rootLastIn[k] == nil {
			return 0, false
		}
	}
	return r.rootLastIn[k].last(maphash.String(r.seed, name)), true
}

// folders returns the folderLast of candidates from up to to, those not
// ignored.
func (r *eachRun) folders(from, to int) *folderLast {
	pairs := make([]folderAt, 0, max(to-from, 0))
	for i := from; i < to; i++ {
		if cd := r.cands.at(i); !cd.ignored {
			pairs = append(pairs, folderAt{maphash.String(r.seed, candFolder(cd)), int32(i)})
		}
	}
	return newFolderLast(pairs)
}

// folderLast is, for each hash of a folder name, the last candidate in a
// folder of that name: two sorted arrays, 12 bytes a folder name, where a
// map of the same cost about 50 (at 100,000 skills, 1.2 MB against 5 MB).
type folderLast struct {
	hashes []uint64
	lasts  []int32
}

// folderAt is a candidate and the hash of its folder's name.
type folderAt struct {
	hash uint64
	i    int32
}

// newFolderLast makes the folderLast of pairs, which it sorts.
func newFolderLast(pairs []folderAt) *folderLast {
	slices.SortFunc(pairs, func(a, b folderAt) int {
		if c := cmp.Compare(a.hash, b.hash); c != 0 {
			return c
		}
		return cmp.Compare(a.i, b.i)
	})
	// The last of each run of one hash is kept: a later candidate in a
	// folder of that name comes after it in the run.
	lastOfRun := func(k int) bool { return k+1 == len(pairs) || pairs[k+1].hash != pairs[k].hash }
	n := 0
	for k := range pairs {
		if lastOfRun(k) {
			n++
		}
	}
	f := &folderLast{hashes: make([]uint64, 0, n), lasts: make([]int32, 0, n)}
	for k, p := range pairs {
		if lastOfRun(k) {
			f.hashes = append(f.hashes, p.hash)
			f.lasts = append(f.lasts, p.i)
		}
	}
	return f
}

// last returns the last candidate in a folder whose name has hash h, -1
// for none.
func (f *folderLast) last(h uint64) int {
	if k, ok := slices.BinarySearch(f.hashes, h); ok {
		return int(f.lasts[k])
	}
	return -1
}

// letGo lets go of the chunks of candidates below the first one still
// needed: by an ignored file held back, or the candidates to come (a skill
// not handed out has what it needs in its Skill and p.at). A candidate
// that does not load is copied into p.lost for nestedDiags.
func (r *eachRun) letGo(next int) {
	if len(r.ignored) > 0 {
		next = min(next, r.ignored[0].i)
	}
	r.pl.mu.Lock() // the readers look candidates up
	for (r.freed+1)*candChunk <= next {
		r.cands.release(r.freed)
		r.freed++
	}
	r.pl.mu.Unlock()
}

// walk walks the roots, pushing each candidate onto w.pl as it is found,
// with the root's .skilletignore applied to it, then the ignored files
// (which come last, as in List); it starts the rest of the readers and
// closes the queue. The walk works in a one-shot scratch of its own,
// dropped when it returns: no folder state is kept.
func (w *eachWalk) walk(ctx context.Context, roots []*Root) {
	s := &listScratch{oneShot: true, stream: w.stream}
	w.rootFD = make([]rootDir, 0, len(roots))
	var ignoredCands []candidate
	for _, r := range roots {
		rw := &walker{ctx: ctx, c: w.c, s: s, root: r, rootFD: -1, at: noDir, pl: w.pl}
		// The root's .skilletignore is read before its walk, so that a
		// candidate is withheld (or not) once and for all when it is
		// found; its problems are reported when the root holds a
		// candidate, as withholdSkills reports them.
		m, ignDiags := rootIgnore(r, rw.allowed)
		rw.withhold = m
		w.rootFD = rw.openRoot(w.rootFD)
		rw.walkRoot()
		w.pl.endRoot()
		ignoredCands = append(ignoredCands, rw.ignored...)
		w.diags = append(w.diags, rw.diags...)
		if rw.found > 0 {
			w.diags = append(w.diags, ignDiags...)
		}
	}
	for _, ic := range ignoredCands {
		w.pl.push(ic)
	}
	w.pl.start(readWorkers() - w.during)
	w.pl.close()
}

// eachLockstep, when set, makes the walk of Each wait after each
// candidate it finds until the skills that candidate lets out are handed
// out (pipeline.lockstep), and is called with each candidate's path as it
// is found: tests set it so that a skill handed out too early is handed
// out while the walk has still to find what would change it, and to see
// what was found before each skill was handed out.
var eachLockstep func(path string)

// lockstepHook is one catalog's eachLockstep (Catalog.lockstep).
type lockstepHook struct{ fn func(path string) }

// eachHeld is how many skills Each holds, not yet handed out, before it
// takes no more candidates until the walk has ended: a skill whose name
// is not its folder's holds those after it until then, and what is read
// meanwhile is kept (about a kilobyte a skill): 4,096 of them were 4 to
// 5 MB of the live heap's peak at 100,000 skills of internal/benchtree,
// where the second skill holds the rest; past eachHeld the readers read
// after the walk what they would have read beside it.
var eachHeld = 512

// eachWindow is how far the readers of Each may run ahead of the skills
// handed out.
const eachWindow = 128

// eachListed is Each by List.
func (c *Catalog) eachListed(ctx context.Context, fn func(l *Listing, s *Skill) error) (*Listing, error) {
	full, err := c.List(ctx)
	if err != nil {
		return nil, err
	}
	l := &Listing{Workspace: full.Workspace, Roots: full.Roots}
	for _, s := range full.Skills {
		if err := fn(l, s); err != nil {
			return nil, err
		}
	}
	l.Diagnostics = full.Diagnostics
	return l, nil
}

// candFolder is folderName of the skill a candidate would give.
func candFolder(cd *candidate) string { return skill.DefaultName(cd.path, cd.flat) }
