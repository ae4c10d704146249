//go:build unix

package main

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func read(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// pick returns the entries whose name has one of the prefixes, so that a
// test states the workspace's skills and leaves the agent's own aside.
func pick(es []entry, prefixes ...string) []entry {
	var out []entry
	for _, e := range es {
		for _, p := range prefixes {
			if strings.HasPrefix(e.Name, p) {
				out = append(out, e)
				break
			}
		}
	}
	return out
}

func find(es []entry, name string) *entry {
	for i := range es {
		if es[i].Name == name {
			return &es[i]
		}
	}
	return nil
}

// Captured on dup-in-root: Claude Code shows the folder, with the name in
// parentheses when it differs (once), and its own skills after.
func TestParseClaude(t *testing.T) {
	es, err := parseClaude(read(t, "claude-request.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := []entry{
		{Name: "a-claude (dup-claude)", Description: "Copy in folder a-claude of .claude/skills."},
		{Name: "b-claude", Description: "Copy in folder b-claude of .claude/skills."},
	}
	if d := cmp.Diff(want, pick(es, "a-", "b-")); d != "" {
		t.Errorf("workspace skills (-want +got):\n%s", d)
	}
	// A built-in whose description runs over three lines.
	api := find(es, "claude-api")
	if api == nil || !strings.HasPrefix(api.Description, "Reference for the Claude API") || strings.Count(api.Description, "\n") != 2 || !strings.Contains(api.Description, "\nSKIP only when") {
		t.Errorf("claude-api = %+v, want its three-line description", api)
	}
	if len(es) != 15 || es[len(es)-1].Name != "security-review" {
		t.Errorf("%d entries, last %+v; want 15 ending with security-review (the list stops at the blank line)", len(es), es[len(es)-1])
	}
}

func TestParseDashList(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []entry
	}{
		{"- a: one\n- b\n- c: three: with colon\n\nAfter the list.", []entry{{Name: "a", Description: "one"}, {Name: "b"}, {Name: "c", Description: "three: with colon"}}},
		{"- a: line one\nline two\n- b: x\n\n", []entry{{Name: "a", Description: "line one\nline two"}, {Name: "b", Description: "x"}}},
		{"- a: para one\n\n- b: x\n\nend", []entry{{Name: "a", Description: "para one\n"}, {Name: "b", Description: "x"}}},
		{"no list", nil},
	} {
		if d := cmp.Diff(tc.want, parseDashList(tc.in)); d != "" {
			t.Errorf("parseDashList(%q) (-want +got):\n%s", tc.in, d)
		}
	}
}

// Captured on dup-in-root: Codex keeps both copies of a name, maps rN to
// its roots, and marks its bundled skills.
func TestParseCodex(t *testing.T) {
	es, err := parseCodex(read(t, "codex-prompt-input.json"))
	if err != nil {
		t.Fatal(err)
	}
	root := "/tmp/skillet-hosts-2636453804/sb/proj/"
	want := []entry{
		{Name: "dup-agents", Description: "Copy in folder a-agents of .agents/skills.", Path: root + ".agents/skills/a-agents/SKILL.md"},
		{Name: "dup-agents", Description: "Copy in folder b-agents of .agents/skills.", Path: root + ".agents/skills/b-agents/SKILL.md"},
		{Name: "dup-codex", Description: "Copy in folder a-codex of .codex/skills.", Path: root + ".codex/skills/a-codex/SKILL.md"},
		{Name: "dup-codex", Description: "Copy in folder b-codex of .codex/skills.", Path: root + ".codex/skills/b-codex/SKILL.md"},
	}
	if d := cmp.Diff(want, pick(es, "dup-")); d != "" {
		t.Errorf("workspace skills (-want +got):\n%s", d)
	}
	sc := find(es, "skill-creator")
	if sc == nil || !sc.Builtin || !strings.HasSuffix(sc.Path, "/home/.codex/skills/.system/skill-creator/SKILL.md") {
		t.Errorf("skill-creator = %+v, want a built-in under .codex/skills/.system", sc)
	}
	if es, err := parseCodex([]byte(`[{"content":[{"text":"no skills here"}]}]`)); err != nil || es != nil {
		t.Errorf("no skills section: %v, %v", es, err)
	}
	if _, err := parseCodex([]byte("not json")); err == nil {
		t.Error("bad JSON accepted")
	}
}

// No agent output, however garbled, makes a parser panic.
func FuzzParsers(f *testing.F) {
	for _, name := range []string{"claude-request.json", "codex-prompt-input.json"} {
		data, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("Discovered Agent Skills:\n\nx [Enabled]\n  Description: d\n  Location: /p\n"))
	f.Add([]byte(`{"system":"<available_skills><skill><name>a</name><description>b (user)</description><location>user</location></skill></available_skills>"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		parseClaude(data)
		parseCodex(data)
		parseOpenCode(data)
		parseCopilot(data)
		parseGemini(data)
		parseAvailableSkills(data)
		parseDashList(string(data))
	})
}

// The Gemini listing's description runs to the "Location:" line: a blank
// line inside it, indentation and trailing line breaks are what the model is
// given and are kept; disabled skills are left out.
func TestParseGemini(t *testing.T) {
	out := "Ripgrep is not available.\nDiscovered Agent Skills:\n\n" +
		"plain [Enabled]\n  Description: One line.\n  Location:    /s/proj/.gemini/skills/plain/SKILL.md\n\n" +
		"para [Enabled]\n  Description: First.\n\n  Indented second.\n\n\n  Location:    /s/p/SKILL.md\n\n" +
		"off [Disabled]\n  Description: x\n  Location:    /s/off/SKILL.md\n\n" +
		"empty name here [Enabled]\n  Description: \n  Location:    /s/e/SKILL.md\n\n" +
		"tool [Enabled] [Built-in]\n  Description: b\n  Location:    /b/SKILL.md\n\n"
	got, err := parseGemini([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	want := []entry{
		{Name: "plain", Description: "One line.", Path: "/s/proj/.gemini/skills/plain/SKILL.md"},
		{Name: "para", Description: "First.\n\n  Indented second.\n\n", Path: "/s/p/SKILL.md"},
		{Name: "empty name here", Description: "", Path: "/s/e/SKILL.md"},
		{Name: "tool", Description: "b", Path: "/b/SKILL.md", Builtin: true},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d skills %+v, want %d", len(got), got, len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("skill %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	if es, err := parseGemini([]byte("No skills discovered.\n")); err != nil || len(es) != 0 {
		t.Errorf("no skills: got %v, %v", es, err)
	}
}

// Qwen Code wraps each value in line breaks, which are taken off; pi does
// not, and a description ending in a line break (a | block scalar) keeps it.
func TestParseAvailableSkillsLineBreaks(t *testing.T) {
	pi := `{"system":"<available_skills>\n  <skill>\n    <name>a</name>\n    <description>one\ntwo\n</description>\n    <location>/s/a/SKILL.md</location>\n  </skill>\n</available_skills>"}`
	qwen := `{"messages":[{"content":"<available_skills>\n<skill>\n<name>\nb\n</name>\n<description>\nline\n (project)\n</description>\n<location>\nproject\n</location>\n</skill>\n</available_skills>"}]}`
	for _, c := range []struct {
		in, name, desc string
	}{{pi, "a", "one\ntwo\n"}, {qwen, "b", "line\n"}} {
		es, err := parseAvailableSkills([]byte(c.in))
		if err != nil || len(es) != 1 || es[0].Name != c.name || es[0].Description != c.desc {
			t.Errorf("got %+v, %v; want %q %q", es, err, c.name, c.desc)
		}
	}
}
