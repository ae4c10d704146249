package lint

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/skillet-go/skillet/catalog"
)

// TestChecksRegistered: every check has a name, doc and codes, and every
// code it reports is in the registry.
func TestChecksRegistered(t *testing.T) {
	names := map[string]bool{}
	for _, c := range Checks() {
		if c.Name == "" || c.Doc == "" || len(c.Codes) == 0 || c.Run == nil || names[c.Name] {
			t.Errorf("check %q is incomplete or repeated", c.Name)
		}
		names[c.Name] = true
		for _, code := range c.Codes {
			if code.Info().Summary == "" {
				t.Errorf("check %s reports %s, which is not registered", c.Name, code)
			}
		}
	}
}

// loadOne loads the skills of a workspace and returns the one named name.
func loadOne(t *testing.T, ws, name string) *catalog.Skill {
	t.Helper()
	c, err := catalog.New(context.Background(), &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true})
	if err != nil {
		t.Fatal(err)
	}
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range l.Skills {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no skill %s in %v", name, l.Diagnostics)
	return nil
}

func TestCheckBundle(t *testing.T) {
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{
		"outside.md":                         "x",
		"skills/a/SKILL.md":                  "---\nname: a\ndescription: d\n---\n\nBody.\n",
		"skills/a/references/guide.md":       "g",
		"skills/a/node_modules/pkg/index.js": "",
		"skills/b/SKILL.md":                  "---\nname: b\ndescription: d\n---\n\nBody.\n",
	})
	dir := filepath.Join(ws, "skills", "a")
	for link, target := range map[string]string{
		"references/out.md":     "../../../outside.md",
		"references/in.md":      "guide.md",
		"sibling":               "../b",
		"broken.md":             "missing.md",
		"node_modules/pkg/x.md": "../../../../outside.md",
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Skip("no symlinks:", err)
		}
	}
	var got []string
	for _, d := range checkBundle(about(loadOne(t, ws, "a")), nil) {
		if d.Code != CodeBundledSymlink || d.Skill != "a" {
			t.Errorf("unexpected %v", d)
		}
		rel, _ := filepath.Rel(dir, d.Path)
		got = append(got, filepath.ToSlash(rel))
	}
	slices.Sort(got)
	if want := []string{"references/out.md", "sibling"}; !slices.Equal(got, want) {
		t.Errorf("reported %v, want %v", got, want)
	}
	if d := checkBundle(about(loadOne(t, ws, "b")), nil); len(d) != 0 {
		t.Errorf("b: %v", d)
	}
}
