package mcpserver

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestWithheldFiles checks that dotfiles, dot-folders and .skilletignore
// matches are in no listing, no manifest and no read (resource or tool),
// and that a files-withheld diagnostic counts them.
func TestWithheldFiles(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{
		"skills/a/SKILL.md":       "---\nname: a\ndescription: A skill.\n---\nRead notes.md.\n",
		"skills/a/notes.md":       "notes\n",
		"skills/a/.env":           "TOKEN=secret\n",
		"skills/a/.git/config":    "[core]\n",
		"skills/a/.skilletignore": "drafts/\n",
		"skills/a/drafts/x.md":    "draft\n",
		// Folders never entered: withheld, but not counted.
		"skills/a/node_modules/p/i.js":   "secret module\n",
		"skills/a/lib/__pycache__/m.pyc": "secret cache\n",
	})
	s := newServer(t, ws, &Options{Tool: ToolAlways})
	cs := connect(t, s, nil, nil)
	var uris []string
	for _, r := range allResources(t, cs) {
		uris = append(uris, r.URI)
	}
	if got, want := strings.Join(uris, " "), "skill://a/SKILL.md skill://a/notes.md"; got != want {
		t.Errorf("resources/list: %s, want %s", got, want)
	}
	for _, e := range allSkills(t, cs) {
		for _, f := range e.Resources.Files {
			if strings.Contains(f.URI, "/.") || strings.Contains(f.URI, "drafts") {
				t.Errorf("the manifest lists %s", f.URI)
			}
		}
	}
	for _, uri := range []string{"skill://a/.env", "skill://a/.git/config", "skill://a/drafts/x.md", "skill://a/.skilletignore",
		"skill://a/node_modules/p/i.js", "skill://a/lib/__pycache__/m.pyc"} {
		_, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: uri})
		if err == nil {
			t.Errorf("resources/read %s succeeded", uri)
		}
	}
	for _, p := range []string{".env", ".git/config", "drafts/x.md", "node_modules/p/i.js", "lib/__pycache__/m.pyc"} {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "use_skill", Arguments: map[string]any{"name": "a", "path": p}})
		if err != nil {
			t.Fatal(err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if !res.IsError || strings.Contains(text, "secret") || strings.Contains(text, "draft\n") || strings.Contains(text, "secret ") {
			t.Errorf("the tool read %s: %v %q", p, res.IsError, text)
		}
	}
	found := false
	for _, d := range s.Diagnostics() {
		if d.Code == codeFilesWithheld && d.Skill == "a" {
			found = true
			if !strings.Contains(d.Message, "4 entries") {
				t.Errorf("files-withheld: %s, want 4 entries (.env, .git, .skilletignore, drafts)", d.Message)
			}
		}
	}
	if !found {
		t.Errorf("no files-withheld diagnostic in %v", s.Diagnostics())
	}
}
