package catalog

import (
	"context"
	"io/fs"
	"os"

	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/profile"
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

// hostShare holds the folders the profiles' searches listed (os.ReadDir)
// and what os.Stat and os.Lstat said of the paths they looked up, by path.
// Not safe for concurrent use: the searches run one after another.
type hostShare struct {
	dirs          map[string]sharedDir
	stats, lstats map[string]sharedStat
}

// sharedStat is what os.Stat or os.Lstat said of a path.
type sharedStat struct {
	fi  fs.FileInfo
	err error
}

// stat is os.Stat, once per path when s is not nil: each profile's search
// stats each skill file it finds (skillFileAmong), eleven times the same
// path in a --compat run, where about a tenth of its CPU went to the
// searches (pprof; TestHostShareStatsOnce, BenchmarkHostFilesAll).
func (s *hostShare) stat(p string) (fs.FileInfo, error) {
	if s == nil {
		return os.Stat(p)
	}
	return s.memo(&s.stats, p, hostStat)
}

// lstat is os.Lstat, once per path when s is not nil.
func (s *hostShare) lstat(p string) (fs.FileInfo, error) {
	if s == nil {
		return os.Lstat(p)
	}
	return s.memo(&s.lstats, p, hostLstat)
}

// hostStat and hostLstat are os.Stat and os.Lstat of a shared search;
// tests count the calls.
var hostStat, hostLstat = os.Stat, os.Lstat

func (s *hostShare) memo(m *map[string]sharedStat, p string, stat func(string) (fs.FileInfo, error)) (fs.FileInfo, error) {
	if *m == nil {
		*m = map[string]sharedStat{}
	}
	r, ok := (*m)[p]
	if !ok {
		r.fi, r.err = stat(p)
		(*m)[p] = r
	}
	return r.fi, r.err
}

type sharedDir struct {
	entries []os.DirEntry
	err     error
}

// readDir is os.ReadDir, once per folder when s is not nil.
func (s *hostShare) readDir(dir string) ([]os.DirEntry, error) {
	if s == nil {
		return os.ReadDir(dir)
	}
	d, ok := s.dirs[dir]
	if !ok {
		d.entries, d.err = os.ReadDir(dir)
		s.dirs[dir] = d
	}
	return d.entries, d.err
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
		data, err := hostRead(k.path, k.max)
		memo := &yamlMemo{}
		for _, i := range waiting[k] {
			pr := &pending[i]
			parseVerdict(pr.p, pr.v, pr.path, pr.flat, data, err, memo)
			pr.v.Skill = nil
		}
	}
}

// hostFilesAll is catalogx.HostFilesAll: hostFiles for each profile of
// ps, in order, their folders listed and their files read once for all.
// Its verdicts are those of hostFiles; no listing of skills is built.
func hostFilesAll(ctx context.Context, ps []*profile.Profile, opts *Options) ([]*catalogx.HostListing, error) {
	share := &hostShare{dirs: map[string]sharedDir{}}
	var pending []pendingRead
	judged := make([]*hostJudged, 0, len(ps))
	for _, p := range ps {
		c, err := hostCatalog(ctx, p, opts)
		if err != nil {
			return nil, err
		}
		h, err := c.hostJudge(ctx, share, &pending)
		if err != nil {
			return nil, err
		}
		h.cands, h.l = nil, nil // settle needs neither; hostListing, which does, is not run
		judged = append(judged, h)
	}
	share.dirs, share.stats, share.lstats = nil, nil, nil // the searches are done
	readPending(pending)
	out := make([]*catalogx.HostListing, 0, len(ps))
	for i, h := range judged {
		out = append(out, hostListingOf(h.c, ps[i], notExcluded(h.settle())))
	}
	return out, nil
}
