package catalogx_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/benchtree/tree"
	"github.com/skillet-go/skillet/internal/profile"
	"github.com/skillet-go/skillet/internal/testcorpus"
)

// TestHostFilesAllIsHostFiles: the listings of every profile made together
// (each folder listed and each file read once for all) are the listings
// made one by one, file for file and verdict for verdict, on a workspace
// with skills in several hosts' folders (the same skills twice through a
// symlinked folder, a file in another letter case, a skill whose name is
// not its folder's, broken ones), with the published corpus as extra
// paths when it is there; and Where answers alike.
func TestHostFilesAllIsHostFiles(t *testing.T) {
	ws := t.TempDir()
	for i, dir := range []string{".claude/skills", ".agents/skills", ".codex/skills", "skills"} {
		if _, err := tree.Generate(filepath.Join(ws, dir), &tree.Options{N: 30, Seed: uint64(11 + i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(ws, ".github"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(ws, ".claude", "skills"), filepath.Join(ws, ".github", "skills")); err != nil {
		t.Fatal(err)
	}
	write(t, ws, map[string]string{
		".claude/skills/lower/skill.md":   "---\nname: lower\ndescription: Lower case file.\n---\n",
		".claude/skills/other/SKILL.md":   "---\nname: not-other\ndescription: Named apart from its folder.\n---\n",
		".agents/skills/nofm/SKILL.md":    "no frontmatter at all\n",
		".codex/skills/bad-yaml/SKILL.md": "---\nname: bad-yaml\ndescription: a: b: c\n---\n",
	})
	opts := &catalog.Options{Workspace: ws, NoUser: true}
	if testing.Short() {
		t.Log("-short: the generated workspace only; go test ./... adds the published corpus as extra paths")
	} else if dir := testcorpus.Find(); dir != "" {
		opts.ExtraPaths = testcorpus.Roots(dir)
	} else {
		t.Log("corpus not found (../shared/corpus or $SKILLET_CORPUS): the generated workspace only")
	}
	var ps []*profile.Profile
	for _, p := range profile.All() {
		if !p.Native {
			ps = append(ps, p)
		}
	}
	ctx := context.Background()
	all, err := cx.HostFilesAll(ctx, ps, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(ps) {
		t.Fatalf("%d listings for %d profiles", len(all), len(ps))
	}
	files, loaded := 0, 0
	for i, p := range ps {
		one, err := cx.HostFiles(ctx, p, opts)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(one.Files, all[i].Files); d != "" {
			t.Errorf("%s: HostFilesAll differs from HostFiles (-one +all):\n%s", p.Name, d)
		}
		for _, f := range one.Files {
			files++
			if f.Loaded {
				loaded++
			}
			r1, m1 := one.Where(f.Path, f.Root)
			r2, m2 := all[i].Where(f.Path, f.Root)
			if r1 != r2 || m1 != m2 {
				t.Errorf("%s: Where(%s) = %q, %q alone, %q, %q together", p.Name, f.Path, r1, m1, r2, m2)
			}
		}
	}
	if loaded == 0 || loaded == files {
		t.Fatalf("%d of %d files loaded: the workspace does not test both verdicts", loaded, files)
	}
	t.Logf("%d profiles, %d files, %d loaded", len(ps), files, loaded)
}
