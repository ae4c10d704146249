package mcpserver_test

import (
	"context"
	"embed"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/mcpserver"
	"github.com/skillet-go/skillet/mcpserver/skillsext"
	"github.com/skillet-go/skillet/skill"
)

// sourcesFS holds greet with references/guide.md, and a .env the server
// must never serve (all: keeps it in the FS, so the catalog's rule is what
// withholds it).
//
//go:embed all:testdata/sources/skills
var sourcesFS embed.FS

// TestServeSources: a server over a catalog of an embed.FS and of skills
// the program built serves them as it serves skills on disk: listed as
// resources, SKILL.md and bundled files read from the FS with
// resources/read, loaded through the tool (a bundled file by "path"), and
// no dotfile served.
func TestServeSources(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	built := &skill.Skill{Name: "farewell", Description: "Say goodbye at the end of a session.", Body: "Wave, then say goodbye."}
	cat, err := catalog.New(ctx, &catalog.Options{Workspace: t.TempDir(), NoConfigFile: true, NoProject: true, NoUser: true,
		Sources: []catalog.Source{{FS: sourcesFS, Dir: "testdata/sources/skills"}, {Skills: []*skill.Skill{built}}}})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mcpserver.New(ctx, cat, &mcpserver.Options{Tool: mcpserver.ToolAlways})
	if err != nil {
		t.Fatal(err)
	}
	// The one note: greet's .env is withheld.
	if d := srv.Diagnostics(); len(d) != 1 || d[0].Code != "files-withheld" || d[0].Path != "embed://testdata/sources/skills/greet" {
		t.Errorf("diagnostics: %v, want greet's files-withheld alone", d)
	}
	st, ct := mcp.NewInMemoryTransports()
	go srv.Run(ctx, st)
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	if err := skillsext.Register(client); err != nil {
		t.Fatal(err)
	}
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	// Both are in the extension's skills/list, with the files served.
	var entries []string
	for e, err := range skillsext.Skills(ctx, cs) {
		if err != nil {
			t.Fatal(err)
		}
		entry := e.URI + " " + string(e.Frontmatter)
		for _, r := range e.Resources.Files {
			entry += " " + r.URI
		}
		entries = append(entries, entry)
	}
	wantEntries := []string{
		`skill://farewell/SKILL.md {"name":"farewell","description":"Say goodbye at the end of a session."} skill://farewell/SKILL.md`,
		`skill://greet/SKILL.md {"name":"greet","description":"Greet the user by name at the start of a session."} skill://greet/SKILL.md skill://greet/references/guide.md`,
	}
	if !slices.Equal(entries, wantEntries) {
		t.Errorf("skills/list:\n%s\nwant\n%s", strings.Join(entries, "\n"), strings.Join(wantEntries, "\n"))
	}

	lr, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range lr.Resources {
		uris = append(uris, r.URI)
	}
	want := []string{"skill://farewell/SKILL.md", "skill://greet/SKILL.md", "skill://greet/references/guide.md"}
	if !slices.Equal(uris, want) {
		t.Errorf("resources = %v, want %v (no .env)", uris, want)
	}
	for _, tc := range []struct{ uri, want string }{
		{"skill://greet/references/guide.md", "# Guide\n\nUse the user's name.\n"},
		{"skill://greet/SKILL.md", "---\nname: greet\n"},
		{"skill://farewell/SKILL.md", "---\nname: \"farewell\"\ndescription: \"Say goodbye at the end of a session.\"\n---\n\nWave, then say goodbye."},
	} {
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: tc.uri})
		if err != nil {
			t.Errorf("read %s: %v", tc.uri, err)
			continue
		}
		if got := res.Contents[0].Text; !strings.HasPrefix(got, tc.want) {
			t.Errorf("read %s = %q, want it to start %q", tc.uri, got, tc.want)
		}
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://greet/.env"}); err == nil {
		t.Error("read skill://greet/.env: served")
	}
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"name": "greet"}, "Say hello, then read references/guide.md."},
		{map[string]any{"name": "greet", "path": "references/guide.md"}, "Use the user's name."},
		{map[string]any{"name": "farewell"}, "Wave, then say goodbye."},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "use_skill", Arguments: tc.args})
		if err != nil {
			t.Fatal(err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if res.IsError || !strings.Contains(text, tc.want) {
			t.Errorf("use_skill %v = %q (error %v), want %q in it", tc.args, text, res.IsError, tc.want)
		}
	}
}
