package catalog

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/profile"
	"github.com/skillet-go/skillet/skill"
)

// What the host listings of one lint --compat run share
// (catalogx.HostFilesAll). Every profile searches the same extra roots,
// and often the same project folders: each folder is listed once for all
// of them (hostShare), and each skill file is read once (for each size
// limit a profile reads it to) and parsed by every profile that reads it,
// one file after another, its bytes let go before the next file is read
// (readPending). Each profile still judges, parses and ranks by its own
// rules; only the reading is shared, and the YAML parse of a text that
// several profiles' rules make alike (yamlMemo).

// hostShare holds the folders the profiles' searches listed (hostReadDir)
// and what the file system said of the paths the profiles' roots and
// searches looked up (paths). Not safe for concurrent use: the searches
// run one after another.
type hostShare struct {
	dirs     map[string]sharedDir
	dirents  direntScratch            // hostReadDir's reused memory
	searches map[searchKey][]hostCand // each root's candidates, by what they depend on
	kids     map[string][]string      // by folder: its entries' paths (childPaths)
	// paths is what the profiles' roots and searches asked of the file
	// system (the roots' stats, real paths and the .git of each parent;
	// the stats of skill files and links the searches find), asked once
	// for all the profiles of one run: most read the same folders, and
	// each profile's search stats each skill file it finds (eleven times
	// the same path in a --compat run, where about a tenth of its CPU went
	// to the searches: pprof; TestHostShareStatsOnce, BenchmarkHostFilesAll).
	paths *pathMemo
}

// memo is the memo of the roots and searches through s: s's own, or with
// s nil a new one (one listing's).
func (s *hostShare) memo() *pathMemo {
	if s == nil {
		return newPathMemo()
	}
	if s.paths == nil {
		s.paths = newPathMemo()
	}
	return s.paths
}

// childPaths returns the paths of the n entries of the folder dir, as
// readDir listed it, for the searches that go through dir to fill (an
// empty string: not made yet) and share: dir, a separator and the entry's
// name (hostSearch.join of a clean search). The searches of the profiles
// whose rules for a root differ each went through its folders and made
// every path again (a megabyte of the live heap of lint --compat over
// both corpus folders, in pprof of the heap as the listing ended). nil
// when s is nil.
func (s *hostShare) childPaths(dir string, n int) []string {
	if s == nil {
		return nil
	}
	kids, ok := s.kids[dir]
	if !ok {
		if s.kids == nil {
			s.kids = map[string][]string{}
		}
		kids = make([]string, n)
		s.kids[dir] = kids
	}
	return kids
}

// searchKey is what the candidates of one root's search (hostSearch.run)
// depend on besides the file system: the root's path, boundary and
// existence, and the two rules of the profile the search applies
// (Discovery.RootSkill and the patterns of the entries it skips there).
// The eleven host profiles search the same extra roots, most of them with
// the same rules: a root is searched once for the profiles that share a
// key (TestHostShareSearchesOnce).
type searchKey struct {
	path, boundary, skips string
	exists, rootSkill     bool
}

// search runs h (a search of one root) or, when s is not nil and a
// search of the same key ran, gives h copies of its candidates, with h's
// root.
func (s *hostShare) search(h *hostSearch) {
	if s == nil {
		h.run()
		return
	}
	k := searchKey{path: h.root.Path, boundary: h.root.boundary, skips: strings.Join(h.skipPatterns(), "\x00"),
		exists: h.root.Exists, rootSkill: h.p.Discovery.RootSkill}
	if found, ok := s.searches[k]; ok {
		h.cands = make([]*hostCand, len(found))
		for i := range found {
			c := found[i]
			c.root = h.root
			h.cands[i] = &c
		}
		return
	}
	hostRunSearch(h)
	if h.ctx.Err() != nil {
		return // cut short: not kept
	}
	kept := make([]hostCand, len(h.cands))
	for i, c := range h.cands {
		kept[i] = *c
	}
	if s.searches == nil {
		s.searches = map[searchKey][]hostCand{}
	}
	s.searches[k] = kept
}

// hostRunSearch is hostSearch.run for a shared search; tests count the
// calls.
var hostRunSearch = (*hostSearch).run

// sharedDir is a folder's listing: its entries in name order, as
// os.ReadDir lists them, and in the order the file system gave them
// (listed; nil when not known), or the error.
type sharedDir struct {
	entries, listed []catalogx.ListedEntry
	err             error
}

// readDir is os.ReadDir (hostReadDir), once per folder when s is not nil.
func (s *hostShare) readDir(dir string) ([]catalogx.ListedEntry, error) {
	if s == nil {
		sorted, _, err := hostReadDir(dir, nil)
		return sorted, err
	}
	d, ok := s.dirs[dir]
	if !ok {
		d.entries, d.listed, d.err = hostReadDir(dir, &s.dirents)
		s.dirs[dir] = d
	}
	return d.entries, d.err
}

// listedDirs returns HostReads.Listed of the folders s listed, each read
// whole, its entries in the file system's order: each listing is given
// once and then let go (the walk of a skill folder reads each of its
// folders once; a second asker reads the folder itself), so the listings
// held shrink as lint's listing goes on (about 0.2 MB over both corpus
// folders when the search ends, five times that in the heap goal under
// lint's GOGC=400).
func (s *hostShare) listedDirs() func(string) ([]catalogx.ListedEntry, bool) {
	dirs := make(map[string][]catalogx.ListedEntry, len(s.dirs))
	for p, d := range s.dirs {
		if d.err == nil && d.listed != nil {
			dirs[p] = d.listed
		}
	}
	var mu sync.Mutex
	return func(p string) ([]catalogx.ListedEntry, bool) {
		mu.Lock()
		defer mu.Unlock()
		ents, ok := dirs[p]
		if ok {
			delete(dirs, p)
		}
		return ents, ok
	}
}

// pendingRead is a file a profile discovered and reads: its verdict waits
// for the bytes (judgeCandidates with pending).
type pendingRead struct {
	p    *profile.Profile
	v    *hostVerdict
	path string
	flat bool
}

// readPending reads each file of pending once for each size limit and
// gives the bytes to every verdict that waits for them (parseVerdict), in
// the order the files were first asked for; the verdicts on one file's
// bytes share its YAML parses (yamlMemo). The verdicts keep no parsed
// skill (Skill is nil): what lint reads of a host's listing is the verdict
// (catalogx.HostFile), and a parsed skill for every profile and file would
// be held until the last file is read.
func readPending(pending []pendingRead) {
	type key struct {
		path string
		max  int
	}
	waiting := make(map[key][]int, len(pending))
	var order []key
	for i, pr := range pending {
		k := key{pr.path, pr.p.Parse.MaxSkillBytes}
		if _, ok := waiting[k]; !ok {
			order = append(order, k)
		}
		waiting[k] = append(waiting[k], i)
	}
	for _, k := range order {
		data, err := hostReadShared(k.path, k.max)
		memo := &yamlMemo{noSkill: true}
		copies := map[string]string{}
		for _, i := range waiting[k] {
			pr := &pending[i]
			parseVerdict(pr.p, pr.v, pr.path, pr.flat, data, err, memo)
			pr.v.Skill = nil
			detachVerdict(pr.v, data, copies)
		}
	}
}

// hostReadShared is hostRead for readPending; tests count the calls.
var hostReadShared = hostRead

// hostFilesAll is catalogx.HostFilesAll: hostFiles for each profile of
// ps, in order, their folders listed and their files read once for all.
// Its verdicts are those of hostFiles; no listing of skills is built.
func hostFilesAll(ctx context.Context, ps []*profile.Profile, opts *Options) ([]*catalogx.HostListing, error) {
	hs, err := searchHosts(ctx, ps, opts)
	if err != nil {
		return nil, err
	}
	hs.share = nil
	return hs.finish(), nil
}

// hostSearchAll is catalogx.HostSearch: hostFilesAll with the files' bytes
// handed over by the caller's own read where it read them (give), the
// others read by finish.
func hostSearchAll(ctx context.Context, ps []*profile.Profile, opts *Options) (*catalogx.HostReads, error) {
	hs, err := searchHosts(ctx, ps, opts)
	if err != nil {
		return nil, err
	}
	folders := hs.share.folders()
	listed := hs.share.listedDirs()
	hs.share = nil
	return &catalogx.HostReads{Give: hs.give, Finish: hs.finish, Folder: func(p string) bool {
		_, ok := folders[p]
		return ok
	}, Listed: listed}, nil
}

// folders are the paths of the entries of the folders s listed that are
// folders, not symlinks (the listing's type is lstat's, as os.ReadDir's), each the folder's
// path, a separator and the name (filepath.Join's when the folder's path
// is not clean): the folders whose lstat the searches already made.
// lint --compat's file keys lstat'ed each folder on the path of each file
// again (about 1,000 of its 2,800 stats over both corpus folders,
// strace -c).
func (s *hostShare) folders() map[string]struct{} {
	n := 0
	for _, d := range s.dirs {
		n += len(d.entries)
	}
	out := make(map[string]struct{}, n/3+1)
	for dir, d := range s.dirs {
		if d.err != nil {
			continue
		}
		kids := s.kids[dir]
		for i, e := range d.entries {
			if !e.Type.IsDir() {
				continue
			}
			p := ""
			if i < len(kids) {
				p = kids[i]
			}
			if p == "" {
				p = filepath.Join(dir, e.Name)
			}
			out[p] = struct{}{}
		}
	}
	return out
}

// hostSearched is the profiles' searches of one hostFilesAll, their
// verdicts waiting for the files' bytes (pending).
type hostSearched struct {
	share   *hostShare // the folders listed, until hostSearchAll takes them
	ps      []*profile.Profile
	judged  []*hostJudged
	pending []pendingRead
	byPath  map[string][]int // pending's indices by path; not written after searchHosts
	mu      sync.Mutex
	given   []bool // by pending index: give parsed it (under mu)
}

// searchHosts searches the folders of every profile of ps, each folder
// listed once for all (hostShare), and judges what it finds; the files to
// read are left pending.
func searchHosts(ctx context.Context, ps []*profile.Profile, opts *Options) (*hostSearched, error) {
	share := &hostShare{dirs: map[string]sharedDir{}}
	hs := &hostSearched{share: share, ps: ps, judged: make([]*hostJudged, 0, len(ps))}
	for _, p := range ps {
		c, err := hostCatalog(ctx, p, opts)
		if err != nil {
			return nil, err
		}
		h, err := c.hostJudge(ctx, share, &hs.pending)
		if err != nil {
			return nil, err
		}
		h.cands, h.l = nil, nil // settle needs neither; hostListing, which does, is not run
		hs.judged = append(hs.judged, h)
		if len(hs.judged) == 1 {
			// The profiles mostly read the same files: room for as many
			// for each, not grown by doubling (1 MB a run over both
			// corpus folders).
			hs.pending = slices.Grow(hs.pending, len(hs.pending)*(len(ps)-1))
		}
	}
	hs.byPath = make(map[string][]int, len(hs.pending)/max(len(ps), 1)+1)
	for i := range hs.pending {
		hs.byPath[hs.pending[i].path] = append(hs.byPath[hs.pending[i].path], i)
	}
	hs.given = make([]bool, len(hs.pending))
	return hs, nil
}

// readGives reports whether hostRead(path, max) gives data, the bytes of
// a read of the file whole (truncated false) or of its first part.
func readGives(data []byte, truncated bool, max int) bool {
	if truncated {
		return false
	}
	if max <= 0 {
		return len(data) <= hostReadLimit
	}
	return len(data) <= max
}

// give is HostReads.Give: the verdicts waiting for p.Path whose own read
// would give p.Data are parsed from it, sharing one yamlMemo, as
// readPending parses them; the memo starts with the listing's parse
// (givenParse). Their texts may be parts of p.Data, which the caller's
// reader reuses once give returns: each verdict's are copied out
// (detachVerdict) and the memo let go, so nothing keeps the bytes, which
// are not copied (a copy of every file was 2.6% of lint --compat's CPU).
func (hs *hostSearched) give(p *catalogx.Parsed) bool {
	idx := hs.byPath[p.Path]
	if len(idx) == 0 {
		return false
	}
	var take []int
	hs.mu.Lock()
	for _, i := range idx {
		if !hs.given[i] && readGives(p.Data, p.Truncated, hs.pending[i].p.Parse.MaxSkillBytes) {
			hs.given[i] = true
			take = append(take, i)
		}
	}
	hs.mu.Unlock()
	if len(take) == 0 {
		return false
	}
	data := p.Data
	memo := &yamlMemo{noSkill: true}
	memo.givenParse(p, data)
	copies := map[string]string{}
	for _, i := range take {
		pr := &hs.pending[i]
		parseVerdict(pr.p, pr.v, pr.path, pr.flat, data, nil, memo)
		pr.v.Skill = nil
		detachVerdict(pr.v, data, copies)
	}
	return true
}

// detachVerdict copies the texts of v that point into data (a profile's
// text of a plain file is data itself, and a name or description read
// from it a part of it), each once for the verdicts of the file (copies,
// by text), so that no verdict keeps the whole file: every skill file's
// bytes were held until the last host listing was let go, a heap goal of
// five times that under lint's GOGC=400 (TestDetachVerdict).
func detachVerdict(v *hostVerdict, data []byte, copies map[string]string) {
	if len(data) == 0 {
		return
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	hi := lo + uintptr(len(data))
	detach := func(s *string) {
		if *s == "" {
			return
		}
		if p := uintptr(unsafe.Pointer(unsafe.StringData(*s))); p < lo || p >= hi {
			return
		}
		c, ok := copies[*s]
		if !ok {
			c = strings.Clone(*s)
			copies[c] = c
		}
		*s = c
	}
	detach(&v.Name)
	detach(&v.Description)
	detach(&v.Reason)
	detach(&v.alias)
	detach(&v.short)
	for i := range v.Changes {
		detach(&v.Changes[i])
	}
}

// givenParse puts the listing's parse of p in the memo of its bytes,
// data, as yamlMemo.parse would have made it of the text data:
// when p is a lenient parse of data whole, with no byte order mark and no
// CR, every profile's text of it is data itself (yamlMemo.text), and
// skill.Parse of it with the memo's options gives the same skill and the
// same findings of the codes a host reads (parse-error, parse-recovered,
// duplicate-field): the options differ only in KeepRejected, which
// changes nothing for a parse with no error (the listing keeps no skill
// with one), and MaxDescriptionChars, which only words description-long
// and description-too-long. TestHostFilesAllIsHostFiles and the lint
// reports with and without the listing's reads shared hold it.
func (m *yamlMemo) givenParse(p *catalogx.Parsed, data []byte) {
	if p.Skill == nil || p.Mode != skill.Lenient || p.Truncated || bytes.HasPrefix(data, utf8BOM) || bytes.IndexByte(data, '\r') >= 0 {
		return
	}
	m.parses = append(m.parses, yamlParse{src: unsafe.String(unsafe.SliceData(data), len(data)), path: p.Path, flat: p.Flat, given: true, s: p.Skill, diags: p.Diags})
}

// finish is HostReads.Finish: each profile's verdicts (settled) in its
// listing.
func (hs *hostSearched) finish() []*catalogx.HostListing {
	vss := hs.settled()
	out := make([]*catalogx.HostListing, 0, len(hs.ps))
	for i, h := range hs.judged {
		out = append(out, hostListingOf(h.c, hs.ps[i], vss[i]))
	}
	return out
}

// settled reads the files give did not hand over (readPending) and
// settles each profile's verdicts, in the order of hs.ps, the copies read
// once left out.
func (hs *hostSearched) settled() [][]hostVerdict {
	rest := hs.pending
	if slices.Contains(hs.given, true) {
		rest = nil
		for i := range hs.pending {
			if !hs.given[i] {
				rest = append(rest, hs.pending[i])
			}
		}
	}
	readPending(rest)
	hs.pending, hs.byPath = nil, nil
	out := make([][]hostVerdict, 0, len(hs.judged))
	for _, h := range hs.judged {
		out = append(out, notExcluded(h.settle()))
	}
	return out
}
