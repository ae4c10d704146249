package catalog_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/skill"
)

// TestWatch: the first listing, then an added skill, an edit and a removal each reach fn; a
// listing with no change does not.
func TestWatch(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	root := filepath.Join(ws, ".agents", "skills")
	scratch := t.TempDir() // on ws's file system, outside the workspace
	// write lays the skill out in scratch and renames it into place
	// (a new skill's folder, or an edited SKILL.md), so that Watch, which
	// lists every millisecond, sees the skill whole or not at all, never
	// a file cut short by the write.
	write := func(name, desc string) {
		t.Helper()
		tmp, err := os.MkdirTemp(scratch, "new-")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tmp, "SKILL.md"), []byte("---\nname: "+name+"\ndescription: "+desc+"\n---\nBody.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		from, to := tmp, filepath.Join(root, name)
		if _, err := os.Stat(to); err == nil {
			from, to = filepath.Join(tmp, "SKILL.md"), filepath.Join(to, "SKILL.md")
		}
		if err := os.MkdirAll(root, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(from, to); err != nil {
			t.Fatal(err)
		}
	}
	write("alpha", "First.")
	c, err := catalog.New(context.Background(), &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan *catalog.Listing)
	done := make(chan error, 1)
	go func() { done <- c.Watch(ctx, time.Millisecond, func(l *catalog.Listing) { got <- l }) }()
	next := func(step string) *catalog.Listing {
		t.Helper()
		select {
		case l := <-got:
			return l
		case err := <-done:
			t.Fatalf("%s: Watch returned %v", step, err)
		case <-time.After(30 * time.Second): // a safety net, not a measurement
			t.Fatalf("%s: no change delivered", step)
		}
		return nil
	}
	if l := next("first"); !slices.Equal(skillNames(l), []string{"alpha"}) {
		t.Errorf("first listing: %v", skillNames(l))
	}
	write("beta", "Second.")
	if l := next("add"); !slices.Equal(skillNames(l), []string{"alpha", "beta"}) {
		t.Errorf("after adding beta: %v", skillNames(l))
	}
	write("alpha", "First, edited to a new size.")
	if l := next("edit"); l.Skills[0].Description != "First, edited to a new size." {
		t.Errorf("after the edit: %q", l.Skills[0].Description)
	}
	if err := os.RemoveAll(filepath.Join(root, "beta")); err != nil {
		t.Fatal(err)
	}
	if l := next("remove"); !slices.Equal(skillNames(l), []string{"alpha"}) {
		t.Errorf("after removing beta: %v", skillNames(l))
	}
	// Nothing changes now: no delivery before the cancel ends Watch.
	cancel()
	select {
	case l := <-got:
		t.Errorf("a listing without change was delivered: %v", skillNames(l))
	case err := <-done:
		if err != context.Canceled {
			t.Errorf("Watch = %v, want context.Canceled", err)
		}
	}
}

// TestAppliesTo: the paths field as a list or a comma-separated string,
// .gitignore's glob rules, and no paths meaning everywhere.
func TestAppliesTo(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		paths string // the frontmatter line, "" for none
		files []string
		want  bool
	}{
		{"", nil, true},
		{"paths: [\"*.py\"]", []string{"src/app/main.py"}, true},
		{"paths: [\"*.py\"]", []string{"README.md"}, false},
		{"paths: [\"*.py\"]", nil, false},
		{"paths: \"src/**/*.ts, notes/*.md\"", []string{"notes/guide.md"}, true},
		{"paths: \"src/**/*.ts, notes/*.md\"", []string{"lib/x.ts", "notes/sub/guide.md"}, false},
		{"paths: \"src/**/*.ts, notes/*.md\"", []string{"./src/a/b/c.ts"}, true},
		{"paths: [\"\"]", []string{"anything"}, true},
	} {
		fm := "name: s\ndescription: d"
		if tc.paths != "" {
			fm += "\n" + tc.paths
		}
		p, diags := skill.Parse([]byte("---\n"+fm+"\n---\nBody.\n"), &skill.Options{Path: "/x/s/SKILL.md"})
		if p == nil {
			t.Fatalf("%s: %v", tc.paths, diags)
		}
		c, err := catalog.New(context.Background(), &catalog.Options{Workspace: t.TempDir(), NoConfigFile: true,
			Sources: []catalog.Source{{Skills: []*skill.Skill{p}}}})
		if err != nil {
			t.Fatal(err)
		}
		s, err := c.Get(context.Background(), "s")
		if err != nil {
			t.Fatal(err)
		}
		if got := s.AppliesTo(tc.files); got != tc.want {
			t.Errorf("paths %q, files %v: AppliesTo = %v, want %v", tc.paths, tc.files, got, tc.want)
		}
	}
}

// TestWorkspaceOfSkills: a workspace that is itself a folder of skills
// lists none (it is the project folder, whose roots are read) and says
// how to read it.
func TestWorkspaceOfSkills(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "greet"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "greet", "SKILL.md"), []byte("---\nname: greet\ndescription: Hi.\n---\nBody.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(ws, ".git"), 0o755); err != nil { // no walk above it
		t.Fatal(err)
	}
	for _, tc := range []struct {
		extra []string
		hint  bool
	}{{nil, true}, {[]string{ws}, false}} {
		c, err := catalog.New(context.Background(), &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true, ExtraPaths: tc.extra})
		if err != nil {
			t.Fatal(err)
		}
		l, err := c.List(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		hint := false
		for _, d := range l.Diagnostics {
			if d.Code == diagcode.SkillsSkipped && d.Path == ws && strings.Contains(d.Message, "(greet)") && strings.Contains(d.Message, "--root "+filepath.ToSlash(ws)) {
				hint = true
			}
		}
		if hint != tc.hint || (len(l.Skills) == 0) != tc.hint {
			t.Errorf("extra %v: skills %v, hint %v (want %v): %v", tc.extra, skillNames(l), hint, tc.hint, l.Diagnostics)
		}
	}
}

// TestWorkspaceIsASkill: a workspace that is itself a skill folder lists
// nothing and says how to read it; with it as an extra root, the skill
// loads and the hint goes.
func TestWorkspaceIsASkill(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "SKILL.md"), []byte("---\nname: greet\ndescription: Hi.\n---\nBody.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(ws, ".git"), 0o755); err != nil { // no walk above it
		t.Fatal(err)
	}
	for _, tc := range []struct {
		extra []string
		hint  bool
	}{{nil, true}, {[]string{ws}, false}} {
		c, err := catalog.New(context.Background(), &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true, ExtraPaths: tc.extra})
		if err != nil {
			t.Fatal(err)
		}
		l, err := c.List(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		hint := false
		for _, d := range l.Diagnostics {
			if d.Code == diagcode.SkillsSkipped && d.Path == ws && strings.Contains(d.Message, "itself a skill folder") && strings.Contains(d.Message, "--root "+filepath.ToSlash(ws)) {
				hint = true
			}
		}
		if hint != tc.hint || (len(l.Skills) == 0) != tc.hint {
			t.Errorf("extra %v: skills %v, hint %v (want %v): %v", tc.extra, skillNames(l), hint, tc.hint, l.Diagnostics)
		}
	}
}
