package catalog

import (
	"context"
	"hash/maphash"
	"runtime"
	"strings"

	"github.com/skillet-go/skillet/skill"
)

// Each lists the catalog as [Catalog.List] does and hands fn the skills of
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
// Catalog with a persistent index (Options.Index), one that has listed
// already, or a host profile other than the native one lists with List and
// hands out its skills.
func (c *Catalog) Each(ctx context.Context, fn func(l *Listing, s *Skill) error) (*Listing, error) {
	c.mu.Lock()
	if c.opts.Index != "" || !c.profile.Native || len(c.cache) > 0 || len(c.dirs) > 0 {
		c.mu.Unlock()
		return c.eachListed(ctx, fn)
	}
	defer c.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	l := &Listing{Workspace: c.workspace}
	diags := c.startDiags()
	roots, rootDiags := c.resolveRoots()
	diags = append(diags, rootDiags...)

	// Each root is held open while its files are read (readBeneath), so
	// it is closed after the readers stop (the defers run last first).
	rootFDs := make([]rootDir, 0, len(roots))
	defer func() {
		for _, d := range rootFDs {
			d.close()
		}
	}()
	// While the walk goes on, one reader fewer than there are processors
	// runs beside it, and the readers keep at most eachWindow skills
	// ahead of those handed out: until the walk has ended no skill can be
	// handed out (a later file could still change it), and what is read
	// meanwhile is held.
	ctx, cancel := context.WithCancel(ctx)
	during := max(runtime.GOMAXPROCS(0)-1, 1)
	pl := c.startPipeline(ctx, during)
	pl.window = eachWindow
	// On the way out: cancel (which lifts the window), close the queue
	// (which wakes the readers), and wait for them.
	defer pl.wg.Wait()
	defer pl.close()
	defer cancel()
	c.oneShot = true
	defer func() { c.oneShot = false }()

	var ignoredCands []candidate
	for _, r := range roots {
		w := &walker{ctx: ctx, c: c, root: r, rootFD: -1, at: noDir, pl: pl}
		rootFDs = w.openRoot(rootFDs)
		w.walkRoot()
		ignoredCands = append(ignoredCands, w.ignored...)
		diags = append(diags, w.diags...)
		diags = append(diags, pl.withhold(r, w.found, w.allowed)...)
		l.Roots = append(l.Roots, *r)
	}
	// The walk's folder memory is not needed again.
	c.dirents = direntScratch{}
	// Ignored files come last, as in List.
	for _, ic := range ignoredCands {
		pl.push(ic)
	}
	pl.close()
	cands := &pl.cands // the walk is over: only readers read it now
	pl.start(readWorkers() - during)
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	p := &prec{c: c, diags: diags, byName: map[string]*Skill{}, gone: newGoneSet(cands.n)}
	// The names of the skills handed out (which the catalog-truncated
	// message may list) and their locations (which precedence needs only
	// while skills are handed out) are kept apart, so the locations go
	// when the last skill is out.
	var names, locs goneText
	// seen is, for each file, the candidate that loads it so far and how
	// much that path is the file's own (ownRank), so that the candidate
	// can be let go.
	type seenAt struct {
		i    int
		rank uint8
	}
	seen := map[[2]uint64]seenAt{}
	seenKey := func(e *entry) [2]uint64 { return [2]uint64{e.stamp.ino, e.stamp.dev} }
	// Which skill file loads of several paths to one file depends on the
	// paths found after it unless it is a directory-form SKILL.md that is
	// not a symlink (ownPath): with any other loadable path in the
	// listing, every file is read first and the choice made as List makes
	// it. Ignored files never change what loads, so theirs is settled at
	// the end.
	var all []*entry
	for i := range cands.n {
		if cd := cands.at(i); !cd.ignored && (cd.flat || cd.linked()) {
			all = pl.collect()
			for i := range cands.n {
				if e := all[i]; e != nil && e.readErr == nil && e.stamp.ino != 0 {
					if r := ownRank(cands.at(i)); seen[seenKey(e)].rank < r {
						seen[seenKey(e)] = seenAt{i, r}
					}
				}
			}
			break
		}
	}

	// A skill whose name is not its folder's gives way to a later skill
	// of its root with that name in a folder of that name (prec.add), so
	// it is held, and the skills after it, until the last candidate in a
	// folder of that name is past.
	// The map is built on first use, of the candidates not let go yet
	// (those let go are past, which is all the answer needs to say), and
	// keyed by a hash of the folder name: two names with one hash only
	// hold a skill longer.
	freed := 0 // chunks of candidates let go (candList.release)
	var lastIn map[uint64]int
	seed := maphash.MakeSeed()
	lastFolder := func(name string) int {
		if lastIn == nil {
			lastIn = map[uint64]int{}
			for i := freed * candChunk; i < cands.n; i++ {
				if cd := cands.at(i); !cd.ignored {
					lastIn[maphash.String(seed, candFolder(cd))] = i
				}
			}
		}
		if i, ok := lastIn[maphash.String(seed, name)]; ok {
			return i
		}
		return -1
	}
	lim := limit{max: c.settings.MaxSkills}
	handed, head := 0, 0
	// handOut gives fn the skills that can no longer change, up to and
	// including candidate done (all of them when done is cands.n).
	handOut := func(done int) error {
		for head < len(p.skills) {
			s := p.skills[head]
			if !ownName(s) && lastFolder(s.Name) > done {
				return nil
			}
			p.skills[head] = nil
			at := p.at[head]
			head++
			// The name is copied out of the frontmatter, which is let go.
			name := names.add(s.Name)
			s.Listed = lim.take(s, name)
			if err := fn(l, s); err != nil {
				return err
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			handed++
			// What precedence needs of a skill handed out is its name,
			// location and root (prec.rival).
			delete(p.byName, s.Name)
			p.goneFrom(&locs, name, cands.at(at))
		}
		if head == len(p.skills) {
			p.skills, p.at, head = p.skills[:0], p.at[:0], 0
		}
		return nil
	}
	type held struct {
		i int
		e *entry
	}
	var ignored []held
	// letGo lets go of the chunks of candidates below the first one
	// still needed: by a skill not handed out, an ignored file held back,
	// or the candidates to come. A candidate that does not load is
	// copied into p.lost for nestedDiags.
	letGo := func(next int) {
		for _, at := range p.at[head:len(p.skills)] {
			next = min(next, at)
		}
		if len(ignored) > 0 {
			next = min(next, ignored[0].i)
		}
		pl.mu.Lock() // the readers look candidates up
		for (freed+1)*candChunk <= next {
			cands.release(freed)
			freed++
		}
		pl.mu.Unlock()
	}
	for i := range cands.n {
		cand := cands.at(i)
		var e *entry
		if all != nil {
			e = all[i]
			all[i] = nil
		} else {
			e = pl.take(i)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if e == nil {
			continue
		}
		loaded := true
		if e.readErr == nil && e.stamp.ino != 0 {
			if all == nil {
				if r := ownRank(cand); seen[seenKey(e)].rank < r {
					seen[seenKey(e)] = seenAt{i, r}
				}
				if cand.ignored {
					ignored = append(ignored, held{i, e})
					continue
				}
			}
			loaded = seen[seenKey(e)].i == i
		}
		p.cur = i
		before, lost := len(p.diags), len(p.lost)
		p.add(cand, e, loaded)
		for k := lost; k < len(p.lost); k++ {
			if p.lost[k] == cand {
				cp := *cand
				p.lost[k] = &cp
			}
		}
		// The diagnostics must not hold on to the skill's frontmatter.
		for k := before; k < len(p.diags); k++ {
			if d := &p.diags[k]; d.Skill != "" {
				d.Skill = strings.Clone(d.Skill)
			}
		}
		if err := handOut(i); err != nil {
			return nil, err
		}
		if (i+1)%candChunk == 0 {
			letGo(i + 1)
		}
	}
	for _, h := range ignored {
		p.cur = h.i
		p.add(cands.at(h.i), h.e, seen[seenKey(h.e)].i == h.i)
	}
	if err := handOut(cands.n); err != nil {
		return nil, err
	}
	// Every skill is out: what precedence kept goes before the
	// diagnostics are gathered and sorted.
	p.gone, p.byName, seen, lastIn, locs = nil, nil, nil, nil, goneText{}
	diags = append(p.diags, c.nestedDiags(ctx, p.lost)...)
	if handed == 0 {
		diags = append(diags, c.skippedDiags(roots)...)
	}
	diags = lim.truncated(diags, c.workspace)
	skill.SortDiagnostics(diags)
	l.Diagnostics = diags
	return l, ctx.Err()
}

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
