package catalog

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/skillet-go/skillet/internal/profile"
)

// base is a neutral profile the table tests change one rule at a time:
// one project root (.x/skills), one user root (~/.x/skills), the working
// folder only, ROOT/NAME/SKILL.md, YAML as written, nothing cut.
func baseProfile() *profile.Profile {
	return &profile.Profile{
		Name: "claude", Title: "test", Checked: "documentation",
		Roots:      profile.Roots{Project: []string{".x/skills"}, User: []string{"~/.x/skills"}, WalkUp: "cwd", NoGit: "cwd", NearestFirst: true},
		Discovery:  profile.Discovery{MaxDepth: 1},
		Symlinks:   profile.Symlinks{Folders: true, Files: true, SameFileOnce: true},
		Precedence: profile.Precedence{Duplicates: "first"},
		Names:      profile.Naming{Source: "field"},
		Parse:      profile.Parse{BOM: "strip", NoFrontmatter: "drop", YAML: "strict", Description: "drop"},
	}
}

func md(name, desc string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n---\n\nBody.\n"
}

// TestHostRules applies one rule of a profile at a time and checks what
// the host loads (name|description|sandbox path, in order) and why it
// passes over the rest.
func TestHostRules(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("d", 30)
	for _, tt := range []struct {
		name   string
		change func(p *profile.Profile)
		files  map[string]string // under the sandbox: ws/..., home/...
		cwd    string            // below ws; "" is ws
		want   []string
		why    map[string]string // sandbox path -> part of the reason
	}{
		{name: "direct children only", files: map[string]string{
			"ws/.x/skills/a/SKILL.md":       md("a", "A."),
			"ws/.x/skills/group/b/SKILL.md": md("b", "B."),
			"ws/.x/skills/SKILL.md":         md("root", "Root."),
		}, want: []string{"a|A.|ws/.x/skills/a/SKILL.md"}, why: map[string]string{
			"ws/.x/skills/group/b/SKILL.md": "reads only NAME/SKILL.md directly in .x/skills",
			"ws/.x/skills/SKILL.md":         "reads no SKILL.md directly in a skills folder",
		}},
		{name: "root skill", change: func(p *profile.Profile) { p.Discovery.RootSkill = true }, files: map[string]string{
			"ws/.x/skills/SKILL.md": md("root", "Root."),
		}, want: []string{"root|Root.|ws/.x/skills/SKILL.md"}},
		{name: "recursive", change: func(p *profile.Profile) { p.Discovery.MaxDepth = 0 }, files: map[string]string{
			"ws/.x/skills/g/h/i/b/SKILL.md": md("b", "B."),
		}, want: []string{"b|B.|ws/.x/skills/g/h/i/b/SKILL.md"}},
		{name: "max depth 2", change: func(p *profile.Profile) { p.Discovery.MaxDepth = 2 }, files: map[string]string{
			"ws/.x/skills/g/b/SKILL.md":   md("b", "B."),
			"ws/.x/skills/g/h/c/SKILL.md": md("c", "C."),
		}, want: []string{"b|B.|ws/.x/skills/g/b/SKILL.md"}, why: map[string]string{"ws/.x/skills/g/h/c/SKILL.md": "at most 2 folders deep"}},
		{name: "nested skills are bundled files", change: func(p *profile.Profile) { p.Discovery.MaxDepth = 0 }, files: map[string]string{
			"ws/.x/skills/a/SKILL.md":     md("a", "A."),
			"ws/.x/skills/a/sub/SKILL.md": md("sub", "Sub."),
		}, want: []string{"a|A.|ws/.x/skills/a/SKILL.md"}, why: map[string]string{"ws/.x/skills/a/sub/SKILL.md": "inside the skill folder"}},
		{name: "nested skills load", change: func(p *profile.Profile) { p.Discovery.MaxDepth, p.Discovery.Nested = 0, true }, files: map[string]string{
			"ws/.x/skills/a/SKILL.md":     md("a", "A."),
			"ws/.x/skills/a/sub/SKILL.md": md("sub", "Sub."),
		}, want: []string{"a|A.|ws/.x/skills/a/SKILL.md", "sub|Sub.|ws/.x/skills/a/sub/SKILL.md"}},
		{name: "skipped entries", change: func(p *profile.Profile) { p.Discovery.MaxDepth, p.Discovery.Skip = 0, []string{".*", "node_modules"} }, files: map[string]string{
			"ws/.x/skills/.hidden/a/SKILL.md":      md("a", "A."),
			"ws/.x/skills/node_modules/b/SKILL.md": md("b", "B."),
			"ws/.x/skills/_draft/SKILL.md":         md("draft", "Draft."),
		}, want: []string{"draft|Draft.|ws/.x/skills/_draft/SKILL.md"}, why: map[string]string{
			"ws/.x/skills/.hidden/a/SKILL.md":      `skips entries named ".hidden"`,
			"ws/.x/skills/node_modules/b/SKILL.md": `skips entries named "node_modules"`,
		}},
		{name: "file name case", files: map[string]string{"ws/.x/skills/a/skill.md": md("a", "A.")},
			why: map[string]string{"ws/.x/skills/a/skill.md": "only files named exactly SKILL.md"}},
		{name: "any case", change: func(p *profile.Profile) { p.Discovery.AnyCase = true }, files: map[string]string{"ws/.x/skills/a/skill.md": md("a", "A.")},
			want: []string{"a|A.|ws/.x/skills/a/skill.md"}},
		{name: "flat files", change: func(p *profile.Profile) { p.Discovery.Flat = true }, files: map[string]string{
			"ws/.x/skills/deploy.md": md("deploy", "Deploy."), "ws/.x/skills/README.md": "# Readme\n",
		}, want: []string{"deploy|Deploy.|ws/.x/skills/deploy.md"}},
		{name: "flat files in one root only", change: func(p *profile.Profile) {
			p.Roots.Project, p.Discovery.Flat, p.Discovery.FlatRoots = []string{".x/skills", ".y/skills"}, true, []string{".y/skills"}
		}, files: map[string]string{"ws/.x/skills/a.md": md("a", "A."), "ws/.y/skills/b.md": md("b", "B.")},
			want: []string{"b|B.|ws/.y/skills/b.md"}, why: map[string]string{"ws/.x/skills/a.md": "no loose NAME.md"}},
		{name: "spaces become hyphens", change: func(p *profile.Profile) { p.Names.Normalize = "spaces" }, files: map[string]string{"ws/.x/skills/dir/SKILL.md": md("odd name_x", "D.")},
			want: []string{"odd-name_x|D.|ws/.x/skills/dir/SKILL.md"}},
		{name: "body text as description", change: func(p *profile.Profile) { p.Parse.Description = "body-text" },
			files: map[string]string{"ws/.x/skills/a/SKILL.md": "---\nname: a\n---\n# Head\n\nFirst.\n\nSecond.\n"}, want: []string{"a|First. Second.|ws/.x/skills/a/SKILL.md"}},
		{name: "no flat files", files: map[string]string{"ws/.x/skills/deploy.md": md("deploy", "Deploy.")},
			why: map[string]string{"ws/.x/skills/deploy.md": "no loose NAME.md"}},
		{name: "folder links not followed", change: func(p *profile.Profile) { p.Symlinks.Folders = false }, files: map[string]string{
			"outside/a/SKILL.md": md("a", "A."), "ws/.x/skills/a": "-> ../../../outside/a",
		}, why: map[string]string{"ws/.x/skills/a/SKILL.md": "does not follow the symlinked folder"}},
		{name: "folder link out of the workspace", files: map[string]string{
			"outside/a/SKILL.md": md("a", "A."), "ws/.x/skills/a": "-> ../../../outside/a",
		}, want: []string{"a|A.|ws/.x/skills/a/SKILL.md"}},
		{name: "links kept inside the workspace", change: func(p *profile.Profile) { p.Symlinks.InsideWorkspace = true }, files: map[string]string{
			"outside/a/SKILL.md": md("a", "A."), "ws/.x/skills/a": "-> ../../../outside/a",
		}, why: map[string]string{"ws/.x/skills/a/SKILL.md": "outside the workspace"}},
		{name: "file links skipped", change: func(p *profile.Profile) { p.Symlinks.Files = false }, files: map[string]string{
			"ws/shared/a.md": md("a", "A."), "ws/.x/skills/a/SKILL.md": "-> ../../../shared/a.md",
		}, why: map[string]string{"ws/.x/skills/a/SKILL.md": "is itself a symlink"}},
		{name: "same file once", change: func(p *profile.Profile) { p.Roots.Project = []string{".x/skills", ".y/skills"} }, files: map[string]string{
			"ws/.x/skills/a/SKILL.md": md("a", "A."), "ws/.y/skills/a": "-> ../../.x/skills/a",
		}, want: []string{"a|A.|ws/.x/skills/a/SKILL.md"}},
		{name: "same file twice", change: func(p *profile.Profile) {
			p.Roots.Project, p.Symlinks.SameFileOnce, p.Precedence.Duplicates = []string{".x/skills", ".y/skills"}, false, "all"
		}, files: map[string]string{
			"ws/.x/skills/a/SKILL.md": md("a", "A."), "ws/.y/skills/a": "-> ../../.x/skills/a",
		}, want: []string{"a|A.|ws/.x/skills/a/SKILL.md", "a|A.|ws/.y/skills/a/SKILL.md"}},
		{name: "project first", files: map[string]string{
			"ws/.x/skills/a/SKILL.md": md("a", "Project."), "home/.x/skills/a/SKILL.md": md("a", "User."),
		}, want: []string{"a|Project.|ws/.x/skills/a/SKILL.md"}, why: map[string]string{"home/.x/skills/a/SKILL.md": "takes precedence"}},
		{name: "user first", change: func(p *profile.Profile) { p.Precedence.UserFirst = true }, files: map[string]string{
			"ws/.x/skills/a/SKILL.md": md("a", "Project."), "home/.x/skills/a/SKILL.md": md("a", "User."),
		}, want: []string{"a|User.|home/.x/skills/a/SKILL.md"}},
		{name: "explicit order", change: func(p *profile.Profile) {
			p.Roots.Project = []string{".x/skills", ".y/skills"}
			p.Precedence.Order = []string{"project:.y/skills", "user:~/.x/skills", "project:.x/skills"}
		}, files: map[string]string{
			"ws/.x/skills/a/SKILL.md": md("a", "X."), "ws/.y/skills/b/SKILL.md": md("b", "Y."),
			"home/.x/skills/a/SKILL.md": md("a", "User."), "home/.x/skills/b/SKILL.md": md("b", "User."),
		}, want: []string{"b|Y.|ws/.y/skills/b/SKILL.md", "a|User.|home/.x/skills/a/SKILL.md"}},
		{name: "every copy", change: func(p *profile.Profile) { p.Precedence.Duplicates = "all" }, files: map[string]string{
			"ws/.x/skills/a/SKILL.md": md("a", "One."), "ws/.x/skills/b/SKILL.md": md("a", "Two."),
		}, want: []string{"a|One.|ws/.x/skills/a/SKILL.md", "a|Two.|ws/.x/skills/b/SKILL.md"}},
		{name: "any copy", change: func(p *profile.Profile) { p.Precedence.Duplicates = "any" }, files: map[string]string{
			"ws/.x/skills/a/SKILL.md": md("a", "One."), "ws/.x/skills/b/SKILL.md": md("a", "Two."),
		}, want: []string{"a|One.|ws/.x/skills/a/SKILL.md"}, why: map[string]string{"ws/.x/skills/b/SKILL.md": "not always the same"}},
		{name: "walk up to the git root", change: func(p *profile.Profile) { p.Roots.WalkUp = "git-root" }, cwd: "a/b", files: map[string]string{
			"ws/.git/HEAD": "x", "ws/.x/skills/top/SKILL.md": md("top", "Top."),
			"ws/a/.x/skills/mid/SKILL.md": md("mid", "Mid."), "ws/a/b/.x/skills/low/SKILL.md": md("low", "Low."),
			".x/skills/above/SKILL.md": md("above", "Above."),
		}, want: []string{"low|Low.|ws/a/b/.x/skills/low/SKILL.md", "mid|Mid.|ws/a/.x/skills/mid/SKILL.md", "top|Top.|ws/.x/skills/top/SKILL.md"}},
		{name: "only some roots walk up", change: func(p *profile.Profile) {
			p.Roots.Project, p.Roots.NoGit, p.Roots.WalkUpRoots = []string{".x/skills", ".y/skills"}, "all", []string{".y/skills"}
		}, cwd: "a", files: map[string]string{
			"ws/.x/skills/x/SKILL.md": md("x", "X."), "ws/.y/skills/y/SKILL.md": md("y", "Y."), "ws/a/.x/skills/lx/SKILL.md": md("lx", "LX."),
		}, want: []string{"lx|LX.|ws/a/.x/skills/lx/SKILL.md", "y|Y.|ws/.y/skills/y/SKILL.md"}},
		{name: "git root first", change: func(p *profile.Profile) { p.Roots.WalkUp, p.Roots.NearestFirst = "git-root", false }, cwd: "a", files: map[string]string{
			"ws/.git/HEAD": "x", "ws/.x/skills/s/SKILL.md": md("s", "Top."), "ws/a/.x/skills/s/SKILL.md": md("s", "Low."),
		}, want: []string{"s|Top.|ws/.x/skills/s/SKILL.md"}},
		{name: "working folder and git root", change: func(p *profile.Profile) { p.Roots.WalkUp = "cwd+git-root" }, cwd: "a/b", files: map[string]string{
			"ws/.git/HEAD": "x", "ws/.x/skills/top/SKILL.md": md("top", "Top."),
			"ws/a/.x/skills/mid/SKILL.md": md("mid", "Mid."), "ws/a/b/.x/skills/low/SKILL.md": md("low", "Low."),
		}, want: []string{"low|Low.|ws/a/b/.x/skills/low/SKILL.md", "top|Top.|ws/.x/skills/top/SKILL.md"}},
		{name: "no git: the working folder only", change: func(p *profile.Profile) { p.Roots.WalkUp = "git-root" }, cwd: "a", files: map[string]string{
			"ws/.x/skills/top/SKILL.md": md("top", "Top."), "ws/a/.x/skills/low/SKILL.md": md("low", "Low."),
		}, want: []string{"low|Low.|ws/a/.x/skills/low/SKILL.md"}},
		{name: "no git: every parent", change: func(p *profile.Profile) { p.Roots.WalkUp, p.Roots.NoGit = "git-root", "all" }, cwd: "a", files: map[string]string{
			"ws/.x/skills/top/SKILL.md": md("top", "Top."), "ws/a/.x/skills/low/SKILL.md": md("low", "Low."),
			".x/skills/above/SKILL.md": md("above", "Above."),
		}, want: []string{"low|Low.|ws/a/.x/skills/low/SKILL.md", "top|Top.|ws/.x/skills/top/SKILL.md", "above|Above.|.x/skills/above/SKILL.md"}},
		{name: "name from the folder", change: func(p *profile.Profile) { p.Names.Source = "folder" }, files: map[string]string{
			"ws/.x/skills/dir/SKILL.md": md("Other", "D."),
		}, want: []string{"dir|D.|ws/.x/skills/dir/SKILL.md"}},
		{name: "name kept as written", files: map[string]string{"ws/.x/skills/dir/SKILL.md": md("My Skill", "D.")},
			want: []string{"My Skill|D.|ws/.x/skills/dir/SKILL.md"}},
		{name: "name missing: folder", files: map[string]string{"ws/.x/skills/dir/SKILL.md": "---\ndescription: D.\n---\nBody.\n"},
			want: []string{"dir|D.|ws/.x/skills/dir/SKILL.md"}},
		{name: "name required", change: func(p *profile.Profile) { p.Names.Required = true },
			files: map[string]string{"ws/.x/skills/dir/SKILL.md": "---\ndescription: D.\n---\nBody.\n"},
			why:   map[string]string{"ws/.x/skills/dir/SKILL.md": "has no name"}},
		{name: "kebab-case", change: func(p *profile.Profile) { p.Names.Normalize = "kebab" }, files: map[string]string{"ws/.x/skills/dir/SKILL.md": md("My Skill", "D.")},
			want: []string{"my-skill|D.|ws/.x/skills/dir/SKILL.md"}},
		{name: "path characters", change: func(p *profile.Profile) { p.Names.Normalize = "path-chars" }, files: map[string]string{"ws/.x/skills/dir/SKILL.md": md(`"a/b:c"`, "D.")},
			want: []string{"a-b-c|D.|ws/.x/skills/dir/SKILL.md"}},
		{name: "name too long", change: func(p *profile.Profile) { p.Names.MaxChars = 64 }, files: map[string]string{"ws/.x/skills/dir/SKILL.md": md(strings.Repeat("n", 65), "D.")},
			why: map[string]string{"ws/.x/skills/dir/SKILL.md": "65 characters, over its limit of 64"}},
		{name: "name pattern", change: func(p *profile.Profile) { p.Names.Pattern = "^[a-z-]+$" }, files: map[string]string{"ws/.x/skills/dir/SKILL.md": md("Dir", "D.")},
			why: map[string]string{"ws/.x/skills/dir/SKILL.md": "breaks its rule"}},
		{name: "name matches folder", change: func(p *profile.Profile) { p.Names.MatchFolder = true }, files: map[string]string{"ws/.x/skills/dir/SKILL.md": md("other", "D.")},
			why: map[string]string{"ws/.x/skills/dir/SKILL.md": "differs from the folder name"}},
		{name: "BOM stripped", files: map[string]string{"ws/.x/skills/a/SKILL.md": "\ufeff" + md("a", "A.")},
			want: []string{"a|A.|ws/.x/skills/a/SKILL.md"}},
		{name: "BOM dropped", change: func(p *profile.Profile) { p.Parse.BOM = "drop" }, files: map[string]string{"ws/.x/skills/a/SKILL.md": "\ufeff" + md("a", "A.")},
			why: map[string]string{"ws/.x/skills/a/SKILL.md": "byte order mark"}},
		{name: "no frontmatter dropped", files: map[string]string{"ws/.x/skills/a/SKILL.md": "# A\n\nDoes a.\n"},
			why: map[string]string{"ws/.x/skills/a/SKILL.md": "no --- frontmatter"}},
		{name: "no frontmatter loaded", change: func(p *profile.Profile) { p.Parse.NoFrontmatter, p.Parse.Description = "load", "body" },
			files: map[string]string{"ws/.x/skills/a/SKILL.md": "# A\n\nDoes a.\n"}, want: []string{"a|Does a.|ws/.x/skills/a/SKILL.md"}},
		{name: "first line as description", change: func(p *profile.Profile) { p.Parse.NoFrontmatter, p.Parse.Description = "load", "first-line" },
			files: map[string]string{"ws/.x/skills/a/SKILL.md": "\n# A heading\n\nDoes a.\n"}, want: []string{"a|A heading|ws/.x/skills/a/SKILL.md"}},
		{name: "repair, else no metadata", change: func(p *profile.Profile) {
			p.Parse.YAML, p.Parse.BrokenYAML, p.Parse.Description = "repair", "empty", "first-line"
		},
			files: map[string]string{
				"ws/.x/skills/colon/SKILL.md": md("colon", "Use when: asked"),
				"ws/.x/skills/bad/SKILL.md":   "---\nname: bad\ndescription: Bad.\n  metadata: [unclosed\n---\n# Bad indent\n\nBody.\n",
			}, want: []string{"bad|Bad indent|ws/.x/skills/bad/SKILL.md", "colon|Use when: asked|ws/.x/skills/colon/SKILL.md"}},
		{name: "strict YAML", files: map[string]string{"ws/.x/skills/a/SKILL.md": md("a", "Use when: asked")},
			why: map[string]string{"ws/.x/skills/a/SKILL.md": "not valid YAML"}},
		{name: "line reader", change: func(p *profile.Profile) { p.Parse.BrokenYAML = "lines" },
			files: map[string]string{"ws/.x/skills/a/SKILL.md": "---\nname: a\ndescription: Use when: asked\n  and more\n---\nBody.\n"},
			want:  []string{"a|Use when: asked and more|ws/.x/skills/a/SKILL.md"}},
		{name: "line reader, one line each", change: func(p *profile.Profile) { p.Parse.BrokenYAML = "single-lines" },
			files: map[string]string{"ws/.x/skills/a/SKILL.md": "---\nname: a\ndescription: Use when: asked\n  and more\n---\nBody.\n"},
			want:  []string{"a|Use when: asked|ws/.x/skills/a/SKILL.md"}},
		{name: "broken YAML loads empty", change: func(p *profile.Profile) { p.Parse.BrokenYAML, p.Parse.Description = "empty", "empty" },
			files: map[string]string{"ws/.x/skills/dir/SKILL.md": md("a", "Use when: asked")}, want: []string{"dir||ws/.x/skills/dir/SKILL.md"}},
		{name: "repaired YAML", change: func(p *profile.Profile) { p.Parse.YAML = "repair" },
			files: map[string]string{"ws/.x/skills/a/SKILL.md": md("a", "Use when: asked")}, want: []string{"a|Use when: asked|ws/.x/skills/a/SKILL.md"}},
		{name: "key: value subset", change: func(p *profile.Profile) { p.Parse.YAML = "subset" },
			files: map[string]string{"ws/.x/skills/a/SKILL.md": "---\nname: 'a'\ndescription: \"Quoted: yes\"\nlist:\n  - x\n---\nBody.\n"},
			want:  []string{"a|Quoted: yes|ws/.x/skills/a/SKILL.md"}},
		{name: "frontmatter ends at any ---", change: func(p *profile.Profile) { p.Parse.FenceAnywhere = true },
			files: map[string]string{"ws/.x/skills/a/SKILL.md": md("a", "Before --- after")}, want: []string{"a|Before|ws/.x/skills/a/SKILL.md"}},
		{name: "frontmatter ends at a --- line", files: map[string]string{"ws/.x/skills/a/SKILL.md": md("a", "Before --- after")},
			want: []string{"a|Before --- after|ws/.x/skills/a/SKILL.md"}},
		{name: "one line", change: func(p *profile.Profile) { p.Parse.OneLine = true },
			files: map[string]string{"ws/.x/skills/a/SKILL.md": "---\nname: a\ndescription: |\n  One\n  two.\n---\nBody.\n"}, want: []string{"a|One two.|ws/.x/skills/a/SKILL.md"}},
		{name: "line breaks kept", files: map[string]string{"ws/.x/skills/a/SKILL.md": "---\nname: a\ndescription: |\n  One\n  two.\n---\nBody.\n"},
			want: []string{"a|One\ntwo.|ws/.x/skills/a/SKILL.md"}},
		{name: "description required", files: map[string]string{"ws/.x/skills/a/SKILL.md": "---\nname: a\n---\nBody.\n"},
			why: map[string]string{"ws/.x/skills/a/SKILL.md": "has no description"}},
		{name: "empty description loads", change: func(p *profile.Profile) { p.Parse.Description = "empty" },
			files: map[string]string{"ws/.x/skills/a/SKILL.md": "---\nname: a\ndescription: \"\"\n---\nBody.\n"}, want: []string{"a||ws/.x/skills/a/SKILL.md"}},
		{name: "empty description loads, a missing one does not", change: func(p *profile.Profile) { p.Parse.EmptyDescription = "load" },
			files: map[string]string{"ws/.x/skills/a/SKILL.md": "---\nname: a\ndescription: \"\"\n---\nBody.\n", "ws/.x/skills/b/SKILL.md": "---\nname: b\n---\nBody.\n"},
			want:  []string{"a||ws/.x/skills/a/SKILL.md"}, why: map[string]string{"ws/.x/skills/b/SKILL.md": "has no description"}},
		{name: "long description dropped", change: func(p *profile.Profile) { p.Parse.MaxDescriptionChars, p.Parse.LongDescription = 20, "drop" },
			files: map[string]string{"ws/.x/skills/a/SKILL.md": md("a", long)}, why: map[string]string{"ws/.x/skills/a/SKILL.md": "30 characters, over its limit of 20"}},
		{name: "long description cut", change: func(p *profile.Profile) {
			p.Parse.MaxDescriptionChars, p.Parse.LongDescription, p.Parse.Suffix = 20, "cut", "..."
		},
			files: map[string]string{"ws/.x/skills/a/SKILL.md": md("a", long)}, want: []string{"a|" + long[:17] + "...|ws/.x/skills/a/SKILL.md"}},
		{name: "root link resolved", change: func(p *profile.Profile) { p.Symlinks.ResolveRoot = true }, files: map[string]string{
			"outside/coll/a/SKILL.md": md("a", "A."), "ws/.x/skills": "-> ../../outside/coll",
		}, want: []string{"a|A.|outside/coll/a/SKILL.md"}},
		{name: "root link kept", files: map[string]string{
			"outside/coll/a/SKILL.md": md("a", "A."), "ws/.x/skills": "-> ../../outside/coll",
		}, want: []string{"a|A.|ws/.x/skills/a/SKILL.md"}},
		{name: "catalog cut", change: func(p *profile.Profile) { p.Disclosure.CatalogChars = 10 },
			files: map[string]string{"ws/.x/skills/a/SKILL.md": md("a", long)}, want: []string{"a|" + long[:10] + "|ws/.x/skills/a/SKILL.md"}},
		{name: "bytes read", change: func(p *profile.Profile) {
			p.Parse.MaxSkillBytes, p.Parse.NoFrontmatter, p.Parse.Description = 12, "load", "body"
		},
			files: map[string]string{"ws/.x/skills/a/SKILL.md": "# A\n\nabcdefghijklmnop\n"}, want: []string{"a|abcdefg|ws/.x/skills/a/SKILL.md"}},
		{name: "empty body dropped", change: func(p *profile.Profile) { p.Parse.EmptyBody = "drop" },
			files: map[string]string{"ws/.x/skills/a/SKILL.md": "---\nname: a\ndescription: A.\n---\n"}, why: map[string]string{"ws/.x/skills/a/SKILL.md": "nothing follows"}},
		{name: "folder (name)", change: func(p *profile.Profile) { p.Names.Source, p.Names.Alias = "folder", true }, files: map[string]string{
			"ws/.x/skills/a/SKILL.md": md("dup", "A."), "ws/.x/skills/b/SKILL.md": md("dup", "B."),
			"ws/.x/skills/c/SKILL.md": md("c", "C."), "ws/.x/skills/d/SKILL.md": md("odd name", "D."),
		}, want: []string{"a (dup)|A.|ws/.x/skills/a/SKILL.md", "b|B.|ws/.x/skills/b/SKILL.md", "c|C.|ws/.x/skills/c/SKILL.md", "d|D.|ws/.x/skills/d/SKILL.md"}},
		{name: "angles escaped", change: func(p *profile.Profile) { p.Disclosure.EscapeAngles = true },
			files: map[string]string{"ws/.x/skills/a/SKILL.md": md("a", `"Use <b> & co"`)}, want: []string{"a|Use &lt;b&gt; & co|ws/.x/skills/a/SKILL.md"}},
		{name: "catalog budget", change: func(p *profile.Profile) { p.Disclosure.BudgetChars = 30 }, files: map[string]string{
			"ws/.x/skills/a/SKILL.md": md("a", "First one."), "ws/.x/skills/b/SKILL.md": md("b", "Second."), "ws/.x/skills/c/SKILL.md": md("c", "C."),
			// Name lines 3 × 4 = 12 of 30; ": First one." (12) fits, ": Second." (9)
			// does not in the 6 left, ": C." (4) still does.
		}, want: []string{"a|First one.|ws/.x/skills/a/SKILL.md", "b||ws/.x/skills/b/SKILL.md", "c|C.|ws/.x/skills/c/SKILL.md"}},
		{name: "hidden from the model", change: func(p *profile.Profile) { p.Disclosure.HidesDisabled = true },
			files: map[string]string{"ws/.x/skills/a/SKILL.md": "---\nname: a\ndescription: A.\ndisable-model-invocation: true\n---\nBody.\n"},
			want:  []string{"a|A.|ws/.x/skills/a/SKILL.md (hidden)"}},
		{name: "not hidden", files: map[string]string{"ws/.x/skills/a/SKILL.md": "---\nname: a\ndescription: A.\ndisable-model-invocation: true\n---\nBody.\n"},
			want: []string{"a|A.|ws/.x/skills/a/SKILL.md"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sandbox := t.TempDir()
			if r, err := filepath.EvalSymlinks(sandbox); err == nil {
				sandbox = r
			}
			files := map[string]string{"ws/.keep": "", "home/.keep": ""}
			for k, v := range tt.files {
				files[k] = v
			}
			writeTree(t, sandbox, files)
			p := baseProfile()
			if tt.change != nil {
				tt.change(p)
			}
			// The profile must survive its own validation.
			data, _ := json.Marshal(p)
			if _, err := profile.Decode(data); err != nil {
				t.Fatalf("test profile: %v", err)
			}
			cwd := filepath.Join(sandbox, "ws", filepath.FromSlash(tt.cwd))
			_, vs, err := hostVerdicts(context.Background(), p, &Options{Workspace: cwd, home: filepath.Join(sandbox, "home")})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			why := map[string]string{}
			for _, v := range vs {
				rel, _ := filepath.Rel(sandbox, v.Path)
				rel = filepath.ToSlash(rel)
				if !v.Loaded {
					why[rel] = v.Reason
					continue
				}
				e := v.Name + "|" + v.Description + "|" + rel
				if v.Hidden {
					e += " (hidden)"
				}
				got = append(got, e)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("loaded (-want +got):\n%s\nreasons: %v", diff, why)
			}
			for path, part := range tt.why {
				if !strings.Contains(why[path], part) {
					t.Errorf("%s: reason %q, want it to say %q", path, why[path], part)
				}
			}
		})
	}
}
