package mcpserver

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillet-go/skillet/skill"
)

// pluginWorkspace is a marketplace checkout: two plugins with an init
// skill each, p1's with a bundled file, and a plain skill named p2 with a
// folder that is no plugin skill's name.
func pluginWorkspace(t *testing.T) string {
	t.Helper()
	ws := newWorkspace(t)
	writeTree(t, ws, map[string]string{
		"plugins/p1/.claude-plugin/plugin.json":      `{"name": "p1"}`,
		"plugins/p1/skills/init/SKILL.md":            "---\nname: init\ndescription: Set up p1.\n---\nP1 INIT BODY\n",
		"plugins/p1/skills/init/references/guide.md": "P1 GUIDE\n",
		"plugins/p1/skills/status/SKILL.md":          "---\nname: status\ndescription: Report p1.\n---\nP1 STATUS\n",
		"plugins/second/.claude-plugin/plugin.json":  `{"name": "p2"}`,
		"plugins/second/skills/init/SKILL.md":        "---\nname: init\ndescription: Set up p2.\n---\nP2 INIT BODY\n",
		".agents/skills/p2/SKILL.md":                 "---\nname: p2\ndescription: A plain skill named like a plugin.\n---\nPLAIN P2\n",
		".agents/skills/p2/extra/notes.md":           "PLAIN P2 NOTES\n",
	})
	return ws
}

// TestPluginSkillURIs: a plugin's skill PLUGIN:NAME is served at
// skill://PLUGIN/NAME/PATH (docs/mcp.md#plugin-skills), read through the
// SDK's client: SKILL.md and a bundled file by resources/read, the entry
// by skills/list and skills/get (its frontmatter name the skill's own),
// the folder by resources/directory/read, and the load tool by the name
// p1:init. A plain skill named like a plugin keeps its own files.
func TestPluginSkillURIs(t *testing.T) {
	t.Parallel()
	s := newServer(t, pluginWorkspace(t), &Options{Tool: ToolAlways})
	cs := connect(t, s, nil, nil)
	ctx := t.Context()

	lr, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range lr.Resources {
		uris = append(uris, r.URI)
	}
	for _, want := range []string{"skill://p1/init/SKILL.md", "skill://p1/init/references/guide.md", "skill://p1/status/SKILL.md", "skill://p2/init/SKILL.md", "skill://p2/SKILL.md", "skill://p2/extra/notes.md"} {
		if !slices.Contains(uris, want) {
			t.Errorf("resources/list lacks %s: %v", want, uris)
		}
	}
	for uri, want := range map[string]string{
		"skill://p1/init/SKILL.md":            "P1 INIT BODY",
		"skill://p1/init/references/guide.md": "P1 GUIDE",
		"skill://p2/init/SKILL.md":            "P2 INIT BODY",
		"skill://p2/SKILL.md":                 "PLAIN P2",
		"skill://p2/extra/notes.md":           "PLAIN P2 NOTES",
	} {
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Errorf("read %s: %v", uri, err)
			continue
		}
		if len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, want) || res.Contents[0].URI != uri {
			t.Errorf("read %s: %+v, want %q", uri, res.Contents, want)
		}
	}
	for _, uri := range []string{"skill://p1/SKILL.md", "skill://p1/nope/SKILL.md", "skill://p1%3Ainit/SKILL.md"} {
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err == nil {
			t.Errorf("read %s: no error", uri)
		}
	}

	entries := allSkills(t, cs)
	var found bool
	for _, e := range entries {
		if e.URI != "skill://p1/init/SKILL.md" {
			continue
		}
		found = true
		var fm struct{ Name string }
		if err := json.Unmarshal(e.Frontmatter, &fm); err != nil || fm.Name != "init" {
			t.Errorf("skills/list p1:init frontmatter %s, want name init", e.Frontmatter)
		}
		if len(e.Resources.Files) != 2 {
			t.Errorf("skills/list p1:init manifest %+v, want SKILL.md and references/guide.md", e.Resources)
		}
	}
	if !found {
		t.Errorf("skills/list has no skill://p1/init/SKILL.md")
	}
	if g, err := getSkill(ctx, cs, "skill://p2/init/SKILL.md"); err != nil || g.Skill.URI != "skill://p2/init/SKILL.md" {
		t.Errorf("skills/get p2:init: %v %v", g, err)
	}
	d, err := readDir(ctx, cs, "skill://p1/init", "")
	if err != nil {
		t.Fatal(err)
	}
	var kids []string
	for _, r := range d.Resources {
		kids = append(kids, r.URI)
	}
	if !slices.Equal(kids, []string{"skill://p1/init/SKILL.md", "skill://p1/init/references"}) {
		t.Errorf("resources/directory/read skill://p1/init: %v", kids)
	}

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "use_skill", Arguments: map[string]any{"name": "p1:init"}})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if res.IsError || !strings.Contains(text, "P1 INIT BODY") || !strings.Contains(text, "skill://p1/init") {
		t.Errorf("use_skill p1:init (isError %v):\n%s", res.IsError, text)
	}
}

// TestPluginURIRoundTrip: URI and ParseURI agree on a plugin skill's
// files, and the server's resolve turns the parse back into the name.
func TestPluginURIRoundTrip(t *testing.T) {
	t.Parallel()
	for _, rel := range []string{"", "SKILL.md", "references/a b.md"} {
		uri := skillURI("p1:init", rel)
		name, got, err := parseURI(uri)
		if err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		want := "init"
		if rel != "" {
			want += "/" + rel
		}
		if name != "p1" || got != want {
			t.Errorf("%s: parsed %q %q, want p1 %q", uri, name, got, want)
		}
	}
}

// FuzzPluginURI: every URI of a plugin skill's file parses back, and
// resolve turns the parse into the skill's name and the file's path.
func FuzzPluginURI(f *testing.F) {
	f.Add("p1", "init", "SKILL.md")
	f.Add("my.tools", "deploy-app", "references/a b.md")
	f.Add("x", "y", "")
	f.Fuzz(func(t *testing.T, plugin, name, rel string) {
		if !nameRule().MatchString(plugin) || !skill.ValidName(name) {
			return
		}
		for seg := range strings.SplitSeq(rel, "/") {
			if rel != "" && (seg == "" || seg == "." || seg == ".." || strings.ContainsAny(seg, "\\\x00")) {
				return
			}
		}
		uri := skillURI(plugin+":"+name, rel)
		p, r, err := parseURI(uri)
		if err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		sn := &snapshot{byName: map[string]*served{plugin + ":" + name: {}}}
		gotName, gotRel := sn.resolve(p, r)
		if gotName != plugin+":"+name || gotRel != rel {
			t.Fatalf("%s: resolved to %q %q, want %q %q", uri, gotName, gotRel, plugin+":"+name, rel)
		}
	})
}
