package mcpserver

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillet-go/skillet/agent"
	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/mcpserver/skillsext"
)

// TestInstructions: the instructions are agent's catalog block of the
// served skills with skill:// locations, on both protocol eras.
func TestInstructions(t *testing.T) {
	t.Parallel()
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
		Preamble: s.preamble(withTool), MoreHint: s.moreHint(withTool), BudgetChars: defaultInstructionsChars,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, version := range []string{legacy, skillsext.ProtocolCacheable} {
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
	t.Parallel()
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
	t.Parallel()
	ws := newWorkspace(t)
	withExt := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}}
	withExt.Capabilities.AddExtension(skillsext.ExtensionID, nil)
	for _, tt := range []struct {
		mode    ToolMode
		copts   *mcp.ClientOptions
		version string
		want    int
	}{
		{ToolAuto, nil, legacy, 1},
		{ToolAuto, nil, skillsext.ProtocolCacheable, 1},
		{ToolAuto, withExt, legacy, 0},
		{ToolAuto, withExt, skillsext.ProtocolCacheable, 0},
		{ToolAlways, withExt, legacy, 1},
		{ToolNever, nil, legacy, 0},
	} {
		t.Run(string(tt.mode)+"/"+tt.version, func(t *testing.T) {
			s := newServer(t, ws, &Options{Tool: tt.mode})
			cs := connect(t, s, tt.copts, &mcp.ClientSessionOptions{ProtocolVersion: tt.version})
			if got := len(listTools(t, cs)); got != tt.want {
				t.Errorf("%d tools, want %d", got, tt.want)
			}
			ir := cs.InitializeResult()
			if tt.mode == ToolNever && ir.Capabilities.Tools != nil {
				t.Errorf("ToolNever: tools capability %+v", ir.Capabilities.Tools)
			}
			// The instructions never name a tool the session is not
			// offered, and say how this session reads skills.
			if named := strings.Contains(ir.Instructions, "use_skill"); named != (tt.want == 1) {
				t.Errorf("%d tools, but the instructions name use_skill %v:\n%s", tt.want, named, ir.Instructions)
			}
			if ext := tt.copts != nil && tt.want == 0; ext != strings.Contains(ir.Instructions, "skills/list") {
				t.Errorf("an extension client without the tool is pointed at skills/list: %v, want %v:\n%s", !ext, ext, ir.Instructions)
			}
			if !strings.Contains(ir.Instructions, "resources/read") || !strings.Contains(ir.Instructions, "<name>alpha</name>") {
				t.Errorf("instructions:\n%s", ir.Instructions)
			}
		})
	}
}

// TestToolReload: adding and removing a skill changes the tool's name
// enum, and clients hear notifications/tools/list_changed.
func TestToolReload(t *testing.T) {
	t.Parallel()
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
	if got := s.snap.Load().instructions[withTool]; !strings.Contains(got, "skill://two/SKILL.md") {
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

// TestInstructionsBudget: with many skills and long descriptions the
// instructions stay within the budget as clients count it (UTF-16 code
// units, so characters outside the BMP count twice), every skill's name is
// in them, and the last line says how this session reaches the rest.
func TestInstructionsBudget(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	files := map[string]string{}
	var names []string
	for i := range 40 {
		name := fmt.Sprintf("skill-%02d", i)
		names = append(names, name)
		desc := strings.Repeat("Does a particular thing with 🧪 care and many words. ", 6)
		files["skills/"+name+"/SKILL.md"] = skillMD(name, desc, "Body.\n")
	}
	writeTree(t, ws, files)
	withExt := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}}
	withExt.Capabilities.AddExtension(skillsext.ExtensionID, nil)
	for _, tt := range []struct {
		name   string
		mode   ToolMode
		copts  *mcp.ClientOptions
		budget int
		hint   string
	}{
		{"tool", ToolAuto, nil, 0, `use_skill tool with {"query": "..."}`},
		{"extension", ToolAuto, withExt, 0, "skills/list lists every skill"},
		{"resources", ToolNever, nil, 0, "resources/list lists every skill"},
		{"claude-code-cap", ToolAuto, nil, claudeCodeInstructionsCap, "use_skill"},
		// Too small for every name: the last line counts those left out.
		{"small", ToolAuto, nil, 2500, "more skills are not listed here; call the use_skill"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t, ws, &Options{Tool: tt.mode, InstructionsChars: tt.budget})
			instr := connect(t, s, tt.copts, nil).InitializeResult().Instructions
			budget := tt.budget
			if budget == 0 {
				budget = defaultInstructionsChars
			}
			if n := utf16Len(instr); n > budget {
				t.Errorf("instructions are %d UTF-16 code units, over the budget of %d", n, budget)
			}
			for _, name := range names {
				if tt.name == "small" {
					break
				}
				if !strings.Contains(instr, "<name>"+name+"</name>") {
					t.Errorf("the instructions lack %s", name)
				}
			}
			lines := strings.Split(strings.TrimRight(instr, "\n"), "\n")
			if last := lines[len(lines)-1]; !strings.Contains(last, tt.hint) {
				t.Errorf("last line %q, want it to say %q", last, tt.hint)
			}
			if tt.mode == ToolNever || tt.copts != nil {
				if strings.Contains(instr, "use_skill") {
					t.Errorf("instructions name a tool this session is not offered:\n%s", instr)
				}
			}
		})
	}
	// Without a budget every description is there.
	s := newServer(t, ws, &Options{InstructionsChars: -1})
	if instr := connect(t, s, nil, nil).InitializeResult().Instructions; strings.Count(instr, "<description>") != 40 {
		t.Errorf("no budget: %d descriptions, want 40", strings.Count(instr, "<description>"))
	}
}

// TestInstructionsBudgetDiagnostic: catalog-truncated reports the budget
// the user gave, not the smaller one the block was fitted to so that
// characters outside the BMP fit, and says when the preamble (or the
// preamble and the closing line) alone are over it.
func TestInstructionsBudgetDiagnostic(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	files := map[string]string{}
	for i := range 10 {
		name := fmt.Sprintf("skill-%02d", i)
		files["skills/"+name+"/SKILL.md"] = skillMD(name, "Tests "+strings.Repeat("🧪", 60)+" with care.", "Body.\n")
	}
	writeTree(t, ws, files)
	for _, tt := range []struct {
		budget int
		want   []string
		not    []string
	}{
		{3000, []string{"over its budget of 3000 characters: "}, []string{"preamble"}},
		{700, []string{"over its budget of 700 characters: ", "; with every skill left out, the preamble and the closing line still have "}, []string{"preamble alone"}},
		{200, []string{"over its budget of 200 characters: ", "; the preamble alone has "}, []string{"still have"}},
	} {
		t.Run(fmt.Sprint(tt.budget), func(t *testing.T) {
			s := newServer(t, ws, &Options{InstructionsChars: tt.budget})
			var msg string
			for _, d := range s.Diagnostics() {
				if d.Code == diagcode.CatalogTruncated {
					msg = d.Message
				}
			}
			if msg == "" {
				t.Fatalf("no catalog-truncated: %v", s.Diagnostics())
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q lacks %q", msg, w)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(msg, w) {
					t.Errorf("message %q has %q", msg, w)
				}
			}
		})
	}
}

// TestToolLeftOutLogged: --tool auto logs, once per client name and
// version, that a client advertising the Skills Extension gets no load
// tool and why; a client without the extension, or ToolAlways, logs
// nothing of it.
func TestToolLeftOutLogged(t *testing.T) {
	t.Parallel()
	ws := newWorkspace(t)
	withExt := &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}}
	withExt.Capabilities.AddExtension(skillsext.ExtensionID, nil)
	for _, tt := range []struct {
		mode    ToolMode
		copts   *mcp.ClientOptions
		version string // "": the SDK's default, server/discover
		want    int
	}{
		{ToolAuto, withExt, "", 1},
		{ToolAuto, withExt, legacy, 1}, // initialize
		{ToolAuto, nil, "", 0},
		{ToolAuto, nil, legacy, 0},
		{ToolAlways, withExt, "", 0},
	} {
		var log logBuffer
		s := newServer(t, ws, &Options{Tool: tt.mode, Logger: log.logger()})
		for range 3 {
			connect(t, s, tt.copts, &mcp.ClientSessionOptions{ProtocolVersion: tt.version})
		}
		n := strings.Count(log.String(), "the load tool is not offered to this client")
		if n != tt.want {
			t.Errorf("%s, extension %v: %d notes, want %d:\n%s", tt.mode, tt.copts != nil, n, tt.want, log.String())
		}
		if n > 0 && (!strings.Contains(log.String(), "--tool always") || !strings.Contains(log.String(), "client=test")) {
			t.Errorf("the note does not say why or for whom:\n%s", log.String())
		}
	}
}
