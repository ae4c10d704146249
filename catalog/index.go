package catalog

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/filecache"
	"github.com/skillet-go/skillet/internal/pool"
	"github.com/skillet-go/skillet/skill"
)

// The persistent index (docs/performance.md#persistent-index). A command
// that is about one skill (show, search, prompt, tool-schema) would
// otherwise pay for listing every skill of every root in every process. With
// Options.index set, List writes what it found, with the stamp (size,
// modification time, inode, device) of every folder it read and every skill
// file it parsed, to a file in that folder. The first List of a later
// process with the same workspace, roots and settings (and the same skillet
// binary) stats those folders and files again instead of walking and
// parsing: when every stamp is unchanged, and the roots resolve to the same
// folders, the listing is the one a walk would give, because the walk is a
// function of exactly those folders and files. Any difference, or an index
// that cannot be read or decoded, means a full List, silently, and a new
// index. A folder's stamp changes when an entry is added to it, removed or
// renamed (a symlink retargeted included), so an added skill is seen.
//
// The root's .skilletignore files are stamped too, since they withhold
// skills from the listing.
//
// Stamps that are too fresh to trust (modified within indexRacyWindow of the
// walk) are not written: the file could change again within the clock's
// granularity and keep its stamp.

// indexRacyWindow is how recent a folder's or file's modification may be
// and still be trusted in an index written now.
const indexRacyWindow = 100 * time.Millisecond

// indexMagic opens every index file.
const indexMagic = "skillet index\n"

// maxIndexBytes bounds an index file (about 100,000 skills).
const maxIndexBytes = 256 << 20

// An index file is indexMagic; a head of three 4-byte little-endian
// numbers: the version, the length of the stamps part and the number of
// strings in the encoding's string table (so that the decoder allocates
// its table once); the stamps part (the number of stamps, the encoded
// roots, the stamps); the listing (indexcodec.go); and the CRC-32C
// (Castagnoli) of the file's name, then of everything after the head, then
// of the magic and the head (4 bytes, little-endian; the head is known
// last, as the rest is written to the file while it is encoded, and is
// written in its place then): the name is the hash of the catalog's key
// (indexFile), so a file copied or renamed over the index of another key
// (other settings, another binary) fails its checksum instead of
// answering for settings it was not made with. The
// stamps part is read and decoded first, so that the stamps are checked
// while the rest of the file is read, checksummed and decoded (fromIndex);
// statting the paths of a file that then fails its checksum does no harm.
//
// The checksum is there to catch a file that a crash, a full disk or
// another program cut short, zero-filled or overwrote: such a file is
// never decoded past its stamps. CRC-32C detects every error burst up to
// 32 bits and all but one in 2^32 others, and is computed by the CPU's own
// instruction where there is one (SSE 4.2, ARMv8 CRC); the SHA-256 it
// replaces was a tenth of a warm show at 10,000 skills. It is not a
// defence against a forged file: whoever can write the user's cache folder
// can write any index, and the decoder (fuzzed: FuzzIndexDecode) refuses
// what does not decode whatever its checksum.
const indexSumSize = 4

// indexHead is where an index file's stamps part begins.
const indexHead = len(indexMagic) + 12

// indexFirstRead is how much of an index file is read before its stamps
// are decoded: the whole stamps part at 2,000 skills or so; a larger one
// takes a second read.
const indexFirstRead = 256 << 10

// castagnoli is the CRC-32C table, made on first use: making it builds
// the tables of the CPU's CRC instruction (about 0.3 ms), which a start
// that reads and writes no index does not need.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// indexState is what a catalog holds of its index between Lists.
type indexState struct {
	file string // the index file of this catalog's key
	// untrusted, when set, says why the index folder or file is not
	// used (distrust), of untrustedPath: it is neither read nor written.
	untrusted, untrustedPath string
	stamps                   []pathStamp
	roots                    []byte // the encoded resolved roots
	listing                  *Listing
	// rest is the rest of the file, not yet read: it is read and
	// decoded while the stamps are checked (fromIndex), then set to nil.
	rest *indexRest
}

// indexRest is an index file read as far as its stamps.
type indexRest struct {
	f    *os.File
	buf  []byte // the file's size plus one
	have int    // bytes read into buf
	d    *idec  // the decoder, past the stamps
	seed uint32 // indexSeed of the file's name
}

// indexSeed is the CRC-32C of an index file's name, which its checksum
// begins with.
func indexSeed(file string) uint32 {
	return crc32.Checksum([]byte(filepath.Base(file)), castagnoli())
}

// pathStamp is one folder or file of an index, with its stamp, or with
// missing set when it did not exist.
type pathStamp struct {
	path    string
	stamp   stamp
	missing bool
}

// indexFile returns the index file for this catalog's key: the workspace,
// the effective settings and options with every path resolved, and the
// running binary (a different skillet may parse differently). "" when there
// is none.
func (c *Catalog) indexFile() string {
	if c.opts.index == "" {
		return ""
	}
	var key strings.Builder
	fmt.Fprintf(&key, "v%d\n%s\n%#v\n", indexVersion, c.workspace, c.settings)
	o := c.opts
	o.getenv, o.walkGC = nil, 0
	// Paths as the caller typed them ("-w .", "-w /abs/ws", "-c ../x.yaml")
	// are keyed resolved: one tree, one index, whatever the form or the
	// current folder. The workspace and the configuration file resolved
	// are in c.workspace and c.settings; the extra paths are resolved here.
	o.Workspace, o.ConfigFile = "", ""
	o.ExtraPaths = nil
	for _, x := range c.opts.ExtraPaths {
		o.ExtraPaths = append(o.ExtraPaths, c.env.expand(x, c.cwd))
	}
	fmt.Fprintf(&key, "%#v\n%#v\nignored=%v\n", o, c.trustedReal, c.ignored)
	if exe, err := os.Executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			fmt.Fprintf(&key, "%s %d %d\n", exe, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	sum := sha256.Sum256([]byte(key.String()))
	return filepath.Join(c.opts.index, hex.EncodeToString(sum[:16])+".idx")
}

// encodeRoots is the resolved roots in a comparable form.
func encodeRoots(roots []*Root) []byte {
	var e ienc
	e.uint(uint64(len(roots)))
	for _, r := range roots {
		e.root(r)
	}
	return e.b
}

// configStamps are the configuration files whose appearance or change must
// invalidate an index: the explicit one, or the two the workspace may hold.
func (c *Catalog) configStamps() []pathStamp {
	var paths []string
	if c.opts.ConfigFile != "" {
		paths = []string{c.opts.ConfigFile}
	} else if !c.opts.NoConfigFile {
		paths = []string{filepath.Join(c.workspace, "skillet.yaml"), filepath.Join(c.workspace, ".skillet.yaml")}
	}
	out := make([]pathStamp, 0, len(paths))
	for _, p := range paths {
		out = append(out, indexStat(p))
	}
	return out
}

func indexStat(p string) pathStamp {
	st, _, err := statRef(newRef(p))
	if err != nil {
		return pathStamp{path: p, missing: true}
	}
	return pathStamp{path: p, stamp: st}
}

// fromIndex returns the listing of the index when it is current, else nil.
// It is called with c.mu held, before a List walks. The first call of a
// catalog reads the file; its listing is decoded while other goroutines
// stat the paths the index covers, since both are most of a warm show.
func (c *Catalog) fromIndex(roots []*Root) *Listing {
	if c.idx == nil {
		file := c.indexFile()
		if file == "" {
			return nil
		}
		cache := indexCache(c.opts.index)
		if why := cache.Distrust(); why != "" {
			c.idx = &indexState{untrusted: why, untrustedPath: c.opts.index}
			return nil
		}
		st, err := readIndex(cache, file)
		var ue *filecache.UntrustedError
		switch {
		case errors.As(err, &ue):
			c.idx = &indexState{untrusted: ue.Why, untrustedPath: ue.Path}
			return nil
		case err != nil:
			c.idx = &indexState{file: file}
			return nil
		}
		c.idx = st
	}
	st := c.idx
	if st.untrusted != "" {
		return nil
	}
	if st.listing == nil && st.rest == nil {
		return nil
	}
	if !bytes.Equal(st.roots, encodeRoots(roots)) {
		if st.rest != nil {
			// The roots changed since the index was written: it will
			// not answer this catalog.
			st.rest.f.Close()
			c.idx = &indexState{file: st.file}
		}
		return nil
	}
	check := startCheck(st.stamps)
	if st.rest != nil {
		r := st.rest
		st.rest = nil
		st.listing = r.finish(c)
		if st.listing == nil {
			check.stop()
			c.idx = &indexState{file: st.file}
			return nil
		}
	}
	if !check.same() {
		return nil
	}
	return st.listing
}

// stampCheck is a check of stamps running in other goroutines.
type stampCheck struct {
	changed atomic.Bool
	wait    func() error // internal/pool's
}

// startCheck starts statting every path again, to report whether each
// still has its stamp (or is still missing). The stats are spread over a
// few goroutines, each taking chunks of the stamps in turn: on a cold page
// cache each can wait on the disk.
func startCheck(stamps []pathStamp) *stampCheck {
	const chunk = 512
	ck := &stampCheck{}
	ck.wait = pool.Start(context.Background(), (len(stamps)+chunk-1)/chunk, pool.Disk, func(k int) {
		if !ck.changed.Load() {
			checkStamps(stamps, stamps[k*chunk:min((k+1)*chunk, len(stamps))], &ck.changed)
		}
	})
	return ck
}

// same waits for the check and reports whether nothing changed.
func (ck *stampCheck) same() bool {
	ck.wait()
	return !ck.changed.Load()
}

// stop ends the check early and waits for it.
func (ck *stampCheck) stop() {
	ck.changed.Store(true)
	ck.wait()
}

// indexCache is the store of index files in folder dir: each file is
// named by its key (indexFile), written whole or not at all, and read
// only when the current user owns it and its folder and neither its group
// nor others may write them.
func indexCache(dir string) *filecache.Cache { return filecache.New(dir, "index") }

// indexDiagnostic is the warning of a listing whose index is not used
// because others could have written it.
func (c *Catalog) indexDiagnostic() []skill.Diagnostic {
	if c.idx == nil || c.idx.untrusted == "" {
		return nil
	}
	return []skill.Diagnostic{{Code: diagcode.IndexUntrusted, Severity: skill.SeverityWarning, Path: c.idx.untrustedPath,
		Message: c.idx.untrusted + "; the persistent index is not used"}}
}

// readIndex opens the index file of cache and reads and decodes its
// stamps; the rest is left for fromIndex (indexState.rest). Regular files
// only, opened without blocking (a FIFO put in its place is refused;
// filecache.Cache.Open), at most maxIndexBytes, and not one that grows
// while it is read.
func readIndex(cache *filecache.Cache, file string) (*indexState, error) {
	f, fi, err := cache.Open(filepath.Base(file))
	if err != nil {
		return nil, err
	}
	st, err := readStamps(f, fi, file)
	if err != nil {
		f.Close()
		return nil, err
	}
	return st, nil
}

func readStamps(f *os.File, fi os.FileInfo, file string) (*indexState, error) {
	size := int(fi.Size())
	if fi.Size() > maxIndexBytes || size < indexHead+indexSumSize {
		return nil, errIndexCorrupt
	}
	buf := make([]byte, size+1)
	have := min(size, indexFirstRead)
	if _, err := io.ReadFull(f, buf[:have]); err != nil {
		return nil, errIndexCorrupt
	}
	head := buf[len(indexMagic):indexHead]
	version := binary.LittleEndian.Uint32(head)
	stampsLen := int(binary.LittleEndian.Uint32(head[4:]))
	nstr := int(binary.LittleEndian.Uint32(head[8:]))
	end := indexHead + stampsLen
	// Each string of the table takes two bytes at least.
	if !bytes.HasPrefix(buf, []byte(indexMagic)) || version != indexVersion || stampsLen < 0 || nstr < 0 ||
		end > size-indexSumSize || nstr > size/2 {
		return nil, errIndexCorrupt
	}
	if end > have {
		if _, err := io.ReadFull(f, buf[have:end]); err != nil {
			return nil, errIndexCorrupt
		}
		have = end
	}
	// The decoded strings are substrings of the file's bytes, which
	// nothing writes after they are read: no copy of the file is made.
	d := newDec(unsafe.String(&buf[indexHead], stampsLen))
	d.table = make([]string, 0, nstr)
	st := &indexState{file: file}
	n := d.count()
	rootsLen := d.count()
	if d.err != nil || rootsLen > d.left() {
		return nil, errIndexCorrupt
	}
	st.roots = []byte(d.s[d.i : d.i+rootsLen])
	d.i += rootsLen
	st.stamps = make([]pathStamp, 0, n)
	for range n {
		ps := pathStamp{path: d.str(), missing: d.bool()}
		if !ps.missing {
			ps.stamp = d.stamp()
		}
		st.stamps = append(st.stamps, ps)
	}
	if d.err != nil || d.left() != 0 {
		return nil, errIndexCorrupt
	}
	st.rest = &indexRest{f: f, buf: buf, have: have, d: d, seed: indexSeed(file)}
	return st, nil
}

// finish reads the rest of the file, checks its checksum and decodes its
// listing; nil when any of that fails. It closes the file.
func (r *indexRest) finish(c *Catalog) *Listing {
	defer r.f.Close()
	size := len(r.buf) - 1
	n, err := io.ReadFull(r.f, r.buf[r.have:])
	if (err != io.ErrUnexpectedEOF && err != io.EOF) || r.have+n != size {
		return nil
	}
	body, sum := r.buf[:size-indexSumSize], r.buf[size-indexSumSize:size]
	crc := crc32.Update(r.seed, castagnoli(), body[indexHead:])
	if crc32.Update(crc, castagnoli(), body[:indexHead]) != binary.LittleEndian.Uint32(sum) {
		return nil
	}
	d := r.d
	d.s = unsafe.String(&r.buf[indexHead], len(body)-indexHead)
	l := d.listing(c)
	if d.err != nil || l == nil || d.left() != 0 {
		return nil
	}
	return l
}

// saveIndex writes the index of a listing that a walk has just produced.
// start is when the walk began: stamps modified since shortly before it
// are too fresh to trust, and then no index is written. Errors are not
// reported: an index is an optimisation, and a folder that cannot be
// written only means the next process walks again. unf are the paths the
// walk could not follow or read (unfollowed.go).
func (c *Catalog) saveIndex(l *Listing, roots []*Root, start time.Time, unf *unfollowedPaths) {
	file := c.indexFile()
	if file == "" || (c.idx != nil && c.idx.untrusted != "") || unf.bad {
		return
	}
	racy := start.Add(-indexRacyWindow).UnixNano()
	stamps := c.fixedStamps(roots)
	if !stampedAfterUse(stamps, racy) {
		return
	}
	for p, ds := range c.dirs {
		if ds.err != nil {
			return
		}
		stamps = append(stamps, pathStamp{path: p, stamp: ds.stamp})
	}
	for p, e := range c.cache {
		if e.readErr != nil || e.stamp == (stamp{}) {
			return
		}
		stamps = append(stamps, pathStamp{path: p, stamp: e.stamp})
	}
	stamps = append(stamps, unf.stamps...)
	for _, ps := range stamps {
		if !ps.missing && ps.stamp.mtime >= racy {
			return
		}
	}
	cache, key := indexCache(c.opts.index), filepath.Base(file)
	err := cache.Put(key, func(tmp *os.File) error {
		if !c.writeIndex(tmp, file, l, roots, stamps) {
			return errIndexWrite
		}
		return nil
	})
	if err != nil {
		return
	}
	c.idx = &indexState{file: file}
	cache.Prune(key, indexMaxAge, indexPruneMax)
}

// stampedAfterUse reports whether stamps, taken as the index is written,
// after the listing read their files (fixedStamps), may stand for what it
// read: none of the files changed since racy (Unix ns), by its
// modification time or by its change time, which a rewrite that puts the
// modification time back (cp -p, rsync -t, unzip -o) still moves. Such a
// rewrite while the walk ran would otherwise be stamped as the file is now,
// with the listing of what it was (TestIndexFixedStampsAfterUse). The
// other stamps are taken before their folder or file is read, so a later
// change, whatever its times, does not match them.
func stampedAfterUse(stamps []pathStamp, racy int64) bool {
	for _, ps := range stamps {
		if !ps.missing && (ps.stamp.mtime >= racy || ps.stamp.ctime >= racy) {
			return false
		}
	}
	return true
}

// errIndexWrite is an index that was not written whole.
var errIndexWrite = errors.New("the index was not written")

// writeIndex encodes the index of l to tmp, in pieces as it goes (no
// copy of the whole file is held), and reports whether all of it was
// written. The head, known last, is written in its place at the end.
func (c *Catalog) writeIndex(tmp *os.File, file string, l *Listing, roots []*Root, stamps []pathStamp) bool {
	var head [indexHead]byte
	copy(head[:], indexMagic)
	if _, err := tmp.Write(head[:]); err != nil {
		return false
	}
	// The search section is built on another goroutine while the rest
	// is encoded: it is about a third of the encoding's time.
	sec := make(chan []byte, 1)
	go func() { sec <- searchSection(l.Skills) }()
	slices.SortFunc(stamps, func(a, b pathStamp) int { return strings.Compare(a.path, b.path) })
	// A path met twice (a link two roots reach) is stamped once, as the
	// stream writes it (indexStream.writeStamps).
	stamps = slices.CompactFunc(stamps, func(a, b pathStamp) bool { return a.path == b.path })
	// About four strings of each skill are new to the table (its name,
	// description, path, and one more), and each stamp's path.
	e := ienc{section: func() []byte { return <-sec }, table: make(map[string]uint64, len(stamps)+4*len(l.Skills)),
		w: tmp, crc: indexSeed(file), b: make([]byte, 0, iencPiece+iencPiece/4)}
	e.uint(uint64(len(stamps)))
	rb := encodeRoots(roots)
	e.uint(uint64(len(rb)))
	e.b = append(e.b, rb...)
	for _, ps := range stamps {
		e.own(ps.path)
		e.bool(ps.missing)
		if !ps.missing {
			e.stamp(ps.stamp)
		}
		e.flush(false)
	}
	stampsLen := e.size()
	if err := e.listing(l); err != nil {
		if e.sec == nil {
			<-sec // the section's goroutine reads l: it ends before l is returned
		}
		return false
	}
	// A search in this process ranks from the section just built (the
	// bytes are not written to after this).
	l.search = newSearchIndex(unsafe.String(unsafe.SliceData(e.sec), len(e.sec)), l.Skills)
	e.flush(true)
	if e.werr != nil || indexHead+e.size() > maxIndexBytes-indexSumSize {
		return false
	}
	return finishHead(tmp, &e, head[:], stampsLen)
}

// indexMaxAge is how long an index file that no catalog has written is
// kept, so workspaces that are gone do not leave their indexes behind for
// ever; indexPruneMax bounds the files one write looks at
// (filecache.Cache.Prune).
const (
	indexMaxAge   = 30 * 24 * time.Hour
	indexPruneMax = 200
)
