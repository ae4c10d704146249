package lint

import (
	"context"
	"path/filepath"
	"slices"
	"sync"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/profile"
	"github.com/skillet-go/skillet/internal/skillsref"
)

// sharedReads is what lint's listing's one read of each skill file gives
// --compat and --target besides lint's own checks: the bytes go to every
// host profile whose search found the file (catalogx.HostReads.Give, so
// the host listings do not read it again) and, with --compat, to the
// reference validator (skillsref.CheckRead), on the listing's reader
// goroutines as each file is parsed. A file the listing did not read, or
// read only in part, is read by the host listings and the validator as
// before, so the report is the same (docs/performance.md#lint).
type sharedReads struct {
	compat bool                // the validator's findings are wanted
	hosts  *catalogx.HostReads // nil until search, or when the listing's reads are not shared
	ps     []*profile.Profile  // the profiles searched
	scope  []string            // the files the report covers (nil: all)

	mu    sync.Mutex
	valid map[string][]skillsref.Violation // by skill file path: CheckRead of its folder
}

// shareListingReads is off only in tests that compare the report with the
// one made with every file read again (TestSharedReadsAreTheReads).
var shareListingReads = true

// newSharedReads returns the shared reads of a run with --compat (compat)
// or --target (targets), nil with neither.
func newSharedReads(compat, targets bool) *sharedReads {
	if !compat && !targets {
		return nil
	}
	return &sharedReads{compat: compat}
}

// search searches the folders of every host profile (hostProfiles) of the
// workspace of copts, as it will be listed, before the listing that shares
// its reads; scope is the files the report covers (nil: all).
func (sr *sharedReads) search(ctx context.Context, copts *catalog.Options, scope []string) error {
	if sr == nil || !shareListingReads {
		return nil
	}
	ps := hostProfiles()
	hr, err := catx.HostSearch(ctx, ps, copts)
	if err != nil {
		return err
	}
	sr.hosts, sr.ps, sr.scope = hr, ps, scope
	return nil
}

// parsed hands the file p, as the listing read it, to the host profiles
// and the reference validator. Safe for concurrent use.
func (sr *sharedReads) parsed(p *catalogx.Parsed) {
	if sr == nil || sr.hosts == nil {
		return
	}
	sr.hosts.Give(p)
	if !sr.compat || p.Flat || p.Truncated || filepath.Base(p.Path) != catalog.SkillFile ||
		sr.scope != nil && !inScope(p.Path, sr.scope) {
		return
	}
	vs, ok := skillsref.CheckRead(filepath.Dir(p.Path), p.Data)
	if !ok {
		return
	}
	sr.mu.Lock()
	if sr.valid == nil {
		sr.valid = map[string][]skillsref.Violation{}
	}
	sr.valid[p.Path] = vs
	sr.mu.Unlock()
}

// listings returns the host listings of ps for the workspace of copts
// (the one searched): those of the search, the files the listing did not
// hand over read now, or, when no search of ps was made (sr nil, or a
// listing that shared no reads), HostFilesAll's.
func (sr *sharedReads) listings(ctx context.Context, ps []*profile.Profile, copts *catalog.Options) ([]*catalogx.HostListing, error) {
	if sr == nil || sr.hosts == nil || !slices.Equal(ps, sr.ps) {
		return catx.HostFilesAll(ctx, ps, copts)
	}
	return sr.hosts.Finish(), nil
}

// folders is HostReads.Folder of the search (nil when none was made, or
// it did not list the folders): the folders the host searches found.
func (sr *sharedReads) folders() func(string) bool {
	if sr == nil || sr.hosts == nil {
		return nil
	}
	return sr.hosts.Folder
}

// listedDirs is what the host searches listed of the folders they went
// through (catalogx.HostReads.Folder and Listed): lint's walk of each
// skill folder (walkBundle) reads a folder they listed from there. Its
// functions are safe for concurrent use.
type listedDirs struct {
	folder func(string) bool
	listed func(string) ([]catalogx.ListedEntry, bool)
}

// listedDirs returns the listings of sr's search, nil when none was made
// or it gave none.
func (sr *sharedReads) listedDirs() *listedDirs {
	if sr == nil || sr.hosts == nil || sr.hosts.Folder == nil || sr.hosts.Listed == nil {
		return nil
	}
	return &listedDirs{folder: sr.hosts.Folder, listed: sr.hosts.Listed}
}

// validator returns the reference validator's violations of the skill
// folder of the file at path: CheckRead's when the listing's read of it
// was shared, else skillsref.Check of the folder.
func (sr *sharedReads) validator(path string) []skillsref.Violation {
	if sr != nil {
		if vs, ok := sr.valid[path]; ok {
			return vs
		}
	}
	return skillsref.Check(filepath.Dir(path))
}
