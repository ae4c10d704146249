package lint

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillet-go/skillet/catalog"
)

func TestCompat(t *testing.T) {
	ws := t.TempDir()
	long := make([]byte, 1030)
	for i := range long {
		long[i] = 'a'
	}
	writeTree(t, ws, map[string]string{
		".claude/skills/portable/SKILL.md": "---\nname: portable\ndescription: Portable.\n---\n\nBody.\n",
		".claude/skills/claude-tool/SKILL.md": "---\nname: claude-tool\ndescription: Wraps <b>bold</b> text.\n" +
			"compatibility: Python 3\nuser-invocable: true\n---\n\nBody.\n",
		"skills/Odd_Name/SKILL.md":      "---\nname: Odd_Name\ndescription: Use when: asked\n---\n\nBody.\n",
		"skills/bare/SKILL.md":          "# Bare\n\nNo frontmatter at all.\n",
		"skills/long/SKILL.md":          "---\nname: long\ndescription: " + string(long) + "\nmetadata:\n  a:\n    b: c\n---\n\nBody.\n",
		"skills/flat.md":                "---\nname: flat\ndescription: Flat form.\n---\n\nBody.\n",
		"skills/_draft/SKILL.md":        "---\nname: draft\ndescription: Not discovered.\n---\n\nBody.\n",
		".agents/skills/other/SKILL.md": "---\ndescription: No name.\n---\n\nBody.\n",
	})
	r, err := Run(context.Background(), &Options{
		Catalog: &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true, Preset: "claude", ExtraPaths: []string{filepath.Join(ws, "skills"), filepath.Join(ws, ".agents", "skills")}, MaxDescriptionChars: 2000},
		Compat:  true,
	})
	if err != nil {
		t.Fatal(err)
	}
	type entry struct {
		Presets []string
		Rules   map[string][]HostRule
	}
	got := map[string]entry{}
	for _, c := range r.Compat {
		rel, _ := filepath.Rel(ws, c.Path)
		e := entry{Presets: c.Presets, Rules: map[string][]HostRule{}}
		for _, b := range c.Breaks {
			e.Rules[b.Host] = append(e.Rules[b.Host], b.Rule)
		}
		got[filepath.ToSlash(rel)] = e
	}
	want := map[string]entry{
		".claude/skills/portable/SKILL.md": {Presets: []string{"claude", "opencode", "copilot"}, Rules: map[string][]HostRule{}},
		".claude/skills/claude-tool/SKILL.md": {Presets: []string{"claude", "opencode", "copilot"}, Rules: map[string][]HostRule{
			"skills-ref": {RuleReferenceValidator},
			"anthropic":  {RuleFields, RuleNoAngleBrackets},
			"claude-api": {RuleFields, RuleReservedWords, RuleNoXMLTags},
			"openai":     {RuleFields},
		}},
		"skills/Odd_Name/SKILL.md": {Presets: []string{"agents", "kestrel"}, Rules: map[string][]HostRule{
			"spec":       {RuleSpecName},
			"skills-ref": {RuleReferenceValidator}, // the YAML error stops it
			"anthropic":  {RuleSpecName},
			"claude-api": {RuleSpecName},
			"openai":     {RuleSpecName},
			"codex":      {RuleStrictYAML},
		}},
		"skills/bare/SKILL.md": {Presets: []string{"agents", "kestrel"}, Rules: map[string][]HostRule{
			"spec":       {RuleFrontmatter, RuleNameField, RuleDescriptionField},
			"skills-ref": {RuleReferenceValidator},
			"anthropic":  {RuleFrontmatter},
			"claude-api": {RuleFrontmatter, RuleDescriptionField},
			"openai":     {RuleFrontmatter},
			"codex":      {RuleFrontmatter, RuleDescriptionField},
			"opencode":   {RuleFrontmatter, RuleNameField, RuleDescriptionField},
			"gemini":     {RuleFrontmatter},
		}},
		"skills/long/SKILL.md": {Presets: []string{"agents", "kestrel"}, Rules: map[string][]HostRule{
			"spec":       {RuleDescriptionLength, RuleMetadataStrings},
			"skills-ref": {RuleReferenceValidator},
			"anthropic":  {RuleDescriptionLength},
			"claude-api": {RuleDescriptionLength},
			"openai":     {RuleDescriptionLength},
			"codex":      {RuleDescriptionLength},
		}},
		"skills/flat.md": {Presets: []string{"agents", "kestrel"}, Rules: map[string][]HostRule{
			"skills-ref": {RuleReferenceValidator},
			"anthropic":  {RuleSkillFileName},
			"codex":      {RuleSkillFileName},
		}},
		".agents/skills/other/SKILL.md": {Presets: []string{"agents", "codex", "opencode", "gemini", "copilot"}, Rules: map[string][]HostRule{
			"spec":       {RuleNameField},
			"skills-ref": {RuleReferenceValidator},
			"opencode":   {RuleNameField},
		}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("compatibility report (-want +got):\n%s", diff)
	}
}
