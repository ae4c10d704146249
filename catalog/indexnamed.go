package catalog

import (
	"context"
	"encoding/binary"
	"hash/crc32"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/pool"
	"github.com/skillet-go/skillet/skill"
)

// A listing narrowed to one name, read from the persistent index
// (docs/performance.md#persistent-index): what `skillet show NAME` needs
// when the name is found. List decodes the whole listing of the index (about
// 400 bytes a skill in memory, with the file read whole: 129 MB at 100,000
// skills); the narrowed read maps the file (mmap on Linux), checks its
// CRC-32C and every stamp as List does (TestNameEditMovesNoFolderStamp is
// why every skill file is statted), holds the stamps a chunk at a time, and
// keeps only the skills of the name and the diagnostics asked for, copied
// out of the mapping, which it then ends.

// namedRelease is how much of the mapped index a narrowed read reads
// before it gives the pages read back (releaseMapped).
const namedRelease = 1 << 20

// namedQuery is what a narrowed read keeps: the skills whose name is raw,
// or name (raw without surrounding spaces) in any letter case, and the
// diagnostics keep reports true for (none when keep is nil).
type namedQuery struct {
	raw, name string
	keep      func(*skill.Diagnostic) bool
	// none is set by readNamed when the index decoded and holds no skill
	// of the name: it answers, with nil.
	none bool
	// names asks the walk (listNamedWalk), when it finds no skill of the
	// name, for the listing of every name instead (nameKeeper.listing).
	names bool
	// prefix keeps the skills whose name begins with raw instead, and
	// answers with none (listPrefixed).
	prefix bool
}

// wants reports whether the skill name n is kept.
func (q *namedQuery) wants(n string) bool {
	if q.prefix {
		return strings.HasPrefix(n, q.raw)
	}
	return n == q.raw || strings.EqualFold(n, q.name)
}

// listPrefixed returns the listing of c narrowed to the skills whose name
// begins with prefix, as listNamedQ reads it (their frontmatter decoded, no
// diagnostics), from a current index or the walk that writes one; with no
// such skill, a listing with none. nil when neither answers (the caller
// lists then): catalogx.Hooks.ListPrefixed, for shell completion.
func (c *Catalog) listPrefixed(ctx context.Context, prefix string) *Listing {
	l, _ := c.listNamedQ(ctx, &namedQuery{raw: prefix, prefix: true})
	return l
}

// listNamedOrNames returns the listing of c narrowed to name when the
// persistent index answers (listNamedQ), with names nil; where the
// listing holds no skill of the name, it returns its names
// (nameKeeper.split) and a listing of its workspace, roots and the
// diagnostics keep reports true for, no skill, read from a current index
// (its stamps checked) or kept by the walk that writes one: what the load
// tool's answer to an unknown name and show's notes about it read
// (catalogx.Hooks.ListNamed). A name of spaces alone gets no names (the
// tool lists the skills then), and l is nil as when the index does not
// answer: the caller lists the whole index then.
func (c *Catalog) listNamedOrNames(ctx context.Context, name string, keep func(*skill.Diagnostic) bool) (l *Listing, names *catalogx.Names) {
	q := &namedQuery{raw: name, name: strings.TrimSpace(name), keep: keep}
	q.names = q.name != ""
	return c.listNamedQ(ctx, q)
}

// listNamedQ is listNamedOrNames and listPrefixed of q: the listing of c
// narrowed to q's name. Workspace and Roots are as List gives them;
// Skills, in List's order, those of List whose name is the name or, spaces
// trimmed, equals it in any letter case (for q.prefix, begins with it),
// their frontmatter decoded; Diagnostics those of List that q.keep reports
// true for; no candidates and no search section. It is read from the
// persistent index when that answers (readNamed: its checksum and every
// stamp checked), else from a walk that lists as Each does and writes the
// index meanwhile (listNamedWalk). It is nil when the listing holds no
// skill of the name (the caller needs the whole listing then: the nearest
// names; for q.prefix it is a listing with none), and when neither
// answers (c does not list the local file system alone from a fresh start:
// a host profile, other sources, files cached in memory): the caller lists
// then (List), which says why where it should. It sets no snapshot (Get
// and Load still list in full). When the index holds no skill of the name
// and q.names asks, the names are read from it with the diagnostics
// q.keep reports true for (readNames), its stamps checked; the mapping's
// checksum, found right by readNamed (q.none), is not summed again.
func (c *Catalog) listNamedQ(ctx context.Context, q *namedQuery) (l *Listing, names *catalogx.Names) {
	c.readMapped(ctx, func(data []byte, seed uint32, roots []byte) {
		l = c.readNamed(data, seed, roots, q)
		if l == nil && q.none && q.names {
			l, names = c.readNames(data, seed, true, roots, q.keep)
		}
	})
	if l != nil || q.none {
		return l, names
	}
	return c.listNamedWalk(ctx, q)
}

// listNamedWalk is listNamedQ when the index does not answer (none, stale,
// corrupt): it lists as Each does, keeping the skills of the name and the
// diagnostics q.keep asks for, and writes the index meanwhile
// (eachIndexed), so a first run holds about what Each holds, not the whole
// listing. nil when c may not write an index that way, or the listing
// holds no skill of the name (the caller lists then: List reads the index
// just written), unless q.names asks for the names then.
func (c *Catalog) listNamedWalk(ctx context.Context, q *namedQuery) (*Listing, *catalogx.Names) {
	var kept []*Skill
	var nk nameKeeper
	l := c.walkIndexed(ctx, func(_ *Listing, s *Skill) error {
		switch {
		case q.wants(s.Name):
			kept = append(kept, s)
		case q.names && len(kept) == 0:
			nk.add(s)
		}
		return nil
	}, nil)
	switch {
	case l == nil:
		return nil, nil
	case len(kept) == 0 && q.names:
		return nameListing(l, keptDiags(l.Diagnostics, q.keep)), nk.split()
	case len(kept) == 0 && !q.prefix:
		return nil, nil
	}
	out := &Listing{Workspace: l.Workspace, Roots: l.Roots, Skills: kept}
	out.Diagnostics = keptDiags(l.Diagnostics, q.keep)
	return out, nil
}

// keptDiags returns the diagnostics of diags that keep reports true for
// (none when keep is nil): nil when diags is nil, as a listing decoded
// from the index has them.
func keptDiags(diags []skill.Diagnostic, keep func(*skill.Diagnostic) bool) []skill.Diagnostic {
	if diags == nil {
		return nil
	}
	out := []skill.Diagnostic{}
	for i := range diags {
		if keep != nil && keep(&diags[i]) {
			out = append(out, diags[i])
		}
	}
	return out
}

// readMapped calls read with the persistent index of c mapped (data, whose
// checksum begins with seed) and c's encoded roots, when a narrowed read
// may answer: c lists the local file system alone from a fresh start, with
// an index folder that is trusted and a file of its key that opens, of a
// size an index can have (listNamedQ). It holds c.mu meanwhile and reports
// whether read was called; nothing may keep data past read.
func (c *Catalog) readMapped(ctx context.Context, read func(data []byte, seed uint32, roots []byte)) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ctx.Err() != nil || c.merged || !c.profile.Native || c.opts.index == "" || len(c.cache) != 0 || c.idx != nil {
		return false
	}
	file := c.indexFile()
	if file == "" {
		return false
	}
	cache := indexCache(c.opts.index)
	if cache.Distrust() != "" {
		return false
	}
	roots, _ := c.resolveRoots()
	f, fi, err := cache.Open(filepath.Base(file))
	if err != nil {
		return false
	}
	defer f.Close()
	if fi.Size() > maxIndexBytes || fi.Size() < int64(indexHead+indexSumSize) {
		return false
	}
	data, unmap, err := mapIndex(f, int(fi.Size()))
	if err != nil {
		return false
	}
	defer unmap()
	read(data, indexSeed(file), encodeRoots(roots))
	return true
}

// readNamed decodes the narrowed listing of the mapped index data, whose
// checksum begins with seed, for the encoded roots; nil when the file
// fails its checksum, does not decode, holds other roots or no skill of
// the name, or a stamp no longer holds. A fault reading data (the file cut
// short) is nil too.
func (c *Catalog) readNamed(data []byte, seed uint32, roots []byte, q *namedQuery) (l *Listing) {
	if !withoutFault(func() { l = c.namedMapped(data, seed, roots, q) }) {
		return nil
	}
	return l
}

// namedMapped is readNamed without the fault handling: a fault reading
// data panics.
func (c *Catalog) namedMapped(data []byte, seed uint32, roots []byte, q *namedQuery) (l *Listing) {
	mi := openMapped(data, seed, roots)
	if mi == nil {
		return nil
	}
	sk := &skim{d: mi.d, data: data, q: q}
	if l = sk.listing(c); l == nil || len(l.Skills) == 0 && !q.prefix {
		q.none = l != nil
		return nil
	}
	if !mi.stampsHold(sk) {
		return nil
	}
	return l
}

// mappedIndex is a mapped index file past its stamps, decoded once: d is
// at the listing, its table holding the stamps' paths.
type mappedIndex struct {
	d                   *idec
	n                   int // the number of stamps
	stampsAt, stampsLen int // where in d.s the stamps begin and the listing
}

// openMapped checks the checksum (beginning with seed), head and roots of
// the mapped index data and leaves d at the listing, past the stamps,
// which are decoded (and checked) once the listing answers (stampsHold):
// their paths are their own strings, outside the table (ienc.own), so the
// listing decodes without them. nil when any of that fails.
func openMapped(data []byte, seed uint32, roots []byte) *mappedIndex {
	if !namedSumOK(data, seed) {
		return nil
	}
	return openSummed(data, roots)
}

// openSummed is openMapped of data whose checksum was found right: a
// second read of the same mapping (readNames after readNamed). The bytes
// are trusted no less than when one read decodes them after summing
// them: an index is replaced by a rename, never written in place
// (internal/filecache), and a file cut short faults (withoutFault).
func openSummed(data []byte, roots []byte) *mappedIndex {
	size := len(data)
	head := data[len(indexMagic):indexHead]
	version := binary.LittleEndian.Uint32(head)
	stampsLen := int(binary.LittleEndian.Uint32(head[4:]))
	nstr := int(binary.LittleEndian.Uint32(head[8:]))
	if string(data[:len(indexMagic)]) != indexMagic || version != indexVersion || stampsLen < 0 || nstr < 0 ||
		indexHead+stampsLen > size-indexSumSize || nstr > size/2 {
		return nil
	}
	d := newDec(unsafe.String(&data[indexHead], size-indexSumSize-indexHead))
	// A kept skill decoded again from the full table appends its new
	// strings past the table's end (skim.keptAt): room for them.
	d.table = make([]string, 0, nstr+keptSlack)
	n := d.count()
	rootsLen := d.count()
	if d.err != nil || rootsLen > d.left() || d.s[d.i:d.i+rootsLen] != string(roots) {
		return nil
	}
	d.i += rootsLen
	// Each stamp takes three bytes at least.
	if d.i > stampsLen || n > (stampsLen-d.i)/3 {
		return nil
	}
	mi := &mappedIndex{d: d, n: n, stampsAt: d.i, stampsLen: stampsLen}
	d.i = stampsLen
	return mi
}

// keptSlack is room past an index's string table for the strings of a
// skill's record decoded again (ienc.skill writes ten).
const keptSlack = 16

// stampsHold decodes the stamps and reports whether every one holds,
// checked a chunk at a time on a few goroutines (stampStream); sk gives
// back the pages read. d is left at the end of the stamps.
func (mi *mappedIndex) stampsHold(sk *skim) bool {
	d := mi.d
	d.i, sk.released = mi.stampsAt, 0
	ss := startStampStream()
	defer ss.stop()
	ss.decode(d, mi.n, sk.release)
	return d.err == nil && d.i == mi.stampsLen && ss.same()
}

// namedSumOK checks the CRC-32C of the mapped index data (as
// indexRest.finish does), giving back each namedRelease of pages once
// summed.
func namedSumOK(data []byte, seed uint32) bool {
	end := len(data) - indexSumSize
	crc := seed
	for lo := indexHead; lo < end; lo += namedRelease {
		hi := min(lo+namedRelease, end)
		crc = crc32.Update(crc, castagnoli(), data[lo:hi])
		releaseMapped(data, hi)
	}
	crc = crc32.Update(crc, castagnoli(), data[:indexHead])
	return crc == binary.LittleEndian.Uint32(data[end:])
}

// stampStream checks the stamps of an index as they are decoded, a chunk
// of stampChunk at a time, on a few goroutines, so that no slice of every
// stamp is held (6.4 MB at 100,000 skills).
type stampStream struct {
	changed    atomic.Bool
	work, free chan *stampPart
	made       int // parts made, at most cap(free)
	wg         sync.WaitGroup
	once       sync.Once
}

// stampChunk is how many stamps one goroutine of a stampStream checks in
// a turn.
const stampChunk = 512

// stampPart is one chunk of stamps (after the first anc) with, first, the
// folders stamped present above its first path (anc of them, each below
// the one before), for checkStamps to open the deepest (openAncestor).
type stampPart struct {
	stamps []pathStamp
	anc    int
}

// startStampStream starts the goroutines of a stampStream; stop ends
// them.
func startStampStream() *stampStream {
	w := pool.Size(pool.MaxWorkers, pool.Disk)
	ss := &stampStream{work: make(chan *stampPart), free: make(chan *stampPart, w+2)}
	ss.wg.Add(w)
	for range w {
		go func() {
			defer ss.wg.Done()
			for p := range ss.work {
				ss.check(p)
				ss.free <- p
			}
		}()
	}
	return ss
}

// check checks one part, unless a stamp already failed; a fault reading
// a path (the mapped file cut short) counts as a change.
func (ss *stampStream) check(p *stampPart) {
	if !withoutFault(func() {
		if !ss.changed.Load() {
			checkStamps(p.stamps, p.stamps[p.anc:], &ss.changed)
		}
	}) {
		ss.changed.Store(true)
	}
}

// decode decodes n stamps from d and hands them to the goroutines in
// parts, calling release after each (the goroutines read the paths of
// their parts again from the page cache if their pages were given back);
// it stops early (d failed) when a stamp did not hold.
func (ss *stampStream) decode(d *idec, n int, release func()) {
	var anc []string // the folders stamped present above the next path
	p := ss.part()
	for range n {
		if len(p.stamps)-p.anc == stampChunk {
			ss.work <- p
			p = ss.part()
		}
		ps := pathStamp{path: d.str(), missing: d.bool()}
		if !ps.missing {
			ps.stamp = d.stamp()
		}
		if d.err != nil || ss.changed.Load() {
			d.fail()
			return
		}
		for len(anc) > 0 && !isBelow(ps.path, anc[len(anc)-1]) {
			anc = anc[:len(anc)-1]
		}
		if len(p.stamps) == 0 {
			for _, a := range anc {
				p.stamps = append(p.stamps, pathStamp{path: a})
			}
			p.anc = len(anc)
		}
		p.stamps = append(p.stamps, ps)
		if !ps.missing {
			anc = append(anc, ps.path)
		}
		release()
	}
	if len(p.stamps) > p.anc {
		ss.work <- p
	}
}

// part returns an empty part: one the goroutines are done with, or a new
// one while fewer than cap(ss.free) were made (then it waits for one).
func (ss *stampStream) part() *stampPart {
	var p *stampPart
	if ss.made < cap(ss.free) {
		select {
		case p = <-ss.free:
		default:
			ss.made++
			return &stampPart{stamps: make([]pathStamp, 0, stampChunk+16)}
		}
	} else {
		p = <-ss.free
	}
	p.stamps, p.anc = p.stamps[:0], 0
	return p
}

// stop ends the goroutines once the parts handed out are checked.
func (ss *stampStream) stop() {
	ss.once.Do(func() {
		close(ss.work)
		ss.wg.Wait()
	})
}

// same stops the stream and reports whether every stamp held.
func (ss *stampStream) same() bool {
	ss.stop()
	return !ss.changed.Load()
}

// isBelow reports whether p lies under folder dir.
func isBelow(p, dir string) bool {
	return len(p) > len(dir) && p[len(dir)] == '/' && strings.HasPrefix(p, dir)
}

// skim decodes the listing part of a mapped index, keeping what q asks
// for; released is where in d.s its pages were last given back (up to
// there from the start).
type skim struct {
	d        *idec
	data     []byte
	q        *namedQuery
	released int
	g        skill.Diagnostic // the diagnostic keep is shown, one for all
}

// release gives back the pages read once namedRelease more were read.
func (sk *skim) release() {
	if sk.d.i-sk.released >= namedRelease {
		releaseMapped(sk.data, indexHead+sk.d.i)
		sk.released = sk.d.i
	}
}

// head decodes the listing's workspace and roots (copies), as
// idec.listing does: the start of skim.listing and skim.briefListing.
func (sk *skim) head() *Listing {
	d := sk.d
	d.clone = true
	defer func() { d.clone = false }()
	l := &Listing{Workspace: d.str()}
	if n, ok := d.optCount(); ok {
		l.Roots = make([]Root, n)
		for i := range l.Roots {
			l.Roots[i] = d.root()
		}
	}
	return l
}

// listing decodes the listing as idec.listing does, keeping the skills
// and diagnostics sk.q asks for (copies, as every string kept); nil when
// it does not decode.
func (sk *skim) listing(c *Catalog) *Listing {
	d := sk.d
	l := sk.head()
	kept, ntab := sk.skills(c)
	if n, ok := d.optCount(); ok {
		l.Skills = make([]*Skill, 0, min(n, len(kept)))
		for range n {
			k := d.uint()
			if k >= uint64(ntab) {
				d.fail()
				return nil
			}
			if s := kept[k]; s != nil {
				l.Skills = append(l.Skills, s)
			}
		}
	}
	if !sk.briefRest(l, ntab) {
		return nil
	}
	return l
}

// skills decodes the listing's table of skills, keeping those of the
// name by their position; n is the table's length.
func (sk *skim) skills(c *Catalog) (kept map[uint64]*Skill, n int) {
	d := sk.d
	n = d.count()
	if n > d.left()/minSkillBytes {
		d.fail()
		return nil, 0
	}
	kept = map[uint64]*Skill{}
	var scratch Skill
	var lz lazyParsed
	for i := range n {
		start, t0 := d.i, len(d.table)
		d.skill(c, nil, &scratch, &lz)
		if d.err != nil {
			return nil, 0
		}
		if sk.q.wants(scratch.Name) {
			// Again, copying what it keeps.
			d.i, d.table = start, d.table[:t0]
			kept[uint64(i)] = sk.keptSkill(c)
		}
		scratch = Skill{}
		sk.release()
	}
	return kept, n
}

// keptSkill decodes the skill at d's position as idec.skill does, every
// string copied, and its frontmatter blob at once (lazyParsed.get), so
// that nothing of it points into the mapped file.
func (sk *skim) keptSkill(c *Catalog) *Skill {
	d := sk.d
	s, lz := &Skill{}, &lazyParsed{}
	d.clone = true
	d.skill(c, &d.table, s, lz)
	d.clone = false
	if s.lazy == nil {
		return s // no frontmatter
	}
	bd := &idec{s: lz.data, outer: &d.table, blob: true, clone: true, table: blobSeeds(s.Name, s.Description, s.WhenToUse)}
	p := bd.parsed()
	if bd.err != nil || bd.left() != 0 {
		p = &skill.Skill{Name: s.Name, Description: s.Description, WhenToUse: s.WhenToUse, DisableModelInvocation: lz.hidden}
	}
	lz.once.Do(func() { lz.p = p })
	lz.data, lz.strs, lz.skill = "", nil, nil
	return s
}

// diag decodes one diagnostic and reports whether sk.q keeps it (then
// decoded again, every string copied). keep is shown it without its
// suggested fixes, which are passed over without being built.
func (sk *skim) diag() (skill.Diagnostic, bool) {
	d, g := sk.d, &sk.g
	start, t0 := d.i, len(d.table)
	*g = skill.Diagnostic{
		Code: skill.Code(d.str()), Severity: skill.Severity(d.str()), Path: d.str(),
		Line: int(d.int()), Column: int(d.int()), Message: d.str(), Skill: d.str(), Related: d.str(),
	}
	if n, ok := d.optCount(); ok {
		for range n {
			d.str()
			if m, ok := d.optCount(); ok {
				for range m {
					d.int()
					d.int()
					d.str()
				}
			}
		}
	}
	if d.err != nil || sk.q.keep == nil || !sk.q.keep(g) {
		return skill.Diagnostic{}, false
	}
	d.i, d.table = start, d.table[:t0]
	d.clone = true
	kept := d.diag()
	d.clone = false
	return kept, true
}

// candidates decodes the listing's candidates, keeping none (their
// strings enter the table); n is the length of the skills' table. It
// reports whether they decoded.
func (sk *skim) candidates(n int) bool {
	d := sk.d
	m, ok := d.optCount()
	if !ok {
		return d.err == nil
	}
	for range m {
		k := d.uint()
		if k > uint64(n) {
			d.fail()
		}
		if !d.bool() {
			d.str()
		} else if k == 0 {
			d.fail() // the path of no skill
		}
		d.str()
		d.str()
		d.bool()
		d.bool()
		sk.release()
	}
	return d.err == nil
}
