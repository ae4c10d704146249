package catalog

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/skillet-go/skillet/internal/filecache"
	"github.com/skillet-go/skillet/internal/ignore"
)

// The persistent index written while Each lists (docs/performance.md#persistent-index):
// the first run of a one-skill command used to list with List, which holds
// every skill's parsed frontmatter and the caches until the end, and encode
// the index from that (268 MB live at 100,000 skills). An indexStream is
// given every skill file, folder and candidate as Each settles them and
// writes what it can at once: each skill's record to a temporary file as
// soon as it is handed out, each stamp to another. What it holds until
// the end is small per skill: 12 bytes a candidate, the skills only
// candidates point at (shadowed, duplicates), the search section being
// built. At the end the index is put together in the layout List's
// writeIndex gives (index.go): the stamps, read back and sorted by path,
// then the listing, the records copied from their file; the bytes are
// List's (TestIndexStreamSameListing).

// indexStreamSample, when set, is called where the end of an indexStream
// holds the most (the stamps sorted, the search section built): a
// benchmark samples the live heap there (BenchmarkIndexStream).
var indexStreamSample func()

// indexStream is one index being written while Each lists. Its methods
// run on Each's goroutine, except dir (the walk's), which takes mu.
type indexStream struct {
	racy int64 // stamps modified at or after this (Unix ns) are too fresh
	// failed says no index is written: a stamp too fresh or missing, a
	// folder that did not read, a write that failed.
	failed bool

	e    ienc     // the listing's encoder, writing the skills' records to recs
	recs *os.File // the records, in the order written
	nrec int      // records written
	head []byte   // the listing's workspace and roots, encoded first
	sec  *sectionBuilder
	// secData is the search section, once built (section).
	secData []byte
	// offs, when not nil (a search: indexwalk.go), is where each record
	// begins in recs, and recsEnd where the last ends once finish
	// flushed them; recsOK says they were all written.
	offs    []int64
	recsEnd int64
	recsOK  bool

	mu      sync.Mutex // guards stamps, sfailed
	stamps  ienc       // the stamps, in the order met, to stampFile
	nstamp  int
	sfailed bool

	// cands are the candidates in discovery order: the skill's record
	// plus one (0: none, filled in when the record is written), the
	// root, and the path when it has no skill (paths).
	cands   []streamCand
	paths   map[int32]string
	roots   map[*Root]int32
	rootOf  []*Root
	pending map[*Skill]int32 // a skill not written yet → its candidate
	losers  []lostSkill      // the skills only candidates point at
}

// streamCand is a candidate as an indexStream holds it.
type streamCand struct {
	skill         uint32
	root          int32
	flat, ignored bool
}

// newIndexStream starts an index for the listing whose workspace and
// roots are l's, its records and stamps going to recs and stampFile.
func newIndexStream(l *Listing, racy int64, recs, stampFile *os.File) *indexStream {
	st := &indexStream{racy: racy, recs: recs, sec: newSectionBuilder(1024),
		paths: map[int32]string{}, roots: map[*Root]int32{}, pending: map[*Skill]int32{}}
	st.e = ienc{table: map[string]uint64{}, b: make([]byte, 0, iencPiece+iencPiece/4)}
	st.e.str(l.Workspace)
	st.e.optLen(l.Roots == nil, len(l.Roots))
	for i := range l.Roots {
		st.e.root(&l.Roots[i])
	}
	st.head = slices.Clone(st.e.b)
	st.e.b, st.e.w = st.e.b[:0], recs
	st.stamps = ienc{w: stampFile, b: make([]byte, 0, iencPiece+iencPiece/4)}
	return st
}

// stamp records one stamped path (dir: from the walk's goroutine).
func (st *indexStream) stamp(path string, s stamp, missing bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.sfailed {
		return
	}
	if !missing && s.mtime >= st.racy {
		st.sfailed = true
		return
	}
	e := &st.stamps
	e.own(path)
	e.bool(missing)
	if !missing {
		e.stamp(s)
	}
	st.nstamp++
	e.flush(false)
}

// dir records a folder the walk read (readErr: it did not read, and no
// index is written), with its stamp as List keeps it (zero when the stat
// failed).
func (st *indexStream) dir(path string, s stamp, readErr error) {
	if readErr != nil {
		st.mu.Lock()
		st.sfailed = true
		st.mu.Unlock()
		return
	}
	st.stamp(path, s, false)
}

// unfollowed records a path the listing could not follow or read
// (unfollowedStamp), from either goroutine: stamped missing, or no index.
func (st *indexStream) unfollowed(path string, err error) {
	ps, ok := unfollowedStamp(path, err)
	if !ok {
		st.mu.Lock()
		st.sfailed = true
		st.mu.Unlock()
		return
	}
	st.stamp(ps.path, ps.stamp, ps.missing)
}

// file records a skill file read (List's cache entry): a stamp that is
// zero means no index, as in saveIndex.
func (st *indexStream) file(path string, s stamp) {
	if s == (stamp{}) {
		st.mu.Lock()
		st.sfailed = true
		st.mu.Unlock()
		return
	}
	st.stamp(path, s, false)
}

// candidate records the next candidate of the listing (prec.addCandidate).
func (st *indexStream) candidate(cand *candidate) {
	k, ok := st.roots[cand.root()]
	if !ok {
		k = int32(len(st.rootOf))
		st.roots[cand.root()] = k
		st.rootOf = append(st.rootOf, cand.root())
	}
	st.paths[int32(len(st.cands))] = cand.path
	st.cands = append(st.cands, streamCand{root: k, flat: cand.flat, ignored: cand.ignored})
}

// candSkill says the last candidate recorded gives skill s, whose location
// is the candidate's path.
func (st *indexStream) candSkill(s *Skill) {
	k := int32(len(st.cands) - 1)
	if st.paths[k] == s.Location {
		delete(st.paths, k)
	}
	st.pending[s] = k
}

// lose keeps a skill that is not in the listing (a candidate's only:
// shadowed, a duplicate, an ignored file's), whose record is written after
// the listing's, in the order of their candidates, as ienc.listing writes
// them: the listing's skills are the table's first, in order
// (skim.briefListing reads them so), and a record written later may add
// to the string table, which the records before it cannot refer to.
func (st *indexStream) lose(s *Skill) {
	k, ok := st.pending[s]
	if !ok {
		return // no candidate points at it
	}
	delete(st.pending, s)
	st.losers = append(st.losers, lostSkill{s, k})
}

// lostSkill is a skill lose keeps, and its candidate.
type lostSkill struct {
	s    *Skill
	cand int32
}

// handed writes the record of a skill Each hands out, the next of the
// listing, to the records' file.
func (st *indexStream) handed(s *Skill) {
	st.resolve(s, uint32(st.nrec))
	st.nrec++
	st.sec.add(s)
	if st.failed {
		return
	}
	if st.offs != nil {
		st.offs = append(st.offs, int64(st.e.size()))
	}
	if err := st.e.skill(s); err != nil {
		st.failed = true
		return
	}
	st.e.flush(false)
}

// resolve gives the candidate of s (if any) the record k.
func (st *indexStream) resolve(s *Skill, k uint32) {
	if c, ok := st.pending[s]; ok {
		st.cands[c].skill = k + 1
		delete(st.pending, s)
	}
}

// ok reports whether the index can still be written.
func (st *indexStream) ok() bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return !st.failed && !st.sfailed && st.e.werr == nil && st.stamps.werr == nil
}

// finish writes the index to tmp (the file of the index key file): the
// stamps of the listing l (more, the configuration's and the roots'
// .skilletignore files, then those met, read back from stampFile), then
// the listing. It reports whether the index was written whole.
func (st *indexStream) finish(tmp, stampFile *os.File, file string, l *Listing, roots []*Root, more []pathStamp) bool {
	// The records first, whole, whether the index is written or not: a
	// search reads some of them back (indexStream.search).
	st.e.flush(true)
	st.recsEnd, st.recsOK = int64(st.e.size()), !st.failed && st.e.werr == nil
	if !stampedAfterUse(more, st.racy) {
		return false
	}
	for _, ps := range more {
		st.stamp(ps.path, ps.stamp, ps.missing)
	}
	st.stamps.flush(true)
	if !st.ok() {
		return false
	}
	var head [indexHead]byte
	copy(head[:], indexMagic)
	if _, err := tmp.Write(head[:]); err != nil {
		return false
	}
	// From here on e writes the file itself, its checksum from the start.
	e := &st.e
	e.w, e.crc, e.n = tmp, indexSeed(file), 0
	if !st.writeStamps(stampFile, roots) {
		return false
	}
	stampsLen := e.size()
	e.raw(st.head)
	e.raw(binary.AppendUvarint(nil, uint64(st.nrec+len(st.losers))))
	if _, err := st.recs.Seek(0, io.SeekStart); err != nil {
		return false
	}
	if !st.copyRecords() {
		return false
	}
	slices.SortFunc(st.losers, func(a, b lostSkill) int { return int(a.cand - b.cand) })
	for i, lost := range st.losers {
		st.cands[lost.cand].skill = uint32(st.nrec+i) + 1
		if e.skill(lost.s) != nil {
			return false
		}
		e.flush(false)
	}
	st.rest(l)
	e.flush(true)
	if e.werr != nil || indexHead+e.size() > maxIndexBytes-indexSumSize {
		return false
	}
	return finishHead(tmp, e, head[:], stampsLen)
}

// copyRecords copies the records' file to the index through the
// encoder (and its checksum).
func (st *indexStream) copyRecords() bool {
	buf := make([]byte, iencPiece)
	for {
		n, err := st.recs.Read(buf)
		if n > 0 {
			st.e.raw(buf[:n])
		}
		if err == io.EOF {
			return st.e.werr == nil
		}
		if err != nil {
			return false
		}
	}
}

// rest encodes the listing after the skills' table: the listing's skills
// by record, the diagnostics, the candidates and the search section, as
// ienc.listing does.
func (st *indexStream) rest(l *Listing) {
	e := &st.e
	e.optLen(false, st.nrec)
	for k := range st.nrec {
		e.uint(uint64(k))
	}
	e.optLen(l.Diagnostics == nil, len(l.Diagnostics))
	for i := range l.Diagnostics {
		e.diag(&l.Diagnostics[i])
		e.flush(false)
	}
	e.optLen(false, len(st.cands))
	for i, cd := range st.cands {
		e.uint(uint64(cd.skill))
		if p, ok := st.paths[int32(i)]; ok || cd.skill == 0 {
			e.bool(false)
			e.own(p)
		} else {
			e.bool(true)
		}
		r := st.rootOf[cd.root]
		e.str(r.Path)
		e.str(string(r.Scope))
		e.bool(cd.flat)
		e.bool(cd.ignored)
		e.flush(false)
	}
	sec := st.section()
	if indexStreamSample != nil {
		indexStreamSample() // the section, built
	}
	e.uint(uint64(len(sec)))
	e.flush(true)
	e.raw(sec)
}

// section returns the search section of the skills handed out, built
// once.
func (st *indexStream) section() []byte {
	if st.secData == nil {
		st.secData = st.sec.section()
	}
	return st.secData
}

// writeStamps writes the stamps part: their number, the encoded roots and
// the stamps read back from stampFile, sorted by path (one of each path,
// the last met).
func (st *indexStream) writeStamps(stampFile *os.File, roots []*Root) bool {
	data, err := readBack(stampFile)
	if err != nil {
		return false
	}
	type rec struct {
		path     string
		from, to int32
	}
	recs := make([]rec, 0, st.nstamp)
	// The paths are substrings of data, which nothing writes to.
	d := newDec(unsafe.String(unsafe.SliceData(data), len(data)))
	for range st.nstamp {
		from := d.i
		p := d.str()
		if !d.bool() {
			d.stamp()
		}
		recs = append(recs, rec{p, int32(from), int32(d.i)})
	}
	if d.err != nil || d.left() != 0 {
		return false
	}
	slices.SortStableFunc(recs, func(a, b rec) int { return strings.Compare(a.path, b.path) })
	if indexStreamSample != nil {
		indexStreamSample() // every stamp held, sorted
	}
	n := 0
	for i := range recs {
		if i+1 < len(recs) && recs[i+1].path == recs[i].path {
			continue
		}
		recs[n] = recs[i]
		n++
	}
	recs = recs[:n]
	e := &st.e
	e.uint(uint64(len(recs)))
	rb := encodeRoots(roots)
	e.uint(uint64(len(rb)))
	e.b = append(e.b, rb...)
	for _, r := range recs {
		e.b = append(e.b, d.s[r.from:r.to]...)
		e.flush(false)
	}
	e.flush(true)
	return e.werr == nil
}

// readBack reads the whole of f from its start.
func readBack(f *os.File) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() > maxIndexBytes {
		return nil, errIndexWrite
	}
	data := make([]byte, fi.Size())
	_, err = f.ReadAt(data, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return data, nil
}

// finishHead writes the checksum after what e wrote (stampsLen of it the
// stamps part) and the head in its place at the start of tmp.
func finishHead(tmp *os.File, e *ienc, head []byte, stampsLen int) bool {
	binary.LittleEndian.PutUint32(head[len(indexMagic):], indexVersion)
	binary.LittleEndian.PutUint32(head[len(indexMagic)+4:], uint32(stampsLen))
	binary.LittleEndian.PutUint32(head[len(indexMagic)+8:], uint32(len(e.table)))
	sum := binary.LittleEndian.AppendUint32(nil, crc32.Update(e.crc, castagnoli(), head))
	if _, err := tmp.Write(sum); err != nil {
		return false
	}
	_, err := tmp.WriteAt(head, 0)
	return err == nil
}

// streamTemp makes a temporary file in the index folder dir, removed when
// done is called.
func streamTemp(dir string) (f *os.File, done func(), err error) {
	f, err = os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return nil, nil, err
	}
	return f, func() {
		f.Close()
		os.Remove(f.Name())
	}, nil
}

// eachIndexed lists c as Each does, handing fn each skill, and writes the
// persistent index of the listing meanwhile (indexStream), when c may
// write one: a fresh catalog of the local file system alone, with an
// index folder and file (when there is one) that are trusted. ok is
// false, with nothing listed, when it may not (the caller lists with List
// then, which says why where it should). after, when not nil, is called
// with the stream once the listing is done and the index written or not
// (a search reads its answer from the stream: indexwalk.go); the stream
// keeps where each record begins for it.
func (c *Catalog) eachIndexed(ctx context.Context, fn func(l *Listing, s *Skill) error, after func(st *indexStream)) (l *Listing, ok bool, err error) {
	file := c.indexFile()
	if file == "" || c.merged || c.ignored || c.onParsed != nil || !c.profile.Native || len(c.cache) > 0 || len(c.dirs) > 0 {
		return nil, false, nil
	}
	cache := indexCache(c.opts.index)
	if cache.Distrust() != "" {
		return nil, false, nil
	}
	key := filepath.Base(file)
	// An index file others could have written is not replaced: List
	// leaves it and says so (index-untrusted).
	f, _, oerr := cache.Open(key)
	if ue := (*filecache.UntrustedError)(nil); errors.As(oerr, &ue) {
		return nil, false, nil
	}
	if oerr == nil {
		f.Close()
	}
	var roots []*Root
	listed := false
	perr := cache.Put(key, func(tmp *os.File) error {
		recs, doneRecs, err := streamTemp(c.opts.index)
		if err != nil {
			return err
		}
		defer doneRecs()
		stampFile, doneStamps, err := streamTemp(c.opts.index)
		if err != nil {
			return err
		}
		defer doneStamps()
		listed = true
		start := time.Now()
		var st *indexStream
		l, roots, err = c.eachStream(ctx, func(l *Listing) *indexStream {
			st = newIndexStream(l, start.Add(-indexRacyWindow).UnixNano(), recs, stampFile)
			if after != nil {
				st.offs = []int64{}
			}
			return st
		}, fn)
		if err != nil || ctx.Err() != nil {
			return errIndexWrite
		}
		written := st.finish(tmp, stampFile, file, l, roots, c.fixedStamps(roots))
		if after != nil {
			after(st)
		}
		if !written {
			return errIndexWrite
		}
		return nil
	})
	if !listed {
		return nil, false, nil
	}
	if perr == nil {
		cache.Prune(key, indexMaxAge, indexPruneMax)
	}
	return l, true, err
}

// fixedStamps are the stamps every index has besides the folders and
// files the walk met: the configuration files and each root's
// .skilletignore, which withholds skills from the listing (withhold.go)
// and whose edit in place changes no folder's stamp, present or missing.
// They are taken as the index is written, after the listing read the
// files (stampedAfterUse).
func (c *Catalog) fixedStamps(roots []*Root) []pathStamp {
	stamps := c.configStamps()
	for _, r := range roots {
		if r.Exists && !r.File {
			stamps = append(stamps, indexStat(filepath.Join(r.Path, ignore.FileName)))
		}
	}
	return stamps
}
