package catalog

import (
	"context"
	"runtime/debug"
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
// query and limit, when the persistent index answers as listNamed's does
// (a trusted, current index of c's roots, a catalog that has not listed
// and lists the local file system alone); ok is false otherwise, and when
// the query holds no words or the index's search section does not decode:
// the caller lists then (Search), which says why where it should.
func (c *Catalog) searchIndexed(ctx context.Context, query string, limit int) (res []SearchResult, ok bool) {
	terms := queryTerms(query)
	if len(terms) == 0 {
		return nil, false
	}
	c.readMapped(ctx, func(data []byte, seed uint32, roots []byte) {
		res, ok = c.readSearch(data, seed, roots, terms, exactQuery(query), limit)
	})
	return res, ok
}

// readSearch ranks the skills of the mapped index data (checksum beginning
// with seed, for the encoded roots) against terms, exact being the query
// as a name; ok is false when the file fails its checksum, does not
// decode, holds other roots, or a stamp no longer holds. A fault reading
// data (the file cut short) is not ok either.
func (c *Catalog) readSearch(data []byte, seed uint32, roots []byte, terms []string, exact string, limit int) (res []SearchResult, ok bool) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if !isFault(r) {
				panic(r)
			}
			res, ok = nil, false
		}
	}()
	mi := openMapped(data, seed, roots)
	if mi == nil {
		return nil, false
	}
	sk := &skim{d: mi.d, data: data, q: &namedQuery{}}
	ss := sk.searchListing(c, exact)
	if ss == nil {
		return nil, false
	}
	sd := decodeSearch(ss.sec, len(ss.order))
	if sd == nil {
		return nil, false
	}
	// The section's pages, all read to decode it, are given back: the
	// postings of the query's words are read again from the page cache.
	releaseMapped(data, len(data))
	hits, df, hok := sd.hits(terms)
	if !hok {
		return nil, false
	}
	rs := scoreHits(hits, df, len(ss.order), func(d int) bool { return ss.exact[d] })
	rs = bestRanked(rs, limit)
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
	return searchResults(rs, hits, terms, func(d int) *Skill { return kept[d] }), true
}

// searchSkim is what a search keeps of an index's listing.
type searchSkim struct {
	offs  []uint32     // where each skill of the table begins in d.s
	order []uint32     // the listing's skills, by their place in the table
	exact map[int]bool // the listing's skills named as the whole query
	sec   string       // the search section, in the mapped file
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
