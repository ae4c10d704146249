package mcpserver

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillet-go/skillet/agent"
	"github.com/skillet-go/skillet/catalog"
)

// TestInstructions: the instructions are agent's catalog block of the
// served skills with skill:// locations, on both protocol eras.
func TestInstructions(t *testing.T) {
	ws := newWorkspace(t)
	s := newServer(t, ws, nil)
	cat := newCatalog(t, ws)
	l, err := cat.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want, err := agent.RenderListing(l, &agent.BlockOptions{
		ToolName: "use_skill", MaxDescriptionChars: cat.Settings().MaxDescriptionChars,
		Location: func(cs *catalog.Skill) string { return "skill://" + cs.Name + "/SKILL.md" },
		Preamble: s.preamble(),
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, version := range []string{legacy, ProtocolCacheable} {
		t.Run(version, func(t *testing.T) {
			got := connect(t, s, nil, &mcp.ClientSessionOptions{ProtocolVersion: version}).InitializeResult().Instructions
			if diff := cmp.Diff(want.Text, got); diff != "" {
				t.Fatalf("instructions (-agent.RenderListing +served):\n%s", diff)
			}
			for _, sub := range []string{"<available_skills>", "<location>skill://alpha/SKILL.md</location>",
				"<location>skill://flat-one/SKILL.md</location>", "use_skill", "resources/read"} {
				if !strings.Contains(got, sub) {
					t.Errorf("instructions lack %q:\n%s", sub, got)
				}
			}
			if strings.Contains(got, "<name>beta</name>") || strings.Contains(got, ws) {
				t.Errorf("instructions show the hidden skill or a file path:\n%s", got)
			}
		})
	}
}

func listTools(t *testing.T, cs *mcp.ClientSession) []*mcp.Tool {
	t.Helper()
	var tools []*mcp.Tool
	for tool, err := range cs.Tools(t.Context(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		tools = append(tools, tool)
	}
	return tools
}

func toolEnum(t *testing.T, tool *mcp.Tool) []string {
	t.Helper()
	b, err := json.Marshal(tool.InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Properties map[string]struct {
			Enum []string `json:"enum"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	return schema.Properties["name"].Enum
}

// TestTool: the load tool is agent's, with the same schema and, for every
// kind of call, the same outputs as agent.Tool.Call with skill:// base
// directories.
func TestTool(t *testing.T) {
	ws := newWorkspace(t)
	s := newServer(t, ws, nil)
	cs := connect(t, s, nil, nil)
	tools := listTools(t, cs)
	if len(tools) != 1 || tools[0].Name != "use_skill" {
		t.Fatalf("tools/list: %+v", tools)
	}
	ref := agent.NewTool(newCatalog(t, ws), &agent.ToolOptions{BaseDir: func(c *catalog.Skill) string { return "skill://" + c.Name }})
	def, err := ref.Definition(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if tools[0].Description != def.Description {
		t.Errorf("description %q, agent's %q", tools[0].Description, def.Description)
	}
	// Every visible skill served, the hidden beta not.
	if got, want := toolEnum(t, tools[0]), []string{"alpha", "colon", "crlf", "flat-one", "under_score"}; !slices.Equal(slices.Sorted(slices.Values(got)), want) {
		t.Errorf("name enum %v, want %v", got, want)
	}
	for _, args := range []string{
		`{"name":"alpha"}`,
		`{"name":"alpha","path":"references/guide.md"}`,
		`{"name":"alpha","path":"../../outside/secret.txt"}`,
		`{"name":"alpha","path":"assets/logo.png"}`,
		`{}`,
		`{"name":"alpah"}`,
		`{"name":"beta"}`,
		`{"query":"files"}`,
		`{"name":5}`,
		`{"bogus":"x"}`,
	} {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "use_skill", Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		want := ref.Call(t.Context(), json.RawMessage(args))
		if len(res.Content) != 1 {
			t.Fatalf("%s: %d contents", args, len(res.Content))
		}
		got := res.Content[0].(*mcp.TextContent).Text
		if got != want.Text || res.IsError != want.IsError {
			t.Errorf("%s: served (isError %v)\n%s\nagent (isError %v)\n%s", args, res.IsError, got, want.IsError, want.Text)
		}
		if strings.Contains(got, "SECRET") {
			t.Errorf("%s: bytes from outside the skill:\n%s", args, got)
		}
	}
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "use_skill", Arguments: map[string]any{"name": "alpha"}})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, "Base directory for this skill: skill://alpha\n") || strings.Contains(text, ws) {
		t.Errorf("load result does not give the skill:// base directory:\n%s", text)
	}
}

// TestToolModes: with ToolAuto a client that advertises the Skills
// Extension gets no tool (it loads skills itself); ToolAlways offers it to
// everyone; ToolNever to no one.
func TestToolModes(t *testing.T) {
	ws := newWorkspace(t)
	withExt := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}}
	withExt.Capabilities.AddExtension(ExtensionID, nil)
	for _, tt := range []struct {
		mode    ToolMode
		copts   *mcp.ClientOptions
		version string
		want    int
	}{
		{ToolAuto, nil, legacy, 1},
		{ToolAuto, nil, ProtocolCacheable, 1},
		{ToolAuto, withExt, legacy, 0},
		{ToolAuto, withExt, ProtocolCacheable, 0},
		{ToolAlways, withExt, legacy, 1},
		{ToolNever, nil, legacy, 0},
	} {
		t.Run(string(tt.mode)+"/"+tt.version, func(t *testing.T) {
			s := newServer(t, ws, &Options{Tool: tt.mode})
			cs := connect(t, s, tt.copts, &mcp.ClientSessionOptions{ProtocolVersion: tt.version})
			if got := len(listTools(t, cs)); got != tt.want {
				t.Errorf("%d tools, want %d", got, tt.want)
			}
			if tt.mode == ToolNever {
				ir := cs.InitializeResult()
				if ir.Capabilities.Tools != nil || strings.Contains(ir.Instructions, "use_skill") {
					t.Errorf("ToolNever: tools capability %+v, instructions:\n%s", ir.Capabilities.Tools, ir.Instructions)
				}
			}
		})
	}
}

// TestToolReload: adding and removing a skill changes the tool's name
// enum, and clients hear notifications/tools/list_changed.
func TestToolReload(t *testing.T) {
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{"skills/one/SKILL.md": skillMD("one", "The first skill.", "One.\n")})
	s := newServer(t, ws, nil)
	n := newNotes()
	cs := connect(t, s, n.options(), &mcp.ClientSessionOptions{ProtocolVersion: legacy})
	check := func(want ...string) {
		t.Helper()
		tools := listTools(t, cs)
		if len(tools) != 1 {
			t.Fatalf("tools/list: %+v", tools)
		}
		if got := toolEnum(t, tools[0]); !slices.Equal(got, want) {
			t.Errorf("name enum %v, want %v", got, want)
		}
		if instr := cs.InitializeResult().Instructions; !strings.Contains(instr, "skill://one/SKILL.md") {
			t.Errorf("instructions: %s", instr)
		}
	}
	check("one")
	writeTree(t, ws, map[string]string{"skills/two/SKILL.md": skillMD("two", "The second skill.", "Two.\n")})
	if _, err := s.Reload(t.Context()); err != nil {
		t.Fatal(err)
	}
	await(t, n.tools, "tools/list_changed after adding a skill")
	check("one", "two")
	if got := s.snap.Load().instructions; !strings.Contains(got, "skill://two/SKILL.md") {
		t.Errorf("instructions after the reload lack the new skill:\n%s", got)
	}
	writeTree(t, ws, map[string]string{"skills/two/SKILL.md": skillMD("two", "Edited.", "Two.\n")})
	if _, err := s.Reload(t.Context()); err != nil {
		t.Fatal(err)
	}
	await(t, n.tools, "tools/list_changed after an edit")
	if err := removeAll(ws, "skills/two"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Reload(t.Context()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-n.tools:
	case <-time.After(20 * time.Second):
		t.Fatal("no tools/list_changed after removing a skill")
	}
	check("one")
}
