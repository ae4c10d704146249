package catalogx_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/benchtree/tree"
	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/profile"
	"github.com/skillet-go/skillet/internal/testcorpus"
	"github.com/skillet-go/skillet/skill"
)

// TestHostFilesAllIsHostFiles: the listings of every profile made together
// (each folder listed and each file read once for all) are the listings
// made one by one, file for file and verdict for verdict, on a workspace
// with skills in several hosts' folders (the same skills twice through a
// symlinked folder, a file in another letter case, a skill whose name is
// not its folder's, broken ones, a key given twice, a root that is a
// skill itself), with the published corpus as extra
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
		".agents/skills/dup/SKILL.md":     "---\nname: dup\nname: dup-again\ndescription: A key given twice.\n---\n",
		// A skill file in a root itself: the skills below are inside it
		// for a profile that reads one there (Discovery.RootSkill), not
		// for the others, which search the same root.
		".agents/skills/SKILL.md": "---\nname: skills\ndescription: A root that is a skill.\n---\n",
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
	given := searchGiven(t, ps, opts, all)
	files, loaded := 0, 0
	for i, p := range ps {
		one, err := cx.HostFiles(ctx, p, opts)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(one.Files, all[i].Files); d != "" {
			t.Errorf("%s: HostFilesAll differs from HostFiles (-one +all):\n%s", p.Name, d)
		}
		if d := cmp.Diff(one.Files, given[i].Files); d != "" {
			t.Errorf("%s: HostSearch with the files given differs from HostFiles (-one +given):\n%s", p.Name, d)
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

// searchGiven lists the workspace of opts with every profile of ps as
// HostSearch does, every file the listings all hold handed over by Give
// as a listing's reader would: whole, or (one in three) its first 100
// bytes marked truncated, which no profile may take; a whole one with the
// listing's parse of it (none when it does not parse), which the profiles
// whose YAML step reads the same text take instead of parsing again. Each
// file's bytes are written over once Give returns, as a listing's reader
// reuses its buffer: no profile may keep them.
func searchGiven(t *testing.T, ps []*profile.Profile, opts *catalog.Options, all []*catalogx.HostListing) []*catalogx.HostListing {
	t.Helper()
	hr, err := cx.HostSearch(context.Background(), ps, opts)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	took, parsed := 0, 0
	for _, l := range all {
		for _, f := range l.Files {
			if seen[f.Path] {
				continue
			}
			seen[f.Path] = true
			data, err := os.ReadFile(f.Path)
			if err != nil {
				continue // a listing's reader hands over only what it read
			}
			cut := len(seen)%3 == 0 && len(data) > 100
			if cut {
				data = data[:100]
			}
			flat := !strings.EqualFold(filepath.Base(f.Path), catalog.SkillFile)
			given := &catalogx.Parsed{Path: f.Path, Flat: flat, Data: data, Truncated: cut}
			if !cut {
				// As lint's listing parsed it (skillet's own limits: its
				// description-long findings are not the memo's).
				s, diags := skill.Parse(data, &skill.Options{Path: f.Path, Flat: flat, SkipBody: true, Truncated: cut})
				given.Skill, given.Diags = s, diags
				if s != nil {
					parsed++
				}
			}
			took1 := hr.Give(given)
			for i := range data {
				data[i] = 'x' // as a listing's reader reuses its buffer
			}
			if took1 {
				took++
				if cut {
					t.Errorf("Give(%s) of its first 100 bytes: a profile took them", f.Path)
				}
			}
		}
	}
	if took == 0 || parsed == 0 {
		t.Fatalf("profiles took %d of the files Give handed over, %d of them parsed", took, parsed)
	}
	return hr.Finish()
}
