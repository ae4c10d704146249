package lint

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/skill"
)

// TestChecksRegistered: every check has a name, doc and codes, and every
// code it reports is in the registry.
func TestChecksRegistered(t *testing.T) {
	t.Parallel()
	names := map[string]bool{}
	for _, c := range allChecks() {
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
	t.Parallel()
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
		if d.Code != diagcode.BundledSymlink || d.Skill != "a" {
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

// TestRunOrder: every check runs once, after the checks it requires.
func TestRunOrder(t *testing.T) {
	t.Parallel()
	a := &lintCheck{Name: "a"}
	b := &lintCheck{Name: "b", requires: []*lintCheck{a}}
	c := &lintCheck{Name: "c", requires: []*lintCheck{b, a}}
	for _, tc := range []struct {
		list []*lintCheck
		want []int
	}{
		{[]*lintCheck{a, b, c}, []int{0, 1, 2}},
		{[]*lintCheck{c, b, a}, []int{2, 1, 0}},
		{[]*lintCheck{b, c, a}, []int{2, 0, 1}},
		{checks, checkOrder},
	} {
		if got := runOrder(tc.list); !slices.Equal(got, tc.want) {
			t.Errorf("runOrder: %v, want %v", got, tc.want)
		}
	}
	if i, j := slices.Index(checks, checkBodyRule), slices.Index(checks, checkBundleRule); slices.Index(checkOrder, j) > slices.Index(checkOrder, i) {
		t.Errorf("checkOrder %v runs the body check before the bundle walk it reads", checkOrder)
	}
}

// TestAddedCheckRuns: a check added to the list is run by Run on every
// skill file, and its findings are in the report (the list is what runs).
func TestAddedCheckRuns(t *testing.T) {
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{
		".agents/skills/a/SKILL.md": "---\nname: a\ndescription: d\n---\n\nbody\n",
		".agents/skills/b/SKILL.md": "---\nname: b\ndescription: d\n---\n\nbody\n",
	})
	extra := &lintCheck{Name: "extra", Doc: "test", Codes: []skill.Code{diagcode.BundledSymlink},
		run: func(p *pass, f *findings) {
			f.add([]skill.Diagnostic{{Code: diagcode.BundledSymlink, Severity: skill.SeverityWarning, Path: p.s.location, Line: 1, Column: 1, Message: "extra " + p.s.name, Skill: p.s.name}})
		}}
	saved, savedOrder := checks, checkOrder
	checks = append(slices.Clone(checks), extra)
	checkOrder = runOrder(checks)
	t.Cleanup(func() { checks, checkOrder = saved, savedOrder })
	r, err := Run(context.Background(), &Options{Catalog: &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range r.Diagnostics {
		got = append(got, d.Message)
	}
	if want := []string{"extra a", "extra b"}; !slices.Equal(got, want) {
		t.Errorf("findings %q, want %q", got, want)
	}
}
