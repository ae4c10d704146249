package catalog

import (
	"errors"
	"github.com/skillet-go/skillet/internal/diagcode"
	"slices"
	"strings"
	"testing"
)

// TestConfigBudgetZero: catalogBudgetChars 0 means no budget, as the
// README's sample configuration writes it; a negative budget is refused.
func TestConfigBudgetZero(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{"skillet.yaml": "catalogBudgetChars: 0\nmaxSkills: 100\n"})
	c, _ := e.list(t, &Options{NoUser: true})
	if got := c.Settings().CatalogBudgetChars; got != 0 {
		t.Errorf("catalogBudgetChars = %d, want 0", got)
	}
	writeTree(t, e.ws, map[string]string{"skillet.yaml": "catalogBudgetChars: -1\n"})
	_, err := New(t.Context(), e.opts(&Options{NoUser: true}))
	if err == nil || !strings.Contains(err.Error(), "catalogBudgetChars must be 0 or a positive integer") {
		t.Errorf("catalogBudgetChars -1: error %v", err)
	}
}

// TestLintConfig: the lint: section keeps each value with its line and
// column; a value of the wrong shape is a config-invalid error at it, every
// one reported; an unknown key in it a config-unknown-key warning.
func TestLintConfig(t *testing.T) {
	t.Parallel()
	cfg, diags, err := parseConfig("/ws/skillet.yaml", []byte("lint:\n  select: [name, 'broken-reference,unknown-field']\n  ignore: body-too-long\n  severity:\n    name-mismatch: error\n  perPathIgnores:\n    \"a/**\": [x]\n  selct: [y]\n"))
	if err != nil {
		t.Fatal(err)
	}
	lc := cfg.Lint
	want := []ConfigValue{{"name", 2, 12}, {"broken-reference", 2, 18}, {"unknown-field", 2, 18}}
	if lc == nil || !slices.Equal(lc.Select, want) || !slices.Equal(lc.Ignore, []ConfigValue{{"body-too-long", 3, 11}}) {
		t.Fatalf("lint = %+v", lc)
	}
	if len(lc.Severity) != 1 || lc.Severity[0].Code != (ConfigValue{"name-mismatch", 5, 5}) || lc.Severity[0].Level.Value != "error" {
		t.Errorf("severity = %+v", lc.Severity)
	}
	if len(lc.PerPathIgnores) != 1 || lc.PerPathIgnores[0].Path.Value != "a/**" || lc.PerPathIgnores[0].Codes[0].Value != "x" {
		t.Errorf("perPathIgnores = %+v", lc.PerPathIgnores)
	}
	if len(diags) != 1 || diags[0].Code != diagcode.ConfigUnknownKey || diags[0].Line != 8 || !strings.Contains(diags[0].Message, "did you mean select?") {
		t.Errorf("diags = %v", diags)
	}
	_, _, err = parseConfig("/ws/skillet.yaml", []byte("maxSkills: x\nlint:\n  select: {a: b}\n  severity: [x]\n"))
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Line != 1 || len(ce.More) != 2 || ce.More[0].Line != 3 || ce.More[1].Line != 4 {
		t.Errorf("err = %v, want three errors at lines 1, 3 and 4", err)
	}
}
