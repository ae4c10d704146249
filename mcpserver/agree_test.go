package mcpserver

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillet-go/skillet/catalog"
)

// TestAnswersAgree: a skill for the model only (user-invocable: false) is
// no prompt; a description over the specification's 1,024 characters
// keeps its skill out of skills/list with a diagnostic; a body cut at
// maxSkillBytes is cut the same way, with the same note naming where the
// whole file is, by the tool and by the prompt, and resources/read has it
// whole.
func TestAnswersAgree(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	long := strings.Repeat("Step line that is long enough.\n", 200)
	writeTree(t, ws, map[string]string{
		"skills/model-only/SKILL.md": "---\nname: model-only\ndescription: For the model.\nuser-invocable: false\n---\nBody.\n",
		"skills/wordy/SKILL.md":      "---\nname: wordy\ndescription: " + strings.Repeat("word ", 210) + "\n---\nBody.\n",
		"skills/long/SKILL.md":       "---\nname: long\ndescription: A long skill.\n---\n" + long,
	})
	cat, err := catalog.New(t.Context(), &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true, MaxSkillBytes: 2000})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(t.Context(), cat, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s, nil, nil)
	var prompts []string
	for p, err := range cs.Prompts(t.Context(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		prompts = append(prompts, p.Name)
	}
	if strings.Join(prompts, " ") != "long wordy" {
		t.Errorf("prompts %v, want long and wordy (model-only is not user-invocable)", prompts)
	}
	if _, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "model-only"}); err == nil {
		t.Error("prompts/get of a skill that is not user-invocable succeeded")
	}
	var listed []string
	for _, e := range allSkills(t, cs) {
		listed = append(listed, e.URI)
	}
	if strings.Join(listed, " ") != "skill://long/SKILL.md skill://model-only/SKILL.md" {
		t.Errorf("skills/list: %v, want wordy left out", listed)
	}
	found := false
	for _, d := range s.Diagnostics() {
		if d.Code == codeExtensionExcluded && d.Skill == "wordy" && strings.Contains(d.Message, "1024") {
			found = true
		}
	}
	if !found {
		t.Errorf("no extension-excluded diagnostic for wordy: %v", s.Diagnostics())
	}

	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "use_skill", Arguments: map[string]any{"name": "long"}})
	if err != nil {
		t.Fatal(err)
	}
	tool := res.Content[0].(*mcp.TextContent).Text
	pr, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "long"})
	if err != nil {
		t.Fatal(err)
	}
	prompt := pr.Messages[0].Content.(*mcp.TextContent).Text
	note := func(text string) string {
		i := strings.Index(text, "[This skill's file is")
		if i < 0 {
			t.Fatalf("no truncation note in:\n%s", text)
		}
		j := strings.Index(text[i:], "]")
		return text[i : i+j+1]
	}
	if !strings.Contains(note(tool), "skill://long/SKILL.md") || !strings.Contains(note(tool), "resources/read") {
		t.Errorf("the tool's note does not say where the whole file is: %s", note(tool))
	}
	for _, text := range []string{tool, prompt} {
		if strings.Count(text, "Step line") != strings.Count(tool, "Step line") {
			t.Errorf("the tool and the prompt cut the body at different places")
		}
		if !strings.Contains(note(text), "only its first") || !strings.Contains(note(text), "skill://long/SKILL.md") {
			t.Errorf("note %q", note(text))
		}
	}
	rr, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "skill://long/SKILL.md"})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(rr.Contents[0].Text, "Step line"); n != 200 {
		t.Errorf("resources/read has %d of the 200 lines", n)
	}
}

// TestPromptClosesFence: a prompt whose body is cut inside a code block
// closes the block before the note, as the load tool does.
func TestPromptClosesFence(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{
		"skills/fenced/SKILL.md": "---\nname: fenced\ndescription: Cut in a code block.\n---\n```sh\n" + strings.Repeat("echo step\n", 300),
	})
	cat, err := catalog.New(t.Context(), &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true, MaxSkillBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(t.Context(), cat, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s, nil, nil)
	pr, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "fenced"})
	if err != nil {
		t.Fatal(err)
	}
	text := pr.Messages[0].Content.(*mcp.TextContent).Text
	if !strings.Contains(text, "\n```\n\n[This skill's file is") || !strings.Contains(text, "closed with ```") {
		t.Errorf("the prompt does not close the code block open at the cut:\n%s", text[max(0, len(text)-400):])
	}
}
