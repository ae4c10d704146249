package catalog_test

import (
	"context"
	"embed"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/skill"
)

// sourceFS holds greet (with references/guide.md and a .env that must
// never be served), review, and _draft (passed over by name). all: keeps
// the dotfile and the draft in the FS, so the catalog's own rules are
// what leaves them out.
//
//go:embed all:testdata/sources/skills
var sourceFS embed.FS

func skillNames(l *catalog.Listing) []string {
	var out []string
	for _, s := range l.Skills {
		out = append(out, s.Name)
	}
	return out
}

func diagCodes(l *catalog.Listing) []string {
	var out []string
	for _, d := range l.Diagnostics {
		out = append(out, string(d.Code))
	}
	return out
}

// TestFSSource: skills of an embed.FS list with their embed:// locations,
// load their bodies, list and read bundled files from the FS, and are
// confined to their folder; dotfiles are withheld.
func TestFSSource(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c, err := catalog.New(ctx, &catalog.Options{Workspace: t.TempDir(), NoConfigFile: true,
		Sources: []catalog.Source{{FS: sourceFS, Dir: "testdata/sources/skills"}}})
	if err != nil {
		t.Fatal(err)
	}
	l, err := c.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := skillNames(l); !slices.Equal(got, []string{"greet", "review"}) {
		t.Fatalf("skills = %v, want [greet review] (_draft passed over)", got)
	}
	g := l.Skills[0]
	if want := "embed://testdata/sources/skills/greet/SKILL.md"; g.Location != want || g.BaseDir != strings.TrimSuffix(want, "/SKILL.md") {
		t.Errorf("Location, BaseDir = %q, %q; want %q and its folder", g.Location, g.BaseDir, want)
	}
	if g.WhenToUse != "A session starts." || !g.Listed || g.Scope != catalog.ScopeExtra {
		t.Errorf("greet = %+v", g)
	}
	ld, err := c.Load(ctx, "greet")
	if err != nil || !strings.Contains(ld.Body, "Say hello") || strings.Contains(ld.Body, "description:") {
		t.Fatalf("Load = %+v, %v", ld, err)
	}
	files, more, err := c.Files(ctx, "greet", 0)
	if err != nil || more {
		t.Fatal(err, more)
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	if !slices.Equal(paths, []string{"SKILL.md", "references/guide.md"}) {
		t.Errorf("Files = %v, want SKILL.md and references/guide.md (.env withheld)", paths)
	}
	if data, err := c.ReadFile(ctx, "greet", "references/guide.md", 0); err != nil || !strings.Contains(string(data), "user's name") {
		t.Errorf("ReadFile(guide) = %q, %v", data, err)
	}
	for _, tc := range []struct {
		rel   string
		limit int64
		want  error
	}{
		{"../review/SKILL.md", 0, catalog.ErrOutside},
		{"/etc/passwd", 0, catalog.ErrOutside},
		{".env", 0, catalog.ErrFileNotFound},
		{"missing.md", 0, catalog.ErrFileNotFound},
		{"references", 0, catalog.ErrNotFile},
		{"references/guide.md", 5, catalog.ErrTooLarge},
	} {
		if _, err := c.ReadFile(ctx, "greet", tc.rel, tc.limit); !errors.Is(err, tc.want) {
			t.Errorf("ReadFile(%q, %d) = %v, want %v", tc.rel, tc.limit, err, tc.want)
		}
	}
}

// TestSourcesPrecedence: the first source of a name wins and the other is
// reported shadowed; the local file system takes its place in the order;
// maxSkills counts every source.
func TestSourcesPrecedence(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ws := t.TempDir()
	dir := filepath.Join(ws, ".agents", "skills", "review")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: review\ndescription: The project's own review.\n---\nProject review.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	built := &skill.Skill{Name: "greet", Description: "Built by the program.", Body: "Built body."}
	c, err := catalog.New(ctx, &catalog.Options{Workspace: ws, NoConfigFile: true, NoUser: true, MaxSkills: 2,
		Sources: []catalog.Source{
			{Skills: []*skill.Skill{built}, Base: "app://builtin"},
			{}, // the local file system
			{FS: sourceFS, Dir: "testdata/sources/skills"},
		}})
	if err != nil {
		t.Fatal(err)
	}
	l, err := c.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := skillNames(l); !slices.Equal(got, []string{"greet", "review"}) {
		t.Fatalf("skills = %v", got)
	}
	if l.Skills[0].Location != "app://builtin/greet/SKILL.md" || l.Skills[1].Location != filepath.Join(dir, "SKILL.md") {
		t.Errorf("winners = %s, %s", l.Skills[0].Location, l.Skills[1].Location)
	}
	shadowed := 0
	for _, d := range l.Diagnostics {
		if d.Code == diagcode.Shadowed && strings.HasPrefix(d.Path, "embed://") {
			shadowed++
		}
	}
	if shadowed != 2 {
		t.Errorf("want the two embedded skills shadowed, got %v", l.Diagnostics)
	}
	ld, err := c.Load(ctx, "greet")
	if err != nil || ld.Body != "Built body." {
		t.Errorf("Load(built) = %+v, %v", ld, err)
	}
	if _, err := c.ReadFile(ctx, "greet", "references/guide.md", 0); !errors.Is(err, catalog.ErrFileNotFound) {
		t.Errorf("a built skill has no bundled files, got %v", err)
	}
	// maxSkills 1 over two sources: the second is left out of the catalog
	// but stays loadable.
	c1, err := catalog.New(ctx, &catalog.Options{Workspace: ws, NoConfigFile: true, NoUser: true, MaxSkills: 1,
		Sources: []catalog.Source{{Skills: []*skill.Skill{built}}, {}}})
	if err != nil {
		t.Fatal(err)
	}
	l1, err := c1.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(l1.Skills) != 2 || !l1.Skills[0].Listed || l1.Skills[1].Listed || !slices.Contains(diagCodes(l1), string(diagcode.CatalogTruncated)) {
		t.Errorf("maxSkills over sources: %+v %v", l1.Skills, l1.Diagnostics)
	}
}

// TestSourcesInvalid: a source the catalog could not load is an error of
// New, naming the source.
func TestSourcesInvalid(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		src  []catalog.Source
		want string
	}{
		{"both", []catalog.Source{{FS: sourceFS, Skills: []*skill.Skill{}}}, "both FS and Skills"},
		{"bad name", []catalog.Source{{Skills: []*skill.Skill{{Name: "Bad Name", Description: "d"}}}}, "not a valid skill name"},
		{"no description", []catalog.Source{{Skills: []*skill.Skill{{Name: "x"}}}}, "no description"},
		{"twice", []catalog.Source{{Skills: []*skill.Skill{{Name: "x", Description: "d"}, {Name: "x", Description: "d"}}}}, "twice"},
		{"nil", []catalog.Source{{Skills: []*skill.Skill{nil}}}, "is nil"},
		{"two disks", []catalog.Source{{}, {}}, "second time"},
		{"bad dir", []catalog.Source{{FS: sourceFS, Dir: "../x"}}, "fs.ValidPath"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := catalog.New(context.Background(), &catalog.Options{Workspace: t.TempDir(), NoConfigFile: true, Sources: tc.src})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestFSSourceCache: an FS re-read on List sees an edit (size or time
// changed) and a removal.
func TestFSSourceCache(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fsys := fstest.MapFS{
		"a/SKILL.md": {Data: []byte("---\nname: a\ndescription: First.\n---\nA.\n")},
		"b/SKILL.md": {Data: []byte("---\nname: b\ndescription: B.\n---\nB.\n")},
	}
	c, err := catalog.New(ctx, &catalog.Options{Workspace: t.TempDir(), NoConfigFile: true, Sources: []catalog.Source{{FS: fsys, Base: "mem://"}}})
	if err != nil {
		t.Fatal(err)
	}
	l, _ := c.List(ctx)
	if got := skillNames(l); !slices.Equal(got, []string{"a", "b"}) || l.Skills[0].Location != "mem://a/SKILL.md" {
		t.Fatalf("first List: %v %s", got, l.Skills[0].Location)
	}
	fsys["a/SKILL.md"] = &fstest.MapFile{Data: []byte("---\nname: a\ndescription: Second, longer.\n---\nA.\n")}
	delete(fsys, "b/SKILL.md")
	delete(fsys, "b")
	l, _ = c.List(ctx)
	if got := skillNames(l); !slices.Equal(got, []string{"a"}) || l.Skills[0].Description != "Second, longer." {
		t.Errorf("after the edit: %v %q", got, l.Skills[0].Description)
	}
}

// TestEnableDisable: the options' and the configuration's lists leave
// skills out (not listed, not loadable), and a name no source holds is a
// warning.
func TestEnableDisable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "skillet.yaml"), []byte("disable: [review]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := []catalog.Source{{FS: sourceFS, Dir: "testdata/sources/skills"}}
	for _, tc := range []struct {
		name          string
		enable, disab []string
		want          []string
		unknown       bool
	}{
		{"config disable", nil, nil, []string{"greet"}, false},
		{"options disable", nil, []string{"greet"}, nil, false},
		{"enable", []string{"greet", "review"}, nil, []string{"greet"}, false},
		{"typo", []string{"gret"}, nil, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := catalog.New(ctx, &catalog.Options{Workspace: ws, Sources: src, Enable: tc.enable, Disable: tc.disab})
			if err != nil {
				t.Fatal(err)
			}
			l, err := c.List(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if got := skillNames(l); !slices.Equal(got, tc.want) {
				t.Errorf("skills = %v, want %v", got, tc.want)
			}
			if _, err := c.Load(ctx, "review"); !errors.Is(err, catalog.ErrNotFound) {
				t.Errorf("a disabled skill loads: %v", err)
			}
			warned := false
			for _, d := range l.Diagnostics {
				if d.Code == "skill-disabled" && d.Severity == skill.SeverityWarning {
					warned = true
				}
			}
			if warned != tc.unknown {
				t.Errorf("unknown-name warning = %v, want %v: %v", warned, tc.unknown, l.Diagnostics)
			}
		})
	}
}

// TestOptionsRoots: the roots skillet.yaml can set can be set from Go,
// with the same validation.
func TestOptionsRoots(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ws, home := t.TempDir(), t.TempDir()
	write := func(root, name string) {
		dir := filepath.Join(root, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: "+name+"\ndescription: D.\n---\nB.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(ws, "skills"), "kestrel-flat")
	write(filepath.Join(ws, ".agents", "skills"), "preset-root")
	write(filepath.Join(home, "mine"), "user-one")
	list := func(o *catalog.Options) ([]string, *catalog.Listing) {
		t.Helper()
		o.Workspace, o.NoConfigFile = ws, true
		c, err := catalog.New(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		l, err := c.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return skillNames(l), l
	}
	if got, _ := list(&catalog.Options{Directories: []string{"skills"}, NoUser: true}); !slices.Equal(got, []string{"kestrel-flat"}) {
		t.Errorf("Directories: %v", got)
	}
	if got, _ := list(&catalog.Options{NoProject: true, UserRoots: []string{filepath.Join(home, "mine")}}); !slices.Equal(got, []string{"user-one"}) {
		t.Errorf("NoProject + UserRoots: %v", got)
	}
	if _, l := list(&catalog.Options{Directories: []string{"../elsewhere"}, NoUser: true}); !slices.Contains(diagCodes(l), string(diagcode.DirectoryEscape)) {
		t.Errorf("a directory outside the workspace: %v", l.Diagnostics)
	}
	c, err := catalog.New(ctx, &catalog.Options{Workspace: ws, NoConfigFile: true, ToolName: "load_skill", CatalogBudgetChars: 900})
	if err != nil || c.Settings().ToolName != "load_skill" || c.Settings().CatalogBudgetChars != 900 {
		t.Errorf("ToolName, CatalogBudgetChars: %+v %v", c, err)
	}
	var ce *catalog.ConfigError
	if _, err := catalog.New(ctx, &catalog.Options{Workspace: ws, NoConfigFile: true, ToolName: "load skill"}); !errors.As(err, &ce) {
		t.Errorf("an invalid ToolName: %v, want a *ConfigError", err)
	}
}

// TestPresetKeepsWhenToUse: under the kestrel preset (a frontmatter subset
// read line by line) a skill's when-to-use hint, in any of its spellings,
// is kept, as without a preset.
func TestPresetKeepsWhenToUse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, key := range []string{"when-to-use", "whenToUse", "when_to_use"} {
		ws := t.TempDir()
		dir := filepath.Join(ws, ".kestrel", "skills", "ship")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: ship\ndescription: Ship it.\n"+key+": \"The user asks to ship.\"\n---\n\nShip.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, preset := range []string{"kestrel", ""} {
			o := &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true, Preset: preset}
			if preset == "" {
				o.Directories = []string{".kestrel/skills"}
			}
			c, err := catalog.New(ctx, o)
			if err != nil {
				t.Fatal(err)
			}
			s, err := c.Get(ctx, "ship")
			if err != nil {
				t.Fatal(err)
			}
			if s.WhenToUse != "The user asks to ship." {
				t.Errorf("%s, preset %q: WhenToUse = %q", key, preset, s.WhenToUse)
			}
		}
	}
}

// TestPresetKeepsMaxSkills: a preset applies the host's own cap on the
// catalog, but the user's maxSkills (Options or skillet.yaml) wins, with
// its catalog-truncated diagnostic, as without a preset.
func TestPresetKeepsMaxSkills(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ws := t.TempDir()
	for _, n := range []string{"a", "b", "c"} {
		dir := filepath.Join(ws, ".kestrel", "skills", n)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: "+n+"\ndescription: D.\n---\nBody.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		max, listed int
		truncated   bool
	}{{0, 3, false}, {1, 1, true}, {2, 2, true}} {
		c, err := catalog.New(ctx, &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true, Preset: "kestrel", MaxSkills: tc.max})
		if err != nil {
			t.Fatal(err)
		}
		l, err := c.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		listed := 0
		for _, s := range l.Skills {
			if s.Listed {
				listed++
			}
		}
		if listed != tc.listed || len(l.Skills) != 3 || slices.Contains(diagCodes(l), string(diagcode.CatalogTruncated)) != tc.truncated {
			t.Errorf("MaxSkills %d: %d of %d listed, diagnostics %v; want %d listed, truncated %v", tc.max, listed, len(l.Skills), diagCodes(l), tc.listed, tc.truncated)
		}
	}
}

// TestPresetReadsOptionsFolders: under every host preset, Options'
// Directories, UserRoots and NoProject choose the folders read, as
// without one: the preset chooses how skills are read and shown, not
// which folders (it read the host's own folders whatever Options said).
func TestPresetReadsOptionsFolders(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ws, home := t.TempDir(), t.TempDir()
	for root, name := range map[string]string{filepath.Join(ws, "team-skills"): "project-one", filepath.Join(home, "mine"): "user-one"} {
		dir := filepath.Join(root, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: "+name+"\ndescription: D.\n---\nB.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	user := []string{filepath.Join(home, "mine")}
	for _, preset := range catalog.ProfileNames() {
		for _, tc := range []struct {
			opts catalog.Options
			want []string
		}{
			{catalog.Options{Directories: []string{"team-skills"}, UserRoots: user}, []string{"project-one", "user-one"}},
			{catalog.Options{Directories: []string{"team-skills"}, NoUser: true}, []string{"project-one"}},
			{catalog.Options{NoProject: true, UserRoots: user}, []string{"user-one"}},
		} {
			o := tc.opts
			o.Workspace, o.NoConfigFile, o.Preset = ws, true, preset
			c, err := catalog.New(ctx, &o)
			if err != nil {
				t.Fatal(err)
			}
			l, err := c.List(ctx)
			if err != nil {
				t.Fatal(err)
			}
			got := skillNames(l)
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("preset %s, Directories %q, UserRoots %v, NoProject %v, NoUser %v: skills %v, want %v",
					preset, o.Directories, o.UserRoots != nil, o.NoProject, o.NoUser, got, tc.want)
			}
		}
	}
}

// TestPresetKeepsOwnFeatures: no host preset drops skillet's own features
// (docs/hosts.md): the when-to-use hint in each spelling, the user's
// maxSkills with its catalog-truncated diagnostic, and the specific
// diagnostics skillet gives a file without a preset (unknown-field,
// name-mismatch, no-description), unless the host's own rule leaves the
// file out, and then its not-loaded diagnostic names the host.
func TestPresetKeepsOwnFeatures(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ws := t.TempDir()
	files := map[string]string{
		"hint-dash":  "---\nname: hint-dash\ndescription: D.\nwhen-to-use: Asked to dash.\n---\nB.\n",
		"hint-camel": "---\nname: hint-camel\ndescription: D.\nwhenToUse: Asked to camel.\n---\nB.\n",
		"hint-snake": "---\nname: hint-snake\ndescription: D.\nwhen_to_use: Asked to snake.\n---\nB.\n",
		"typo":       "---\nname: typo\ndescription: D.\nlicence: MIT\n---\nB.\n",
		"folder":     "---\nname: other-name\ndescription: D.\n---\nB.\n",
		"nodesc":     "---\nname: nodesc\n---\nFirst line of prose.\n",
	}
	for name, text := range files {
		dir := filepath.Join(ws, "team-skills", name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// own is the diagnostic skillet gives each file without a preset.
	own := map[string]string{"typo": "unknown-field", "folder": "name-mismatch", "nodesc": "no-description"}
	for _, preset := range catalog.ProfileNames() {
		c, err := catalog.New(ctx, &catalog.Options{Workspace: ws, NoConfigFile: true, NoUser: true, Preset: preset,
			Directories: []string{"team-skills"}, MaxSkills: 2})
		if err != nil {
			t.Fatal(err)
		}
		l, err := c.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		when := map[string]string{}
		listed := 0
		for _, s := range l.Skills {
			when[s.OwnName()] = s.WhenToUse
			if s.Listed {
				listed++
			}
		}
		for name, want := range map[string]string{"hint-dash": "Asked to dash.", "hint-camel": "Asked to camel.", "hint-snake": "Asked to snake."} {
			if when[name] != want {
				t.Errorf("%s: %s's WhenToUse = %q, want %q", preset, name, when[name], want)
			}
		}
		if listed != 2 || !slices.Contains(diagCodes(l), string(diagcode.CatalogTruncated)) {
			t.Errorf("%s: MaxSkills 2: %d of %d listed, diagnostics %v; want 2 and catalog-truncated", preset, listed, len(l.Skills), diagCodes(l))
		}
		for folder, code := range own {
			path := filepath.Join(ws, "team-skills", folder, "SKILL.md")
			found := false
			for _, d := range l.Diagnostics {
				if d.Path != path {
					continue
				}
				if string(d.Code) == code || d.Code == diagcode.NotLoaded && strings.HasPrefix(d.Message, preset+" does not load") {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: %s: no %s diagnostic, nor a not-loaded one naming the host; diagnostics %v", preset, folder, code, l.Diagnostics)
			}
		}
	}
}
