package catalog

import (
	"strings"
	"testing"
)

// TestConfigBudgetZero: catalogBudgetChars 0 means no budget, as the
// README's sample configuration writes it; a negative budget is refused.
func TestConfigBudgetZero(t *testing.T) {
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
