package catalog

import (
	"context"
	"runtime/debug"
	"strings"
	"unsafe"

	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/skill"
)

// The first run of a one-skill command, answered from the walk that
// writes the persistent index (docs/performance.md#persistent-index):
// listNamedQ, listBrief and searchIndexed read a current index without
// decoding its listing; with none (or a stale one) each lists as Each
// does and writes the index meanwhile (eachIndexed), keeping only what its
// answer needs, where List would hold the whole listing and the caches
// (268 MB live at 100,000 skills): show NAME the skills of the name,
// prompt the Listed and hidden skills and the others' names (what the
// index's brief read keeps), search the records' places, reading back
// only the skills it returns. The answers are those of the index the walk
// writes, read as a warm run reads it (TestIndexWalkDifferential).

// walkIndexed lists c as Each does, handing fn each skill, and writes the
// persistent index meanwhile (eachIndexed, whose after it passes on),
// under c.mu and with the collector's GOGC at the catalog's walkGC. It
// returns the listing (its skills not held), or nil when c may not list
// that way (it has listed, has read its index, keeps none, is not a fresh
// catalog of the local file system) or the listing failed: the caller
// lists then (List), which says why where it should.
func (c *Catalog) walkIndexed(ctx context.Context, fn func(l *Listing, s *Skill) error, after func(st *indexStream)) *Listing {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ctx.Err() != nil || c.idx != nil || c.opts.index == "" {
		return nil
	}
	if p := c.opts.walkGC; p > 0 {
		defer debug.SetGCPercent(debug.SetGCPercent(p))
	}
	l, ok, err := c.eachIndexed(ctx, fn, after)
	if !ok || err != nil {
		return nil
	}
	return l
}

// listBriefWalk is listBrief when the index does not answer: it lists as
// Each does, writing the index meanwhile (walkIndexed), and keeps what
// the brief read of that index keeps (skim.briefListing): the Listed
// skills whole, the hidden ones by name, the other names in an arena. nil
// when c may not list that way.
func (c *Catalog) listBriefWalk(ctx context.Context, keep func(*skill.Diagnostic) bool) (*Listing, []string) {
	kept := []*Skill{}
	var names []string
	var arena textArena
	l := c.walkIndexed(ctx, func(_ *Listing, s *Skill) error {
		switch {
		case s.Hidden():
			kept = append(kept, hiddenByName(c, s.Name, s.Listed))
		case s.Listed:
			kept = append(kept, s)
		default:
			names = append(names, arena.clone(s.Name))
		}
		return nil
	}, nil)
	if l == nil {
		return nil, nil
	}
	out := &Listing{Workspace: l.Workspace, Roots: l.Roots, Skills: kept}
	out.Diagnostics = keptDiags(l.Diagnostics, keep)
	return out, names
}

// hiddenByName is a hidden skill as the brief read keeps it: its name
// (copied) and whether it is Listed, nothing else.
func hiddenByName(c *Catalog, name string, listed bool) *Skill {
	s := &Skill{c: c, Name: strings.Clone(name), Listed: listed}
	s.lazy = &lazyParsed{hidden: true}
	s.lazy.once.Do(func() { s.lazy.p = &skill.Skill{Name: s.Name, DisableModelInvocation: true} })
	return s
}

// searchWalk is searchIndexed when the index does not answer: it lists as
// Each does, writing the index meanwhile (walkIndexed), notes the skills
// named exact, and ranks the skills against terms from the search section
// the stream built (sectionScan.rank, as a warm search ranks them), then
// reads back from the stream's records only the skills it returns. ok is
// false when c may not list that way or a record did not read back.
func (c *Catalog) searchWalk(ctx context.Context, terms []string, exact string, limit int) (res []SearchResult, ok bool) {
	named := map[int]bool{}
	doc := 0
	l := c.walkIndexed(ctx, func(_ *Listing, s *Skill) error {
		if s.Name == exact {
			named[doc] = true
		}
		doc++
		return nil
	}, func(st *indexStream) {
		res, ok = st.search(c, terms, func(d int) bool { return named[d] }, limit)
	})
	if l == nil {
		return nil, false
	}
	return res, ok
}

// search ranks the skills handed out against terms from the stream's
// search section (exact: whether skill d is named as the whole query) and
// returns the first limit, each skill decoded from its record in the
// records' file, every string copied, as a warm search returns them
// (readSearch); false when the records were not all written or one does
// not decode.
func (st *indexStream) search(c *Catalog, terms []string, exact func(d int) bool, limit int) ([]SearchResult, bool) {
	if !st.recsOK || len(st.offs) != st.nrec {
		return nil, false
	}
	sec := st.section()
	sc := scanSection(unsafe.String(unsafe.SliceData(sec), len(sec)), st.nrec, terms, func(int) {})
	if sc == nil {
		return nil, false
	}
	rs, ok := sc.rank(terms, exact, limit)
	if !ok {
		return nil, false
	}
	if len(rs) == 0 {
		return nil, true // as Listing.Search returns no match
	}
	// The string table as a decoder builds it: the records refer to the
	// strings of those before them by number.
	table := make([]string, len(st.e.table), len(st.e.table)+keptSlack)
	for s, k := range st.e.table {
		table[k-1] = s
	}
	out := make([]SearchResult, len(rs))
	for i, r := range rs {
		s := st.record(c, r.doc, table)
		if s == nil {
			return nil, false
		}
		var matched []string
		for t := range terms {
			if r.terms&(1<<t) != 0 {
				matched = append(matched, terms[t])
			}
		}
		out[i] = SearchResult{Skill: s, Score: r.score, Matched: matched, ExactName: r.exact}
	}
	return out, true
}

// record decodes the record of the skill handed out k-th from the
// records' file (keptSkill: every string copied) with the full string
// table; nil when it does not read or decode whole.
func (st *indexStream) record(c *Catalog, k int, table []string) *Skill {
	lo, hi := st.offs[k], st.recsEnd
	if k+1 < len(st.offs) {
		hi = st.offs[k+1]
	}
	if lo < 0 || hi < lo || hi > st.recsEnd {
		return nil
	}
	buf := make([]byte, hi-lo)
	if _, err := st.recs.ReadAt(buf, lo); err != nil {
		return nil
	}
	d := &idec{s: unsafe.String(unsafe.SliceData(buf), len(buf)), table: table}
	s := (&skim{d: d}).keptSkill(c)
	if d.err != nil || d.left() != 0 {
		return nil
	}
	return s
}

// nameKeeper keeps the name of each skill handed out and which are hidden:
// the names copied into shared arrays (a string header and the name's
// bytes, about 36 bytes a skill), the hidden ones by their place. It gives
// them as catalogx.Names, what the load tool reads of a listing, where
// a listing of names held a Skill of 216 bytes for each.
type nameKeeper struct {
	names  []string // every name, in order
	hidden []int    // the places in names of the hidden skills, in order
	arena  textArena
}

func (nk *nameKeeper) add(s *Skill) {
	if s.Hidden() {
		nk.hidden = append(nk.hidden, len(nk.names))
	}
	nk.names = append(nk.names, nk.arena.clone(s.Name))
}

// cut keeps the first m names (m at most how many were added).
func (nk *nameKeeper) cut(m int) {
	nk.names = nk.names[:m]
	for len(nk.hidden) > 0 && nk.hidden[len(nk.hidden)-1] >= m {
		nk.hidden = nk.hidden[:len(nk.hidden)-1]
	}
}

// split returns the names kept, the visible ones in order in the array
// they were kept in (which nk gives up), the hidden ones in order in an
// array of their own.
func (nk *nameKeeper) split() *catalogx.Names {
	out := &catalogx.Names{Visible: nk.names[:0], Hidden: make([]string, 0, len(nk.hidden))}
	h := 0
	for i, n := range nk.names {
		if h < len(nk.hidden) && nk.hidden[h] == i {
			out.Hidden = append(out.Hidden, n)
			h++
			continue
		}
		out.Visible = append(out.Visible, n)
	}
	*nk = nameKeeper{}
	return out
}

// nameListing is the listing that goes with the names of l: its
// workspace and roots, the diagnostics given, no skill.
func nameListing(l *Listing, diags []skill.Diagnostic) *Listing {
	return &Listing{Workspace: l.Workspace, Roots: l.Roots, Diagnostics: diags}
}

// listNames returns the names of c's listing (catalogx.Names) and a
// listing of its workspace and roots with no diagnostic, when the
// persistent index answers as listBrief's does (readNames), or, with no
// current index, from the walk that writes it (walkIndexed); nil when
// neither answers (catalogx.Hooks.ListNames).
func (c *Catalog) listNames(ctx context.Context) (*Listing, *catalogx.Names) {
	var l *Listing
	var names *catalogx.Names
	c.readMapped(ctx, func(data []byte, seed uint32, roots []byte) {
		l, names = c.readNames(data, seed, false, roots, nil)
	})
	if l != nil {
		return l, names
	}
	var nk nameKeeper
	wl := c.walkIndexed(ctx, func(_ *Listing, s *Skill) error {
		nk.add(s)
		return nil
	}, nil)
	if wl == nil {
		return nil, nil
	}
	return nameListing(wl, keptDiags(wl.Diagnostics, nil)), nk.split()
}

// readNames is listNames of the mapped index data (checksum beginning with
// seed) for the encoded roots, with the diagnostics keep reports true for
// (none when keep is nil); nil when the file fails its checksum, does not
// decode, holds other roots, or a stamp no longer holds, and when a fault
// reads data (the file cut short). summed says a read of the same mapping
// found the checksum right: it is not summed again (openSummed).
func (c *Catalog) readNames(data []byte, seed uint32, summed bool, roots []byte, keep func(*skill.Diagnostic) bool) (l *Listing, names *catalogx.Names) {
	if !withoutFault(func() { l, names = c.namesMapped(data, seed, summed, roots, keep) }) {
		return nil, nil
	}
	return l, names
}

// namesMapped is readNames without the fault handling: a fault reading
// data panics.
func (c *Catalog) namesMapped(data []byte, seed uint32, summed bool, roots []byte, keep func(*skill.Diagnostic) bool) (*Listing, *catalogx.Names) {
	var mi *mappedIndex
	if summed {
		mi = openSummed(data, roots)
	} else {
		mi = openMapped(data, seed, roots)
	}
	if mi == nil {
		return nil, nil
	}
	sk := &skim{d: mi.d, data: data, q: &namedQuery{keep: keep}}
	l, names := sk.namesListing(c)
	if l == nil || !mi.stampsHold(sk) {
		return nil, nil
	}
	return l, names
}

// namesListing decodes the listing part of a mapped index as idec.listing
// does, keeping each skill's name and whether it is hidden (nameKeeper)
// and the diagnostics sk.q keeps; nil when it does not decode, or when
// the listing's skills are not the table's first (as ienc.listing writes
// them).
func (sk *skim) namesListing(c *Catalog) (*Listing, *catalogx.Names) {
	d := sk.d
	l := sk.head()
	n := d.count()
	if n > d.left()/minSkillBytes {
		return nil, nil
	}
	// The table's length is known: one array for every name.
	nk := nameKeeper{names: make([]string, 0, n)}
	var scratch Skill
	var lz lazyParsed
	for range n {
		d.skill(c, nil, &scratch, &lz)
		if d.err != nil {
			return nil, nil
		}
		nk.add(&scratch)
		scratch = Skill{}
		sk.release()
	}
	m, _ := d.optCount()
	for k := range m {
		if d.uint() != uint64(k) || k >= n {
			return nil, nil
		}
	}
	if !sk.briefRest(l, n) {
		return nil, nil
	}
	nk.cut(m)
	return nameListing(l, l.Diagnostics), nk.split()
}
