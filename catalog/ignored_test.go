package catalog

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/skill"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func skillText(name string) string {
	return "---\nname: " + name + "\ndescription: Does " + name + ".\n---\n\nBody.\n"
}

func TestIgnored(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	writeFiles(t, ws, map[string]string{
		"skills/live/SKILL.md":                skillText("live"),
		"skills/_wip/SKILL.md":                skillText("wip"),
		"skills/_archive/old/SKILL.md":        skillText("live"), // same name as a skill: no duplicate-name
		"skills/_loose.md":                    skillText("loose"),
		"skills/.hidden/SKILL.md":             skillText("hidden"),
		"skills/_x/node_modules/dep/SKILL.md": skillText("dep"),
		"skills/.git/x/SKILL.md":              skillText("git"),
		"skills/node_modules/y/SKILL.md":      skillText("nm"),
		"skills/_broken/SKILL.md":             "---\n- a list, not a mapping\n---\n\nBody.\n",
	})
	for _, ignored := range []bool{false, true} {
		c, err := New(context.Background(), &Options{Workspace: ws, NoUser: true})
		if err != nil {
			t.Fatal(err)
		}
		c.ignored = ignored
		l, err := c.List(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		checkEachOf(t, &Options{Workspace: ws, NoUser: true}, ignored, l)
		var loaded []string
		for _, s := range l.Skills {
			loaded = append(loaded, s.Name)
		}
		if want := []string{"live"}; !slices.Equal(loaded, want) {
			t.Errorf("Ignored=%v: loaded %v, want %v", ignored, loaded, want)
		}
		var got []string
		for _, cd := range l.candidates {
			rel, _ := filepath.Rel(ws, cd.Path)
			name := ""
			if cd.Skill != nil {
				name = cd.Skill.Name
			}
			got = append(got, filepath.ToSlash(rel)+"|"+name+"|"+map[bool]string{true: "ignored", false: ""}[cd.Ignored])
		}
		want := []string{"skills/live/SKILL.md|live|"}
		if ignored {
			want = append(want,
				"skills/.hidden/SKILL.md|hidden|ignored",
				"skills/_archive/old/SKILL.md|live|ignored",
				"skills/_broken/SKILL.md||ignored",
				"skills/_loose.md|loose|ignored",
				"skills/_wip/SKILL.md|wip|ignored",
			)
		}
		if !slices.Equal(got, want) {
			t.Errorf("Ignored=%v: candidates\n%q\nwant\n%q", ignored, got, want)
		}
		var codes []skill.Code
		for _, d := range l.Diagnostics {
			codes = append(codes, d.Code)
		}
		hasParseError := slices.Contains(codes, diagcode.ParseError)
		if hasParseError != ignored {
			t.Errorf("Ignored=%v: parse-error of the broken ignored file reported = %v (codes %v)", ignored, hasParseError, codes)
		}
		if slices.Contains(codes, diagcode.DuplicateName) || slices.Contains(codes, diagcode.Shadowed) {
			t.Errorf("Ignored=%v: an ignored file took part in precedence: %v", ignored, codes)
		}
	}
}

// An ignored entry that is a symlink to a skill folder is the same file: the skill
// keeps it and the ignored copy is not listed twice.
func TestIgnoredSymlinkToSkill(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	writeFiles(t, ws, map[string]string{"skills/live/SKILL.md": skillText("live")})
	if err := os.Symlink("live", filepath.Join(ws, "skills", "_alias")); err != nil {
		t.Skip("symlinks not available:", err)
	}
	c, err := New(context.Background(), &Options{Workspace: ws, NoUser: true})
	if err != nil {
		t.Fatal(err)
	}
	c.ignored = true
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checkEachIgnored(t, &Options{Workspace: ws, NoUser: true}, l)
	if len(l.Skills) != 1 || len(l.candidates) != 1 || l.candidates[0].Ignored {
		t.Fatalf("skills %d, candidates %+v; want the one live skill", len(l.Skills), l.candidates)
	}
}
