package lint

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/skill"
)

func TestFixSource(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name      string
		path      string // default skills/x/SKILL.md
		flat      bool
		fixName   bool
		in, want  string // want "" means unchanged
		wantFixes int
		wantErr   error
	}{
		{name: "colon",
			in:   "---\nname: x\ndescription: Use when: deploying\n---\n\nBody.\n",
			want: "---\nname: x\ndescription: \"Use when: deploying\"\n---\n\nBody.\n", wantFixes: 1},
		{name: "crlf kept",
			in:   "---\r\nname: x\r\ndescription: Use when: deploying\r\n---\r\n\r\nBody.\r\n",
			want: "---\r\nname: x\r\ndescription: \"Use when: deploying\"\r\n---\r\n\r\nBody.\r\n", wantFixes: 1},
		{name: "mixed line endings kept",
			in:   "---\nname: x\r\ndescription: a: b\r\nlicense: MIT\n---\n\nBody.\n",
			want: "---\nname: x\r\ndescription: \"a: b\"\r\nlicense: MIT\n---\n\nBody.\n", wantFixes: 1},
		{name: "continuation lines stay",
			in:   "---\nname: x\ndescription: Use when: one\n  two three\n    four\nlicense: MIT\n---\n\nBody.\n",
			want: "---\nname: x\ndescription: \"Use when: one\n  two three\n    four\"\nlicense: MIT\n---\n\nBody.\n", wantFixes: 1},
		{name: "quotes and backslashes escaped",
			in:   "---\nname: x\ndescription: Say \"hi\": C:\\tmp\n---\n\nBody.\n",
			want: "---\nname: x\ndescription: \"Say \\\"hi\\\": C:\\\\tmp\"\n---\n\nBody.\n", wantFixes: 1},
		{name: "trailing comment kept",
			in:   "---\nname: x\ndescription: a: b   # note\n---\n\nBody.\n",
			want: "---\nname: x\ndescription: \"a: b\"   # note\n---\n\nBody.\n", wantFixes: 1},
		{name: "flow start followed by text",
			in:   "---\nname: x\ndescription: d\nargument-hint: [date] [type]\n---\n\nBody.\n",
			want: "---\nname: x\ndescription: d\nargument-hint: \"[date] [type]\"\n---\n\nBody.\n", wantFixes: 1},
		{name: "two repairs",
			in:   "---\nname: x\ndescription: a: b\nwhen-to-use: c: d\n---\n\nBody.\n",
			want: "---\nname: x\ndescription: \"a: b\"\nwhen-to-use: \"c: d\"\n---\n\nBody.\n", wantFixes: 2},
		{name: "blank line inside the value falls back to the repaired line",
			in:   "---\nname: x\ndescription: a: b\n\n  c\nlicense: MIT\n---\n\nBody.\n",
			want: "---\nname: x\ndescription: \"a: b c\"\nlicense: MIT\n---\n\nBody.\n", wantFixes: 1},
		{name: "body untouched",
			in:   "---\nname: x\ndescription: a: b\n---\n\nkey: value: here\n---\nmore\n",
			want: "---\nname: x\ndescription: \"a: b\"\n---\n\nkey: value: here\n---\nmore\n", wantFixes: 1},
		{name: "nothing to fix",
			in: "---\nname: x\ndescription: \"a: b\"\n---\n\nBody.\n"},
		{name: "name is not fixed unless asked",
			in: "---\nname: other\ndescription: d\n---\n\nBody.\n"},
		{name: "name set to the folder", fixName: true,
			in:   "---\nname: other\ndescription: d\n---\n\nBody.\n",
			want: "---\nname: x\ndescription: d\n---\n\nBody.\n", wantFixes: 1},
		{name: "name keeps its quotes and comment", fixName: true,
			in:   "---\nname: \"Other Name\"  # shown\ndescription: d\n---\n\nBody.\n",
			want: "---\nname: \"x\"  # shown\ndescription: d\n---\n\nBody.\n", wantFixes: 1},
		{name: "name repaired and set", fixName: true,
			in:   "---\nname: a: b\ndescription: c: d\n---\n\nBody.\n",
			want: "---\nname: x\ndescription: \"c: d\"\n---\n\nBody.\n", wantFixes: 2},
		{name: "flat form uses the stem", fixName: true, path: "skills/deploy.md", flat: true,
			in:   "---\nname: ship\ndescription: d\n---\n\nBody.\n",
			want: "---\nname: deploy\ndescription: d\n---\n\nBody.\n", wantFixes: 1},
		{name: "folder that breaks the rule is not used", fixName: true, path: "skills/My_Skill/SKILL.md",
			in: "---\nname: my-skill\ndescription: d\n---\n\nBody.\n"},
		{name: "numeric folder name is quoted", fixName: true, path: "skills/123/SKILL.md",
			in:   "---\nname: abc\ndescription: d\n---\n\nBody.\n",
			want: "---\nname: \"123\"\ndescription: d\n---\n\nBody.\n", wantFixes: 1},
		{name: "multi-line name left alone", fixName: true,
			in: "---\nname: other\n  name\ndescription: d\n---\n\nBody.\n"},
		{name: "block scalar name left alone", fixName: true,
			in: "---\nname: >-\n  other\ndescription: d\n---\n\nBody.\n"},
		{name: "comment before a continuation line is unsafe",
			in:      "---\nname: x\ndescription: a: b # note\n  c\n---\n\nBody.\n",
			wantErr: ErrUnsafe},
		{name: "a file that does not load",
			in:      "---\n- a\n---\n\nBody.\n",
			wantErr: ErrUnparsable},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.path
			if path == "" {
				path = "skills/x/SKILL.md"
			}
			out, fixes, err := FixSource([]byte(tt.in), &FixOptions{Name: tt.fixName}, &skill.Options{Path: path, Flat: tt.flat})
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			want := tt.want
			if want == "" {
				want = tt.in
			}
			if diff := cmp.Diff(want, string(out)); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
			if len(fixes) != tt.wantFixes {
				t.Errorf("fixes = %q, want %d", fixes, tt.wantFixes)
			}
		})
	}
}

// TestFixWrite checks the file-level guarantees: atomic replacement that
// keeps permissions and leaves no temporary file, nothing written for a
// file changed since it was read, and the report re-linted clean.
func TestFixWrite(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{
		"skills/a/SKILL.md": "---\nname: a\ndescription: Use when: a\n---\n\nBody.\n",
		"skills/b/SKILL.md": "---\nname: b\ndescription: Use when: b\n---\n\nBody.\n",
	})
	a := filepath.Join(ws, "skills", "a", "SKILL.md")
	b := filepath.Join(ws, "skills", "b", "SKILL.md")
	if err := os.Chmod(a, 0o600); err != nil {
		t.Fatal(err)
	}
	opts := &Options{Catalog: &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true}}
	r, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	changes, skips, err := Fix(context.Background(), r, nil)
	if err != nil || len(skips) > 0 || len(changes) != 2 {
		t.Fatalf("Fix: %d changes, skips %v, err %v", len(changes), skips, err)
	}
	// b changes on disk after it was read: it must be left alone.
	if err := os.WriteFile(b, []byte("---\nname: b\ndescription: edited\n---\n\nBody.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range changes {
		err := c.Write()
		switch c.Path {
		case a:
			if err != nil {
				t.Errorf("Write(a) = %v", err)
			}
		case b:
			if !errors.Is(err, ErrChanged) {
				t.Errorf("Write(b) = %v, want ErrChanged", err)
			}
		}
	}
	if got, _ := os.ReadFile(a); string(got) != "---\nname: a\ndescription: \"Use when: a\"\n---\n\nBody.\n" {
		t.Errorf("a = %q", got)
	}
	if got, _ := os.ReadFile(b); !strings.Contains(string(got), "edited") {
		t.Errorf("b was overwritten: %q", got)
	}
	if fi, err := os.Stat(a); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("a's mode = %v, %v; want 0600", fi.Mode(), err)
	}
	entries, _ := os.ReadDir(filepath.Dir(a))
	if len(entries) != 1 {
		t.Errorf("left behind in %s: %v", filepath.Dir(a), entries)
	}
	r2, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if r2.Counts.Warnings != 0 || r2.Counts.Errors != 0 {
		t.Errorf("after the fix: %v", r2.Diagnostics)
	}
}

// TestFixCorpus runs the fixes over a copy of the corpus: every file
// rewritten must parse to the same values with no parse-recovered, and
// every other file must be byte for byte as it was. The corpus has few
// repairable files, so --fix=name (which rewrites the names that differ
// from their folder) is run too.
func TestFixCorpus(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("copies and fixes the whole corpus twice: skipped with -short")
	}
	corpus := corpusDir(t)
	for _, fixName := range []bool{false, true} {
		copyDir := filepath.Join(t.TempDir(), "corpus")
		copyTree(t, corpus, copyDir)
		r, err := Run(context.Background(), &Options{
			Catalog: &catalog.Options{Workspace: t.TempDir(), NoConfigFile: true, NoUser: true},
			Targets: []string{copyDir},
		})
		if err != nil {
			t.Fatal(err)
		}
		changes, skips, err := Fix(context.Background(), r, &FixOptions{Name: fixName})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range skips {
			t.Errorf("name=%v: skipped %s: %v", fixName, s.Path, s.Err)
		}
		wantChanges := 0
		if fixName {
			wantChanges = 4 // the four vercel-* names
		}
		if len(changes) != wantChanges {
			t.Errorf("name=%v: %d changes, want %d", fixName, len(changes), wantChanges)
		}
		rewritten := map[string]*Change{}
		for _, c := range changes {
			if err := c.Write(); err != nil {
				t.Fatal(err)
			}
			rewritten[c.Path] = c
		}
		flat := map[string]bool{}
		for _, f := range r.Files {
			flat[f.Path] = f.Flat
		}
		checked := 0
		err = filepath.WalkDir(copyDir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			rel, _ := filepath.Rel(copyDir, p)
			orig, err := os.ReadFile(filepath.Join(corpus, rel))
			if err != nil {
				return err
			}
			now, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			c := rewritten[p]
			if c == nil {
				if !bytes.Equal(orig, now) {
					t.Errorf("%s changed but was not fixed", rel)
				}
				return nil
			}
			checked++
			po := &skill.Options{Path: p, Flat: flat[p]}
			before, _ := skill.Parse(orig, po)
			after, diags := skill.Parse(now, po)
			if before == nil || after == nil {
				t.Fatalf("%s: does not parse (before %v, after %v)", rel, before != nil, after != nil)
			}
			for _, d := range diags {
				if d.Code == diagcode.ParseRecovered || d.Code == diagcode.NameMismatch {
					t.Errorf("%s: after the fix: %s", rel, d)
				}
			}
			want, got := snapshot(before), snapshot(after)
			if fixName {
				folder := filepath.Base(filepath.Dir(p))
				if after.Name != folder {
					t.Errorf("%s: name %q, want the folder's %q", rel, after.Name, folder)
				}
				got.name, got.rawName, got.nameField = want.name, want.rawName, want.nameField
			}
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(values{})); diff != "" {
				t.Errorf("%s: values changed (-before +after):\n%s", rel, diff)
			}
			// Only the name line may differ.
			if d := lineDiffs(orig, now); d != 1 {
				t.Errorf("%s: %d lines changed, want 1", rel, d)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if checked != len(changes) {
			t.Errorf("checked %d rewritten files, want %d", checked, len(changes))
		}
	}
}

func lineDiffs(a, b []byte) int {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	if len(la) != len(lb) {
		return -1
	}
	n := 0
	for i := range la {
		if !bytes.Equal(la[i], lb[i]) {
			n++
		}
	}
	return n
}

// TestFixSynthetic builds a workspace of repairable files (unquoted colons,
// CRLF, continuation lines, comments, escapes) and checks lint --fix's
// promise over it end to end: every fixed file loads with the same values
// and no parse-recovered, and files without fixes are untouched.
func TestFixSynthetic(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	files := map[string]string{
		"skills/colon/SKILL.md":    "---\nname: colon\ndescription: Deploy. Use when: asked\n---\n\nBody.\n",
		"skills/crlf/SKILL.md":     "---\r\nname: crlf\r\ndescription: Use for: CRLF files\r\n---\r\n\r\nBody.\r\n",
		"skills/cont/SKILL.md":     "---\nname: cont\ndescription: Use when: one\n  two: three\nmetadata:\n  k: v\n---\n\nBody.\n",
		"skills/comment/SKILL.md":  "---\nname: comment\ndescription: a: b # why\n---\n\nBody.\n",
		"skills/escape/SKILL.md":   "---\nname: escape\ndescription: Say \"x\": \\d+\n---\n\nBody.\n",
		"skills/hint/SKILL.md":     "---\nname: hint\ndescription: d\nargument-hint: [a] [b]\n---\n\nBody.\n",
		"skills/clean/SKILL.md":    "---\nname: clean\ndescription: Nothing to fix.\n---\n\nBody.\n",
		"skills/mismatch/SKILL.md": "---\nname: other\ndescription: Not fixed without --fix=name.\n---\n\nBody.\n",
	}
	writeTree(t, ws, files)
	r, err := Run(context.Background(), &Options{Catalog: &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true}})
	if err != nil {
		t.Fatal(err)
	}
	changes, skips, err := Fix(context.Background(), r, nil)
	if err != nil || len(skips) > 0 {
		t.Fatalf("skips %v, err %v", skips, err)
	}
	fixed := map[string]bool{}
	for _, c := range changes {
		if err := c.Write(); err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(ws, c.Path)
		fixed[filepath.ToSlash(rel)] = true
	}
	if len(fixed) != 6 {
		t.Errorf("fixed %v, want the 6 repairable files", fixed)
	}
	for rel, orig := range files {
		now, err := os.ReadFile(filepath.Join(ws, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		if !fixed[rel] {
			if string(now) != orig {
				t.Errorf("%s changed", rel)
			}
			continue
		}
		po := &skill.Options{Path: filepath.Join(ws, filepath.FromSlash(rel))}
		before, _ := skill.Parse([]byte(orig), po)
		after, diags := skill.Parse(now, po)
		if after == nil || after.Recovered || len(diags) != 0 {
			t.Errorf("%s after the fix: %v", rel, diags)
			continue
		}
		if diff := cmp.Diff(snapshot(before), snapshot(after), cmp.AllowUnexported(values{})); diff != "" {
			t.Errorf("%s: values changed:\n%s", rel, diff)
		}
		if strings.Contains(orig, "\r\n") != strings.Contains(string(now), "\r\n") || strings.Count(orig, "\n") != strings.Count(string(now), "\n") {
			t.Errorf("%s: line endings or line count changed:\n%q\n%q", rel, orig, now)
		}
	}
}

func copyTree(t testing.TB, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(dst, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, dst)
		case d.Type().IsRegular():
			in, err := os.Open(p)
			if err != nil {
				return err
			}
			defer in.Close()
			out, err := os.Create(dst)
			if err != nil {
				return err
			}
			if _, err := io.Copy(out, in); err != nil {
				out.Close()
				return err
			}
			return out.Close()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
