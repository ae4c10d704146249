package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/skill"
)

// TestDocsLint keeps docs/lint.md's sections in step with the registry of
// codes: the part after the marker must be what lintDocs generates (-update
// rewrites it), and every code has its "## code" heading, so
// docs/lint.md#CODE, which SARIF's helpUri and --explain name, exists.
func TestDocsLint(t *testing.T) {
	t.Parallel()
	path := filepath.Join("..", "..", "docs", "lint.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	head, _, found := strings.Cut(text, docsMarker)
	if !found {
		head = strings.TrimRight(text, "\n") + "\n\n"
	}
	want := head + lintDocs()
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if text != want {
		t.Errorf("docs/lint.md is stale: run go test ./internal/cli -run TestDocsLint -update")
	}
	for _, ci := range skill.Codes() {
		if !strings.Contains(want, "\n## "+string(ci.Code)+"\n") {
			t.Errorf("docs/lint.md has no section for %s", ci.Code)
		}
	}
}

func TestExplain(t *testing.T) {
	t.Parallel()
	ci, err := lookupCode("name-mismatch")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := writeExplain(&b, ci); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"name-mismatch: ", "Fixable: yes, skillet lint --fix=name", "Level:   warning (an error with --strict)",
		"docs/lint.md#name-mismatch", "https://agentskills.io/specification#name-field"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("--explain name-mismatch lacks %q:\n%s", want, b.String())
		}
	}
	if _, err := lookupCode("name-mismatsh"); err == nil || !strings.Contains(err.Error(), "did you mean name-mismatch?") {
		t.Errorf("lookupCode(name-mismatsh) = %v, want a did-you-mean", err)
	}
}

// TestExplainEveryCompatRule runs lint --explain for every rule a checker
// of lint.Hosts applies (so every name lint --compat can print): each is
// explained, with the checkers that apply it.
func TestExplainEveryCompatRule(t *testing.T) {
	t.Parallel()
	rules := hostRules()
	if len(rules) < 10 {
		t.Fatalf("only %d rules: %v", len(rules), rules)
	}
	for _, r := range rules {
		var out, errb bytes.Buffer
		code := Run(context.Background(), []string{"lint", "--explain", string(r)}, &IO{Out: &out, Err: &errb})
		if code != 0 || !strings.HasPrefix(out.String(), string(r)+": a rule of the compatibility report") || !strings.Contains(out.String(), "Checked for:\n  ") {
			t.Errorf("lint --explain %s: exit %d, %q, %q", r, code, out.String(), errb.String())
		}
	}
}
