package catalog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/skillet-go/skillet/internal/ignore"
	"github.com/skillet-go/skillet/skill"
)

// TestWithheld checks that dotfiles, dot-folders and .skilletignore
// matches (the root's and the skill folder's) are neither listed nor
// readable, that a symlink cannot serve one under another name, and that
// SKILL.md is served whatever the patterns say.
func TestWithheld(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		"skills/.skilletignore":       "*.secret\n/a/private/\n",
		"skills/a/SKILL.md":           skillMD("a"),
		"skills/a/.skilletignore":     "drafts/\n*.md\n!keep.md\n",
		"skills/a/.env":               "TOKEN=1",
		"skills/a/.DS_Store":          "x",
		"skills/a/.git/config":        "x",
		"skills/a/refs/.hidden/x.txt": "x",
		"skills/a/refs/guide.txt":     "guide",
		"skills/a/refs/keep.md":       "keep",
		"skills/a/refs/other.md":      "other",
		"skills/a/drafts/plan.txt":    "x",
		"skills/a/key.secret":         "x",
		"skills/a/private/p.txt":      "x",
		"skills/a/env-link.txt":       "-> .env",
		"skills/a/deep-link.txt":      "-> refs/.hidden/x.txt",
		"skills/a/guide-link.txt":     "-> refs/guide.txt",
		"skills/b/SKILL.md":           skillMD("b"),
		"skills/b/private/p.txt":      "served: the root's pattern is anchored to a/",
		"skills/b/notes.md":           "served: only a's file ignores *.md",
		"skills/b/x.secret":           "x",
	})
	c, l0 := e.list(t, &Options{NoUser: true})
	ctx := context.Background()
	// A skill folder the root's file excludes is not loaded.
	if got := names(l0); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("skills %v, want a and b (drafts/wip is excluded by the root's .skilletignore)", got)
	}
	a, err := c.Get(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	l, err := a.listFiles(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range l.Files {
		got = append(got, f.Path)
	}
	want := []string{"SKILL.md", "guide-link.txt", "refs/guide.txt", "refs/keep.md"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files of a (-want +got):\n%s", diff)
	}
	// .skilletignore .env .DS_Store .git/ refs/.hidden/ refs/other.md
	// drafts/ key.secret private/ env-link.txt deep-link.txt
	if l.Withheld != 11 {
		t.Errorf("withheld %d entries, want 11", l.Withheld)
	}
	for _, rel := range []string{".env", ".git/config", ".skilletignore", "refs/.hidden/x.txt", "refs/other.md",
		"drafts/plan.txt", "key.secret", "private/p.txt", "env-link.txt", "deep-link.txt", "./.env", "refs//.env"} {
		if _, err := c.ReadFile(ctx, "a", rel, 0); !errors.Is(err, ErrFileNotFound) {
			t.Errorf("ReadFile(a, %q) = %v, want ErrFileNotFound", rel, err)
		}
	}
	for _, rel := range []string{"SKILL.md", "refs/keep.md", "guide-link.txt"} {
		if _, err := c.ReadFile(ctx, "a", rel, 0); err != nil {
			t.Errorf("ReadFile(a, %q): %v", rel, err)
		}
	}
	// The same file names in b follow only the root's patterns.
	files, _, err := c.Files(ctx, "b", 0)
	if err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, f := range files {
		got = append(got, f.Path)
	}
	if want := []string{"SKILL.md", "notes.md", "private/p.txt"}; !slices.Equal(got, want) {
		t.Errorf("files of b = %v, want %v", got, want)
	}
}

// TestFileSizesAsSent: a sparse file and the names of a hard link are
// listed by the bytes a reader gets (their length), whatever they take on
// disk, so a budget that adds sizes up counts what would be sent.
func TestFileSizesAsSent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{"skills/a/SKILL.md": skillMD("a")})
	dir := filepath.Join(e.ws, "skills", "a")
	f, err := os.Create(filepath.Join(dir, "sparse.bin"))
	if err != nil {
		t.Fatal(err)
	}
	const size = 16 << 20
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, name := range []string{"link1.bin", "link2.bin"} {
		if err := os.Link(filepath.Join(dir, "sparse.bin"), filepath.Join(dir, name)); err != nil {
			t.Skipf("hard links: %v", err)
		}
	}
	c, _ := e.list(t, &Options{NoUser: true})
	files, _, err := c.Files(context.Background(), "a", 0)
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, f := range files {
		if strings.HasSuffix(f.Path, ".bin") {
			if f.Size != size {
				t.Errorf("%s: size %d, want %d", f.Path, f.Size, size)
			}
			total += f.Size
		}
	}
	if total != 3*size {
		t.Errorf("the three names add up to %d bytes, want %d", total, 3*size)
	}
}

// TestIgnoreFileProblems: a .skilletignore that is too long or holds a
// malformed pattern is never cut or dropped silently: the root's file is
// reported by List, a skill folder's by listFiles, with path, line and
// column; the whole lines before the cut still withhold.
func TestIgnoreFileProblems(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	pad := "#" + strings.Repeat("-", ignore.MaxFileBytes-len("#\n*.key\nsecret")-1) + "\n"
	writeTree(t, e.ws, map[string]string{
		"skills/.skilletignore":   pad + "*.key\nsecret.txt\n", // secret.txt is past the limit
		"skills/a/SKILL.md":       skillMD("a"),
		"skills/a/.skilletignore": "ok.tmp\nsub/[oops\n",
		"skills/a/x.key":          "withheld: the line fits",
		"skills/a/secret.txt":     "listed: its pattern is past the limit",
		"skills/a/sub/[oops":      "listed: the pattern matches nothing",
	})
	c, l := e.list(t, &Options{NoUser: true})
	root := filepath.Join(e.ws, "skills", ignore.FileName)
	d := findDiag(l, codeIgnoreTooLarge)
	if d == nil {
		t.Fatalf("no %s in %v", codeIgnoreTooLarge, codes(l, e.ws))
	}
	if d.Path != root || d.Line != 3 || d.Column != 1 || d.Severity != skill.SeverityWarning {
		t.Errorf("%s at %s:%d:%d (%s), want %s:3:1 (warning)", d.Code, d.Path, d.Line, d.Column, d.Severity, root)
	}
	a, err := c.Get(context.Background(), "a")
	if err != nil {
		t.Fatal(err)
	}
	fl, err := a.listFiles(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fl.Files {
		got = append(got, f.Path)
	}
	if want := []string{"SKILL.md", "secret.txt", "sub/[oops"}; !slices.Equal(got, want) {
		t.Errorf("files %v, want %v", got, want)
	}
	want := []skill.Diagnostic{{Code: codeIgnorePattern, Severity: skill.SeverityWarning,
		Path: filepath.Join(e.ws, "skills", "a", ignore.FileName), Skill: "a", Line: 2, Column: 5,
		Message: `the pattern "sub/[oops" is malformed and matches nothing`}}
	if diff := cmp.Diff(want, fl.Diagnostics); diff != "" {
		t.Errorf("listFiles diagnostics (-want +got):\n%s", diff)
	}
}

// TestRootIgnoreBoundary checks that a root's .skilletignore is read only
// when the file it resolves to lies inside the root's boundary, as a skill
// file is: one that is a symlink to a file outside the workspace neither
// withholds skills or bundled files nor has its lines quoted in
// ignore-pattern diagnostics; one that is a symlink inside the workspace is
// used.
func TestRootIgnoreBoundary(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, target string
		wantSkills   []string
		wantSecret   bool // refs/key.secret of a withheld
	}{
		{"outside", "../../outside.ignore", []string{"a", "b"}, false},
		{"inside", "../shared.ignore", []string{"b"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			ignoreText := "a/\n*.secret\nsec[ret line\n"
			writeTree(t, filepath.Dir(e.ws), map[string]string{"outside.ignore": ignoreText})
			writeTree(t, e.ws, map[string]string{
				"shared.ignore":         ignoreText,
				"skills/.skilletignore": "-> " + tc.target,
				"skills/a/SKILL.md":     skillMD("a"),
				"skills/b/SKILL.md":     skillMD("b"),
				"skills/b/key.secret":   "x",
			})
			c, l := e.list(t, &Options{NoUser: true})
			if got := names(l); !slices.Equal(got, tc.wantSkills) {
				t.Errorf("skills %v, want %v", got, tc.wantSkills)
			}
			quoted := false
			for _, d := range l.Diagnostics {
				if strings.Contains(d.Message, "sec[ret") {
					quoted = true
				}
			}
			if quoted != tc.wantSecret {
				t.Errorf("a diagnostic quotes the ignore file's line: %v, want %v (%v)", quoted, tc.wantSecret, l.Diagnostics)
			}
			b, err := c.Get(context.Background(), "b")
			if err != nil {
				t.Fatal(err)
			}
			fl, err := b.listFiles(context.Background(), 0)
			if err != nil {
				t.Fatal(err)
			}
			listed := false
			for _, f := range fl.Files {
				if f.Path == "key.secret" {
					listed = true
				}
			}
			if listed == tc.wantSecret {
				t.Errorf("key.secret listed: %v, want %v (withheld only by a file inside the boundary)", listed, !tc.wantSecret)
			}
		})
	}
}

// TestIgnoreDiagnosticsBounded checks that an ignore file full of
// malformed patterns gives at most maxIgnorePatternDiags+1 ignore-pattern
// diagnostics (the last counting the rest, at the first of them), however
// many lines it has, and still its ignore-too-large.
func TestIgnoreDiagnosticsBounded(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		lines int  // malformed lines
		big   bool // past ignore.MaxFileBytes
		want  int  // ignore-pattern diagnostics
	}{
		{"few", 3, false, 3},
		{"at the bound", maxIgnorePatternDiags, false, maxIgnorePatternDiags},
		{"one more", maxIgnorePatternDiags + 1, false, maxIgnorePatternDiags + 1},
		{"a full file", ignore.MaxFileBytes / 3, true, maxIgnorePatternDiags + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := strings.Repeat("a[\n", tc.lines)
			if tc.big {
				data += strings.Repeat("b[\n", 100)
			}
			_, bad := ignore.Parse([]byte(data))
			diags := ignoreDiagnostics("/r/.skilletignore", "", bad)
			n, large := 0, 0
			var last skill.Diagnostic
			for _, d := range diags {
				switch d.Code {
				case codeIgnorePattern:
					n++
					last = d
				case codeIgnoreTooLarge:
					large++
				}
			}
			if n != tc.want {
				t.Errorf("%d ignore-pattern diagnostics for %d malformed lines, want %d", n, tc.lines, tc.want)
			}
			if tc.big != (large == 1) {
				t.Errorf("%d ignore-too-large diagnostics, want big=%v", large, tc.big)
			}
			if tc.want > maxIgnorePatternDiags {
				total := 0
				for _, p := range bad {
					if !p.TooLarge {
						total++
					}
				}
				wantMsg := fmt.Sprintf("%d more malformed patterns", total-maxIgnorePatternDiags)
				if last.Line != maxIgnorePatternDiags+1 || !strings.HasPrefix(last.Message, wantMsg) {
					t.Errorf("last ignore-pattern at line %d: %q, want line %d starting %q", last.Line, last.Message, maxIgnorePatternDiags+1, wantMsg)
				}
			}
		})
	}
}

// TestNeverEnteredNotRead: the folders never entered (node_modules,
// __pycache__, .venv, .git, ...) are withheld from ReadFile as they are
// from Files, whatever the depth, and a symlink cannot serve a file of
// one under another name; a file merely named like one is served.
func TestNeverEnteredNotRead(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		"skills/a/SKILL.md":                        skillMD("a"),
		"skills/a/node_modules/pkg/index.js":       "module.exports = 1",
		"skills/a/scripts/node_modules/x/y.js":     "x",
		"skills/a/__pycache__/mod.cpython-312.pyc": "pyc",
		"skills/a/scripts/__pycache__/m.pyc":       "pyc",
		"skills/a/.venv/bin/python":                "x",
		"skills/a/scripts/run.py":                  "print(1)",
		"skills/a/pyc-link.txt":                    "-> scripts/__pycache__/m.pyc",
		"skills/a/refs/node_modules":               "a file with the name of a folder never entered",
	})
	c, _ := e.list(t, &Options{NoUser: true})
	ctx := context.Background()
	files, _, err := c.Files(ctx, "a", 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Path)
	}
	if want := []string{"SKILL.md", "refs/node_modules", "scripts/run.py"}; !slices.Equal(got, want) {
		t.Errorf("files of a = %v, want %v", got, want)
	}
	for _, rel := range []string{"node_modules/pkg/index.js", "scripts/node_modules/x/y.js", "__pycache__/mod.cpython-312.pyc",
		"scripts/__pycache__/m.pyc", ".venv/bin/python", "pyc-link.txt"} {
		if _, err := c.ReadFile(ctx, "a", rel, 0); !errors.Is(err, ErrFileNotFound) {
			t.Errorf("ReadFile(a, %q) = %v, want ErrFileNotFound", rel, err)
		}
	}
	for _, rel := range []string{"scripts/run.py", "refs/node_modules"} {
		if _, err := c.ReadFile(ctx, "a", rel, 0); err != nil {
			t.Errorf("ReadFile(a, %q): %v", rel, err)
		}
	}
}
