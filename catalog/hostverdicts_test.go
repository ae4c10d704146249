package catalog

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/skillet-go/skillet/internal/hostws"
	"github.com/skillet-go/skillet/internal/profile"
	"github.com/skillet-go/skillet/internal/testcorpus"
)

// TestHostVerdictsAreHostList: hostVerdicts settles the verdicts without
// building hostList's listing, and gives exactly the verdicts hostList
// gives (the copies read once left out), and hostVerdictsAll (the
// profiles' folders and files read once for all, as lint --compat reads
// them) gives them too, but for the parsed skill it does not keep, for
// every host profile on generated workspaces of every kind the generator
// makes (clashes, links, extensions, hidden skills; -short leaves out the
// large catalogs). TestProfilesMatchRecordings compares hostVerdictsAll's
// verdicts with the hosts' recordings: this test holds the listing of one
// host (list --preset) to them.
func TestHostVerdictsAreHostList(t *testing.T) {
	t.Parallel()
	seeds := 0
	for seed := uint64(1); seeds < 24 && seed < 200; seed++ {
		w := hostws.Generate(seed)
		if testing.Short() && len(w.Files) > 60 {
			continue
		}
		seeds++
		checkVerdictsAreHostList(t, w, fmt.Sprintf("seed %d", seed), nil)
	}
}

// TestHostVerdictsAreHostListRecorded is TestHostVerdictsAreHostList on
// the hand-made workspaces the hosts were recorded on
// (hosts/testdata/workspaces: symlinks, walk-ups, clashes between roots,
// the published corpus copied in), where TestProfilesMatchRecordings
// holds only hostVerdictsAll to what the hosts listed. The workspaces that
// copy the corpus in are skipped when it is not found, and under -short,
// where each workspace is checked with one of its hosts, in turn.
func TestHostVerdictsAreHostListRecorded(t *testing.T) {
	t.Parallel()
	wss, err := hostws.LoadDir(filepath.Join("..", "hosts", "testdata", "workspaces"))
	if err != nil {
		t.Fatal(err)
	}
	corpus := testcorpus.Find()
	var nonNative []string
	for _, p := range profile.All() {
		if !p.Native {
			nonNative = append(nonNative, p.Name)
		}
	}
	n := 0
	for _, w := range wss {
		if len(w.Corpus) > 0 && (corpus == "" || testing.Short()) {
			continue
		}
		hosts := w.Hosts
		if testing.Short() {
			// One host a workspace, in turn: every workspace and every
			// host is checked, not every pair.
			if len(hosts) == 0 {
				hosts = nonNative
			}
			hosts = hosts[n%len(hosts) : n%len(hosts)+1]
		}
		n++
		checkVerdictsAreHostList(t, w, w.Name, &hostws.Options{CorpusDir: corpus}, hosts...)
	}
	if n < 30 {
		t.Fatalf("%d of %d recorded workspaces checked: want at least 30", n, len(wss))
	}
}

// checkVerdictsAreHostList lays w out and holds, for every host profile
// (those named in hosts, when any: a workspace recorded for some hosts
// only), hostVerdicts to hostList's verdicts and hostVerdictsAll to
// hostVerdicts.
func checkVerdictsAreHostList(t *testing.T, w *hostws.Workspace, label string, opt *hostws.Options, hosts ...string) {
	t.Helper()
	ctx := context.Background()
	root, err := hostws.SandboxRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sb, err := w.Materialize(root, opt)
	if err != nil {
		t.Fatal(err)
	}
	opts := func() *Options {
		return &Options{Workspace: sb.Cwd, home: sb.Home, getenv: func(string) string { return "" }}
	}
	var ps []*profile.Profile
	for _, p := range profile.All() {
		if !p.Native && (len(hosts) == 0 || slices.Contains(hosts, p.Name)) {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		t.Fatalf("%s: no host profile among %v", label, hosts)
	}
	all, err := hostVerdictsAll(ctx, ps, opts())
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		_, got, err := hostVerdicts(ctx, p, opts())
		if err != nil {
			t.Fatal(err)
		}
		c, err := hostCatalog(ctx, p, opts())
		if err != nil {
			t.Fatal(err)
		}
		_, want, err := c.hostList(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want = notExcluded(want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s on %s: hostVerdicts differs from hostList (-list +verdicts):\n%s", p.Name, label,
				cmp.Diff(want, got, cmp.Exporter(func(reflect.Type) bool { return true })))
		}
		for j := range got {
			got[j].Skill = nil
		}
		if !reflect.DeepEqual(all[i], got) {
			t.Errorf("%s on %s: hostVerdictsAll differs from hostVerdicts (-one +all):\n%s", p.Name, label,
				cmp.Diff(got, all[i], cmp.Exporter(func(reflect.Type) bool { return true })))
		}
	}
}
