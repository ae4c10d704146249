package catalog

import (
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
	// gone are the skills Each has handed out, by name: what precedence
	// needs to judge a later skill of that name (rival), in memory of
	// its own, so the candidates they came from can be let go.
	gone *goneSet
}

// goneSkill is what Each keeps of a skill it handed out: its name,
// location, base folder and root, in 40 bytes and one text (in a
// goneText): the name, then the location less its root's path and a
// separator (rel) when it starts with them, which it does unless the root
// is a loose file. The base folder is the first dirLen bytes of the
// location when it starts there (locOff 0), else it comes before it in
// the text (locOff its length). At 100,000 skills the records and their
// text take about 6 MB where a name, a location and a root each took 12.
type goneSkill struct {
	text                    string
	root                    *Root
	nameLen, dirLen, locOff int32
	flat, rel               bool
}

func (g *goneSkill) name() string { return g.text[:g.nameLen] }

// loc is the location; it is built again (one allocation) when rel.
func (g *goneSkill) loc() string {
	b := g.text[int(g.nameLen)+int(g.locOff):]
	if g.rel {
		return g.root.Path + string(filepath.Separator) + b
	}
	return b
}

// dir is the base folder; loc is its location when known (locOff 0).
func (g *goneSkill) dir(loc string) string {
	if g.locOff > 0 {
		return g.text[g.nameLen : g.nameLen+g.dirLen]
	}
	return loc[:g.dirLen]
}

// newGone returns the record of skill s of root r, handed out under name,
// its text copied into t.
func newGone(t *goneText, name string, s *Skill, r *Root) goneSkill {
	g := goneSkill{root: r, flat: s.Flat, nameLen: int32(len(name)), dirLen: int32(len(s.BaseDir))}
	loc := s.Location
	if !strings.HasPrefix(loc, s.BaseDir) {
		g.locOff = int32(len(s.BaseDir))
		g.text = t.add(name, s.BaseDir, loc)
		return g
	}
	if rest, ok := strings.CutPrefix(loc, r.Path); ok && !r.File && len(rest) > 1 && os.IsPathSeparator(rest[0]) && r.Path != "" && !os.IsPathSeparator(r.Path[len(r.Path)-1]) {
		g.rel, loc = true, rest[1:]
	}
	g.text = t.add(name, "", loc)
	return g
}

// goneText holds the texts of the skills Each handed out, copied into
// large shared blocks: a few bytes per skill more than the text itself,
// where a copy of each would cost an allocation and the candidate's path
// buffer would keep its other path too.
type goneText struct{ block []byte }

const goneBlock = 32 << 10

// add returns a, b and c joined, in the arena.
func (t *goneText) add(a, b, c string) string {
	n := len(a) + len(b) + len(c)
	if n == 0 {
		return ""
	}
	if n > goneBlock/8 {
		return a + b + c
	}
	if cap(t.block)-len(t.block) < n {
		t.block = make([]byte, 0, goneBlock)
	}
	off := len(t.block)
	t.block = append(append(append(t.block, a...), b...), c...)
	// The bytes are never written again, so the string can share them.
	return unsafe.String(&t.block[off], n)
}

// goneFrom records skill s of root r, handed out under name, in t.
func (p *prec) goneFrom(t *goneText, name string, s *Skill, r *Root) {
	p.gone.put(newGone(t, name, s, r))
}

// goneSet holds the goneSkill records by name: a table of record numbers
// (open addressing, never more than half full: it doubles when it would
// be) over records kept in chunks, so that adding one copies nothing and
// growing the table moves only the numbers. A map of names to records
// costs about twice as much at its largest, and as much again in the
// tables it outgrew.
type goneSet struct {
	seed  maphash.Seed
	slots []int32 // a record's number plus one; 0 is a free slot
	recs  [][]goneSkill
	n     int
}

const goneChunk = 256

// newGoneSet returns a set with room for about max names before its table
// grows.
func newGoneSet(max int) *goneSet {
	size := 16
	for size < 2*max {
		size <<= 1
	}
	return &goneSet{seed: maphash.MakeSeed(), slots: make([]int32, size)}
}

// grow doubles the table and puts every record number in it again.
func (g *goneSet) grow() {
	g.slots = make([]int32, 2*len(g.slots))
	mask := len(g.slots) - 1
	for r := range g.n {
		i := int(maphash.String(g.seed, g.recs[r/goneChunk][r%goneChunk].name())) & mask
		for g.slots[i] != 0 {
			i = (i + 1) & mask
		}
		g.slots[i] = int32(r + 1)
	}
}

// find returns the record of name, or nil and the free slot it would take.
func (g *goneSet) find(name string) (*goneSkill, int) {
	mask := len(g.slots) - 1
	for i := int(maphash.String(g.seed, name)) & mask; ; i = (i + 1) & mask {
		r := int(g.slots[i]) - 1
		if r < 0 {
			return nil, i
		}
		if rec := &g.recs[r/goneChunk][r%goneChunk]; rec.name() == name {
			return rec, i
		}
	}
}

// put adds rec, or replaces the record of its name.
func (g *goneSet) put(rec goneSkill) {
	old, i := g.find(rec.name())
	if old != nil {
		*old = rec
		return
	}
	if 2*(g.n+1) > len(g.slots) {
		g.grow()
		_, i = g.find(rec.name())
	}
	if g.n%goneChunk == 0 {
		g.recs = append(g.recs, make([]goneSkill, 0, goneChunk))
	}
	k := len(g.recs) - 1
	g.recs[k] = append(g.recs[k], rec)
	g.n++
	g.slots[i] = int32(g.n)
}

// rival returns the loaded skill named name, if any.
func (p *prec) rival(name string) (*Skill, bool) {
	if w, ok := p.byName[name]; ok {
		return w, true
	}
	if p.gone == nil {
		return nil, false
	}
	g, _ := p.gone.find(name)
	if g == nil {
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
	p.cdBuf = append(p.cdBuf, candidateFile{Path: cand.path, Root: cand.root.Path, Scope: string(cand.root.Scope), Flat: cand.flat, Ignored: cand.ignored})
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
	if s == nil || s.Location != cand.path || s.BaseDir != cand.dir() || s.Root != cand.root.Path || s.Scope != cand.root.Scope || s.Flat != cand.flat || s.boundary != cand.root.boundary || s.Plugin != cand.plugin() {
		s = &Skill{Location: cand.path, BaseDir: cand.dir(), Root: cand.root.Path,
			Scope: cand.root.Scope, Folder: cand.root.display, Flat: cand.flat, Bytes: e.size, Truncated: e.truncated, c: c,
			boundary: cand.root.boundary, Plugin: cand.plugin()}
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
		p.at = append(p.at, cand.root)
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
			p.at[k] = cand.root
		}
		p.byName[s.Name] = s
		p.lost = append(p.lost, &candidate{root: cand.root, path: w.Location, flat: w.Flat})
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
