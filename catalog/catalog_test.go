package catalog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/skill"
)

func TestRootsByPreset(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	type r struct {
		Path  string
		Scope Scope
	}
	rel := func(l *Listing) []r {
		var out []r
		for _, root := range l.Roots {
			p := root.Path
			x, err := filepath.Rel(filepath.Dir(e.ws), p)
			x = filepath.ToSlash(x)
			if err != nil || !(strings.HasPrefix(x, "ws/") || strings.HasPrefix(x, "home/")) {
				continue // a parent folder a host walks up to
			}
			out = append(out, r{filepath.ToSlash(x), root.Scope})
		}
		return out
	}
	for _, tt := range []struct {
		name string
		opts *Options
		env  map[string]string
		want []r
	}{
		{"agents default", nil, nil, []r{
			{"ws/.agents/skills", ScopeProject}, {"ws/.claude/skills", ScopeProject}, {"ws/.github/skills", ScopeProject},
			{"ws/.opencode/skills", ScopeProject}, {"ws/.gemini/skills", ScopeProject}, {"ws/skills", ScopeProject},
			{"ws/plugins", ScopeProject}, {"home/.agents/skills", ScopeUser}, {"home/.claude/skills", ScopeUser}, {"home/.copilot/skills", ScopeUser},
			{"home/.config/opencode/skills", ScopeUser}, {"home/.gemini/skills", ScopeUser}, {"home/.config/skillet/skills", ScopeUser}}},
		{"XDG_CONFIG_HOME", &Options{NoUser: false, Preset: "agents"}, map[string]string{"XDG_CONFIG_HOME": filepath.Join(e.home, "xdg")}, []r{
			{"ws/.agents/skills", ScopeProject}, {"ws/.claude/skills", ScopeProject}, {"ws/.github/skills", ScopeProject},
			{"ws/.opencode/skills", ScopeProject}, {"ws/.gemini/skills", ScopeProject}, {"ws/skills", ScopeProject},
			{"ws/plugins", ScopeProject}, {"home/.agents/skills", ScopeUser}, {"home/.claude/skills", ScopeUser}, {"home/.copilot/skills", ScopeUser},
			{"home/.config/opencode/skills", ScopeUser}, {"home/.gemini/skills", ScopeUser}, {"home/xdg/skillet/skills", ScopeUser}}},
		{"claude", &Options{Preset: "claude"}, nil, []r{{"home/.claude/skills", ScopeUser}, {"home/.claude/commands", ScopeUser}, {"ws/.claude/skills", ScopeProject}, {"ws/.claude/commands", ScopeProject}}},
		{"kestrel no user", &Options{Preset: "kestrel", NoUser: true}, nil, []r{{"ws/.kestrel/skills", ScopeProject}, {"ws/skills", ScopeProject}}},
		{"codex", &Options{Preset: "codex"}, nil, []r{{"ws/.codex/skills", ScopeProject}, {"ws/.agents/skills", ScopeProject}, {"home/.agents/skills", ScopeUser}, {"home/.codex/skills", ScopeUser}}},
		{"extra paths", &Options{Preset: "brute", NoUser: true, ExtraPaths: []string{"~/more", filepath.Join(e.ws, "x.md")}}, nil, []r{
			{"ws/.brute/skills", ScopeProject}, {"home/more", ScopeExtra}, {"ws/x.md", ScopeExtra}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := e.opts(tt.opts)
			if tt.env != nil {
				o.getenv = func(k string) string { return tt.env[k] }
			}
			c, err := New(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			l, err := c.List(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, rel(l)); diff != "" {
				t.Errorf("roots (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := New(context.Background(), e.opts(&Options{Preset: "clade"})); !errors.Is(err, ErrUnknownPreset) ||
		err.Error() != `unknown preset "clade"; did you mean "claude"? (known: `+strings.Join(ProfileNames(), ", ")+")" {
		t.Errorf("an unknown preset: %v", err)
	}
}

func TestShapes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		"skills/alpha/SKILL.md":                     skillMD("alpha"),
		"skills/alpha/scripts/run.sh":               "echo",
		"skills/alpha/nested/SKILL.md":              skillMD("nested"), // a bundled file, not a skill
		"skills/beta.md":                            skillMD("beta"),   // flat form
		"skills/README.md":                          "# Skills\n\nThis folder holds skills.\n",
		"skills/group/gamma/SKILL.md":               skillMD("gamma"),
		"skills/group/deeper/delta/SKILL.md":        skillMD("delta"),
		"skills/group/notes.md":                     "not a flat skill: not directly in a root\n",
		"skills/lower/skill.md":                     skillMD("lower"),
		"skills/.hidden/SKILL.md":                   skillMD("hidden"),
		"skills/_draft/SKILL.md":                    skillMD("draft"),
		"skills/node_modules/pkg/SKILL.md":          skillMD("pkg"),
		"skills/empty-folder/<dir>":                 "<dir>",
		"skills/no-skill-here/notes.txt":            "stray file",
		"skills/only-groups/inner/epsilon/SKILL.md": skillMD("epsilon"),
	})
	_, l := e.list(t, &Options{NoUser: true})
	want := []string{"alpha", "beta", "delta", "gamma", "lower", "epsilon"}
	if diff := cmp.Diff(want, names(l)); diff != "" {
		t.Errorf("skills (-want +got):\n%s", diff)
	}
	wantDiags := []string{
		"file-case ws/skills/lower/skill.md",
		"file-missing ws/skills/no-skill-here",
	}
	if diff := cmp.Diff(wantDiags, codes(l, filepath.Dir(e.ws))); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	for _, s := range l.Skills {
		switch s.Name {
		case "beta":
			if !s.Flat || s.BaseDir != filepath.Join(e.ws, "skills") {
				t.Errorf("beta: flat %v base %s", s.Flat, s.BaseDir)
			}
		case "alpha":
			if s.Flat || s.Location != filepath.Join(e.ws, "skills/alpha/SKILL.md") || s.Scope != ScopeProject {
				t.Errorf("alpha: %+v", s)
			}
		}
	}
}

func TestExtraRoots(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.home, map[string]string{
		"one-skill/SKILL.md": skillMD("one-skill"),
		"loose/tips.md":      "# Tips\n\nUseful tips.\n",
		"notes.txt":          "x",
	})
	_, l := e.list(t, &Options{NoUser: true, ExtraPaths: []string{
		filepath.Join(e.home, "one-skill"),     // a root that is itself a skill folder
		filepath.Join(e.home, "loose/tips.md"), // a loose .md file
		filepath.Join(e.home, "notes.txt"),     // not a .md file
	}})
	if diff := cmp.Diff([]string{"one-skill", "tips"}, names(l)); diff != "" {
		t.Errorf("skills (-want +got):\n%s", diff)
	}
	if got := codes(l, e.home); !cmp.Equal(got, []string{"no-frontmatter loose/tips.md", "unreadable notes.txt"}) {
		t.Errorf("diagnostics %v", got)
	}
}

func TestWalkLimits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		"skills/a/b/c/d/e/six/SKILL.md":     skillMD("six"),   // skill folder at depth 6
		"skills/a/b/c/d/e/f/seven/SKILL.md": skillMD("seven"), // depth 7
	})
	_, l := e.list(t, &Options{NoUser: true})
	if diff := cmp.Diff([]string{"six"}, names(l)); diff != "" {
		t.Errorf("skills (-want +got):\n%s", diff)
	}
	if d := findDiag(l, diagcode.WalkLimit); d == nil || !strings.HasSuffix(d.Path, "a/b/c/d/e/f/seven") {
		t.Errorf("walk-limit diagnostic: %+v", d)
	}

	e2 := newEnv(t)
	files := map[string]string{}
	for _, g := range []string{"g1", "g2", "g3", "g4", "g5"} {
		files["skills/"+g+"/s-"+g+"/SKILL.md"] = skillMD("s-" + g)
	}
	writeTree(t, e2.ws, files)
	_, l = e2.list(t, &Options{NoUser: true, MaxFolders: 3}) // the root and two grouping folders
	if diff := cmp.Diff([]string{"s-g1", "s-g2"}, names(l)); diff != "" {
		t.Errorf("folder limit (-want +got):\n%s", diff)
	}
	if d := findDiag(l, diagcode.WalkLimit); d == nil || !strings.HasSuffix(d.Path, "skills/g3") {
		t.Errorf("walk-limit diagnostic: %+v", d)
	}
}

func TestPrecedence(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		".agents/skills/shared/SKILL.md": skillMD("shared"),
		"skills/shared/SKILL.md":         skillMD("shared"),
		"skills/project-only/SKILL.md":   skillMD("project-only"),
		"skills/zeta/SKILL.md":           skillMD("same-name"),
		"skills/eta/SKILL.md":            skillMD("same-name"),
	})
	writeTree(t, e.home, map[string]string{
		".agents/skills/shared/SKILL.md":    skillMD("shared"),
		".agents/skills/user-only/SKILL.md": skillMD("user-only"),
	})
	_, l := e.list(t, nil)
	if diff := cmp.Diff([]string{"shared", "same-name", "project-only", "user-only"}, names(l)); diff != "" {
		t.Errorf("skills (-want +got):\n%s", diff)
	}
	if l.Skills[0].Location != filepath.Join(e.ws, ".agents/skills/shared/SKILL.md") {
		t.Errorf("the first project root does not win: %s", l.Skills[0].Location)
	}
	// eta sorts before zeta, so zeta's copy is the duplicate.
	if l.Skills[1].Location != filepath.Join(e.ws, "skills/eta/SKILL.md") {
		t.Errorf("same-name: %s loaded, want the first in path order", l.Skills[1].Location)
	}
	want := []string{
		"shadowed home/.agents/skills/shared/SKILL.md",
		"name-mismatch ws/skills/eta/SKILL.md",
		"duplicate-copy ws/skills/shared/SKILL.md",
		"duplicate-name ws/skills/zeta/SKILL.md",
		"name-mismatch ws/skills/zeta/SKILL.md",
	}
	if diff := cmp.Diff(want, codes(l, filepath.Dir(e.ws))); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	d := findDiag(l, diagcode.Shadowed)
	if !strings.Contains(d.Message, filepath.Join(e.ws, ".agents/skills/shared/SKILL.md")) || d.Related == "" {
		t.Errorf("shadowed does not name both paths: %+v", d)
	}
}

func TestDeterministicOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	files := map[string]string{}
	for _, n := range []string{"k", "b", "x", "a", "m", "q", "c"} {
		files["skills/"+n+"/SKILL.md"] = skillMD(n)
		files["skills/"+n+"/SKILL.md"] = "---\nname: " + n + "\n---\nno description line\n" // each with a warning
	}
	writeTree(t, e.ws, files)
	_, first := e.list(t, &Options{NoUser: true})
	for range 5 {
		_, again := e.list(t, &Options{NoUser: true})
		if diff := cmp.Diff(names(first), names(again)); diff != "" {
			t.Fatalf("order changed:\n%s", diff)
		}
		if diff := cmp.Diff(codes(first, e.ws), codes(again, e.ws)); diff != "" {
			t.Fatalf("diagnostic order changed:\n%s", diff)
		}
	}
	if diff := cmp.Diff([]string{"a", "b", "c", "k", "m", "q", "x"}, names(first)); diff != "" {
		t.Errorf("not in path order (-want +got):\n%s", diff)
	}
}

func TestSymlinks(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		ws      map[string]string // relative to the workspace
		outside map[string]string // relative to a folder beside the workspace
		trusted bool
		skills  []string
		diags   []string
	}{
		{
			name:   "folder symlink inside the workspace is followed",
			ws:     map[string]string{"store/real/SKILL.md": skillMD("real"), "skills/real": "-> ../store/real"},
			skills: []string{"real"},
		},
		{
			name:   "file symlink inside the workspace is followed",
			ws:     map[string]string{"store/file.md": skillMD("linked"), "skills/linked/SKILL.md": "-> ../../store/file.md"},
			skills: []string{"linked"},
		},
		{
			name:   "symlinked root inside the workspace",
			ws:     map[string]string{"store/s/SKILL.md": skillMD("s"), "skills": "-> store"},
			skills: []string{"s"},
		},
		{
			name:   "the same file twice is loaded once",
			ws:     map[string]string{"skills/a/SKILL.md": skillMD("a"), "skills/b": "-> a"},
			skills: []string{"a"},
		},
		{
			name:   "dangling",
			ws:     map[string]string{"skills/gone": "-> ../nowhere", "skills/ok/SKILL.md": skillMD("ok"), "skills/ok2/SKILL.md": "-> missing.md"},
			skills: []string{"ok"},
			diags:  []string{"broken-link ws/skills/gone", "broken-link ws/skills/ok2/SKILL.md"},
		},
		{
			name:   "a dangling root is absent, with a broken-link",
			ws:     map[string]string{"skills": "-> gone", ".agents/skills/ok/SKILL.md": skillMD("ok")},
			skills: []string{"ok"},
			diags:  []string{"broken-link ws/skills"},
		},
		{
			name:   "loop",
			ws:     map[string]string{"skills/l1": "-> l2", "skills/l2": "-> l1", "skills/ok/SKILL.md": skillMD("ok")},
			skills: []string{"ok"},
			diags:  []string{"symlink-loop ws/skills/l1", "symlink-loop ws/skills/l2"},
		},
		{
			name:   "folder loop through an ancestor",
			ws:     map[string]string{"skills/g/up": "-> ..", "skills/g/s/SKILL.md": skillMD("s")},
			skills: []string{"s"},
			diags:  []string{"symlink-loop ws/skills/g/up"},
		},
		{
			name:    "escaping folder",
			ws:      map[string]string{"skills/evil": "-> ../../outside/secret"},
			outside: map[string]string{"secret/SKILL.md": skillMD("secret")},
			diags:   []string{"path-escape ws/skills/evil"},
		},
		{
			name:    "escaping file",
			ws:      map[string]string{"skills/evil/SKILL.md": "-> ../../../outside/secret.md"},
			outside: map[string]string{"secret.md": skillMD("evil")},
			diags:   []string{"path-escape ws/skills/evil/SKILL.md"},
		},
		{
			name:    "a preset root leading outside is a path-escape",
			ws:      map[string]string{"skills": "-> ../outside/skills"},
			outside: map[string]string{"skills/x/SKILL.md": skillMD("x")},
			diags:   []string{"path-escape ws/skills"},
		},
		{
			name:    "a configured directory leading outside is a directory-escape",
			ws:      map[string]string{"skillet.yaml": "directories: [skills]\n", "skills": "-> ../outside/skills"},
			outside: map[string]string{"skills/x/SKILL.md": skillMD("x")},
			diags:   []string{"directory-escape ws/skills"},
		},
		{
			name:    "links to files that are not skills are never opened or checked",
			ws:      map[string]string{"skills/grp/s/SKILL.md": skillMD("s"), "skills/grp/logo.png": "-> ../../../outside/logo.png", "skills/tool": "-> ../../outside/tool"},
			outside: map[string]string{"logo.png": "png", "tool": "binary"},
			skills:  []string{"s"},
		},
		{
			name:   "a symlinked alias of a skill does not take its place",
			ws:     map[string]string{"skills/alias.md": "-> good/SKILL.md", "skills/good/SKILL.md": skillMD("good"), "skills/good/references/r.md": "r"},
			skills: []string{"good"},
		},
		{
			name:    "trustedPaths allow an escape",
			ws:      map[string]string{"skills/shared": "-> ../../outside/shared"},
			outside: map[string]string{"shared/SKILL.md": skillMD("shared")},
			trusted: true,
			skills:  []string{"shared"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			outside := filepath.Join(filepath.Dir(e.ws), "outside")
			writeTree(t, outside, tt.outside)
			writeTree(t, e.ws, tt.ws)
			if tt.trusted {
				writeTree(t, e.ws, map[string]string{"skillet.yaml": "trustedPaths: [" + outside + "]\n"})
			}
			_, l := e.list(t, &Options{NoUser: true})
			if diff := cmp.Diff(tt.skills, names(l)); diff != "" {
				t.Errorf("skills (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.diags, codes(l, filepath.Dir(e.ws))); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUserRootBoundary(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	outside := filepath.Join(filepath.Dir(e.ws), "elsewhere")
	writeTree(t, outside, map[string]string{"x/SKILL.md": skillMD("x")})
	writeTree(t, e.home, map[string]string{
		".agents/skills":             "-> " + outside,
		"dotfiles/skills/y/SKILL.md": skillMD("y"),
		".config/skillet/skills":     "-> ../../dotfiles/skills",
		".claude/skills":             "-> gone",
	})
	_, l := e.list(t, nil)
	if diff := cmp.Diff([]string{"y"}, names(l)); diff != "" {
		t.Errorf("skills (-want +got):\n%s", diff)
	}
	if got := codes(l, e.home); !cmp.Equal(got, []string{"path-escape .agents/skills", "broken-link .claude/skills"}) {
		t.Errorf("diagnostics %v", got)
	}
}

func TestMissingExtraRoot(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, l := e.list(t, &Options{NoUser: true, ExtraPaths: []string{filepath.Join(e.ws, "typo")}})
	if got := codes(l, e.ws); !cmp.Equal(got, []string{"unreadable typo"}) {
		t.Errorf("diagnostics %v, want the missing extra path named", got)
	}
	// An empty directories list means no project roots at all.
	writeTree(t, e.ws, map[string]string{"skillet.yaml": "directories: []\n", "skills/s/SKILL.md": skillMD("s")})
	_, l = e.list(t, &Options{NoUser: true})
	if len(l.Roots) != 0 || len(l.Skills) != 0 {
		t.Errorf("directories: [] still scanned %v", l.Roots)
	}
}

func TestDirectoryEscape(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		"skillet.yaml":          "directories: [../outside, skills, /etc]\n",
		"skills/in/SKILL.md":    skillMD("in"),
		"../outside/x/SKILL.md": skillMD("x"),
	})
	_, l := e.list(t, &Options{NoUser: true})
	if diff := cmp.Diff([]string{"in"}, names(l)); diff != "" {
		t.Errorf("skills (-want +got):\n%s", diff)
	}
	got := codes(l, filepath.Dir(e.ws))
	// In the order of their paths: /etc first unless the temporary
	// folder's path sorts before it (TMPDIR=/dev/shm).
	want := []string{"directory-escape /etc", "directory-escape outside"}
	if filepath.Join(filepath.Dir(e.ws), "outside") < "/etc" {
		want[0], want[1] = want[1], want[0]
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

func TestWorkspaceMissing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, l := e.list(t, &Options{Workspace: filepath.Join(e.ws, "nope"), NoUser: true})
	if d := findDiag(l, diagcode.WorkspaceMissing); d == nil || d.Severity != skill.SeverityError {
		t.Errorf("no workspace-missing error: %v", l.Diagnostics)
	}
	if len(l.Roots) != 0 {
		t.Errorf("project roots of a missing workspace were scanned: %v", l.Roots)
	}
}

func TestLimits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	big := "---\nname: big\ndescription: A big one.\n---\n" + strings.Repeat("é line of text\n", 1000) // 16 bytes a line
	files := map[string]string{"skills/big/SKILL.md": big}
	for _, n := range []string{"s1", "s2", "s3", "s4"} {
		files["skills/"+n+"/SKILL.md"] = skillMD(n)
	}
	files["skills/s0/SKILL.md"] = "---\nname: s0\ndescription: hidden\ndisable-model-invocation: true\n---\nbody\n"
	writeTree(t, e.ws, files)
	c, l := e.list(t, &Options{NoUser: true, MaxSkillBytes: 1001, MaxSkills: 3})

	var bigSkill *Skill
	listed := []string{}
	for _, s := range l.Skills {
		if s.Name == "big" {
			bigSkill = s
		}
		if s.Listed {
			listed = append(listed, s.Name)
		}
	}
	if bigSkill == nil || !bigSkill.Truncated || bigSkill.Bytes != int64(len(big)) {
		t.Fatalf("big skill: %+v", bigSkill)
	}
	loaded, err := c.Load(context.Background(), "big")
	if err != nil {
		t.Fatal(err)
	}
	if !loaded.Truncated || loaded.Bytes > 1001 || !strings.HasSuffix(loaded.Body, "é line of text") && !strings.HasSuffix(loaded.Body, "line") {
		t.Errorf("load: truncated %v bytes %d", loaded.Truncated, loaded.Bytes)
	}
	if !strings.HasPrefix(loaded.Body, "é line of text") || strings.ContainsRune(loaded.Body, 0xFFFD) {
		t.Errorf("truncated body cut badly: %q", loaded.Body[:20])
	}
	if d := findDiag(l, diagcode.TooLarge); d == nil || !strings.Contains(d.Message, "1001") ||
		!strings.Contains(d.Message, fmt.Sprintf("and %d are left out", len(big)-1001)) {
		t.Errorf("too-large: %+v", d)
	}
	// maxSkills 3: hidden skills do not count, the rest stay loadable.
	if diff := cmp.Diff([]string{"big", "s1", "s2"}, listed); diff != "" {
		t.Errorf("listed (-want +got):\n%s", diff)
	}
	d := findDiag(l, diagcode.CatalogTruncated)
	if d == nil || !strings.Contains(d.Message, "s3, s4") {
		t.Errorf("catalog-truncated does not name the skills left out: %+v", d)
	}
	if _, err := c.Load(context.Background(), "s4"); err != nil {
		t.Errorf("a skill beyond maxSkills is not loadable: %v", err)
	}
	if s, err := c.Get(context.Background(), "s0"); err != nil || !s.Hidden() || s.Listed {
		t.Errorf("hidden skill: %v %v", s, err)
	}
	if _, err := c.Get(context.Background(), "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown name: %v", err)
	}
}

func TestConfigFile(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		".skillet.yaml": `# team settings
directories: [team-skills]
maxSkillBytes: 5000
maxSkills: 7
toolName: load_skill
mode: strict
maxDescriptionChars: 100
catalogBudgetChars: 4000
colour: blue
`,
		"team-skills/t/SKILL.md":  skillMD("t"),
		"skills/ignored/SKILL.md": skillMD("ignored"),
	})
	c, l := e.list(t, &Options{NoUser: true})
	s := c.Settings()
	want := Settings{Workspace: e.ws, ConfigFile: filepath.Join(e.ws, ".skillet.yaml"), Preset: "agents", Mode: skill.Strict,
		MaxSkillBytes: 5000, MaxSkills: 7, MaxDescriptionChars: 100, CatalogBudgetChars: 4000, ToolName: "load_skill",
		MaxDepth: defaultMaxDepth, MaxFolders: defaultMaxFolders}
	if diff := cmp.Diff(want, s); diff != "" {
		t.Errorf("settings (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"t"}, names(l)); diff != "" {
		t.Errorf("directories did not replace the project roots (-want +got):\n%s", diff)
	}
	d := findDiag(l, diagcode.ConfigUnknownKey)
	if d == nil || d.Line != 9 || d.Column != 1 || !strings.Contains(d.Message, "colour") {
		t.Errorf("unknown key: %+v", d)
	}
	// Flags override the file.
	c, err := New(context.Background(), e.opts(&Options{MaxSkills: 2, Preset: "claude"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Settings().MaxSkills != 2 || c.Settings().Preset != "claude" {
		t.Errorf("flags did not override: %+v", c.Settings())
	}

	for _, bad := range []struct{ text, want string }{
		{"maxSkills: many\n", ":1:12: maxSkills must be a positive integer"},
		{"directories: {a: b}\n", ":1:14: directories must be a list of strings"},
		{"mode: loose\n", `mode must be "lenient" or "strict"`},
		{"preset: nope\n", "preset must be one of agents"},
		{"toolName: 'has space'\n", "toolName must be"},
		{"key: [unclosed\n", "invalid YAML"},
		{"- a list\n", "must be a mapping"},
		// Bytes YAML refuses, at their line and column (the YAML reader's
		// error had neither: "invalid trailing UTF-8 octet (value: 93)").
		{"lint:\n  select: [caf\xe9]\n", ":2:15: the configuration file is not valid UTF-8 (byte 0xE9 at offset 20)"},
		{"maxSkills: 5\n\x00\n", ":2:1: the configuration file holds a control character (0x00)"},
		// UTF-16 with a byte order mark is still read (and checked).
		{"\xff\xfem\x00a\x00x\x00S\x00k\x00i\x00l\x00l\x00s\x00:\x00 \x00x\x00\n\x00", ":1:12: maxSkills must be a positive integer"},
	} {
		writeTree(t, e.ws, map[string]string{"bad.yaml": bad.text})
		_, err := New(context.Background(), e.opts(&Options{ConfigFile: filepath.Join(e.ws, "bad.yaml")}))
		var ce *ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: error %v, want a ConfigError containing %q", bad.text, err, bad.want)
		}
	}
	if _, err := New(context.Background(), e.opts(&Options{ConfigFile: filepath.Join(e.ws, "missing.yaml")})); err == nil {
		t.Error("a missing explicit configuration file was accepted")
	}
}

func TestCache(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		"skills/a/SKILL.md": skillMD("a"),
		"skills/b/SKILL.md": skillMD("b"),
	})
	c, err := New(context.Background(), e.opts(&Options{NoUser: true}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	list := func() *Listing {
		l, err := c.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	l := list()
	if diff := cmp.Diff([]string{"a", "b"}, names(l)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	first := l.Skills[0].Parsed()

	// Unchanged: the parsed skill is reused, not re-read.
	if l := list(); l.Skills[0].Parsed() != first {
		t.Error("an unchanged file was parsed again")
	}

	// A rewrite with the same size and modification time put back (cp -p,
	// unzip -o) is seen on Linux, where the stamp holds the inode's change
	// time too (docs/discovery.md#caching); elsewhere the stamp is size,
	// mtime and inode, and it is not.
	pa := filepath.Join(e.ws, "skills/a/SKILL.md")
	fi, _ := os.Stat(pa)
	same := strings.Replace(skillMD("a"), "The a skill.", "The A skill.", 1)
	if err := os.WriteFile(pa, []byte(same), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(pa, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	want := "The a skill."
	if runtime.GOOS == "linux" {
		want = "The A skill."
	}
	if got := list().Skills[0].Description; got != want {
		t.Errorf("after a rewrite with size and mtime put back: description %q, want %q", got, want)
	}

	// An edit is seen.
	edited := strings.Replace(skillMD("a"), "The a skill.", "The edited a skill.", 1)
	if err := os.WriteFile(pa, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := list().Skills[0].Description; got != "The edited a skill." {
		t.Errorf("edit not seen: %q", got)
	}
	// An addition and a removal are seen.
	writeTree(t, e.ws, map[string]string{"skills/c/SKILL.md": skillMD("c")})
	if diff := cmp.Diff([]string{"a", "b", "c"}, names(list())); diff != "" {
		t.Errorf("addition (-want +got):\n%s", diff)
	}
	if err := os.RemoveAll(filepath.Join(e.ws, "skills/b")); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "c"}, names(list())); diff != "" {
		t.Errorf("removal (-want +got):\n%s", diff)
	}
	// A file that becomes invalid is reported, and valid again is loaded.
	if err := os.WriteFile(pa, []byte("---\nname: a\ndescription: \"open\n---\nbody\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l = list()
	if diff := cmp.Diff([]string{"c"}, names(l)); diff != "" || findDiag(l, diagcode.ParseError) == nil {
		t.Errorf("broken edit: %v %v", names(l), l.Diagnostics)
	}
	// The repair has another size than the broken file, so its stamp
	// differs whatever the clock's resolution.
	if err := os.WriteFile(pa, []byte(skillMD("a")), 0o644); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "c"}, names(list())); diff != "" {
		t.Errorf("repair not seen (-want +got):\n%s", diff)
	}
}

func TestLoadAndContent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{"skills/a/SKILL.md": "---\nname: a\ndescription: d\n---\n\n# A\r\n\r\nStep one.\r\n"})
	c, l := e.list(t, &Options{NoUser: true})
	if l.Skills[0].Parsed().Body != "" {
		t.Error("the listing holds the body")
	}
	got, err := l.Skills[0].Content()
	if err != nil || got != "# A\n\nStep one." {
		t.Errorf("Content() = %q, %v", got, err)
	}
	ld, err := c.Load(context.Background(), "a")
	if err != nil || ld.Body != got || ld.Truncated || ld.Bytes == 0 {
		t.Errorf("Load = %+v, %v", ld, err)
	}
	if _, err := c.Load(context.Background(), "zzz"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown: %v", err)
	}
}

func TestContextCancelled(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c, err := New(context.Background(), e.opts(nil))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.List(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("List on a cancelled context: %v", err)
	}
}

// TestNothingWritten checks that discovery, loading and file reads change
// nothing on disk: every path, size, mode and modification time is the same
// afterwards.
func TestNothingWritten(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		"skills/a/SKILL.md":        "---\nname: A Skill\ndescription: Use when: x\n---\nbody\n",
		"skills/a/references/r.md": "r",
		"skills/b.md":              "# B\n\nflat\n",
		"skills/loop":              "-> loop",
		"skills/gone":              "-> nowhere",
		"skills/c/SKILL.md":        "---\nname: c\n---\n",
	})
	snapshot := func() map[string]string {
		out := map[string]string{}
		filepath.Walk(filepath.Dir(e.ws), func(p string, fi os.FileInfo, err error) error {
			if err == nil {
				out[p] = fmt.Sprintf("%v %v %d", fi.Mode(), fi.ModTime(), fi.Size())
			}
			return nil
		})
		return out
	}
	before := snapshot()
	c, _ := e.list(t, nil)
	ctx := context.Background()
	c.Load(ctx, "a-skill")
	c.ReadFile(ctx, "a-skill", "references/r.md", 0)
	c.Files(ctx, "a-skill", 0)
	c.List(ctx)
	if diff := cmp.Diff(before, snapshot()); diff != "" {
		t.Errorf("the tree changed (-before +after):\n%s", diff)
	}
}
