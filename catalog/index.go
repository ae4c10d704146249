package catalog

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/skillet-go/skillet/internal/fsx"
)

// The persistent index (docs/performance.md#persistent-index). A command
// that is about one skill (show, search, prompt, tool-schema) would
// otherwise pay for listing every skill of every root in every process. With
// Options.Index set, List writes what it found, with the stamp (size,
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

// An index file is indexMagic, the version, the stamps, the listing
// (indexcodec.go), the number of strings in the encoding's string table
// (4 bytes, little-endian), and the CRC-32C (Castagnoli) of everything
// before it (4 bytes, little-endian). The checksum is there to catch a
// file that a crash, a full disk or another program cut short,
// zero-filled or overwrote: such a file is never decoded. CRC-32C detects
// every error burst up to 32 bits and all but one in 2^32 others, and is
// computed by the CPU's own instruction where there is one (SSE 4.2,
// ARMv8 CRC); the SHA-256 it replaces was a tenth of a warm show at 10,000
// skills. It is not a defence against a forged file: whoever can write
// the user's cache folder can write any index, and the decoder (fuzzed:
// FuzzIndexDecode) refuses what does not decode whatever its checksum.
const indexSumSize = 4

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// indexState is what a catalog holds of its index between Lists.
type indexState struct {
	file    string // the index file of this catalog's key
	stamps  []pathStamp
	roots   []byte // the encoded resolved roots
	listing *Listing
	// rest is the file's listing, not yet decoded: it is decoded while
	// the stamps are checked (fromIndex), and then set to nil.
	rest *idec
}

// pathStamp is one folder or file of an index, with its stamp, or with
// missing set when it did not exist.
type pathStamp struct {
	path    string
	stamp   stamp
	missing bool
}

// indexFile returns the index file for this catalog's key: the workspace,
// the effective settings and options, and the running binary (a different
// skillet may parse differently). "" when there is none.
func (c *Catalog) indexFile() string {
	if c.opts.Index == "" {
		return ""
	}
	var key strings.Builder
	fmt.Fprintf(&key, "v%d\n%s\n%#v\n", indexVersion, c.workspace, c.settings)
	o := c.opts
	o.Getenv = nil
	fmt.Fprintf(&key, "%#v\n%#v\nignored=%v\n", o, c.trustedReal, c.ignored)
	if exe, err := os.Executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			fmt.Fprintf(&key, "%s %d %d\n", exe, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	sum := sha256.Sum256([]byte(key.String()))
	return filepath.Join(c.opts.Index, hex.EncodeToString(sum[:16])+".idx")
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
		st, err := readIndex(file)
		if err != nil {
			c.idx = &indexState{file: file}
			return nil
		}
		c.idx = st
	}
	st := c.idx
	if (st.listing == nil && st.rest == nil) || !bytes.Equal(st.roots, encodeRoots(roots)) {
		return nil
	}
	check := startCheck(st.stamps)
	if st.rest != nil {
		d := st.rest
		st.rest = nil
		st.listing = d.listing(c)
		if d.err != nil || st.listing == nil || d.left() != 0 {
			check.stop()
			c.idx = &indexState{file: st.file}
			return nil
		}
	}
	if !check.wait() {
		return nil
	}
	return st.listing
}

// stampCheck is a check of stamps running in other goroutines.
type stampCheck struct {
	changed atomic.Bool
	next    atomic.Int64 // the first stamp of the next chunk to check
	wg      sync.WaitGroup
}

// startCheck starts statting every path again, to report whether each
// still has its stamp (or is still missing). The stats are spread over a
// few goroutines, each taking chunks of the stamps in turn: on a cold page
// cache each can wait on the disk.
func startCheck(stamps []pathStamp) *stampCheck {
	const chunk = 512
	ck := &stampCheck{}
	workers := min(max(runtime.GOMAXPROCS(0), 2), 8, (len(stamps)+chunk-1)/chunk)
	for range workers {
		ck.wg.Go(func() {
			for !ck.changed.Load() {
				lo := int(ck.next.Add(chunk)) - chunk
				if lo >= len(stamps) {
					return
				}
				checkStamps(stamps, stamps[lo:min(lo+chunk, len(stamps))], &ck.changed)
			}
		})
	}
	return ck
}

// wait waits for the check and reports whether nothing changed.
func (ck *stampCheck) wait() bool {
	ck.wg.Wait()
	return !ck.changed.Load()
}

// stop ends the check early and waits for it.
func (ck *stampCheck) stop() {
	ck.changed.Store(true)
	ck.wg.Wait()
}

// readIndex reads an index file and decodes its stamps; the listing is
// left for fromIndex to decode (indexState.rest).
func readIndex(file string) (*indexState, error) {
	// Regular files only, read without blocking (a FIFO put in its place
	// is refused) and capped; the last bytes are the CRC-32C of the rest,
	// so a file cut short or damaged is never decoded.
	data, err := readIndexFile(file)
	if err != nil {
		return nil, err
	}
	if len(data) < len(indexMagic)+indexSumSize || !bytes.HasPrefix(data, []byte(indexMagic)) {
		return nil, errIndexCorrupt
	}
	body, sum := data[:len(data)-indexSumSize], data[len(data)-indexSumSize:]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(sum) {
		return nil, errIndexCorrupt
	}
	// Before the checksum: how many strings the file's table holds, so
	// that the decoder's table is allocated once. Each takes two bytes at
	// least.
	if len(body) < len(indexMagic)+4 {
		return nil, errIndexCorrupt
	}
	nstr := int(binary.LittleEndian.Uint32(body[len(body)-4:]))
	body = body[:len(body)-4]
	if nstr > len(body)/2 {
		return nil, errIndexCorrupt
	}
	// The decoded strings are substrings of the file's bytes, which
	// nothing writes after this point: no copy of the file is made.
	rest := body[len(indexMagic):]
	d := newDec(unsafe.String(unsafe.SliceData(rest), len(rest)))
	d.table = make([]string, 0, nstr)
	if d.uint() != indexVersion {
		return nil, errIndexCorrupt
	}
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
	if d.err != nil {
		return nil, errIndexCorrupt
	}
	st.rest = d
	return st, nil
}

// readIndexFile reads an index file in one read into a buffer of its size:
// a regular file only, opened without blocking (a FIFO put in its place is
// refused), at most maxIndexBytes, and not one that grows while it is read.
func readIndexFile(file string) ([]byte, error) {
	f, err := fsx.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxIndexBytes {
		return nil, errIndexCorrupt
	}
	buf := make([]byte, fi.Size()+1)
	n, err := io.ReadFull(f, buf)
	if err != io.ErrUnexpectedEOF || int64(n) != fi.Size() {
		return nil, errIndexCorrupt
	}
	return buf[:n], nil
}

// saveIndex writes the index of a listing that a walk has just produced.
// start is when the walk began: stamps modified since shortly before it
// are too fresh to trust, and then no index is written. Errors are not
// reported: an index is an optimisation, and a folder that cannot be
// written only means the next process walks again.
func (c *Catalog) saveIndex(l *Listing, roots []*Root, start time.Time) {
	file := c.indexFile()
	if file == "" {
		return
	}
	racy := start.Add(-indexRacyWindow).UnixNano()
	stamps := c.configStamps()
	// A root's IgnoreFile withholds skills from the listing (withhold.go);
	// editing it in place changes no folder's stamp, so it is stamped
	// itself, present or missing.
	for _, r := range roots {
		if r.Exists && !r.File {
			stamps = append(stamps, indexStat(filepath.Join(r.Path, IgnoreFile)))
		}
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
	for _, ps := range stamps {
		if !ps.missing && ps.stamp.mtime >= racy {
			return
		}
	}
	slices.SortFunc(stamps, func(a, b pathStamp) int { return strings.Compare(a.path, b.path) })
	var e ienc
	e.b = append(e.b, indexMagic...)
	e.uint(indexVersion)
	e.uint(uint64(len(stamps)))
	rb := encodeRoots(roots)
	e.uint(uint64(len(rb)))
	e.b = append(e.b, rb...)
	for _, ps := range stamps {
		e.str(ps.path)
		e.bool(ps.missing)
		if !ps.missing {
			e.stamp(ps.stamp)
		}
	}
	if err := e.listing(l); err != nil {
		return
	}
	// A search in this process ranks from the section just built (the
	// bytes are not written to after this).
	l.search = newSearchIndex(unsafe.String(unsafe.SliceData(e.sec), len(e.sec)), l.Skills)
	e.b = binary.LittleEndian.AppendUint32(e.b, uint32(len(e.table)))
	if len(e.b) > maxIndexBytes-indexSumSize {
		return
	}
	e.b = binary.LittleEndian.AppendUint32(e.b, crc32.Checksum(e.b, castagnoli))
	if err := os.MkdirAll(c.opts.Index, 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(c.opts.Index, ".idx-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(e.b)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), file) != nil {
		os.Remove(tmp.Name())
		return
	}
	c.idx = &indexState{file: file}
	pruneIndexes(c.opts.Index, file)
}

// indexMaxAge is how long an index file that no catalog has written is
// kept; indexPruneMax bounds the files one write looks at.
const (
	indexMaxAge   = 30 * 24 * time.Hour
	indexPruneMax = 200
)

// pruneIndexes removes index files of the folder that have not been
// written for indexMaxAge, so workspaces that are gone do not leave their
// indexes behind for ever.
func pruneIndexes(dir, keep string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	cutoff := time.Now().Add(-indexMaxAge)
	for i, e := range entries {
		if i >= indexPruneMax {
			return
		}
		p := filepath.Join(dir, e.Name())
		if p == keep || !strings.HasSuffix(e.Name(), ".idx") {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() && fi.ModTime().Before(cutoff) {
			os.Remove(p)
		}
	}
}
