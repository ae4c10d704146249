package lint

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/profile"
	"github.com/skillet-go/skillet/skill"
)

func TestCompat(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	long := strings.Repeat("a", 1030)
	writeTree(t, ws, map[string]string{
		".claude/skills/portable/SKILL.md": "---\nname: portable\ndescription: Portable.\n---\n\nBody.\n",
		".claude/skills/claude-tool/SKILL.md": "---\nname: claude-tool\ndescription: Wraps <b>bold</b> text.\n" +
			"compatibility: Python 3\nuser-invocable: true\n---\n\nBody.\n",
		"skills/Odd_Name/SKILL.md":      "---\nname: Odd_Name\ndescription: Use when: asked\n---\n\nBody.\n",
		"skills/bare/SKILL.md":          "# Bare\n\nNo frontmatter at all.\n",
		"skills/long/SKILL.md":          "---\nname: long\ndescription: " + long + "\nmetadata:\n  a:\n    b: c\n---\n\nBody.\n",
		"skills/flat.md":                "---\nname: flat\ndescription: Flat form.\n---\n\nBody.\n",
		"skills/_draft/SKILL.md":        "---\nname: draft\ndescription: Not discovered.\n---\n\nBody.\n",
		".agents/skills/other/SKILL.md": "---\ndescription: No name.\n---\n\nBody.\n",
		"skills/group/deep/SKILL.md":    "---\nname: deep\ndescription: Grouped.\n---\n\nBody.\n",
	})
	r, err := Run(context.Background(), &Options{
		Catalog: &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true, MaxDescriptionChars: 2000},
		Compat:  true,
	})
	if err != nil {
		t.Fatal(err)
	}
	type entry struct {
		Verdicts map[string]string
		Rules    map[string][]HostRule
	}
	got := map[string]entry{}
	for _, c := range r.Compat {
		rel, _ := filepath.Rel(ws, c.Path)
		e := entry{Verdicts: map[string]string{}, Rules: map[string][]HostRule{}}
		for _, h := range c.Hosts {
			e.Verdicts[h.Host] = h.Verdict
		}
		for _, b := range c.Breaks {
			e.Rules[b.Host] = append(e.Rules[b.Host], b.Rule)
		}
		got[filepath.ToSlash(rel)] = e
	}
	all := func(v string, except map[string]string) map[string]string {
		m := map[string]string{}
		for _, p := range profile.All() {
			if !p.Native {
				m[p.Name] = v
			}
		}
		for k, x := range except {
			m[k] = x
		}
		return m
	}
	const (
		ok = verdictLoads
		ch = verdictLoadsChanged
		no = verdictNotLoaded
	)
	// A verdict is what the host does with the file where it is: only
	// claude, opencode, copilot, amp and kilo read .claude/skills; only kestrel reads
	// skills/ (one level deep, flat files too); claude, brute and kestrel
	// do not read .agents/skills. A file under skills/_draft is in a
	// folder kestrel reads, so it is judged too.
	want := map[string]entry{
		".claude/skills/portable/SKILL.md": {all(no, map[string]string{"claude": ok, "opencode": ok, "copilot": ok, "amp": ok, "kilo": ok}), map[string][]HostRule{}},
		".claude/skills/claude-tool/SKILL.md": {all(no, map[string]string{"claude": ok, "opencode": ok, "copilot": ok, "amp": ok, "kilo": ok}), map[string][]HostRule{
			"skills-ref": {ruleReferenceValidator},
			"anthropic":  {ruleFields, ruleNoAngleBrackets},
			"claude-api": {ruleFields, ruleReservedWords, ruleNoXMLTags},
			"openai":     {ruleFields},
		}},
		// Unquoted ": " in a value: kestrel's line reader loads it.
		"skills/Odd_Name/SKILL.md": {all(no, map[string]string{"kestrel": ch}), map[string][]HostRule{
			"spec":       {ruleSpecName},
			"skills-ref": {ruleReferenceValidator},
			"anthropic":  {ruleSpecName},
			"claude-api": {ruleSpecName},
			"openai":     {ruleSpecName},
		}},
		"skills/bare/SKILL.md": {all(no, map[string]string{"kestrel": ch}), map[string][]HostRule{
			"spec":       {ruleFrontmatter, ruleNameField, ruleDescriptionField},
			"skills-ref": {ruleReferenceValidator},
			"anthropic":  {ruleFrontmatter},
			"claude-api": {ruleFrontmatter, ruleDescriptionField},
			"openai":     {ruleFrontmatter},
		}},
		"skills/long/SKILL.md": {all(no, map[string]string{"kestrel": ch}), map[string][]HostRule{
			"spec":       {ruleDescriptionLength, ruleMetadataStrings},
			"skills-ref": {ruleReferenceValidator},
			"anthropic":  {ruleDescriptionLength},
			"claude-api": {ruleDescriptionLength},
			"openai":     {ruleDescriptionLength},
		}},
		"skills/flat.md": {all(no, map[string]string{"kestrel": ok}), map[string][]HostRule{
			"skills-ref": {ruleReferenceValidator},
			"anthropic":  {ruleSkillFileName},
		}},
		"skills/_draft/SKILL.md": {all(no, nil), map[string][]HostRule{
			"spec":       {ruleNameMatchesFolder},
			"skills-ref": {ruleReferenceValidator},
		}},
		// No name: hosts that require one drop it.
		".agents/skills/other/SKILL.md": {all(no, map[string]string{"codex": ch, "copilot": ch, "pi": ch}), map[string][]HostRule{
			"spec":       {ruleNameField},
			"skills-ref": {ruleReferenceValidator},
		}},
		"skills/group/deep/SKILL.md": {all(no, nil), map[string][]HostRule{}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("compatibility report (-want +got):\n%s", diff)
	}
}

func TestTargets(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{
		".agents/skills/colon/SKILL.md":     "---\nname: colon\n---\n\nBody.\n",
		".agents/skills/fine/SKILL.md":      "---\nname: fine\ndescription: Fine.\n---\n\nBody.\n",
		".codex/skills/only-codex/SKILL.md": "---\nname: only-codex\ndescription: Fine.\n---\n\nBody.\n",
	})
	run := func(hosts ...string) (*Report, error) {
		return Run(context.Background(), &Options{
			Catalog: &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true}, Hosts: hosts})
	}
	for _, tt := range []struct {
		hosts []string
		want  []string // paths with a not-loaded error
	}{
		{nil, nil},
		// Claude Code reads neither .agents/skills nor .codex/skills: no
		// skill loads. .codex/skills is judged though skillet's default
		// does not read it.
		{[]string{"claude"}, []string{".agents/skills/colon/SKILL.md", ".agents/skills/fine/SKILL.md", ".codex/skills/only-codex/SKILL.md"}},
		{[]string{"codex"}, []string{".agents/skills/colon/SKILL.md"}},
		{[]string{"claude", "codex"}, []string{".agents/skills/colon/SKILL.md", ".agents/skills/colon/SKILL.md", ".agents/skills/fine/SKILL.md", ".codex/skills/only-codex/SKILL.md"}},
		{[]string{"gemini"}, []string{".agents/skills/colon/SKILL.md", ".codex/skills/only-codex/SKILL.md"}},
	} {
		r, err := run(tt.hosts...)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range r.Diagnostics {
			if d.Code == diagcode.NotLoaded && d.Severity == skill.SeverityError {
				rel, _ := filepath.Rel(ws, d.Path)
				got = append(got, filepath.ToSlash(rel))
			}
		}
		if !cmp.Equal(got, tt.want) || r.HasErrors() != (len(tt.want) > 0) {
			t.Errorf("hosts %v: not-loaded errors at %v (has errors %v), want %v", tt.hosts, got, r.HasErrors(), tt.want)
		}
	}
	_, err := run("codx")
	if !errors.Is(err, ErrUnknownHost) || !strings.Contains(err.Error(), `did you mean "codex"?`) {
		t.Errorf("unknown host: %v", err)
	}
	if _, err := run("agents"); !errors.Is(err, ErrUnknownHost) {
		t.Errorf("skillet's own profile as a target: %v", err)
	}
}

// TestHostRuleDocs checks that every rule a checker of Hosts applies, and
// so every rule lint --compat can print, says what it requires (skillet
// lint --explain RULE prints it).
func TestHostRuleDocs(t *testing.T) {
	t.Parallel()
	for _, h := range Hosts {
		for _, r := range h.Rules {
			if d := r.Doc(); d == "" || !strings.HasSuffix(d, ".") {
				t.Errorf("host %s: rule %s has no one-sentence Doc: %q", h.Name, r, d)
			}
		}
	}
	if d := HostRule("no-such-rule").Doc(); d != "" {
		t.Errorf("an unknown rule has the Doc %q", d)
	}
}

// TestVerdictLeavesHostVerdict: a hidden skill's verdict adds its change
// to its own slice, never into the spare room of the host's verdict's
// Changes, which every verdict of that file shares.
func TestVerdictLeavesHostVerdict(t *testing.T) {
	t.Parallel()
	changes := make([]string, 1, 4)
	changes[0] = "cut to its first line"
	f := &catalogx.HostFile{Verdict: catalogx.Verdict{Loaded: true, Hidden: true, Name: "a", Changes: changes}}
	hv := &hostView{p: profile.All()[0], files: map[string]*catalogx.HostFile{"k": f}}
	h := hv.verdict(&compatFile{path: "a/SKILL.md", key: "k"})
	if len(h.Changes) != 2 || h.Verdict != verdictLoadsChanged {
		t.Fatalf("verdict = %+v, want two changes, %s", h, verdictLoadsChanged)
	}
	if spare := changes[:2][1]; spare != "" {
		t.Errorf("the host verdict's spare room holds %q after verdict", spare)
	}
	h.Changes[0] = "x"
	if f.Changes[0] != "cut to its first line" {
		t.Errorf("the host verdict's changes are the report's: %q", f.Changes[0])
	}
}
