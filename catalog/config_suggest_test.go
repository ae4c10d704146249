package catalog

import (
	"context"
	"github.com/skillet-go/skillet/internal/diagcode"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigSuggests: a misspelt key or preset names the nearest one.
func TestConfigSuggests(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	write := func(s string) {
		if err := os.WriteFile(filepath.Join(ws, "skillet.yaml"), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("maxSkils: 3\n")
	c, err := New(context.Background(), &Options{Workspace: ws, NoUser: true})
	if err != nil {
		t.Fatal(err)
	}
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if d := findDiag(l, diagcode.ConfigUnknownKey); d == nil || !strings.HasSuffix(d.Message, `unknown configuration key "maxSkils" (ignored); did you mean maxSkills?`) {
		t.Errorf("unknown key: %+v", d)
	}
	write("preset: claud\n")
	if _, err := New(context.Background(), &Options{Workspace: ws, NoUser: true}); err == nil || !strings.Contains(err.Error(), "(did you mean claude?)") {
		t.Errorf("misspelt preset: %v", err)
	}
}
