package catalog

import (
	"context"
	"math"
	"slices"
	"strings"
	"unsafe"

	"github.com/skillet-go/skillet/skill"
)

// A search read from the persistent index without decoding its listing
// (docs/performance.md#a-narrowed-search): Catalog.Search over a warm
// index. Listing.Search ranks from the index's search section and reads
// each skill's name only to find one named as the whole query; the whole
// listing decoded (about 400 bytes a skill in memory, with the file read
// whole: 150 MB at 100,000 skills) serves only the ten results printed.
// The narrowed search maps the file, checks its CRC-32C and every stamp as
// List does, and keeps of each skill the place of its record in the file
// (4 bytes) while it reads the listing a chunk at a time; it ranks from the
// search section and decodes, copied out of the mapping, only the skills
// it returns.

// searchIndexed returns what Listing.Search of c's listing returns for
// query and limit, when the persistent index answers as listNamedQ's does
// (a trusted, current index of c's roots, a catalog that has not listed
// and lists the local file system alone); with no current index, such a
// catalog lists as Each does and writes the index meanwhile, ranking from
// what the walk built (searchWalk). ok is false otherwise, and when the
// query holds no words: the caller lists then (Search), which says why
// where it should.
func (c *Catalog) searchIndexed(ctx context.Context, query string, limit int) (res []SearchResult, ok bool) {
	terms := queryTerms(query)
	if len(terms) == 0 {
		return nil, false
	}
	c.readMapped(ctx, func(data []byte, seed uint32, roots []byte) {
		res, ok = c.readSearch(data, seed, roots, terms, exactQuery(query), limit)
	})
	if ok {
		return res, true
	}
	return c.searchWalk(ctx, terms, exactQuery(query), limit)
}

// readSearch ranks the skills of the mapped index data (checksum beginning
// with seed, for the encoded roots) against terms, exact being the query
// as a name; ok is false when the file fails its checksum, does not
// decode, holds other roots, or a stamp no longer holds. A fault reading
// data (the file cut short) is not ok either.
func (c *Catalog) readSearch(data []byte, seed uint32, roots []byte, terms []string, exact string, limit int) (res []SearchResult, ok bool) {
	if !withoutFault(func() { res, ok = c.searchMapped(data, seed, roots, terms, exact, limit) }) {
		return nil, false
	}
	return res, ok
}

// searchMapped is readSearch without the fault handling: a fault reading
// data panics.
func (c *Catalog) searchMapped(data []byte, seed uint32, roots []byte, terms []string, exact string, limit int) (res []SearchResult, ok bool) {
	mi := openMapped(data, seed, roots)
	if mi == nil {
		return nil, false
	}
	sk := &skim{d: mi.d, data: data, q: &namedQuery{}}
	ss := sk.searchListing(c, exact)
	if ss == nil {
		return nil, false
	}
	sc := scanSection(ss.sec, len(ss.order), terms, func(at int) { releaseMapped(data, ss.secAt+at) })
	if sc == nil {
		return nil, false
	}
	rs, rok := sc.rank(terms, func(d int) bool { return ss.exact[d] }, limit)
	// The section's pages are given back; the kept skills' records are
	// read again from the page cache.
	releaseMapped(data, len(data))
	if !rok {
		return nil, false
	}
	// The results are decoded before the stamps are checked: the check
	// takes the string table back for the stamps' paths.
	kept := make(map[int]*Skill, len(rs))
	for _, r := range rs {
		if kept[r.doc] = sk.keptAt(c, ss.offs[ss.order[r.doc]]); kept[r.doc] == nil {
			return nil, false
		}
	}
	if !mi.stampsHold(sk) {
		return nil, false
	}
	out := make([]SearchResult, len(rs))
	for k, r := range rs {
		var matched []string
		for t := range terms {
			if r.terms&(1<<t) != 0 {
				matched = append(matched, terms[t])
			}
		}
		out[k] = SearchResult{Skill: kept[r.doc], Score: r.score, Matched: matched, ExactName: r.exact}
	}
	if len(out) == 0 {
		out = nil // as Listing.Search returns no match
	}
	return out, true
}

// searchSkim is what a search keeps of an index's listing.
type searchSkim struct {
	offs  []uint32     // where each skill of the table begins in d.s
	order []uint32     // the listing's skills, by their place in the table
	exact map[int]bool // the listing's skills named as the whole query
	sec   string       // the search section, in the mapped file
	secAt int          // where sec begins in the mapped file
}

// searchListing decodes the listing part of a mapped index as
// idec.listing does, keeping what a search needs (searchSkim); nil when
// it does not decode.
func (sk *skim) searchListing(c *Catalog, exact string) *searchSkim {
	d := sk.d
	d.str() // the workspace
	if n, ok := d.optCount(); ok {
		for range n {
			d.root()
		}
	}
	n := d.count()
	if n > d.left()/minSkillBytes {
		return nil
	}
	ss := &searchSkim{offs: make([]uint32, n), exact: map[int]bool{}}
	named := map[uint64]bool{} // the table's skills named exact
	var scratch Skill
	var lz lazyParsed
	for i := range n {
		ss.offs[i] = uint32(d.i)
		d.skill(c, nil, &scratch, &lz)
		if scratch.Name == exact && d.err == nil {
			named[uint64(i)] = true
		}
		scratch = Skill{}
		sk.release()
	}
	if m, ok := d.optCount(); ok {
		ss.order = make([]uint32, 0, min(m, n))
		for range m {
			k := d.uint()
			if k >= uint64(n) {
				return nil
			}
			if named[k] {
				ss.exact[len(ss.order)] = true
			}
			ss.order = append(ss.order, uint32(k))
		}
	}
	if m, ok := d.optCount(); ok {
		for range m {
			sk.diag()
			sk.release()
		}
	}
	if !sk.candidates(n) {
		return nil
	}
	ss.sec = d.raw()
	ss.secAt = indexHead + d.i - len(ss.sec)
	if d.err != nil || d.left() != 0 {
		return nil
	}
	return ss
}

// keptAt decodes the skill whose record begins at off in d.s, every string
// copied (keptSkill), from the full string table, whose length it leaves
// as it was; nil when the record does not decode.
func (sk *skim) keptAt(c *Catalog, off uint32) *Skill {
	d := sk.d
	full := len(d.table)
	d.i = int(off)
	s := sk.keptSkill(c)
	d.table = d.table[:full]
	if d.err != nil {
		return nil
	}
	return s
}

// sectionScan is a search section read in place (searchindex.go's
// layout): the word counts of each skill decoded, each term's words and
// postings read from the section when the term is scored, where
// decodeSearch holds every word and postings (32 bytes a word: 3.2 MB at
// 100,000 skills).
type sectionScan struct {
	sec   string
	lens  [][3]uint32
	first []int // of each term: where in sec the first word not before it begins; -1 for none
}

// scanSection decodes the word counts of a section written for n skills
// and checks the rest as decodeSearch does (every word and its postings,
// the words strictly in order), noting where each term's words begin;
// nil when decodeSearch would give nil. release(at) is called after every
// namedRelease bytes read, at is where in sec the reading is.
func scanSection(sec string, n int, terms []string, release func(at int)) *sectionScan {
	d := newDec(sec)
	lens := decodeLens(d, n)
	if lens == nil {
		return nil
	}
	v := d.count()
	if d.err != nil || v > d.left()/2 {
		return nil
	}
	sc := &sectionScan{sec: sec, lens: lens, first: make([]int, len(terms))}
	for t := range sc.first {
		sc.first[t] = -1
	}
	var prev string
	released := d.i
	for i := range v {
		at := d.i
		w := d.raw()
		d.raw()
		if i > 0 && w <= prev {
			return nil
		}
		prev = w
		for t, term := range terms {
			if sc.first[t] < 0 && w >= term {
				sc.first[t] = at
			}
		}
		if d.i-released >= namedRelease {
			release(d.i)
			released = d.i
		}
	}
	if d.err != nil || d.left() != 0 {
		return nil
	}
	return sc
}

// rank scores the skills against terms as Listing.Search does from the
// decoded section (searchDec.hits, then scoreHits), bit for bit: each
// term's postings in turn (the word equal to it, then the words it is a
// prefix of), its idf from the number of skills it is in, and each
// skill's score summed in term order. exact reports whether skill d is
// named as the whole query. It returns the first limit in rankOrder (all
// when limit <= 0), each with the terms it holds (ranked.terms); false
// when a posting does not decode. It holds a score and a set of terms a
// skill, not each (skill, term) pair.
func (sc *sectionScan) rank(terms []string, exact func(d int) bool, limit int) ([]ranked, bool) {
	n := len(sc.lens)
	ts := newTermScorer(sc.lens)
	score, held := make([]float64, n), make([]uint64, n)
	nf := float64(n)
	for t, term := range terms {
		if sc.first[t] >= 0 && !sc.add(ts, term, sc.first[t]) {
			return nil, false
		}
		docs := ts.done()
		df := float64(len(docs))
		idf := math.Log(1 + (nf-df+0.5)/(df+0.5))
		for _, doc := range docs {
			tf := ts.tf(doc)
			score[doc] += idf * tf * (bm25K1 + 1) / (tf + bm25K1)
			held[doc] |= 1 << t
		}
	}
	top := newTopRanked(limit, n)
	for d := range n {
		if isExact := exact(d); held[d] != 0 || isExact {
			if score[d] != 0 || isExact {
				top.add(ranked{score: score[d], doc: d, exact: isExact, terms: held[d]})
			}
		}
	}
	return top.ranked(), true
}

// add adds to ts the postings of term's words, from the word at first: the
// word equal to it, then those it is a prefix of (minPrefix bytes or
// more), as searchDec.hits reads them; false when one does not decode.
func (sc *sectionScan) add(ts *termScorer, term string, first int) bool {
	d := &idec{s: sc.sec, i: first}
	for d.left() > 0 {
		w, p := d.raw(), d.raw()
		factor := 1.0
		switch {
		case w == term:
		case len(term) >= minPrefix && strings.HasPrefix(w, term):
			factor = prefixFactor
		default:
			return true
		}
		if d.err != nil || !ts.add(p, factor) {
			return false
		}
	}
	return d.err == nil
}

// listBrief returns, when the persistent index answers as listNamedQ's
// does, what skillet prompt's catalog block reads of c's listing:
// Workspace and Roots as List gives them; Skills, in List's order, the
// skills of List that are hidden (disable-model-invocation; their name
// and that alone: Hidden reports true) or Listed (whole, their
// frontmatter decoded, as List gives them); Diagnostics those of List
// that keep reports true for; no candidates and no search section. notListed
// is the names of List's other skills (neither hidden nor Listed: past
// maxSkills), in order. With no current index, a catalog the index would
// answer lists as Each does, writes the index meanwhile and keeps the same
// (listBriefWalk). l is nil when neither answers.
func (c *Catalog) listBrief(ctx context.Context, keep func(*skill.Diagnostic) bool) (l *Listing, notListed []string) {
	c.readMapped(ctx, func(data []byte, seed uint32, roots []byte) {
		l, notListed = c.readBrief(data, seed, roots, keep)
	})
	if l != nil {
		return l, notListed
	}
	return c.listBriefWalk(ctx, keep)
}

// readBrief is listBrief of the mapped index data (checksum beginning with
// seed) for the encoded roots; nil when the file fails its checksum, does
// not decode, holds other roots, or a stamp no longer holds, and when a
// fault reads data (the file cut short).
func (c *Catalog) readBrief(data []byte, seed uint32, roots []byte, keep func(*skill.Diagnostic) bool) (l *Listing, notListed []string) {
	if !withoutFault(func() { l, notListed = c.briefMapped(data, seed, roots, keep) }) {
		return nil, nil
	}
	return l, notListed
}

// briefMapped is readBrief without the fault handling: a fault reading
// data panics.
func (c *Catalog) briefMapped(data []byte, seed uint32, roots []byte, keep func(*skill.Diagnostic) bool) (l *Listing, notListed []string) {
	mi := openMapped(data, seed, roots)
	if mi == nil {
		return nil, nil
	}
	sk := &skim{d: mi.d, data: data, q: &namedQuery{keep: keep}}
	l, notListed = sk.briefListing(c)
	if l == nil || !mi.stampsHold(sk) {
		return nil, nil
	}
	return l, notListed
}

// briefSkill is a skill of the table as briefListing keeps it: at its
// place in the table.
type briefSkill struct {
	at int
	s  *Skill
}

// briefListing decodes the listing part of a mapped index as
// idec.listing does, keeping what listBrief returns; nil when it does not
// decode, or when the listing's skills are not the table's first (as
// ienc.listing writes them).
func (sk *skim) briefListing(c *Catalog) (*Listing, []string) {
	d := sk.d
	l := sk.head()
	n := d.count()
	if n > d.left()/minSkillBytes {
		return nil, nil
	}
	var kept []briefSkill
	// The names not kept, and their places in the table, as many as the
	// table holds at most; the names copied into a few large arrays, not
	// one allocation each.
	names, ats := make([]string, 0, n), make([]int32, 0, n)
	var arena textArena
	var scratch Skill
	var lz lazyParsed
	for i := range n {
		start, t0 := d.i, len(d.table)
		d.skill(c, nil, &scratch, &lz)
		switch {
		case d.err != nil:
			return nil, nil
		case scratch.Hidden():
			kept = append(kept, briefSkill{i, hiddenByName(c, scratch.Name, scratch.Listed)})
		case scratch.Listed:
			d.i, d.table = start, d.table[:t0]
			kept = append(kept, briefSkill{i, sk.keptSkill(c)})
		default:
			names, ats = append(names, arena.clone(scratch.Name)), append(ats, int32(i))
		}
		scratch = Skill{}
		sk.release()
	}
	m, ok := d.optCount()
	if ok {
		for k := range m {
			if d.uint() != uint64(k) || k >= n {
				return nil, nil
			}
		}
		l.Skills = []*Skill{}
	}
	for _, b := range kept {
		if b.at < m {
			l.Skills = append(l.Skills, b.s)
		}
	}
	// The names of the skills only candidates point at come last.
	cut, _ := slices.BinarySearch(ats, int32(m))
	notListed := names[:cut:cut]
	if cut == 0 {
		notListed = nil
	}
	if !sk.briefRest(l, n) {
		return nil, nil
	}
	return l, notListed
}

// textArena copies strings into arrays of 64 KiB or more, each string a
// part of one: for many short strings that are kept together.
type textArena struct{ buf []byte }

func (a *textArena) clone(s string) string {
	if len(s) > cap(a.buf)-len(a.buf) {
		a.buf = make([]byte, 0, max(64<<10, len(s)))
	}
	a.buf = append(a.buf, s...)
	return unsafe.String(unsafe.SliceData(a.buf[len(a.buf)-len(s):]), len(s))
}

// briefRest decodes the rest of the listing part after its skills, for
// skim.listing and the brief read alike: the diagnostics sk.q keeps, into
// l, then the candidates and search section, passed over; n is the length
// of the skills' table. It reports whether they decoded and nothing is
// left.
func (sk *skim) briefRest(l *Listing, n int) bool {
	d := sk.d
	if m, ok := d.optCount(); ok {
		l.Diagnostics = []skill.Diagnostic{}
		for range m {
			if g, ok := sk.diag(); ok {
				l.Diagnostics = append(l.Diagnostics, g)
			}
			sk.release()
		}
	}
	if !sk.candidates(n) {
		return false
	}
	d.raw() // the search section
	return d.err == nil && d.left() == 0
}
