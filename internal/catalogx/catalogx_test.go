package catalogx_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
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

// cx are the hooks package catalog registered, as its siblings take them.
var cx = catalogx.Get[catalog.Catalog, catalog.Options, catalog.Listing, catalog.Skill, catalog.File]()

// TestGet: catalog fills in every hook, and Get with other type arguments
// than catalog's panics (a sibling that names them wrongly fails at its
// start, in every test).
func TestGet(t *testing.T) {
	v := reflect.ValueOf(cx).Elem()
	for i := range v.NumField() {
		if v.Field(i).IsNil() {
			t.Errorf("catalog registers no %s", v.Type().Field(i).Name)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Get with catalog.Skill for catalog.File did not panic")
		}
	}()
	catalogx.Get[catalog.Catalog, catalog.Options, catalog.Listing, catalog.Skill, catalog.Skill]()
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
			cx.ReadIgnored(c)
		}
		l, err := c.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, cd := range cx.Candidates(l) {
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
	fl, err := cx.ListFiles(ctx, s, 0)
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
	f, err := cx.OpenSkillFile(s)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(f)
	f.Close()
	if string(data) != md("alpha") {
		t.Errorf("OpenSkillFile read %q", data)
	}
	root, err := cx.OpenRoot(s)
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
	// claude reads .claude/skills, not .agents/skills: it lists nothing
	// here, and says why of alpha, with the remedy.
	rootDir := filepath.Join(ws, ".agents", "skills")
	opts := &catalog.Options{Workspace: ws, NoUser: true}
	hl, err := cx.HostFiles(ctx, claude, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(hl.Files) != 0 {
		t.Errorf("HostFiles(claude) = %+v, want none", hl.Files)
	}
	why, remedy := hl.Where(s.Location, rootDir)
	if !strings.Contains(why, "does not read .agents/skills") || !strings.Contains(remedy, "into .claude/skills") {
		t.Errorf("Where(alpha) = %q, %q; want .agents/skills not read, moved into .claude/skills", why, remedy)
	}
	codex, _ := profile.Lookup("codex")
	if hl, err = cx.HostFiles(ctx, codex, opts); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range hl.Files {
		got = append(got, fmt.Sprintf("%s %v", filepath.Base(filepath.Dir(f.Path)), f.Loaded))
	}
	// Codex skips dot entries, not _: the draft loads.
	if want := []string{"_draft true", "alpha true"}; !slices.Equal(got, want) {
		t.Errorf("HostFiles(codex) = %v, want %v", got, want)
	}
	if catalogx.FileKey(s.Location) != catalogx.FileKey(filepath.Join(ws, ".agents", "skills", "alpha", "SKILL.md")) {
		t.Error("FileKey differs for one file")
	}
}
