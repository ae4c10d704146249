package agent_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillet-go/skillet/agent"
	"github.com/skillet-go/skillet/catalog"
)

func TestProviderPresets(t *testing.T) {
	t.Parallel()
	sk := newSkills(t, examplesCatalog(t), nil)
	identity := agent.Text("You are a test agent.")
	rules := agent.Text("Answer briefly.")
	tests := []struct {
		provider string
		layers   []string
	}{
		{"anthropic", []string{"identity", "skills", "instructions"}},
		{"openai", []string{"identity", "skills", "instructions"}},
		{"google", []string{"identity", "skills", "instructions"}},
		{"default", []string{"identity", "skills", "instructions"}},
		{"", []string{"identity", "skills", "instructions"}},
		{"Anthropic", []string{"identity", "skills", "instructions"}},
		{"ollama", []string{"identity", "instructions"}},
	}
	for _, tt := range tests {
		s, err := agent.NewStack(tt.provider, &agent.StackOptions{Identity: identity, Skills: sk, Instructions: rules})
		if err != nil {
			t.Fatalf("NewStack(%q): %v", tt.provider, err)
		}
		if diff := cmp.Diff(tt.layers, s.Names()); diff != "" {
			t.Errorf("NewStack(%q) layers (-want +got):\n%s", tt.provider, diff)
		}
		text, err := s.Render(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		hasBlock := strings.Contains(text, "<available_skills>")
		if hasBlock != (tt.provider != "ollama") {
			t.Errorf("NewStack(%q): block in prompt = %v", tt.provider, hasBlock)
		}
		if !strings.HasPrefix(text, "You are a test agent.\n\n") || !strings.HasSuffix(text, "\n\nAnswer briefly.\n") {
			t.Errorf("NewStack(%q): layers out of order:\n%s", tt.provider, text)
		}
	}
	if _, err := agent.NewStack("mistral", nil); !errors.Is(err, agent.ErrUnknownProvider) {
		t.Errorf("unknown provider: %v", err)
	}
	// Without a Skills source no provider has a skills layer.
	s, err := agent.NewStack("anthropic", &agent.StackOptions{Identity: identity})
	if err != nil || !cmp.Equal(s.Names(), []string{"identity"}) {
		t.Errorf("no skills source: %v, %v", s.Names(), err)
	}
	if diff := cmp.Diff([]string{"anthropic", "openai", "google", "default", "ollama"}, agent.ProviderNames()); diff != "" {
		t.Errorf("ProviderNames (-want +got):\n%s", diff)
	}
}

// layerFunc is a layer whose text a function gives.
type layerFunc func(ctx context.Context) (string, error)

func (f layerFunc) Render(ctx context.Context) (string, error) { return f(ctx) }

func TestStack(t *testing.T) {
	t.Parallel()
	var s agent.Stack
	s.Add("a", agent.Text("first\n\n\n")).
		Add("empty", agent.Text("")).
		Add("blank", agent.Text(" \n")).
		Add("b", layerFunc(func(context.Context) (string, error) { return "second", nil }))
	got, err := s.Render(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got != "first\n\nsecond\n" {
		t.Errorf("Render = %q", got)
	}
	if diff := cmp.Diff([]string{"a", "empty", "blank", "b"}, s.Names()); diff != "" {
		t.Errorf("Names (-want +got):\n%s", diff)
	}
	boom := errors.New("boom")
	s.Add("broken", layerFunc(func(context.Context) (string, error) { return "", boom }))
	if _, err := s.Render(context.Background()); !errors.Is(err, boom) || !strings.Contains(err.Error(), `prompt layer "broken"`) {
		t.Errorf("error = %v", err)
	}
	var empty agent.Stack
	if got, err := empty.Render(context.Background()); got != "" || err != nil {
		t.Errorf("empty stack: %q, %v", got, err)
	}
}

func TestSkillsOwnList(t *testing.T) {
	t.Parallel()
	c := examplesCatalog(t)
	ctx := context.Background()
	l := listing(t, c)
	var commit *catalog.Skill
	for _, s := range l.Skills {
		if s.Name == "commit-message" {
			commit = s
		}
	}
	// An empty list disables discovery: no block, a tool with no skills.
	none := newSkills(t, c, &agent.Options{Skills: []*catalog.Skill{}})
	text, err := none.Layer().Render(ctx)
	if err != nil || text != "" {
		t.Errorf("empty list: layer %q, %v", text, err)
	}
	if r := none.Tool().Call(ctx, nil); r.Text != "No skills are available.\n" {
		t.Errorf("empty list: tool %q", r.Text)
	}
	// The caller's list: the block and the tool both see only it.
	own := newSkills(t, c, &agent.Options{Skills: []*catalog.Skill{commit}})
	b, err := own.Block(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Entries) != 1 || b.Entries[0].Name != "commit-message" {
		t.Errorf("own list block: %+v", b.Entries)
	}
	if r := own.Tool().Call(ctx, []byte(`{"name":"release-checklist"}`)); !r.IsError {
		t.Error("own list: the tool loads a skill outside the list")
	}
	// nil discovers every listed skill.
	all := newSkills(t, c, nil)
	b, err = all.Block(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Entries) != 2 {
		t.Errorf("discovered block: %d entries", len(b.Entries))
	}
	all.Tool().Call(ctx, []byte(`{"name": "commit-message"}`))
	if loads := all.Session().Skills(); len(loads) != 1 || loads[0] != "commit-message" {
		t.Errorf("the tool's loads are not the session's: %v", loads)
	}
}

func TestSkillsLayerSeesChanges(t *testing.T) {
	t.Parallel()
	c, ws := tempCatalog(t, map[string]string{
		"skills/alpha/SKILL.md": skillMD("name: alpha\ndescription: First.", "Body."),
	}, nil)
	layer := newSkills(t, c, nil).Layer()
	ctx := context.Background()
	before, err := layer.Render(ctx)
	if err != nil || strings.Contains(before, "beta") {
		t.Fatalf("before: %q, %v", before, err)
	}
	writeTree(t, ws, map[string]string{"skills/beta/SKILL.md": skillMD("name: beta\ndescription: Second.", "Body.")})
	after, err := layer.Render(ctx)
	if err != nil || !strings.Contains(after, "<name>beta</name>") {
		t.Errorf("after adding beta: %q, %v", after, err)
	}
}
