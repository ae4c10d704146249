package catalog

import (
	"context"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/skillet-go/skillet/internal/hostws"
	"github.com/skillet-go/skillet/internal/profile"
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
	ctx := context.Background()
	seeds := 0
	for seed := uint64(1); seeds < 24 && seed < 200; seed++ {
		w := hostws.Generate(seed)
		if testing.Short() && len(w.Files) > 60 {
			continue
		}
		seeds++
		root, err := hostws.SandboxRoot(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		sb, err := w.Materialize(root, nil)
		if err != nil {
			t.Fatal(err)
		}
		opts := func() *Options {
			return &Options{Workspace: sb.Cwd, home: sb.Home, getenv: func(string) string { return "" }}
		}
		var ps []*profile.Profile
		for _, p := range profile.All() {
			if !p.Native {
				ps = append(ps, p)
			}
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
				t.Errorf("%s on seed %d: hostVerdicts differs from hostList (-list +verdicts):\n%s", p.Name, seed,
					cmp.Diff(want, got, cmp.Exporter(func(reflect.Type) bool { return true })))
			}
			for j := range got {
				got[j].Skill = nil
			}
			if !reflect.DeepEqual(all[i], got) {
				t.Errorf("%s on seed %d: hostVerdictsAll differs from hostVerdicts (-one +all):\n%s", p.Name, seed,
					cmp.Diff(got, all[i], cmp.Exporter(func(reflect.Type) bool { return true })))
			}
		}
	}
}
