package agent_test

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/agent"
	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/skill"
)

// skillsFS holds Brute's example skill, debugging, with
// references/checklist.md and scripts/bisect.sh.
//
//go:embed testdata/embed/skills
var skillsFS embed.FS

// Example_embed is Brute's flow with skills shipped in the binary: the
// catalog reads an embed.FS, the prompt shows each skill at its embed://
// location, and the tool loads the body and reads a bundled file from the
// FS; no temporary folder is involved.
func Example_embed() {
	ctx := context.Background()
	c, err := catalog.New(ctx, &catalog.Options{Sources: []catalog.Source{{FS: skillsFS, Dir: "testdata/embed/skills", Base: "embed://skills"}}})
	if err != nil {
		log.Fatal(err)
	}
	skills, err := agent.New(ctx, c, &agent.Options{Block: &agent.BlockOptions{NoPreamble: true}})
	if err != nil {
		log.Fatal(err)
	}
	b, err := skills.Block(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(b.Text)
	res := skills.Tool().Call(ctx, json.RawMessage(`{"name": "debugging"}`))
	fmt.Println(res.Text)
	res = skills.Tool().Call(ctx, json.RawMessage(`{"name": "debugging", "path": "references/checklist.md"}`))
	fmt.Println(res.Text)
	// Output:
	// <available_skills>
	//   <skill>
	//     <name>debugging</name>
	//     <description>Systematic debugging workflow for isolating and fixing bugs</description>
	//     <location>embed://skills/debugging/SKILL.md</location>
	//   </skill>
	// </available_skills>
	// <skill name="debugging">
	// # Skill: debugging
	//
	// When debugging, follow these steps...
	//
	// Base directory for this skill: embed://skills/debugging
	// Relative paths in this skill are relative to the base directory.
	// Bundled files (sampled, up to 10):
	//   references/checklist.md
	//   scripts/bisect.sh
	// </skill>
	//
	// <skill_file name="debugging" path="references/checklist.md" base="embed://skills/debugging">
	// # Checklist
	//
	// - Reproduce the bug first.
	// </skill_file>
}

// TestCallerBuiltSkills: skills the program builds itself, given to the
// catalog as a Source, show in the prompt and load through the tool (the
// mismatch Brute warns about: before, the prompt showed them and the
// tool answered that no skills were available).
func TestCallerBuiltSkills(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	built := []*skill.Skill{
		{Name: "greet", Description: "Greet the user.", Body: "Say hello by name."},
		{Name: "farewell", Description: "Say goodbye.", Body: "Wave."},
	}
	c, err := catalog.New(ctx, &catalog.Options{Workspace: t.TempDir(), NoConfigFile: true,
		Sources: []catalog.Source{{Skills: built, Base: "app://skills"}}})
	if err != nil {
		t.Fatal(err)
	}
	sk := newSkills(t, c, nil)
	b, err := sk.Block(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.Text, "<location>app://skills/greet/SKILL.md</location>") {
		t.Errorf("block:\n%s", b.Text)
	}
	res := sk.Tool().Call(ctx, json.RawMessage(`{"name":"greet"}`))
	if res.IsError || !strings.Contains(res.Text, "Say hello by name.") || !strings.Contains(res.Text, "app://skills/greet") {
		t.Errorf("load: %+v", res)
	}
	if got := sk.Session().Skills(); len(got) != 1 || got[0] != "greet" {
		t.Errorf("session: %v", got)
	}
	res = sk.Tool().Call(ctx, json.RawMessage(`{}`))
	if res.IsError || !strings.Contains(res.Text, "farewell") {
		t.Errorf("list: %+v", res)
	}
	res = sk.Tool().Call(ctx, json.RawMessage(`{"name":"greet","path":"notes.md"}`))
	if !res.IsError {
		t.Errorf("a built skill has no bundled files: %+v", res)
	}
}

// TestNewCallerList: a caller's list the tool cannot load is an error of
// New: a skill of another catalog, or one the catalog does not hold.
func TestNewCallerList(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := examplesCatalog(t)
	other, err := catalog.New(ctx, &catalog.Options{Workspace: t.TempDir(), NoConfigFile: true,
		Sources: []catalog.Source{{FS: skillsFS, Dir: "testdata/embed/skills"}}})
	if err != nil {
		t.Fatal(err)
	}
	ol, err := other.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	l, err := c.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := agent.New(ctx, c, &agent.Options{Skills: ol.Skills}); !errors.Is(err, catalog.ErrNotFound) {
		t.Errorf("a skill of another catalog: %v, want ErrNotFound", err)
	}
	if _, err := agent.New(ctx, c, &agent.Options{Skills: []*catalog.Skill{nil}}); err == nil {
		t.Error("a nil skill: no error")
	}
	// Same name, another location: the prompt would show one file and the
	// tool load another.
	cp := *l.Skills[0]
	cp.Location = "/elsewhere/SKILL.md"
	if _, err := agent.New(ctx, c, &agent.Options{Skills: []*catalog.Skill{&cp}}); !errors.Is(err, catalog.ErrNotFound) {
		t.Errorf("a skill of the same name elsewhere: %v, want ErrNotFound", err)
	}
	if _, err := agent.New(ctx, c, &agent.Options{Skills: l.Skills[:1]}); err != nil {
		t.Errorf("the catalog's own skill: %v", err)
	}
}

// TestProviderShapes: Definition.For and Result.For give each API's keys,
// the same schema in each, and an error for an unknown API.
func TestProviderShapes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sk := newSkills(t, examplesCatalog(t), nil)
	def, err := sk.Tool().Definition(ctx)
	if err != nil {
		t.Fatal(err)
	}
	schema, err := def.SchemaMap()
	if err != nil {
		t.Fatal(err)
	}
	wantSchema, _ := json.Marshal(schema)
	for _, tc := range []struct {
		api, want string
	}{
		{"anthropic", `{"description":@DESC@,"input_schema":@SCHEMA@,"name":"use_skill"}`},
		{"openai-chat", `{"function":{"description":@DESC@,"name":"use_skill","parameters":@SCHEMA@},"type":"function"}`},
		{"openai-responses", `{"description":@DESC@,"name":"use_skill","parameters":@SCHEMA@,"strict":false,"type":"function"}`},
		{"gemini", `{"description":@DESC@,"name":"use_skill","parametersJsonSchema":@SCHEMA@}`},
		{"mcp", `{"description":@DESC@,"inputSchema":@SCHEMA@,"name":"use_skill"}`},
	} {
		m, err := def.For(tc.api)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(m)
		desc, _ := json.Marshal(def.Description)
		want := strings.NewReplacer("@DESC@", string(desc), "@SCHEMA@", string(wantSchema)).Replace(tc.want)
		if string(got) != want {
			t.Errorf("%s:\n got %s\nwant %s", tc.api, got, want)
		}
	}
	if _, err := def.For("claude"); !errors.Is(err, agent.ErrUnknownAPI) {
		t.Errorf("unknown API: %v", err)
	}
	for _, tc := range []struct {
		api  string
		res  agent.Result
		want string
	}{
		{"anthropic", agent.Result{Text: "t", IsError: true}, `{"content":"t","is_error":true,"tool_use_id":"c1","type":"tool_result"}`},
		{"openai-chat", agent.Result{Text: "t"}, `{"content":"t","role":"tool","tool_call_id":"c1"}`},
		{"openai-responses", agent.Result{Text: "t"}, `{"call_id":"c1","output":"t","type":"function_call_output"}`},
		{"gemini", agent.Result{Text: "t"}, `{"functionResponse":{"id":"c1","name":"use_skill","response":{"output":"t"}}}`},
		{"gemini", agent.Result{Text: "t", IsError: true}, `{"functionResponse":{"id":"c1","name":"use_skill","response":{"error":"t"}}}`},
		{"mcp", agent.Result{Text: "t", IsError: true}, `{"content":[{"text":"t","type":"text"}],"isError":true}`},
	} {
		m, err := tc.res.For(tc.api, "c1", "use_skill")
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := json.Marshal(m); string(got) != tc.want {
			t.Errorf("%s %+v:\n got %s\nwant %s", tc.api, tc.res, got, tc.want)
		}
	}
	if _, err := (agent.Result{}).For("claude", "", ""); !errors.Is(err, agent.ErrUnknownAPI) {
		t.Errorf("unknown API: %v", err)
	}
}
