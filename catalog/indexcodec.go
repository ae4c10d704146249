package catalog

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/skillet-go/skillet/skill"
)

// The persistent index's encoding: a compact, versioned binary form of a
// Listing and of the stamps that prove it current (index.go). Every
// exported field of Listing, Root, Skill, candidateFile, skill.Skill,
// skill.Repair, skill.Field and skill.Diagnostic is written, in declaration
// order; TestIndexCodecCoversEveryField fails when a field is added to one
// of them and not here. Frontmatter values are the closed set the parser
// produces: nil, bool, int64, float64, string, []any and skill.Map.

// indexVersion changes whenever the encoding does; an index of another
// version is ignored (and rewritten).
const indexVersion = 10

// errIndexCorrupt is an index that does not decode: it is ignored and
// rewritten, never trusted.
var errIndexCorrupt = errors.New("the index file is corrupt")

// ienc appends the encoding to b. Strings that many records repeat (roots,
// scopes, folders, codes) go through a table: the first time such a string
// is written it follows a 0; later it is written as its position in the
// table plus two, so they cost a byte or two. Strings of one record (a
// skill's name, description and paths, a stamp's path, a diagnostic's
// path and message) follow a 1 and never enter the table (ienc.own): the
// table an encoder and every reader holds stays as small as the set of
// shared strings, not one entry for each skill's strings (it was 350,970
// strings at 100,000 skills, 260,000 of them the stamps' paths).
//
// A skill's parsed frontmatter is written as a blob of its own (its length
// first), so that a process reading the index decodes it only when the
// frontmatter is asked for (Skill.Parsed): show, prompt and search need only
// the fields written before it. Inside a blob, strings are new, or refer to
// the blob's own table (even codes) or to the listing's table as it stood
// when the blob was written (odd codes); a new string in a blob does not
// enter the listing's table, so the listing decodes without the blobs. A
// blob's table starts with the skill's name, description and when_to_use as
// its record holds them (blobSeeds), which the frontmatter repeats.
type ienc struct {
	b     []byte
	table map[string]uint64
	outer map[string]uint64 // in a blob: the listing's table
	blob  bool
	sec   []byte // the search section listing wrote
	// blobEnc encodes each skill's blob in turn.
	blobEnc *ienc
	// section, when set, returns the search section of the listing
	// being written (built elsewhere meanwhile).
	section func() []byte
	// w, when set, takes the encoding in pieces of about iencPiece
	// bytes as it grows (flush), each added to the CRC-32C crc, and n
	// counts the bytes it took; werr is its first error. Without w the
	// whole encoding stays in b.
	w    io.Writer
	crc  uint32
	n    int
	werr error
	keys []string // scratch: a metadata map's keys
}

// iencPiece is how much of an encoding that streams (ienc.w) is held
// before it is written: the index of 100,000 skills is about 60 MB, which
// held whole (and the copies its growth left behind) was a fifth of a
// first run's peak heap.
const iencPiece = 64 << 10

// flush writes what is encoded to e.w once it is iencPiece bytes or more
// (any amount when all is set).
func (e *ienc) flush(all bool) {
	if e.w == nil || len(e.b) == 0 || (!all && len(e.b) < iencPiece) {
		return
	}
	e.raw(e.b)
	e.b = e.b[:0]
}

// raw writes p to e.w as it is, after what is held (streaming only).
func (e *ienc) raw(p []byte) {
	if e.werr != nil {
		return
	}
	e.crc = crc32.Update(e.crc, castagnoli(), p)
	_, e.werr = e.w.Write(p)
	e.n += len(p)
}

// size is how many bytes were encoded in all.
func (e *ienc) size() int { return e.n + len(e.b) }

func (e *ienc) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *ienc) int(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *ienc) str(s string) {
	if e.blob {
		if k, ok := e.table[s]; ok {
			e.uint(2 * k)
			return
		}
		if k, ok := e.outer[s]; ok {
			e.uint(2*k - 1)
			return
		}
	} else if k, ok := e.table[s]; ok {
		e.uint(k + 1)
		return
	}
	if e.table == nil {
		e.table = map[string]uint64{}
	}
	e.table[s] = uint64(len(e.table)) + 1
	e.uint(0)
	e.uint(uint64(len(s)))
	e.b = append(e.b, s...)
}

// own writes a string of one record: in a blob as str does (a blob's
// table lasts one blob), else in full after a 1, outside the table.
func (e *ienc) own(s string) {
	if e.blob {
		e.str(s)
		return
	}
	e.uint(1)
	e.uint(uint64(len(s)))
	e.b = append(e.b, s...)
}

// blobSeeds are the first strings of a skill's blob table, before the
// blob's own: the name, description and when_to_use of its record, each
// once (a repeat is left out, as the encoder's map would keep the first).
func blobSeeds(name, desc, when string) []string {
	seeds := make([]string, 1, 3)
	seeds[0] = name
	for _, x := range [2]string{desc, when} {
		if !slices.Contains(seeds, x) {
			seeds = append(seeds, x)
		}
	}
	return seeds
}

func (e *ienc) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

// optLen writes a length as n+1, or 0 for a nil slice, so that nil and
// empty decode as they were.
func (e *ienc) optLen(isNil bool, n int) {
	if isNil {
		e.uint(0)
	} else {
		e.uint(uint64(n) + 1)
	}
}

func (e *ienc) strs(ss []string) {
	e.optLen(ss == nil, len(ss))
	for _, s := range ss {
		e.str(s)
	}
}

func (e *ienc) stamp(s stamp) {
	e.int(s.size)
	e.int(s.mtime)
	e.int(s.ctime)
	e.uint(s.ino)
	e.uint(s.dev)
}

// Value tags.
const (
	tagNil byte = iota
	tagFalse
	tagTrue
	tagInt
	tagFloat
	tagString
	tagList
	tagMap
)

func (e *ienc) value(v any) error {
	switch v := v.(type) {
	case nil:
		e.b = append(e.b, tagNil)
	case bool:
		if v {
			e.b = append(e.b, tagTrue)
		} else {
			e.b = append(e.b, tagFalse)
		}
	case int64:
		e.b = append(e.b, tagInt)
		e.int(v)
	case float64:
		e.b = append(e.b, tagFloat)
		e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(v))
	case string:
		e.b = append(e.b, tagString)
		e.str(v)
	case []any:
		e.b = append(e.b, tagList)
		e.uint(uint64(len(v)))
		for _, x := range v {
			if err := e.value(x); err != nil {
				return err
			}
		}
	case skill.Map:
		e.b = append(e.b, tagMap)
		return e.fields(v)
	default:
		return errors.New("a frontmatter value of a type the index does not know")
	}
	return nil
}

func (e *ienc) fields(m skill.Map) error {
	e.optLen(m == nil, len(m))
	for _, f := range m {
		e.str(f.Key)
		if err := e.value(f.Value); err != nil {
			return err
		}
		e.int(int64(f.Line))
		e.int(int64(f.Column))
	}
	return nil
}

func (e *ienc) parsed(s *skill.Skill) error {
	e.str(s.Name)
	e.str(s.RawName)
	e.str(s.Description)
	e.str(s.WhenToUse)
	e.str(s.License)
	e.str(s.Compatibility)
	e.optLen(s.Metadata == nil, len(s.Metadata))
	// In key order: the same listing gives the same bytes
	// (TestIndexStreamSameListing), a map's order is random.
	e.keys = e.keys[:0]
	for k := range s.Metadata {
		e.keys = append(e.keys, k)
	}
	slices.Sort(e.keys)
	for _, k := range e.keys {
		e.str(k)
		e.str(s.Metadata[k])
	}
	e.strs(s.AllowedTools)
	e.bool(s.DisableModelInvocation)
	if err := e.fields(s.Extra); err != nil {
		return err
	}
	if err := e.fields(s.Frontmatter); err != nil {
		return err
	}
	e.bool(s.HasFrontmatter)
	e.bool(s.Recovered)
	e.optLen(s.Repairs == nil, len(s.Repairs))
	for _, r := range s.Repairs {
		e.int(int64(r.Line))
		e.int(int64(r.EndLine))
		e.str(r.Key)
		e.str(r.Text)
		e.str(r.Error)
	}
	e.str(s.Body)
	e.int(int64(s.BodyOffset))
	e.int(int64(s.BodyLine))
	e.int(int64(s.BodyLines))
	return nil
}

func (e *ienc) skill(s *Skill) error {
	if p := s.Parsed(); p == nil {
		e.bool(false)
	} else {
		e.bool(true)
		e.own(s.Name)
		e.own(s.Description)
		e.own(s.WhenToUse)
		e.bool(s.Hidden())
		// One blob encoder serves every skill: its table and bytes are
		// reset, not allocated again.
		if e.blobEnc == nil {
			e.blobEnc = &ienc{table: map[string]uint64{}, blob: true}
		}
		be := e.blobEnc
		be.outer, be.b = e.table, be.b[:0]
		clear(be.table)
		for _, x := range blobSeeds(s.Name, s.Description, s.WhenToUse) {
			be.table[x] = uint64(len(be.table)) + 1
		}
		if err := be.parsed(p); err != nil {
			return err
		}
		e.uint(uint64(len(be.b)))
		e.b = append(e.b, be.b...)
	}
	e.own(s.Location)
	// The skill folder is most often the file's folder: a flag then,
	// not a string of its own.
	if s.BaseDir != "" && s.BaseDir == parentOf(s.Location) {
		e.bool(true)
	} else {
		e.bool(false)
		e.own(s.BaseDir)
	}
	e.str(s.Root)
	e.str(string(s.Scope))
	e.str(s.Folder)
	e.bool(s.Flat)
	e.int(s.Bytes)
	e.bool(s.Truncated)
	e.bool(s.Listed)
	e.str(s.boundary)
	e.str(s.Plugin)
	return nil
}

func (e *ienc) diag(d *skill.Diagnostic) {
	e.str(string(d.Code))
	e.str(string(d.Severity))
	e.own(d.Path)
	e.int(int64(d.Line))
	e.int(int64(d.Column))
	e.own(d.Message)
	e.own(d.Skill)
	e.own(d.Related)
	e.optLen(d.Fixes == nil, len(d.Fixes))
	for _, f := range d.Fixes {
		e.own(f.Message)
		e.optLen(f.Edits == nil, len(f.Edits))
		for _, te := range f.Edits {
			e.int(int64(te.Pos))
			e.int(int64(te.End))
			e.own(te.NewText)
		}
	}
}

func (e *ienc) root(r *Root) {
	e.str(r.Path)
	e.str(string(r.Scope))
	e.bool(r.Exists)
	e.bool(r.File)
	e.str(r.boundary)
	e.bool(r.Flat)
	e.str(r.display)
	e.bool(r.Plugins)
}

// listing writes l. Skills are written once each, in a table: the listed
// ones first, then those only candidates point at, so a candidate and the
// listing share one *Skill after decoding, as they did before.
func (e *ienc) listing(l *Listing) error {
	e.str(l.Workspace)
	e.optLen(l.Roots == nil, len(l.Roots))
	for i := range l.Roots {
		e.root(&l.Roots[i])
	}
	table := make([]*Skill, 0, len(l.Skills))
	pos := make(map[*Skill]int, len(l.Skills))
	add := func(s *Skill) {
		if _, ok := pos[s]; !ok && s != nil {
			pos[s] = len(table)
			table = append(table, s)
		}
	}
	for _, s := range l.Skills {
		add(s)
	}
	for _, cd := range l.candidates {
		add(cd.Skill)
	}
	e.uint(uint64(len(table)))
	for _, s := range table {
		if err := e.skill(s); err != nil {
			return err
		}
		e.flush(false)
	}
	e.optLen(l.Skills == nil, len(l.Skills))
	for _, s := range l.Skills {
		e.uint(uint64(pos[s]))
	}
	e.optLen(l.Diagnostics == nil, len(l.Diagnostics))
	for i := range l.Diagnostics {
		e.diag(&l.Diagnostics[i])
		e.flush(false)
	}
	e.optLen(l.candidates == nil, len(l.candidates))
	for _, cd := range l.candidates {
		// The skill first: a candidate's path is most often its skill's
		// location, a flag then.
		if cd.Skill == nil {
			e.uint(0)
		} else {
			e.uint(uint64(pos[cd.Skill]) + 1)
		}
		if cd.Skill != nil && cd.Path == cd.Skill.Location {
			e.bool(true)
		} else {
			e.bool(false)
			e.own(cd.Path)
		}
		e.str(cd.Root)
		e.str(cd.Scope)
		e.bool(cd.Flat)
		e.bool(cd.Ignored)
		e.flush(false)
	}
	if e.section != nil {
		e.sec = e.section()
	} else {
		e.sec = searchSection(l.Skills)
	}
	e.uint(uint64(len(e.sec)))
	if e.w != nil {
		e.flush(true)
		e.raw(e.sec)
	} else {
		e.b = append(e.b, e.sec...)
	}
	return e.werr
}

// idec reads what ienc wrote, from one string: decoded strings are
// substrings of it, so decoding allocates no string. Every read is
// bounds-checked: on a short or malformed input it records errIndexCorrupt
// and returns zero values, so a corrupt index file never panics and never
// yields a half-read listing.
type idec struct {
	s     string
	i     int
	err   error
	table []string
	// In a blob: outer is the listing's table (read, never appended to).
	outer *[]string
	blob  bool
	// clone makes str return copies, not substrings of s: a listing
	// narrowed to one name (indexnamed.go) keeps nothing of the mapped
	// file it decodes.
	clone bool
}

func newDec(data string) *idec { return &idec{s: data} }

// left is how many bytes remain.
func (d *idec) left() int { return len(d.s) - d.i }

func (d *idec) fail() { d.err = errIndexCorrupt; d.i = len(d.s) }

func (d *idec) uint() uint64 {
	var v uint64
	for shift := uint(0); ; shift += 7 {
		if d.i >= len(d.s) || shift > 63 {
			d.fail()
			return 0
		}
		c := d.s[d.i]
		d.i++
		if shift == 63 && c > 1 {
			d.fail()
			return 0
		}
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
}

func (d *idec) int() int64 {
	u := d.uint()
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	return v
}

// count reads a length that must fit in what is left (each element takes
// at least one byte), so a forged length cannot make the decoder allocate.
func (d *idec) count() int {
	n := d.uint()
	if n > uint64(d.left()) {
		d.fail()
		return 0
	}
	return int(n)
}

// optCount reads a length written as n+1, 0 meaning nil.
func (d *idec) optCount() (int, bool) {
	n := d.uint()
	if n == 0 {
		return 0, false
	}
	n--
	if n > uint64(d.left()) {
		d.fail()
		return 0, false
	}
	return int(n), true
}

func (d *idec) str() string {
	if d.clone {
		return strings.Clone(d.ref())
	}
	return d.ref()
}

// ref reads a string: a reference to the table, a new one (added to the
// table) or a record's own (ienc.own, not added), as a substring of d.s.
func (d *idec) ref() string {
	k := d.uint()
	if d.blob && k > 0 {
		j := (k+1)/2 - 1
		table := d.table
		if k%2 == 1 {
			table = *d.outer
		}
		if j >= uint64(len(table)) {
			d.fail()
			return ""
		}
		return table[j]
	}
	if k > 1 {
		if k-2 >= uint64(len(d.table)) {
			d.fail()
			return ""
		}
		return d.table[k-2]
	}
	n := d.uint()
	if d.err != nil || n > uint64(d.left()) {
		d.fail()
		return ""
	}
	s := d.s[d.i : d.i+int(n)]
	d.i += int(n)
	if k == 0 {
		d.table = append(d.table, s)
	}
	return s
}

func (d *idec) bool() bool {
	if d.i >= len(d.s) || d.s[d.i] > 1 {
		d.fail()
		return false
	}
	v := d.s[d.i] == 1
	d.i++
	return v
}

// byte reads one byte.
func (d *idec) byte() byte {
	if d.i >= len(d.s) {
		d.fail()
		return 0
	}
	c := d.s[d.i]
	d.i++
	return c
}

func (d *idec) strs() []string {
	n, ok := d.optCount()
	if !ok {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = d.str()
	}
	return out
}

func (d *idec) stamp() stamp {
	return stamp{size: d.int(), mtime: d.int(), ctime: d.int(), ino: d.uint(), dev: d.uint()}
}

// maxValueDepth bounds the nesting of decoded frontmatter values.
const maxValueDepth = 100

func (d *idec) value(depth int) any {
	if depth > maxValueDepth {
		d.fail()
	}
	if d.err != nil {
		return nil
	}
	tag := d.byte()
	switch tag {
	case tagNil:
		return nil
	case tagFalse:
		return false
	case tagTrue:
		return true
	case tagInt:
		return d.int()
	case tagFloat:
		if d.left() < 8 {
			d.fail()
			return nil
		}
		f := math.Float64frombits(binary.LittleEndian.Uint64([]byte(d.s[d.i : d.i+8])))
		d.i += 8
		return f
	case tagString:
		return d.str()
	case tagList:
		n := d.count()
		out := make([]any, 0, n)
		for range n {
			out = append(out, d.value(depth+1))
		}
		return out
	case tagMap:
		return d.fields(depth + 1)
	}
	d.fail()
	return nil
}

func (d *idec) fields(depth int) skill.Map {
	n, ok := d.optCount()
	if !ok {
		return nil
	}
	m := make(skill.Map, 0, n)
	for range n {
		if d.err != nil {
			return nil
		}
		f := skill.Field{Key: d.str()}
		f.Value = d.value(depth)
		f.Line = int(d.int())
		f.Column = int(d.int())
		m = append(m, f)
	}
	return m
}

func (d *idec) parsed() *skill.Skill {
	s := &skill.Skill{}
	s.Name = d.str()
	s.RawName = d.str()
	s.Description = d.str()
	s.WhenToUse = d.str()
	s.License = d.str()
	s.Compatibility = d.str()
	if n, ok := d.optCount(); ok {
		s.Metadata = make(map[string]string, n)
		for range n {
			k := d.str()
			s.Metadata[k] = d.str()
		}
	}
	s.AllowedTools = d.strs()
	s.DisableModelInvocation = d.bool()
	s.Extra = d.fields(0)
	s.Frontmatter = d.fields(0)
	s.HasFrontmatter = d.bool()
	s.Recovered = d.bool()
	if n, ok := d.optCount(); ok {
		s.Repairs = make([]skill.Repair, n)
		for i := range s.Repairs {
			r := &s.Repairs[i]
			r.Line = int(d.int())
			r.EndLine = int(d.int())
			r.Key = d.str()
			r.Text = d.str()
			r.Error = d.str()
		}
	}
	s.Body = d.str()
	s.BodyOffset = int(d.int())
	s.BodyLine = int(d.int())
	s.BodyLines = int(d.int())
	return s
}

// skill decodes one skill into s, and its frontmatter blob, if it has one,
// into l.
func (d *idec) skill(c *Catalog, strs *[]string, s *Skill, l *lazyParsed) {
	s.c = c
	if d.bool() {
		s.Name, s.Description, s.WhenToUse = d.str(), d.str(), d.str()
		l.hidden, l.strs = d.bool(), strs
		n := d.count()
		l.data = d.s[d.i : d.i+n]
		d.i += n
		l.skill = s
		s.lazy = l
	}
	s.Location = d.str()
	if d.bool() {
		s.BaseDir = parentOf(s.Location)
	} else {
		s.BaseDir = d.str()
	}
	s.Root = d.str()
	s.Scope = Scope(d.str())
	s.Folder = d.str()
	s.Flat = d.bool()
	s.Bytes = d.int()
	s.Truncated = d.bool()
	s.Listed = d.bool()
	s.boundary = d.str()
	s.Plugin = d.str()
}

func (d *idec) diag() skill.Diagnostic {
	g := skill.Diagnostic{
		Code: skill.Code(d.str()), Severity: skill.Severity(d.str()), Path: d.str(),
		Line: int(d.int()), Column: int(d.int()), Message: d.str(), Skill: d.str(), Related: d.str(),
	}
	if n, ok := d.optCount(); ok {
		g.Fixes = make([]skill.SuggestedFix, n)
		for i := range g.Fixes {
			f := &g.Fixes[i]
			f.Message = d.str()
			if m, ok := d.optCount(); ok {
				f.Edits = make([]skill.TextEdit, m)
				for j := range f.Edits {
					f.Edits[j] = skill.TextEdit{Pos: int(d.int()), End: int(d.int()), NewText: d.str()}
				}
			}
		}
	}
	return g
}

func (d *idec) root() Root {
	r := Root{Path: d.str(), Scope: Scope(d.str()), Exists: d.bool(), File: d.bool(), boundary: d.str(), Flat: d.bool(), display: d.str()}
	r.Plugins = d.bool()
	return r
}

func (d *idec) listing(c *Catalog) *Listing {
	l := &Listing{Workspace: d.str()}
	if n, ok := d.optCount(); ok {
		l.Roots = make([]Root, n)
		for i := range l.Roots {
			l.Roots[i] = d.root()
		}
	}
	strs := new([]string)
	// The skills and their blobs are decoded into two arrays, not one
	// allocation each: a warm show decodes every skill of the index. A
	// skill takes at least minSkillBytes, so a forged count cannot make
	// the arrays larger than the file allows.
	n := d.count()
	if n > d.left()/minSkillBytes {
		d.fail()
		return nil
	}
	skills := make([]Skill, n)
	lazies := make([]lazyParsed, n)
	table := make([]*Skill, n)
	for i := range table {
		d.skill(c, strs, &skills[i], &lazies[i])
		table[i] = &skills[i]
	}
	skillAt := func(i uint64) *Skill {
		if i >= uint64(len(table)) {
			d.fail()
			return nil
		}
		return table[i]
	}
	if n, ok := d.optCount(); ok {
		l.Skills = make([]*Skill, n)
		for i := range l.Skills {
			l.Skills[i] = skillAt(d.uint())
		}
	}
	if n, ok := d.optCount(); ok {
		l.Diagnostics = make([]skill.Diagnostic, n)
		for i := range l.Diagnostics {
			l.Diagnostics[i] = d.diag()
		}
	}
	if n, ok := d.optCount(); ok {
		if l.candidates = d.candidates(n, skillAt); l.candidates == nil {
			return nil
		}
	}
	// The search section is decoded only by a search.
	sec := d.raw()
	if d.err != nil {
		return nil
	}
	if slices.Contains(l.Skills, nil) {
		d.fail()
		return nil
	}
	l.search = newSearchIndex(sec, l.Skills)
	// The blobs read the listing's whole table.
	*strs = d.table
	return l
}

// candidates decodes n candidate files of the listing, each pointing at
// the skill of its index (skillAt) or none, and whose path is its skill's
// when flagged; nil, with d failed, for a flag without a skill.
func (d *idec) candidates(n int, skillAt func(uint64) *Skill) []*candidateFile {
	backing := make([]candidateFile, n)
	out := make([]*candidateFile, n)
	for i := range backing {
		cd := &backing[i]
		if k := d.uint(); k > 0 {
			cd.Skill = skillAt(k - 1)
		}
		if d.bool() {
			if cd.Skill == nil {
				d.fail()
				return nil
			}
			cd.Path = cd.Skill.Location
		} else {
			cd.Path = d.str()
		}
		cd.Root = d.str()
		cd.Scope = d.str()
		cd.Flat = d.bool()
		cd.Ignored = d.bool()
		out[i] = cd
	}
	return out
}

// minSkillBytes is the shortest encoding of a skill (ienc.skill): a
// byte for each bool and int and at least one for each string.
const minSkillBytes = 11

// parentOf is p up to its last "/" ("" when it has none): a substring,
// so decoding it allocates nothing.
func parentOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

// lazyParsed is a skill's parsed frontmatter as the index holds it,
// decoded the first time it is asked for.
type lazyParsed struct {
	hidden bool
	data   string    // the blob
	strs   *[]string // the listing's string table
	skill  *Skill
	once   sync.Once
	p      *skill.Skill
}

// get decodes the blob once. A blob that does not decode cannot come from
// an index that passed its CRC-32C check and was written by this binary
// (the index key holds the binary's stamp); should it happen anyway, the
// frontmatter is the three fields the listing holds, not a panic.
func (l *lazyParsed) get() *skill.Skill {
	l.once.Do(func() {
		d := &idec{s: l.data, outer: l.strs, blob: true, table: blobSeeds(l.skill.Name, l.skill.Description, l.skill.WhenToUse)}
		p := d.parsed()
		if d.err != nil || d.left() != 0 {
			p = &skill.Skill{Name: l.skill.Name, Description: l.skill.Description, WhenToUse: l.skill.WhenToUse, DisableModelInvocation: l.hidden}
		}
		l.p, l.data, l.skill = p, "", nil
	})
	return l.p
}
