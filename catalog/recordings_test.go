package catalog_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/hostws"
	"github.com/skillet-go/skillet/internal/pool"
	"github.com/skillet-go/skillet/internal/profile"
	"github.com/skillet-go/skillet/internal/testcorpus"
)

// recordingSets are the folders of workspaces and recordings the profiles
// are compared with: the recordings of the real agents (hosts/testdata),
// and, for the systems described by their own documentation (brute,
// kestrel), recordings written from that text (catalog/testdata/hosts).
var recordingSets = []string{
	filepath.Join("..", "hosts", "testdata"),
	filepath.Join("testdata", "hosts"),
}

// TestProfilesMatchRecordings runs every host profile over the workspaces
// its host was recorded on and compares what the profile loads (names,
// copies, descriptions as the model is shown them, and paths where the host
// reveals them) with what the host listed. Every cell host × workspace ×
// skill must agree; a host that picked differently between runs is matched
// against exactly the lists it was seen to give.
//
// SKILLET_HOST_RECORDINGS names another folder of workspaces/ and
// recordings/ to compare with instead (a fresh run of the recorder).
// While fitting a profile, SKILLET_HOST_ONLY=gemini,qwen keeps the
// recordings of these hosts only and SKILLET_HOST_SEEDS=1-99999 the
// generated workspaces of these seeds only (the held-out ones stay unseen).
func TestProfilesMatchRecordings(t *testing.T) {
	t.Parallel()
	sets := recordingSets
	if dir := os.Getenv("SKILLET_HOST_RECORDINGS"); dir != "" {
		sets = []string{dir}
	}
	replays := pickReplays(t, sets, recordingFilter(t))
	// The replays wait on the file system (laying out sandboxes) more than
	// they compute: the workspaces run on the disk pool, and the replays
	// are reported in order.
	outcomes := make([]replayOutcome, len(replays))
	groups := groupReplays(t, replays, outcomes)
	sbs := newSandboxCache(t)
	if err := pool.Each(t.Context(), len(groups), pool.Disk, func(i int) {
		groups[i].run(replays, outcomes, sbs)
	}); err != nil {
		t.Fatal(err)
	}
	type tally struct{ cells, agree, workspaces, wsAgree, gaps int }
	per := map[string]*tally{}
	for i, rp := range replays {
		o := outcomes[i]
		if o.err != nil {
			t.Errorf("%s × %s: %v", rp.r.Host, rp.r.Workspace, o.err)
			continue
		}
		tl := per[rp.r.Host]
		if tl == nil {
			tl = &tally{}
			per[rp.r.Host] = tl
		}
		tl.cells += o.cells
		tl.workspaces++
		gap := rp.gap()
		if o.ok {
			tl.agree += o.cells
			tl.wsAgree++
			if gap != nil {
				t.Errorf("%s × %s agrees now: remove the gap %q from internal/profile/profiles/%s.json", rp.r.Host, rp.r.Workspace, gap.What, rp.p.Name)
			}
			continue
		}
		// A skill shown with another description is one missing and one
		// extra line, but one cell.
		bad := max(strings.Count(o.diff, "missing (host lists it)"), strings.Count(o.diff, "extra (host does not list it)"))
		tl.agree += max(o.cells-bad, 0)
		if gap != nil {
			tl.gaps++
			t.Logf("%s × %s: a known gap of the profile (%s); %d cells disagree:\n%s", rp.r.Host, rp.r.Workspace, gap.What, bad, o.diff)
			continue
		}
		t.Errorf("%s × %s (%s, version %s) disagrees:\n%s", rp.r.Host, rp.r.Workspace, o.describe, rp.r.Version, o.diff)
	}
	hosts := make([]string, 0, len(per))
	for h := range per {
		hosts = append(hosts, h)
	}
	sort.Strings(hosts)
	for _, h := range hosts {
		tl := per[h]
		t.Logf("%s: %d of %d workspaces agree (%d known gaps); %d of %d cells (workspace × skill)", h, tl.wsAgree, tl.workspaces, tl.gaps, tl.agree, tl.cells)
	}
}

// replay is one recording to compare with its host's profile: the
// workspace it was made on (nil for a generated one, made again from its
// seed when replayed).
type replay struct {
	r  *hostws.Recording
	ws *hostws.Workspace
	p  *profile.Profile
}

// replayOutcome is what replaying a recording gave: whether the profile
// agrees with every list the host gave and, if not, the difference; the
// number of cells (skills) compared; the workspace's description; or the
// error that kept it from being compared.
type replayOutcome struct {
	ok       bool
	diff     string
	cells    int
	describe string
	err      error
}

// pickReplays returns the recordings of sets that only keeps, with their
// workspace and profile, reporting those that have none and a profile
// checked on another version than the recording's. -short leaves out the
// workspaces that copy the published corpus (hundreds of skills each,
// most of this test's time) and 49 generated workspaces in 50; go test
// ./... replays every one.
func pickReplays(t *testing.T, sets []string, only *recordingPick) []replay {
	var replays []replay
	shortSkipped := 0
	for _, set := range sets {
		recs, byName := loadRecordingSet(t, set)
		for _, r := range recs {
			if !only.keep(r) {
				continue
			}
			ws := byName[r.Workspace]
			if testing.Short() && (r.Generator != 0 && r.Seed%50 != 0 || ws != nil && len(ws.Corpus) > 0) {
				shortSkipped++
				continue
			}
			if ws != nil && len(ws.Corpus) > 0 {
				testcorpus.Dir(t) // skips the test when the corpus is not there
			}
			if ws == nil && r.Generator == 0 {
				t.Errorf("%s: recording %s/%s has no workspace", set, r.Host, r.Workspace)
				continue
			}
			p, ok := profile.Lookup(r.Host)
			if !ok {
				t.Errorf("host %s is recorded but has no profile", r.Host)
				continue
			}
			if r.Version != "" && p.Version != r.Version {
				t.Errorf("%s: the profile says it was checked on version %q; the recording %s is of %q", p.Name, p.Version, r.Workspace, r.Version)
			}
			replays = append(replays, replay{r: r, ws: ws, p: p})
		}
	}
	if shortSkipped > 0 {
		t.Logf("-short: %d recordings not replayed (the corpus workspaces and 49 generated workspaces in 50); go test ./... replays every one", shortSkipped)
	}
	return replays
}

// workspaceReplays are the replays of the recordings made on one
// workspace (by index), replayed together: the workspace is laid out once,
// and every recorded host's profile applied to it at once
// (catalog.HostVerdictsAll: its folders listed and its files read once
// for all the profiles, as lint --compat reads them;
// TestHostVerdictsAreHostList holds that to each host's own listing).
type workspaceReplays struct {
	key     string
	ws      func() *hostws.Workspace // made when laid out
	replays []int
}

// groupReplays groups the replays by workspace, in order of their first
// replay; a generated recording whose workspace cannot be made again gets
// its outcome (an error) at once, in no group.
func groupReplays(t *testing.T, replays []replay, outcomes []replayOutcome) []*workspaceReplays {
	var groups []*workspaceReplays
	byKey := map[string]*workspaceReplays{}
	for i, rp := range replays {
		key, ws := "", func() *hostws.Workspace { return rp.ws }
		switch {
		case rp.r.Generator == 0:
			key = rp.ws.Name + "\x00" + rp.ws.Describe
		case generatedOK(t, rp.r):
			// Generated again once for every host recorded on it.
			key, ws = "\x00generated "+rp.r.Workspace, func() *hostws.Workspace { return hostws.Generate(rp.r.Seed) }
		default:
			outcomes[i] = replayOutcome{err: fmt.Errorf("the recording has no workspace")}
			continue
		}
		g := byKey[key]
		if g == nil {
			g = &workspaceReplays{key: key, ws: ws}
			byKey[key] = g
			groups = append(groups, g)
		}
		g.replays = append(g.replays, i)
	}
	return groups
}

// run lays out the workspace and compares what each recording's profile
// loads there with what its host listed, into outcomes.
func (g *workspaceReplays) run(replays []replay, outcomes []replayOutcome, sbs *sandboxCache) {
	fail := func(err error) {
		for _, i := range g.replays {
			outcomes[i] = replayOutcome{err: err}
		}
	}
	sb, w, err := sbs.get(g.key, g.ws)
	if err != nil {
		fail(err)
		return
	}
	var ps []*profile.Profile
	at := map[*profile.Profile]int{}
	for _, i := range g.replays {
		if p := replays[i].p; !slices.Contains(ps, p) {
			at[p] = len(ps)
			ps = append(ps, p)
		}
	}
	vss, err := catalog.HostVerdictsAll(context.Background(), ps, catalog.WithHome(&catalog.Options{Workspace: sb.Cwd}, sb.Home))
	if err != nil {
		fail(err)
		return
	}
	for _, i := range g.replays {
		rp := replays[i]
		outcomes[i] = rp.compare(sb, w, vss[at[rp.p]])
	}
}

// compare compares what the profile loads in sandbox sb of workspace w
// (its verdicts vs) with what the host listed.
func (rp replay) compare(sb *hostws.Sandbox, w *hostws.Workspace, vs []catalog.HostVerdict) replayOutcome {
	got, groups, err := profileListing(rp.p, sb, vs)
	if err != nil {
		return replayOutcome{err: err}
	}
	ok, diff := rp.r.Match(got, &hostws.CompareOptions{Paths: true})
	if len(groups) > 0 {
		// The host picks one copy of some names, not always the same:
		// every list it was seen to give must be one the profile allows.
		ok, diff = matchAny(rp.r, got, groups)
	}
	return replayOutcome{ok: ok, diff: diff, cells: max(len(got), len(rp.r.Observed[0].Skills), 1), describe: w.Describe}
}

// gap is the profile's known gap on the recording's workspace (nil for
// none).
func (rp replay) gap() *profile.Gap {
	var gap *profile.Gap
	for i := range rp.p.Gaps {
		if rp.p.Gaps[i].Workspace == rp.r.Workspace {
			gap = &rp.p.Gaps[i]
		}
	}
	return gap
}

// recordingPick is the subset of recordings SKILLET_HOST_ONLY and
// SKILLET_HOST_SEEDS name (all when unset).
type recordingPick struct {
	hosts    map[string]bool
	lo, hi   int64
	seedsSet bool
}

func recordingFilter(t *testing.T) *recordingPick {
	f := &recordingPick{}
	if v := os.Getenv("SKILLET_HOST_ONLY"); v != "" {
		f.hosts = map[string]bool{}
		for _, h := range strings.Split(v, ",") {
			f.hosts[h] = true
		}
	}
	if v := os.Getenv("SKILLET_HOST_SEEDS"); v != "" {
		if _, err := fmt.Sscanf(v, "%d-%d", &f.lo, &f.hi); err != nil {
			t.Fatalf("SKILLET_HOST_SEEDS=%q: want A-B: %v", v, err)
		}
		f.seedsSet = true
	}
	return f
}

// keep reports whether r is in the subset: a hand-made recording is kept
// whatever the seeds.
func (f *recordingPick) keep(r *hostws.Recording) bool {
	if f.hosts != nil && !f.hosts[r.Host] {
		return false
	}
	if f.seedsSet && r.Generator != 0 && (int64(r.Seed) < f.lo || int64(r.Seed) > f.hi) {
		return false
	}
	return true
}

// loadRecordingSet reads the recordings of a set (SET/recordings, and the
// recordings of generated workspaces, SET/generated) and its hand-made
// workspaces by name.
func loadRecordingSet(t *testing.T, set string) ([]*hostws.Recording, map[string]*hostws.Workspace) {
	var recs []*hostws.Recording
	for _, sub := range []string{"recordings", "generated"} {
		dir := filepath.Join(set, sub)
		if _, err := os.Stat(dir); err != nil {
			continue
		}
		rs, err := hostws.LoadRecordings(dir)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rs...)
	}
	byName := map[string]*hostws.Workspace{}
	if len(recs) == 0 {
		return nil, byName
	}
	wss, err := hostws.LoadDir(filepath.Join(set, "workspaces"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range wss {
		byName[w.Name] = w
	}
	return recs, byName
}

// generatedOK reports whether the workspace a generated recording was
// made on can be generated again from its seed (hostws.Generate(r.Seed),
// named r.Workspace); when the recording is of another generator version
// or names another workspace, it is an error.
func generatedOK(t *testing.T, r *hostws.Recording) bool {
	if r.Generator != hostws.GenVersion || r.Workspace != hostws.GenName(r.Generator, r.Seed) {
		t.Errorf("%s/%s: generated by version %d from seed %d; this generator is version %d", r.Host, r.Workspace, r.Generator, r.Seed, hostws.GenVersion)
		return false
	}
	return true
}

// sandboxCache holds each workspace laid out once per test (profiles only
// read it), for the workspaces replayed at the same time, in folders of one
// temporary folder (on a tmpfs where there is one: internal/testtmp). The
// corpus's files are copied, never linked (hostws.copyTree).
type sandboxCache struct {
	dir string
	mu  sync.Mutex
	m   map[string]*laidOut
}

// laidOut is one workspace (ws) and its sandbox, laid out by the first
// replay that asks for it.
type laidOut struct {
	once sync.Once
	ws   *hostws.Workspace
	sb   *hostws.Sandbox
	dir  string
	err  error
}

// newSandboxCache returns an empty cache whose sandboxes are removed when
// t ends, on the disk pool: removing the files of hundreds of sandboxes
// one after another, as t.TempDir does, took longer than laying them out.
func newSandboxCache(t *testing.T) *sandboxCache {
	c := &sandboxCache{dir: t.TempDir(), m: map[string]*laidOut{}}
	t.Cleanup(func() {
		var los []*laidOut
		for _, lo := range c.m {
			if lo.dir != "" {
				los = append(los, lo)
			}
		}
		if err := pool.Each(context.Background(), len(los), pool.Disk, func(i int) {
			if err := los[i].remove(); err != nil {
				t.Errorf("removing a sandbox: %v", err)
			}
		}); err != nil {
			t.Error(err)
		}
	})
	return c
}

// get returns the workspace of key, made by ws, and laid out (each once
// per test): the working folder is the workspace's, HOME the sandbox's.
func (c *sandboxCache) get(key string, ws func() *hostws.Workspace) (*hostws.Sandbox, *hostws.Workspace, error) {
	c.mu.Lock()
	lo := c.m[key]
	if lo == nil {
		lo = &laidOut{}
		c.m[key] = lo
	}
	c.mu.Unlock()
	lo.once.Do(func() {
		lo.ws = ws()
		lo.sb, lo.err = lo.layOut(c.dir, lo.ws)
	})
	return lo.sb, lo.ws, lo.err
}

// remove removes the sandbox's folder.
func (lo *laidOut) remove() error {
	return os.RemoveAll(lo.dir)
}

// layOut lays workspace w out in a new folder of parent.
func (lo *laidOut) layOut(parent string, w *hostws.Workspace) (*hostws.Sandbox, error) {
	dir, err := os.MkdirTemp(parent, "ws")
	if err != nil {
		return nil, err
	}
	lo.dir = dir
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		dir = r
	}
	opt := &hostws.Options{}
	if len(w.Corpus) > 0 {
		opt.CorpusDir = testcorpus.Find() // there: pickReplays checked
	}
	root, err := hostws.SandboxRoot(dir)
	if err != nil {
		return nil, err
	}
	return w.Materialize(root, opt)
}

// profileListing is what profile p shows the model in sandbox sb, by its
// verdicts vs. groups holds, for a host that picks one of several copies
// of a name (Duplicates "any"), every copy it may pick, by name; got then
// holds the profile's own pick.
func profileListing(p *profile.Profile, sb *hostws.Sandbox, vs []catalog.HostVerdict) (got []hostws.Skill, groups map[string][]hostws.Skill, err error) {
	got = []hostws.Skill{}
	for _, v := range vs {
		if v.Hidden || (!v.Loaded && !v.Any) {
			continue
		}
		shown := v.Path
		if p.Disclosure.Location == "folder" {
			shown = filepath.Dir(v.Path)
		}
		rel := sb.Rel(shown)
		if rel == "" {
			return nil, nil, fmt.Errorf("%s lies outside the sandbox", v.Path)
		}
		// A copy not loaded keeps the name and description it parsed to
		// (disclosure and budgets change only the loaded ones).
		s := hostws.Skill{Name: v.Name, Description: v.Description, Path: rel}
		if v.Any {
			if groups == nil {
				groups = map[string][]hostws.Skill{}
			}
			groups[s.Name] = append(groups[s.Name], s)
		}
		if !v.Loaded {
			continue
		}
		if p.Disclosure.MaxSkills > 0 && len(got) == p.Disclosure.MaxSkills {
			break // beyond the catalog's budget
		}
		got = append(got, s)
	}
	return got, groups, nil
}

// matchAny reports whether every list the recording observed is the
// profile's fixed skills plus exactly one copy of each name in groups.
func matchAny(r *hostws.Recording, got []hostws.Skill, groups map[string][]hostws.Skill) (bool, string) {
	var fixed []hostws.Skill
	for _, s := range got {
		if _, ok := groups[s.Name]; !ok {
			fixed = append(fixed, s)
		}
	}
	var b strings.Builder
	for i, o := range r.Observed {
		rest := map[string]int{}
		key := func(s hostws.Skill) string { return fmt.Sprintf("%q %q at %s", s.Name, s.Description, s.Path) }
		paths := true
		for _, s := range o.Skills {
			paths = paths && s.Path != ""
		}
		if !paths {
			key = func(s hostws.Skill) string { return fmt.Sprintf("%q %q", s.Name, s.Description) }
		}
		for _, s := range o.Skills {
			rest[key(s)]++
		}
		for _, s := range fixed {
			if rest[key(s)] == 0 {
				fmt.Fprintf(&b, "  observation %d: extra (host does not list it): %s\n", i+1, key(s))
			}
			rest[key(s)]--
		}
		for name, copies := range groups {
			found := 0
			for _, s := range copies {
				if rest[key(s)] > 0 {
					rest[key(s)]--
					found++
				}
			}
			if found != 1 {
				fmt.Fprintf(&b, "  observation %d: %d copies of %q where the profile allows one of %d\n", i+1, found, name, len(copies))
			}
		}
		for k, n := range rest {
			for ; n > 0; n-- {
				fmt.Fprintf(&b, "  observation %d: missing (host lists it): %s\n", i+1, k)
			}
		}
	}
	return b.Len() == 0, b.String()
}
