package lint

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/hostws"
)

// TestCompatAgreesWithPresets requires, on workspaces generated from seeds
// (randomLayout: skill folders of every host at, above and below the
// working folder, git roots as a folder, a file or none, symlinked roots
// holding dot folders, user folders), that lint --compat's verdict of every
// file for every host says "loads" exactly when `skillet list --preset
// HOST` from the same working folder lists it, and that every file a
// preset lists has a verdict. Both come from one decision (the host's
// listing), so a verdict can never claim a host loads a file from a folder
// it does not read.
func TestCompatAgreesWithPresets(t *testing.T) {
	seeds := 60
	if testing.Short() {
		seeds = 20
	}
	ctx := context.Background()
	cells, loads := 0, 0
	for seed := range uint64(seeds) {
		w := randomLayout(seed)
		sb, err := w.Materialize(t.TempDir(), nil)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		t.Setenv("HOME", sb.Home)
		t.Setenv("XDG_CONFIG_HOME", filepath.Join(sb.Home, ".config"))
		base := catalog.Options{Workspace: sb.Cwd, NoConfigFile: true}
		copts := base
		r, err := Run(ctx, &Options{Catalog: &copts, Compat: true})
		if err != nil {
			t.Fatalf("seed %d: lint: %v", seed, err)
		}
		verdicts := map[string]map[string]string{} // host -> file key -> verdict
		for _, c := range r.Compat {
			for _, h := range c.Hosts {
				if verdicts[h.Host] == nil {
					verdicts[h.Host] = map[string]string{}
				}
				verdicts[h.Host][catalogx.FileKey(c.Path)] = h.Verdict
			}
		}
		for _, p := range hostProfiles() {
			o := base
			o.Preset = p.Name
			c, err := catalog.New(ctx, &o)
			if err != nil {
				t.Fatal(err)
			}
			l, err := c.List(ctx)
			if err != nil {
				t.Fatal(err)
			}
			listed := map[string]bool{}
			for _, s := range l.Skills {
				listed[catalogx.FileKey(s.Location)] = true
				if _, ok := verdicts[p.Name][catalogx.FileKey(s.Location)]; !ok {
					t.Errorf("seed %d, %s: list --preset lists %s; --compat has no verdict for it", seed, p.Name, sb.Rel(s.Location))
				}
			}
			for key, v := range verdicts[p.Name] {
				cells++
				loaded := v != verdictNotLoaded
				if loaded {
					loads++
				}
				if loaded != listed[key] {
					t.Errorf("seed %d (cwd %s, git %v), %s: %s: --compat says %s, list --preset lists it: %v\n%s",
						seed, w.Cwd, w.Git, p.Name, sb.Rel(key), v, listed[key], layoutText(w))
				}
			}
		}
	}
	t.Logf("%d seeds: %d file × host verdicts agree with list --preset (%d loads)", seeds, cells, loads)
	if loads == 0 || loads == cells {
		t.Errorf("%d of %d verdicts load: the layouts do not tell loaded from not loaded", loads, cells)
	}
}

// layoutText lists a generated workspace's files and links, for a failure.
func layoutText(w *hostws.Workspace) string {
	var lines []string
	for _, f := range w.Files {
		lines = append(lines, "  "+f.Name)
	}
	for _, l := range w.Symlinks {
		lines = append(lines, fmt.Sprintf("  %s -> %s", l.Link, l.Target))
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}
