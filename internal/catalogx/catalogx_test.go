package catalogx_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/profile"
)

const skillMD = "---\nname: %s\ndescription: Does %s things.\n---\n\nBody of %s.\n"

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, text := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func md(name string) string { return strings.ReplaceAll(skillMD, "%s", name) }

// TestHooks checks every hook catalog registers, through a real catalog:
// candidates with and without ReadIgnored, a skill's files with what was
// withheld, the skill file and folder opened, and a host's verdict.
func TestHooks(t *testing.T) {
	ws := t.TempDir()
	write(t, ws, map[string]string{
		".agents/skills/alpha/SKILL.md":       md("alpha"),
		".agents/skills/alpha/scripts/run.sh": "echo hi\n",
		".agents/skills/alpha/.env":           "SECRET=1\n",
		".agents/skills/_draft/SKILL.md":      md("draft"),
	})
	ctx := context.Background()
	for _, tt := range []struct {
		ignored bool
		want    []string
	}{
		{false, []string{"alpha"}},
		{true, []string{"alpha", "draft (ignored)"}},
	} {
		c, err := catalog.New(ctx, &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true})
		if err != nil {
			t.Fatal(err)
		}
		if tt.ignored {
			catalogx.ReadIgnored(c)
		}
		l, err := c.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, cd := range catalogx.Candidates[catalog.Skill](l) {
			e := cd.Skill.Name
			if cd.Ignored {
				e += " (ignored)"
			}
			if cd.Scope != string(catalog.ScopeProject) || cd.Flat {
				t.Errorf("%s: scope %q, flat %v", cd.Path, cd.Scope, cd.Flat)
			}
			got = append(got, e)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("ReadIgnored %v: candidates %v, want %v", tt.ignored, got, tt.want)
		}
		if len(l.Skills) != 1 {
			t.Fatalf("ReadIgnored %v: %d skills loaded, want 1 (an ignored file is never loaded)", tt.ignored, len(l.Skills))
		}
	}

	c, _ := catalog.New(ctx, &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true})
	s, err := c.Get(ctx, "alpha")
	if err != nil {
		t.Fatal(err)
	}
	fl, err := catalogx.ListFiles[catalog.File](ctx, s, 0)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range fl.Files {
		paths = append(paths, f.Path)
	}
	if !slices.Equal(paths, []string{"SKILL.md", "scripts/run.sh"}) || fl.More || fl.Withheld != 1 {
		t.Errorf("ListFiles: %v more=%v withheld=%d, want SKILL.md and scripts/run.sh, 1 withheld (.env)", paths, fl.More, fl.Withheld)
	}
	f, err := catalogx.OpenSkillFile(s)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(f)
	f.Close()
	if string(data) != md("alpha") {
		t.Errorf("OpenSkillFile read %q", data)
	}
	root, err := catalogx.OpenRoot(s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := root.Stat("scripts/run.sh"); err != nil {
		t.Errorf("OpenRoot: %v", err)
	}
	if _, err := root.Stat("../_draft/SKILL.md"); err == nil {
		t.Error("OpenRoot: a path leads out of the skill folder")
	}
	root.Close()

	claude, ok := profile.Lookup("claude")
	if !ok {
		t.Fatal("no claude profile")
	}
	rootDir := filepath.Join(ws, ".agents", "skills")
	if v := catalogx.HostVerdict(claude, s.Location, rootDir, ""); !v.Loaded || v.Name != "alpha" {
		t.Errorf("HostVerdict(claude, alpha) = %+v, want loaded as alpha", v)
	}
	draft := filepath.Join(rootDir, "nope", "SKILL.md")
	if v := catalogx.HostVerdict(claude, draft, rootDir, ""); v.Loaded || v.Reason == "" {
		t.Errorf("HostVerdict of a missing file = %+v, want not loaded, with a reason", v)
	}
}
