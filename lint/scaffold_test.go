package lint

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/spec"
	"github.com/skillet-go/skillet/skill"
)

// checkScaffold parses what ScaffoldSource writes and checks it loads with
// no diagnostic and the values given.
func checkScaffold(t *testing.T, desc, when string) {
	t.Helper()
	src := ScaffoldSource("x", &ScaffoldOptions{Description: desc, WhenToUse: when})
	s, diags := skill.Parse(src, &skill.Options{Path: "skills/x/SKILL.md", MaxDescriptionChars: -1})
	if s == nil || len(diags) > 0 {
		t.Fatalf("scaffold for %q does not load cleanly: %v\n%s", desc, diags, src)
	}
	if s.Description != strings.TrimSpace(desc) || s.WhenToUse != strings.TrimSpace(when) || s.Name != "x" {
		t.Fatalf("read back %q / %q, want %q / %q\n%s", s.Description, s.WhenToUse, desc, when, src)
	}
}

func TestScaffoldSource(t *testing.T) {
	t.Parallel()
	for _, desc := range []string{
		"Plain text.", "Use when: asked", "- starts like a list", "# heading?", "true", "1.10", "null",
		`Say "hi" and \d`, "Ünïcödé ✓ 中文", "tab\tinside", "two\nlines", "trailing colon:", "a #b", "[x] y", "{k: v}",
		"@at", "`tick`", "'single'", "%percent", "zero-width\u200bspace", "~",
	} {
		checkScaffold(t, desc, "")
		checkScaffold(t, "d", desc)
	}
}

func FuzzScaffoldSource(f *testing.F) {
	f.Add("Publish a release: safely.", "cutting a tag")
	f.Add("\"quoted\" \\ and \x7f", "")
	f.Fuzz(func(t *testing.T, desc, when string) {
		desc, when = strings.TrimSpace(desc), strings.TrimSpace(when)
		if desc == "" || !utf8.ValidString(desc) || !utf8.ValidString(when) ||
			strings.ContainsRune(desc+when, 0) || utf8.RuneCountInString(desc) > spec.MaxDescriptionChars {
			return
		}
		src := ScaffoldSource("x", &ScaffoldOptions{Description: desc, WhenToUse: when})
		s, _ := skill.Parse(src, &skill.Options{Path: "skills/x/SKILL.md", MaxDescriptionChars: -1})
		if s == nil {
			t.Fatalf("does not load:\n%s", src)
		}
		// YAML folds some white space (line breaks in a plain or quoted
		// value); compare the words.
		if strings.Join(strings.Fields(s.Description), " ") != strings.Join(strings.Fields(desc), " ") {
			t.Fatalf("description %q read back as %q\n%s", desc, s.Description, src)
		}
	})
}

func TestScaffold(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	c, err := catalog.New(context.Background(), &catalog.Options{Workspace: ws, NoUser: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Scaffold(context.Background(), c, &ScaffoldOptions{Name: "PDF Tools", Description: "Fill PDF forms."})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(ws, ".agents", "skills", "pdf-tools", "SKILL.md"); res.Path != want || res.Name != "pdf-tools" || res.Asked != "PDF Tools" {
		t.Errorf("Scaffold = %+v, want %s named pdf-tools (asked PDF Tools)", res, want)
	}
	r, err := Run(context.Background(), &Options{Catalog: &catalog.Options{Workspace: ws, NoUser: true}})
	if err != nil || len(r.Diagnostics) != 0 || r.Counts.Skills != 1 {
		t.Fatalf("lint after new: %v, %v", r.Diagnostics, err)
	}
	before, _ := os.ReadFile(res.Path)
	_, err = Scaffold(context.Background(), c, &ScaffoldOptions{Name: "pdf-tools", Description: "Other."})
	if !errors.Is(err, ErrExists) {
		t.Errorf("second Scaffold: %v, want ErrExists", err)
	}
	if after, _ := os.ReadFile(res.Path); string(after) != string(before) {
		t.Error("the existing skill was overwritten")
	}
	for _, o := range []ScaffoldOptions{
		{Name: "???", Description: "d"},
		{Name: strings.Repeat("a", 65), Description: "d"},
		{Name: "ok", Description: "  "},
		{Name: "ok", Description: strings.Repeat("word ", 206)}, // over the specification's 1024
	} {
		if _, err := Scaffold(context.Background(), c, &o); !errors.Is(err, ErrInvalid) {
			t.Errorf("Scaffold(%.20q, %.20q) = %v, want ErrInvalid", o.Name, o.Description, err)
		}
	}
	missing, _ := catalog.New(context.Background(), &catalog.Options{Workspace: filepath.Join(ws, "nope"), NoUser: true})
	if _, err := Scaffold(context.Background(), missing, &ScaffoldOptions{Name: "x", Description: "d"}); !errors.Is(err, ErrNoRoot) {
		t.Errorf("Scaffold in a missing workspace = %v, want ErrNoRoot", err)
	}
}
