package catalog

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unsafe"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/outfmt"
	"github.com/skillet-go/skillet/skill"
)

// prec applies precedence (docs/discovery.md#precedence) to the read
// candidates of a listing, one at a time in discovery order: List hands it
// every candidate, Each hands them over as they are read and takes the
// skills out as soon as no later candidate can change them.
type prec struct {
	c      *Catalog
	skills []*Skill // the listing's skills (Each: those not handed out yet)
	diags  []skill.Diagnostic
	byName map[string]*Skill
	// lost are the candidates that do not load, whose folders nestedDiags
	// searches.
	lost []*candidate
	// next is the cache of the next List (nil: none is kept), cands and
	// cdBuf the listing's candidates (nil: none are kept).
	next  map[string]*entry
	cands *[]*candidateFile
	cdBuf []candidateFile
	// at is the root of each skill (Each only).
	at []*Root
	// stream, when set, is the persistent index Each writes as it lists
	// (indexstream.go): given each candidate, skill file and skill not
	// listed as they settle.
	stream *indexStream
	// unfollowed, for a List, takes the paths of the skill files that
	// did not read, for its index (unfollowed.go); Each gives them to
	// stream.
	unfollowed *unfollowedPaths
	// gone are the skills Each has handed out, by name: what precedence
	// needs to judge a later skill of that name (rival), in memory of
	// its own, so the candidates they came from can be let go.
	gone *goneSet
}

// goneSkill is what Each keeps of a skill it handed out, as goneSet.find
// gives it back: its name, location, base folder and root. text is the
// name, then the location less its root's path and a separator (rel) when
// it starts with them, which it does unless the root is a loose file. The
// base folder is the first dirLen bytes of the location when it starts
// there (locOff 0), else it comes before it in the text (locOff its
// length).
type goneSkill struct {
	text                    string
	root                    *Root
	nameLen, dirLen, locOff int
	flat, rel               bool
}

func (g goneSkill) name() string { return g.text[:g.nameLen] }

// loc is the location; it is built again (one allocation) when rel.
func (g goneSkill) loc() string {
	b := g.text[g.nameLen+g.locOff:]
	if g.rel {
		return g.root.Path + string(filepath.Separator) + b
	}
	return b
}

// dir is the base folder; loc is its location when known (locOff 0).
func (g goneSkill) dir(loc string) string {
	if g.locOff > 0 {
		return g.text[g.nameLen : g.nameLen+g.dirLen]
	}
	return loc[:g.dirLen]
}

// goneFrom records skill s of root r, handed out under name.
func (p *prec) goneFrom(name string, s *Skill, r *Root) {
	p.gone.put(name, s, r)
}

// goneSet holds the goneSkill records of the skills Each handed out, by
// name. A record is packed into 32 KiB blocks of bytes: a flags byte,
// four uvarints (the name's length, the base folder's, the root's number
// in roots, the length of the text after the name) and the text, about 55
// bytes a skill at 100,000 skills where a 40-byte record with a string and
// a root pointer, and its text apart, took 90 (and the collector scanned
// the records). A table of record positions (open addressing, never more
// than half full: it doubles when it would be) finds them by name.
type goneSet struct {
	seed  maphash.Seed
	slots []uint32 // a record's position (block<<goneBlockBits | offset) plus one; 0 is a free slot
	// blocks hold the records; a record is never moved nor written again,
	// so the strings find makes share its bytes. cur is the block records
	// are added to; a record larger than goneBlock/8 has a block of its own.
	blocks [][]byte
	cur    int
	roots  []*Root
	n      int
	// over holds the records put once blocks has goneMaxBlocks blocks
	// (4 GiB of records: never at any size a listing reaches, but the
	// positions must fit the table's words).
	over map[string]goneSkill
}

const (
	goneBlockBits = 15
	goneBlock     = 1 << goneBlockBits
)

// goneMaxBlocks is the most blocks whose positions the table can hold;
// tests lower it.
var goneMaxBlocks = 1<<(32-goneBlockBits) - 1

const (
	goneFlat = 1 << iota
	goneRel
	goneDirFirst // the base folder comes before the location (locOff > 0)
)

// newGoneSet returns a set with room for about max names before its table
// grows.
func newGoneSet(max int) *goneSet {
	size := 16
	for size < 2*max {
		size <<= 1
	}
	return &goneSet{seed: maphash.MakeSeed(), slots: make([]uint32, size), cur: -1}
}

// put adds the record of skill s of root r, handed out under name, or
// replaces the record of that name.
func (g *goneSet) put(name string, s *Skill, r *Root) {
	var flags byte
	if s.Flat {
		flags |= goneFlat
	}
	dir, loc := "", s.Location
	if !strings.HasPrefix(loc, s.BaseDir) {
		flags |= goneDirFirst
		dir = s.BaseDir
	} else if rest, ok := strings.CutPrefix(loc, r.Path); ok && !r.File && len(rest) > 1 && os.IsPathSeparator(rest[0]) && r.Path != "" && !os.IsPathSeparator(r.Path[len(r.Path)-1]) {
		flags |= goneRel
		loc = rest[1:]
	}
	root := slices.Index(g.roots, r)
	if root < 0 {
		root = len(g.roots)
		g.roots = append(g.roots, r)
	}
	var hdr [1 + 4*binary.MaxVarintLen64]byte
	hdr[0] = flags
	h := 1
	h += binary.PutUvarint(hdr[h:], uint64(len(name)))
	h += binary.PutUvarint(hdr[h:], uint64(len(s.BaseDir)))
	h += binary.PutUvarint(hdr[h:], uint64(root))
	h += binary.PutUvarint(hdr[h:], uint64(len(dir)+len(loc)))
	size := h + len(name) + len(dir) + len(loc)
	if len(g.blocks) >= goneMaxBlocks || size > goneBlock/8 && len(g.blocks)+1 >= goneMaxBlocks {
		if g.over == nil {
			g.over = map[string]goneSkill{}
		}
		g.over[name] = g.decode(append(append(append(append([]byte(nil), hdr[:h]...), name...), dir...), loc...))
		g.remove(name)
		return
	}
	var blk int
	switch {
	case size > goneBlock/8:
		blk = len(g.blocks)
		g.blocks = append(g.blocks, make([]byte, 0, size))
	case g.cur < 0 || cap(g.blocks[g.cur])-len(g.blocks[g.cur]) < size:
		g.cur = len(g.blocks)
		blk = g.cur
		g.blocks = append(g.blocks, make([]byte, 0, goneBlock))
	default:
		blk = g.cur
	}
	if g.over != nil {
		delete(g.over, name)
	}
	b := g.blocks[blk]
	pos := uint32(blk)<<goneBlockBits | uint32(len(b))
	g.blocks[blk] = append(append(append(append(b, hdr[:h]...), name...), dir...), loc...)
	if _, i, ok := g.lookup(name); ok {
		g.slots[i] = pos + 1
		return
	}
	if 2*(g.n+1) > len(g.slots) {
		g.grow()
	}
	g.n++
	g.slots[g.free(name)] = pos + 1
}

// remove takes name's record out of the table, if there (open addressing:
// the records after it in its run are put in again).
func (g *goneSet) remove(name string) {
	_, i, ok := g.lookup(name)
	if !ok {
		return
	}
	mask := len(g.slots) - 1
	g.slots[i] = 0
	g.n--
	for j := (i + 1) & mask; g.slots[j] != 0; j = (j + 1) & mask {
		pos := g.slots[j]
		g.slots[j] = 0
		g.slots[g.free(g.at(pos-1).name())] = pos
	}
}

// at decodes the record at position pos.
func (g *goneSet) at(pos uint32) goneSkill {
	return g.decode(g.blocks[pos>>goneBlockBits][pos&(goneBlock-1):])
}

// decode reads the record b begins with; its strings share b's bytes.
func (g *goneSet) decode(b []byte) goneSkill {
	flags := b[0]
	h := 1
	field := func() int {
		v, n := binary.Uvarint(b[h:])
		h += n
		return int(v)
	}
	nameLen, dirLen, root, rest := field(), field(), field(), field()
	rec := goneSkill{nameLen: nameLen, dirLen: dirLen, root: g.roots[root],
		flat: flags&goneFlat != 0, rel: flags&goneRel != 0}
	if flags&goneDirFirst != 0 {
		rec.locOff = dirLen
	}
	if nameLen+rest > 0 {
		rec.text = unsafe.String(&b[h], nameLen+rest)
	}
	return rec
}

// grow doubles the table and puts every record position in it again.
func (g *goneSet) grow() {
	old := g.slots
	g.slots = make([]uint32, 2*len(old))
	for _, pos := range old {
		if pos != 0 {
			g.slots[g.free(g.at(pos-1).name())] = pos
		}
	}
}

// free returns the first free slot of name's run.
func (g *goneSet) free(name string) int {
	mask := len(g.slots) - 1
	i := int(maphash.String(g.seed, name)) & mask
	for g.slots[i] != 0 {
		i = (i + 1) & mask
	}
	return i
}

// find returns the record of name and its slot (-1 for one in over), ok
// false when there is none.
func (g *goneSet) find(name string) (rec goneSkill, slot int, ok bool) {
	if r, ok := g.over[name]; ok {
		return r, -1, true
	}
	return g.lookup(name)
}

// lookup is find in the table only.
func (g *goneSet) lookup(name string) (rec goneSkill, slot int, ok bool) {
	mask := len(g.slots) - 1
	for i := int(maphash.String(g.seed, name)) & mask; ; i = (i + 1) & mask {
		pos := g.slots[i]
		if pos == 0 {
			return goneSkill{}, i, false
		}
		if rec := g.at(pos - 1); rec.name() == name {
			return rec, i, true
		}
	}
}

// rival returns the loaded skill named name, if any.
func (p *prec) rival(name string) (*Skill, bool) {
	if w, ok := p.byName[name]; ok {
		return w, true
	}
	if p.gone == nil {
		return nil, false
	}
	g, _, ok := p.gone.find(name)
	if !ok {
		return nil, false
	}
	loc := g.loc()
	return &Skill{Name: name, Location: loc, BaseDir: g.dir(loc), Root: g.root.Path,
		Scope: g.root.Scope, Folder: g.root.display, Flat: g.flat}, true
}

// addCandidate records cand in the listing's candidates, when they are
// kept. Candidates point into one backing array: no allocation per skill.
func (p *prec) addCandidate(cand *candidate) *candidateFile {
	if p.stream != nil {
		p.stream.candidate(cand)
	}
	if p.cands == nil {
		return nil
	}
	p.cdBuf = append(p.cdBuf, candidateFile{Path: cand.path, Root: cand.root().Path, Scope: string(cand.root().Scope), Flat: cand.flat, Ignored: cand.ignored})
	cd := &p.cdBuf[len(p.cdBuf)-1]
	*p.cands = append(*p.cands, cd)
	return cd
}

// add takes one candidate and its entry (nil when it was not read). loaded
// is false when another path to the same file loads instead (Brute).
func (p *prec) add(cand *candidate, e *entry, loaded bool) {
	c := p.c
	if e == nil {
		return
	}
	if e.readErr != nil {
		if p.stream != nil {
			p.stream.unfollowed(cand.path, e.readErr)
		} else if p.unfollowed != nil {
			p.unfollowed.add(cand.path, e.readErr)
		}
		p.diags = append(p.diags, readDiag(*cand, e.readErr))
		p.addCandidate(cand)
		p.lost = append(p.lost, cand)
		return
	}
	if p.stream != nil {
		p.stream.file(cand.path, e.stamp)
	}
	if p.next != nil {
		p.next[cand.path] = e
		e.trust = stamp{}
		if cand.single && e.stamp == cand.stamp {
			e.trust = cand.stamp
		}
	}
	if !loaded {
		return // another path to the same file is loaded (Brute)
	}
	cd := p.addCandidate(cand)
	p.diags = append(p.diags, e.diags...)
	if cand.fileCase {
		p.diags = append(p.diags, skill.Diagnostic{Code: diagcode.FileCase, Severity: skill.SeverityWarning, Path: cand.path,
			Message: fmt.Sprintf("the skill file is named %s; %s is the standard name", filepath.Base(cand.path), SkillFile)})
	}
	if e.truncated {
		p.diags = append(p.diags, skill.Diagnostic{Code: diagcode.TooLarge, Severity: skill.SeverityWarning, Path: cand.path,
			Message: fmt.Sprintf("the file is %d bytes; only the first %d (maxSkillBytes) are read and %d are left out", e.size, c.settings.MaxSkillBytes, max(e.size-int64(c.settings.MaxSkillBytes), 0))})
	}
	if e.skill == nil {
		p.lost = append(p.lost, cand)
		return
	}
	s := e.listed
	if s == nil || s.Location != cand.path || s.BaseDir != cand.dir() || s.Root != cand.root().Path || s.Scope != cand.root().Scope || s.Flat != cand.flat || s.boundary != cand.root().boundary || s.Plugin != cand.plugin() {
		s = &Skill{Location: cand.path, BaseDir: cand.dir(), Root: cand.root().Path,
			Scope: cand.root().Scope, Folder: cand.root().display, Flat: cand.flat, Bytes: e.size, Truncated: e.truncated, c: c,
			boundary: cand.root().boundary, Plugin: cand.plugin()}
		s.setParsed(e.skill)
		s.Name = listedName(s.Plugin, s.Name)
		if p.next != nil {
			e.listed = s
		}
	}
	if cd != nil {
		cd.Skill = s
	}
	if p.stream != nil {
		p.stream.candSkill(s)
	}
	if cand.ignored {
		p.lose(s)
		return
	}
	if w, ok := p.rival(s.Name); ok {
		p.clash(cand, s, w)
		return
	}
	p.byName[s.Name] = s
	p.skills = append(p.skills, s)
	if p.gone != nil {
		p.at = append(p.at, cand.root())
	}
}

// clash records skill s, of candidate cand, whose name the loaded skill
// w has already: a copy in another folder of one file (otherFolder), a
// copy of one root whose name is its folder's taking w's place, or a
// duplicate-name or shadowed skill that does not load.
func (p *prec) clash(cand *candidate, s, w *Skill) {
	if d, ok := otherFolder(w, s); ok {
		p.lose(s)
		p.diags = append(p.diags, d)
		if d.Code != diagcode.DuplicateCopy {
			p.lost = append(p.lost, cand)
		}
		return
	}
	if w.Root == s.Root && ownName(s) && !ownName(w) {
		// Two skills of one root: the copy whose name is its
		// folder's wins over the one found first.
		p.diags = append(p.diags, skill.Diagnostic{Code: diagcode.DuplicateName, Severity: skill.SeverityError,
			Path: w.Location, Skill: s.Name, Related: s.Location,
			Message: fmt.Sprintf("the skill %q is also defined at %s, which loads because its folder has the skill's name; this copy, in the folder %q, does not",
				s.Name, s.Location, folderName(w))})
		k := slices.Index(p.skills, w)
		p.skills[k] = s
		p.lose(w)
		if p.gone != nil {
			p.at[k] = cand.root()
		}
		p.byName[s.Name] = s
		p.lost = append(p.lost, &candidate{via: onlyRoot(cand.root()), path: w.Location, flat: w.Flat})
		return
	}
	p.lose(s)
	if w.Scope == s.Scope {
		p.diags = append(p.diags, skill.Diagnostic{Code: diagcode.DuplicateName, Severity: skill.SeverityError,
			Path: s.Location, Skill: s.Name, Related: w.Location,
			Message: fmt.Sprintf("the skill %q is also defined at %s, which loads; this copy does not", s.Name, w.Location)})
	} else {
		p.diags = append(p.diags, skill.Diagnostic{Code: diagcode.Shadowed, Severity: skill.SeverityWarning,
			Path: s.Location, Skill: s.Name, Related: w.Location,
			Message: fmt.Sprintf("the %s skill %q is shadowed by the %s skill at %s", s.Scope, s.Name, w.Scope, w.Location)})
	}
	p.lost = append(p.lost, cand)
}

// lose says skill s is not in the listing (a candidate's only), for the
// index being written (indexStream.lose).
func (p *prec) lose(s *Skill) {
	if p.stream != nil {
		p.stream.lose(s)
	}
}

// limit is maxSkills (docs/discovery.md#limits): the catalog lists at most
// that many visible skills. It is fed the listing's skills in order and
// says whether each is listed; truncated gives the diagnostic of the rest.
type limit struct {
	max, listed int
	// left are the names of the first outfmt.MaxNames skills left out,
	// which the diagnostic lists, and nLeft counts them all: a listing of
	// 100,000 skills keeps ten names, not 99,900.
	left  []string
	nLeft int
}

// take says whether s is listed; name is its name, as the diagnostic will
// hold it.
func (m *limit) take(s *Skill, name string) bool {
	if s.Hidden() {
		return false
	}
	if m.listed < m.max {
		m.listed++
		return true
	}
	m.leave(name)
	return false
}

// leave counts one more skill left out, named name.
func (m *limit) leave(name string) {
	if len(m.left) < outfmt.MaxNames {
		// A copy: name may be in memory a listing lets go of (Each).
		m.left = append(m.left, strings.Clone(name))
	}
	m.nLeft++
}

// truncated appends the catalog-truncated diagnostic when skills were left
// out.
func (m *limit) truncated(diags []skill.Diagnostic, workspace string) []skill.Diagnostic {
	if m.nLeft == 0 {
		return diags
	}
	return append(diags, skill.Diagnostic{Code: diagcode.CatalogTruncated, Severity: skill.SeverityWarning,
		Path: workspace,
		Message: fmt.Sprintf("the catalog lists %s (maxSkills %d); %d more %s loadable by name and findable by search: %s",
			outfmt.Count(m.listed, "skill"), m.max, m.nLeft, map[bool]string{true: "stays", false: "stay"}[m.nLeft == 1], outfmt.NamesOf(m.left, m.nLeft))})
}
