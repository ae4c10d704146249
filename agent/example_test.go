package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"path/filepath"
	"strings"

	"github.com/skillet-go/skillet/agent"
	"github.com/skillet-go/skillet/catalog"
)

// exampleCatalog opens the repository's examples folder: skills/ holds
// release-checklist, commit-message (a flat file) and rotate-secrets
// (hidden).
func exampleCatalog() (*catalog.Catalog, string) {
	ws, err := filepath.Abs("../examples")
	if err != nil {
		log.Fatal(err)
	}
	c, err := catalog.New(context.Background(), &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true})
	if err != nil {
		log.Fatal(err)
	}
	return c, ws
}

func ExampleRenderListing() {
	ctx := context.Background()
	c, ws := exampleCatalog()
	l, err := c.List(ctx)
	if err != nil {
		log.Fatal(err)
	}
	b, err := agent.RenderListing(l, &agent.BlockOptions{
		NoPreamble: true,
		// Locations relative to the workspace keep this output the same on
		// every machine; by default they are absolute paths.
		Location: func(s *catalog.Skill) string {
			rel, _ := filepath.Rel(ws, s.Location)
			return filepath.ToSlash(rel)
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(b.Text)
	fmt.Println("hidden:", b.Hidden)
	// Output:
	// <available_skills>
	//   <skill>
	//     <name>commit-message</name>
	//     <description>Write a commit message that says what changed and why, in the project&apos;s style. Use when the user asks for a commit message or to commit staged changes.</description>
	//     <location>skills/commit-message.md</location>
	//   </skill>
	//   <skill>
	//     <name>release-checklist</name>
	//     <description>Cut a versioned release without breaking the changelog or the build. Use when the user asks to ship, tag, publish or bump a version.</description>
	//     <when_to_use>The user asks to ship, tag, publish or bump a version.</when_to_use>
	//     <location>skills/release-checklist/SKILL.md</location>
	//   </skill>
	// </available_skills>
	// hidden: [rotate-secrets]
}

func ExampleRenderListing_budget() {
	c, _ := exampleCatalog()
	l, err := c.List(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	// Over the budget, descriptions go first (from the end); names stay.
	b, err := agent.RenderListing(l, &agent.BlockOptions{NoPreamble: true, BudgetChars: 400})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(b.Text)
	fmt.Println("name only:", b.NameOnly, "dropped:", b.Dropped)
	// Output:
	// <available_skills>
	//   <skill>
	//     <name>commit-message</name>
	//   </skill>
	//   <skill>
	//     <name>release-checklist</name>
	//   </skill>
	// </available_skills>
	// The 2 skills above are listed by name only; call the use_skill tool with {"query": "..."} to search every skill by what it does.
	// name only: [commit-message release-checklist] dropped: []
}

func ExampleParseTemplate() {
	c, _ := exampleCatalog()
	l, err := c.List(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	tmpl, err := agent.ParseTemplate("skills", `Skills (load with {{.ToolName}}):
{{range .Skills}}* {{.Name}}{{if .WhenToUse}}: {{.WhenToUse}}{{end}}
{{end}}`)
	if err != nil {
		log.Fatal(err)
	}
	b, err := agent.RenderListing(l, &agent.BlockOptions{Template: tmpl})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(b.Text)
	// Output:
	// Skills (load with use_skill):
	// * commit-message
	// * release-checklist: The user asks to ship, tag, publish or bump a version.
}

func ExampleTool_Call() {
	ctx := context.Background()
	c, ws := exampleCatalog()
	tool := agent.NewTool(c, &agent.ToolOptions{
		// A relative base directory keeps this output the same on every
		// machine; by default it is the skill folder's absolute path.
		BaseDir: func(s *catalog.Skill) string {
			rel, _ := filepath.Rel(ws, s.BaseDir)
			return filepath.ToSlash(rel)
		},
	})
	// The model's arguments arrive as raw JSON.
	res := tool.Call(ctx, json.RawMessage(`{"name": "commit-message"}`))
	fmt.Print(res.Text)
	res = tool.Call(ctx, json.RawMessage(`{"name": "comit-message"}`))
	fmt.Println(res.IsError, res.Text)
	// Output:
	// <skill name="commit-message">
	// # Skill: commit-message
	//
	// # Commit message
	//
	// 1. Read the staged diff with `git diff --cached`.
	// 2. Write a subject line of at most 72 characters, in the imperative mood,
	//    prefixed with the package or area it touches (`catalog: skip FIFOs`).
	// 3. Leave one blank line, then explain why the change was needed and what it
	//    does, wrapped at 72 columns. Name the issue it resolves, if any.
	// 4. Do not list files; the diff already shows them.
	//
	// Base directory for this skill: skills
	// Relative paths in this skill are relative to the base directory.
	// Bundled files: none.
	// </skill>
	// true unknown skill "comit-message". Did you mean commit-message? Available skills: commit-message, release-checklist. Call use_skill with {"query": "..."} to search them by what they do.
}

func ExampleTool_Definition() {
	c, _ := exampleCatalog()
	def, err := agent.NewTool(c, nil).Definition(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	// The name enum follows the listing: hidden skills are not in it.
	fmt.Println(def.Name, def.InputSchema.Properties["name"].Enum)
	schema, err := json.Marshal(def.InputSchema)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(strings.Contains(string(schema), `"additionalProperties":false`))
	// Output:
	// use_skill [commit-message release-checklist]
	// true
}

func ExampleSession() {
	ctx := context.Background()
	c, _ := exampleCatalog()
	session := agent.NewSession(&agent.SessionOptions{
		OnLoad: func(_ context.Context, l agent.Load) error {
			if strings.HasPrefix(l.Path, "scripts/") {
				return fmt.Errorf("scripts stay on disk in this agent")
			}
			fmt.Printf("loading %s %s (%d bytes)\n", l.Name, l.Path, l.Bytes)
			return nil
		},
	})
	tool := agent.NewTool(c, &agent.ToolOptions{Session: session})
	tool.Call(ctx, json.RawMessage(`{"name": "release-checklist"}`))
	tool.Call(ctx, json.RawMessage(`{"name": "release-checklist", "path": "references/versioning.md"}`))
	res := tool.Call(ctx, json.RawMessage(`{"name": "release-checklist", "path": "scripts/preflight.sh"}`))
	fmt.Println(res.IsError, res.Text)
	for _, l := range session.Loaded() {
		fmt.Println(l.Name, l.Path, l.Bytes)
	}
	fmt.Println(session.Skills())
	// Output:
	// loading release-checklist  (1189 bytes)
	// loading release-checklist references/versioning.md (376 bytes)
	// true reading "scripts/preflight.sh" from the skill "release-checklist" was refused: scripts stay on disk in this agent
	// release-checklist  1189
	// release-checklist references/versioning.md 376
	// [release-checklist]
}

func ExampleNewStack() {
	ctx := context.Background()
	c, _ := exampleCatalog()
	// One Catalog feeds both the prompt layer and the tool.
	skills, err := agent.New(ctx, c, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, provider := range []string{"anthropic", "ollama"} {
		stack, err := agent.NewStack(provider, &agent.StackOptions{
			Identity:     agent.Text("You are a release engineer."),
			Skills:       skills,
			Instructions: agent.Text("Answer in English."),
		})
		if err != nil {
			log.Fatal(err)
		}
		system, err := stack.Render(ctx)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(provider, stack.Names(), strings.Contains(system, "<available_skills>"))
	}
	// Output:
	// anthropic [identity skills instructions] true
	// ollama [identity instructions] false
}

// Example wires one catalog to an agent loop: the system prompt, the tool
// definition for the provider, a call as the model makes it, and what the
// session recorded.
func Example() {
	ctx := context.Background()
	c, _ := exampleCatalog()
	sk, err := agent.New(ctx, c, nil)
	if err != nil {
		log.Fatal(err)
	}
	stack, err := agent.NewStack("anthropic", &agent.StackOptions{
		Identity: agent.Text("You are a release engineer."),
		Skills:   sk,
	})
	if err != nil {
		log.Fatal(err)
	}
	system, err := stack.Render(ctx) // identity + catalog block
	if err != nil {
		log.Fatal(err)
	}
	def, err := sk.Tool().Definition(ctx) // name, description, JSON Schema
	if err != nil {
		log.Fatal(err)
	}
	// When the model calls the tool with raw JSON arguments:
	res := sk.Tool().Call(ctx, json.RawMessage(`{"name":"release-checklist"}`))
	fmt.Println(strings.Contains(system, "<name>release-checklist</name>"), def.Name)
	fmt.Println(res.IsError, strings.Contains(res.Text, "# Skill: release-checklist"))
	for _, l := range sk.Session().Loaded() { // what this run pulled in
		fmt.Println(l.Name)
	}
	// Output:
	// true use_skill
	// false true
	// release-checklist
}
