package catalog

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"
)

// The search section of the persistent index
// (docs/performance.md#one-skill-commands-over-the-index).
// A warm search would otherwise split and stem the name, when-to-use hint
// and description of every skill of the listing, which was most of its
// time. The index holds what the ranking (Listing.Search) needs instead:
// the number of words of each field of each skill, and an inverted index,
// each distinct stemmed word (sorted) with the skills that hold it and how
// often in each field. A query term then reads the postings of the word
// equal to it and of the words it is a prefix of, a range of the sorted
// words. The section is decoded only by Search; it is trusted only while
// the listing's skills still have the name, when-to-use and description it
// was built from, and when it does not decode, Search tokenizes as without
// an index. Both ways give the same results, bit for bit
// (TestSearchFromIndex).
//
// Layout, all numbers unsigned varints: the number of skills n; for each
// skill the word counts of its three fields; the number of words; for each
// word in sorted order, its length and bytes, the length of its postings
// and the postings: for each skill holding the word, in listing order, the
// skill's position minus the previous one's (the first: its position plus
// one) and the word's counts in the three fields (appendCounts).

// searchIndex is the search section of a listing read from the index.
type searchIndex struct {
	data string // the section, undecoded
	// fields are the name, when-to-use and description of each skill as
	// the listing was decoded, to tell whether they were changed since.
	fields [][3]string
	once   sync.Once
	dec    *searchDec // nil when the section does not decode
}

// searchDec is a decoded search section.
type searchDec struct {
	lens     [][3]uint32 // the word counts of each skill's fields
	words    []string    // sorted
	postings []string    // of each word
}

// newSearchIndex returns the search section data of skills, which must
// be the section written for them.
func newSearchIndex(data string, skills []*Skill) *searchIndex {
	fields := make([][3]string, len(skills))
	for i, s := range skills {
		fields[i] = [3]string{s.Name, s.WhenToUse, s.Description}
	}
	return &searchIndex{data: data, fields: fields}
}

// usable returns the decoded section when it still describes l's skills.
func (si *searchIndex) usable(l *Listing) *searchDec {
	if si == nil || len(si.fields) != len(l.Skills) {
		return nil
	}
	for i, s := range l.Skills {
		f := &si.fields[i]
		if s.Name != f[0] || s.WhenToUse != f[1] || s.Description != f[2] {
			return nil
		}
	}
	si.once.Do(func() { si.dec = decodeSearch(si.data, len(si.fields)) })
	return si.dec
}

// decodeSearch decodes a section written for n skills, or returns nil.
func decodeSearch(data string, n int) *searchDec {
	d := newDec(data)
	lens := decodeLens(d, n)
	if lens == nil {
		return nil
	}
	sd := &searchDec{lens: lens}
	v := d.count()
	if d.err != nil || v > d.left()/2 {
		return nil
	}
	sd.words = make([]string, v)
	sd.postings = make([]string, v)
	for i := range v {
		sd.words[i] = d.raw()
		sd.postings[i] = d.raw()
		if i > 0 && sd.words[i] <= sd.words[i-1] {
			return nil
		}
	}
	if d.err != nil || d.left() != 0 {
		return nil
	}
	return sd
}

// decodeLens decodes the start of a section written for n skills: the
// word counts of each skill's fields; nil when it does not decode.
func decodeLens(d *idec, n int) [][3]uint32 {
	if d.uint() != uint64(n) || n > d.left()/3 {
		return nil
	}
	lens := make([][3]uint32, n)
	for i := range lens {
		for f := range 3 {
			v := d.uint()
			if v > math.MaxUint32 {
				// A field's word count is at most its length in bytes,
				// and a skill file is far smaller than 4 GiB. (The
				// section itself may be much shorter than a field: it
				// holds each word once, so "a a a ..." is one word.)
				return nil
			}
			lens[i][f] = uint32(v)
		}
	}
	if d.err != nil {
		return nil
	}
	return lens
}

// raw reads a length and that many bytes, outside the string table.
func (d *idec) raw() string {
	n := d.count()
	if d.err != nil {
		return ""
	}
	s := d.s[d.i : d.i+n]
	d.i += n
	return s
}

// hits returns the (skill, term) pairs of terms that match, ordered by
// skill then term, with each pair's weighted, length-normalised term
// frequency; the number of skills holding each term; and the average word
// count of each field. It computes exactly what tokenHits computes from the
// skills' text. ok is false when a posting does not decode.
func (sd *searchDec) hits(terms []string) (hits []hit, df []float64, ok bool) {
	ts := newTermScorer(sd.lens)
	df = make([]float64, len(terms))
	for t, term := range terms {
		i, found := slices.BinarySearch(sd.words, term)
		if found {
			if !ts.add(sd.postings[i], 1) {
				return nil, nil, false
			}
			i++
		}
		if len(term) >= minPrefix {
			for ; i < len(sd.words) && strings.HasPrefix(sd.words[i], term); i++ {
				if !ts.add(sd.postings[i], prefixFactor) {
					return nil, nil, false
				}
			}
		}
		for _, doc := range ts.done() {
			hits = append(hits, hit{doc, t, ts.tf(doc)})
			df[t]++
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return a.doc - b.doc })
	return hits, df, true
}

// termScorer sums one query term's counts in each skill over the words
// it matches (add), then gives each skill's weighted, length-normalised
// term frequency (tf): what tokenHits computes from the skills' text.
type termScorer struct {
	lens    [][3]uint32 // the word counts of each skill's fields
	avg     [3]float64  // the fields' average word counts
	acc     [][3]float64
	touched []int // the skills the term is in so far
}

func newTermScorer(lens [][3]uint32) *termScorer {
	ts := &termScorer{lens: lens, acc: make([][3]float64, len(lens))}
	var total [3]float64
	for i := range lens {
		for f := range 3 {
			total[f] += float64(lens[i][f])
		}
	}
	for f := range 3 {
		if len(lens) > 0 {
			ts.avg[f] = total[f] / float64(len(lens))
		}
	}
	return ts
}

// add adds the counts of the postings p, times factor, to the skills
// they name; false when p does not decode.
func (ts *termScorer) add(p string, factor float64) bool {
	d := idec{s: p}
	doc := -1
	for d.left() > 0 {
		doc += int(d.uint())
		c0, c1, c2 := d.counts()
		if d.err != nil || doc < 0 || doc >= len(ts.acc) {
			return false
		}
		a := &ts.acc[doc]
		if a[0] == 0 && a[1] == 0 && a[2] == 0 {
			ts.touched = append(ts.touched, doc)
		}
		a[0] += factor * float64(c0)
		a[1] += factor * float64(c1)
		a[2] += factor * float64(c2)
	}
	return true
}

// done returns the skills the term is in, in order, and starts the next
// term: tf must be taken of each before add is called again.
func (ts *termScorer) done() []int {
	slices.Sort(ts.touched)
	out := ts.touched
	ts.touched = ts.touched[:0]
	return out
}

// tf returns the term's weighted, length-normalised frequency in skill
// doc and clears its counts.
func (ts *termScorer) tf(doc int) float64 {
	weights := [3]float64{weightName, weightWhenToUse, weightDesc}
	var sum float64
	for f := range 3 {
		c := ts.acc[doc][f]
		if c == 0 {
			continue
		}
		norm := 1 - bm25B
		if ts.avg[f] > 0 {
			norm += bm25B * float64(ts.lens[doc][f]) / ts.avg[f]
		}
		sum += weights[f] * c / norm
	}
	ts.acc[doc] = [3]float64{}
	return sum
}

// appendCounts appends a word's counts in a skill's three fields: as one
// number x = c0<<1 | c1<<3 | c2<<5 when the name and when-to-use counts
// are below 4 (one byte, most often), else as x = c0<<1 | 1 followed by c1
// and c2.
func appendCounts(b []byte, c *[3]uint64) []byte {
	if c[0] < 4 && c[1] < 4 && c[2] < 1<<58 {
		return binary.AppendUvarint(b, c[0]<<1|c[1]<<3|c[2]<<5)
	}
	b = binary.AppendUvarint(b, c[0]<<1|1)
	b = binary.AppendUvarint(b, c[1])
	return binary.AppendUvarint(b, c[2])
}

// counts reads what appendCounts wrote.
func (d *idec) counts() (c0, c1, c2 uint64) {
	x := d.uint()
	if x&1 == 0 {
		return x >> 1 & 3, x >> 3 & 3, x >> 5
	}
	return x >> 1, d.uint(), d.uint()
}

// searchSection encodes the search section of skills.
func searchSection(skills []*Skill) []byte {
	b := newSectionBuilder(len(skills))
	for _, s := range skills {
		b.add(s)
	}
	return b.section()
}

// newSectionBuilder returns a builder sized for about n skills: a skill
// brings about one word of its own (a name's number, a product).
func newSectionBuilder(n int) *sectionBuilder {
	b := &sectionBuilder{seed: maphash.MakeSeed()}
	size := 16
	for size < 2*(n+64) {
		size <<= 1
	}
	b.slots = make([]int32, size)
	b.words = make([]string, 0, n+64)
	b.posts = make([]posting, 0, n+64)
	return b
}

// add takes the next skill of the listing (in its order).
func (b *sectionBuilder) add(s *Skill) {
	doc := b.docs
	b.docs++
	b.seen = b.seen[:0]
	for f, text := range [3]string{s.Name, s.WhenToUse, s.Description} {
		b.lens = binary.AppendUvarint(b.lens, uint64(b.field(f, text)))
	}
	for i := range b.seen {
		sn := &b.seen[i]
		p := &b.posts[sn.id]
		p.b = binary.AppendUvarint(p.b, uint64(int32(doc)-sn.prev))
		p.b = appendCounts(p.b, &sn.counts)
	}
}

// section encodes the section of the skills added: their number, each
// one's field lengths, then each word, in order, with its postings.
func (b *sectionBuilder) section() []byte {
	out := binary.AppendUvarint(make([]byte, 0, 16+len(b.lens)), uint64(b.docs))
	out = append(out, b.lens...)
	order := make([]int, len(b.words))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return strings.Compare(b.words[x], b.words[y]) })
	out = binary.AppendUvarint(out, uint64(len(b.words)))
	for _, id := range order {
		out = binary.AppendUvarint(out, uint64(len(b.words[id])))
		out = append(out, b.words[id]...)
		out = binary.AppendUvarint(out, uint64(len(b.posts[id].b)))
		out = append(out, b.posts[id].b...)
	}
	return out
}

// sectionBuilder collects the words of one skill after another. What it
// holds per word is kept small, since the index written while Each lists
// holds it to the end (indexStream): at 100,000 skills about 100,000
// words, which a map of ids, a copy of each word and the counts per word
// held at about 120 bytes each beside the postings; now the ids are an
// open-addressed table of numbers, the words are copied into shared
// arrays, and the counts are the current skill's only.
type sectionBuilder struct {
	seed  maphash.Seed
	slots []int32   // a word's id plus one, by hash (open addressing, at most half full); 0 is free
	words []string  // by id, in arena
	arena textArena // the words' bytes
	posts []posting // by id
	seen  []seenWord
	buf   []byte // the current word, lower-cased
	docs  int    // the skills added
	lens  []byte // each skill's three field lengths, as uvarints
}

// seenWord is a word the current skill holds, in first-seen order: its
// id, the skill of its posting before (the delta's base) and its counts
// in the skill's three fields.
type seenWord struct {
	id     int32
	prev   int32
	counts [3]uint64
}

// posting is the postings of one word.
type posting struct {
	last int32  // the last skill that holds the word
	cur  int32  // its place in seen, when last is the current skill
	b    []byte // the postings
}

// field counts the words of one field of the current skill (field f) and
// returns how many there are: tokens(text), without allocating a word
// that was seen before when text is ASCII (FuzzSearchSection holds it to
// tokens).
func (b *sectionBuilder) field(f int, text string) int {
	if !isASCII(text) {
		words := tokens(text)
		for _, w := range words {
			b.word(f, w)
		}
		return len(words)
	}
	n := 0
	for i := 0; i < len(text); {
		for i < len(text) && !asciiWord[text[i]] {
			i++
		}
		start, upper := i, false
		for ; i < len(text) && asciiWord[text[i]]; i++ {
			upper = upper || ('A' <= text[i] && text[i] <= 'Z')
		}
		if i == start {
			continue
		}
		w := text[start:i]
		if upper {
			b.buf = append(b.buf[:0], w...)
			for j, c := range b.buf {
				if 'A' <= c && c <= 'Z' {
					b.buf[j] = c + 'a' - 'A'
				}
			}
			// The word is looked up without a copy; the map keeps a copy.
			w = unsafe.String(unsafe.SliceData(b.buf), len(b.buf))
		}
		b.word(f, stem(w))
		n++
	}
	return n
}

// word counts one occurrence of w in field f of the current skill. w may
// be scratch memory: it is copied when it is new.
func (b *sectionBuilder) word(f int, w string) {
	id := b.id(w)
	p, doc := &b.posts[id], int32(b.docs-1)
	if p.last != doc {
		p.cur = int32(len(b.seen))
		b.seen = append(b.seen, seenWord{id: id, prev: p.last})
		p.last = doc
	}
	b.seen[p.cur].counts[f]++
}

// id returns the id of w, adding it (a copy) when it is new.
func (b *sectionBuilder) id(w string) int32 {
	mask := len(b.slots) - 1
	i := int(maphash.String(b.seed, w)) & mask
	for ; b.slots[i] != 0; i = (i + 1) & mask {
		if id := b.slots[i] - 1; b.words[id] == w {
			return id
		}
	}
	id := int32(len(b.words))
	b.words = append(b.words, b.arena.clone(w))
	b.posts = append(b.posts, posting{last: -1})
	b.slots[i] = id + 1
	if 2*len(b.words) > len(b.slots) {
		b.grow()
	}
	return id
}

// grow doubles the table of ids and puts every word in it again.
func (b *sectionBuilder) grow() {
	b.slots = make([]int32, 2*len(b.slots))
	mask := len(b.slots) - 1
	for id, w := range b.words {
		i := int(maphash.String(b.seed, w)) & mask
		for b.slots[i] != 0 {
			i = (i + 1) & mask
		}
		b.slots[i] = int32(id) + 1
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
