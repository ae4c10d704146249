package hostws

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const sample = `describe: cwd below a git root, a link from outside
# a comment
cwd: proj/a/b
git: proj
symlink: proj/.claude/skills/linked -> ../../../outside/linked
symlink: proj/.agents/skills/abs -> /outside/linked
hosts: claude codex
-- proj/.claude/skills/one/SKILL.md --
---
name: one
description: first
---
body
-- home/.claude/skills/mine/SKILL.md --
---
name: mine
description: user
---
-- outside/linked/SKILL.md --
---
name: linked
description: from outside
---
`

func TestParse(t *testing.T) {
	t.Parallel()
	w, err := Parse("walkup", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	want := &Workspace{
		Name:     "walkup",
		Describe: "cwd below a git root, a link from outside",
		Cwd:      "proj/a/b",
		Git:      []string{"proj"},
		Symlinks: []Link{
			{Link: "proj/.claude/skills/linked", Target: "../../../outside/linked"},
			{Link: "proj/.agents/skills/abs", Target: "/outside/linked"},
		},
		Hosts: []string{"claude", "codex"},
		Files: []File{
			{Name: "proj/.claude/skills/one/SKILL.md", Data: []byte("---\nname: one\ndescription: first\n---\nbody\n")},
			{Name: "home/.claude/skills/mine/SKILL.md", Data: []byte("---\nname: mine\ndescription: user\n---\n")},
			{Name: "outside/linked/SKILL.md", Data: []byte("---\nname: linked\ndescription: from outside\n---\n")},
		},
	}
	if d := cmp.Diff(want, w); d != "" {
		t.Errorf("Parse (-want +got):\n%s", d)
	}
	if !w.ForHost("codex") || w.ForHost("gemini") {
		t.Errorf("ForHost: hosts: claude codex not honoured")
	}
	if d, _ := Parse("x", []byte("-- proj/a --\n")); d.Cwd != "proj" || !d.ForHost("gemini") {
		t.Errorf("defaults: cwd %q, ForHost(gemini) %v", d.Cwd, d.ForHost("gemini"))
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, in, want string }{
		{"unknown", "colour: red\n", "unknown directive"},
		{"nokey", "just words\n", "not a directive"},
		{"absolute cwd", "cwd: /proj\n", "relative"},
		{"escaping cwd", "cwd: proj/../..\n", "leaves the sandbox"},
		{"symlink arrow", "symlink: a b\n", "LINK -> TARGET"},
		{"symlink empty target", "symlink: a ->\n", "empty target"},
		{"corpus arrow", "corpus: a\n", "SRC -> DEST"},
		{"escaping file", "-- ../x --\nhi\n", "leaves the sandbox"},
		{"absolute file", "-- /etc/x --\nhi\n", "relative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("w", []byte(tc.in))
			if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse(%q) = %v, want ErrFormat with %q", tc.in, err, tc.want)
			}
		})
	}
}

func TestMaterialize(t *testing.T) {
	t.Parallel()
	w, err := Parse("walkup", []byte(sample+"-- corpusdest/placeholder --\n"))
	if err != nil {
		t.Fatal(err)
	}
	corpus := t.TempDir()
	os.MkdirAll(filepath.Join(corpus, "coll", "skills", "s"), 0o755)
	os.WriteFile(filepath.Join(corpus, "coll", "skills", "s", "SKILL.md"), []byte("corpus skill"), 0o644)
	w.Corpus = []Copy{{Src: "coll/skills", Dest: "proj/.gemini/skills"}}

	dir := filepath.Join(t.TempDir(), "sb")
	sb, err := w.Materialize(dir, &Options{CorpusDir: corpus})
	if err != nil {
		t.Fatal(err)
	}
	if sb.Root != dir || sb.Home != filepath.Join(dir, "home") || sb.Cwd != filepath.Join(dir, "proj", "a", "b") {
		t.Errorf("sandbox %+v", sb)
	}
	for p, want := range map[string]string{
		"proj/.claude/skills/one/SKILL.md":    "---\nname: one\ndescription: first\n---\nbody\n",
		"home/.claude/skills/mine/SKILL.md":   "---\nname: mine\ndescription: user\n---\n",
		"proj/.claude/skills/linked/SKILL.md": "---\nname: linked\ndescription: from outside\n---\n",
		"proj/.agents/skills/abs/SKILL.md":    "---\nname: linked\ndescription: from outside\n---\n",
		"proj/.gemini/skills/s/SKILL.md":      "corpus skill",
	} {
		got, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", p, got, err, want)
		}
	}
	// The root-relative target is written relative to the link's folder.
	if tgt, _ := os.Readlink(filepath.Join(dir, "proj/.agents/skills/abs")); tgt != filepath.FromSlash("../../../outside/linked") {
		t.Errorf("link target %q", tgt)
	}
	if fi, err := os.Stat(filepath.Join(dir, "proj", ".git")); err != nil || !fi.IsDir() {
		t.Errorf("git root: %v", err)
	}
	if fi, err := os.Stat(sb.Cwd); err != nil || !fi.IsDir() {
		t.Errorf("cwd: %v", err)
	}
	if got := sb.Rel(filepath.Join(dir, "home", ".claude")); got != "home/.claude" {
		t.Errorf("Rel = %q", got)
	}
	if got := sb.Rel(filepath.Dir(dir)); got != "" {
		t.Errorf("Rel(outside) = %q, want empty", got)
	}

	if _, err := w.Materialize(t.TempDir(), nil); err == nil || !strings.Contains(err.Error(), "no corpus folder") {
		t.Errorf("corpus without CorpusDir: %v", err)
	}
}

// TestMaterializeLeavesCorpus: a sandbox's files are copies of the
// corpus's, never the same file, even when two copies land on one path
// (the second overwrites the first in the sandbox): hard links once wrote
// one corpus skill's text into another's file through the sandbox, and
// changed the corpus files' link count and change time under other tests.
func TestMaterializeLeavesCorpus(t *testing.T) {
	t.Parallel()
	corpus := t.TempDir()
	a := filepath.Join(corpus, "a", "skills", "s", "SKILL.md")
	b := filepath.Join(corpus, "b", "skills", "s", "SKILL.md")
	for p, text := range map[string]string{a: "skill a", b: "skill b"} {
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(text), 0o644)
	}
	before, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	w := &Workspace{Name: "w", Cwd: "proj", Corpus: []Copy{
		{Src: "a/skills", Dest: "proj/.claude/skills"},
		{Src: "b/skills", Dest: "proj/.claude/skills"},
		{Src: "a", Dest: "home/.agents/skills/a"},
	}}
	dir := filepath.Join(t.TempDir(), "sb")
	if _, err := w.Materialize(dir, &Options{CorpusDir: corpus}); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{a: "skill a", b: "skill b",
		filepath.Join(dir, "proj/.claude/skills/s/SKILL.md"):          "skill b",
		filepath.Join(dir, "home/.agents/skills/a/skills/s/SKILL.md"): "skill a"} {
		if got, err := os.ReadFile(p); err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", p, got, err, want)
		}
	}
	for _, src := range []string{a, b} {
		fi, err := os.Stat(src)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"proj/.claude/skills/s/SKILL.md", "home/.agents/skills/a/skills/s/SKILL.md"} {
			if gi, err := os.Stat(filepath.Join(dir, p)); err == nil && os.SameFile(fi, gi) {
				t.Errorf("%s is the corpus's %s", p, src)
			}
		}
	}
	if after, err := os.Stat(a); err != nil || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("the corpus file's time moved: %v -> %v (%v)", before.ModTime(), after.ModTime(), err)
	}
}

func TestRecordings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := &Recording{
		Host: "codex", Version: "1.0", Command: []string{"codex", "debug", "prompt-input"}, Workspace: "dup",
		Runs: 3, Deterministic: false,
		Observed: []Observation{
			{Skills: []Skill{{Name: "a", Description: "x", Path: "proj/a/SKILL.md"}, {Name: "a", Description: "x", Path: "proj/b/SKILL.md"}}},
			{Skills: []Skill{{Name: "a", Description: "x", Path: "proj/a/SKILL.md"}}},
		},
		Notes: "one <b> & two",
	}
	data, err := r.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "one <b> & two") {
		t.Errorf("HTML escaped: %s", data)
	}
	os.MkdirAll(filepath.Join(dir, "codex"), 0o755)
	os.WriteFile(filepath.Join(dir, "codex", "dup.json"), data, 0o644)
	got, err := LoadRecordings(dir)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]*Recording{r}, got); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}

	// A file under the wrong folder is refused.
	os.MkdirAll(filepath.Join(dir, "claude"), 0o755)
	os.WriteFile(filepath.Join(dir, "claude", "dup.json"), data, 0o644)
	if _, err := LoadRecordings(dir); !errors.Is(err, ErrFormat) {
		t.Errorf("wrong folder: %v", err)
	}
	// Deterministic must agree with the number of observations.
	bad := *r
	bad.Deterministic = true
	data, _ = bad.Encode()
	os.WriteFile(filepath.Join(dir, "x.json"), data, 0o644)
	if _, err := ReadRecording(filepath.Join(dir, "x.json")); !errors.Is(err, ErrFormat) {
		t.Errorf("inconsistent deterministic: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "y.json"), []byte(`{"host":"x","observed":[{"skills":[]}],"deterministic":true,"extra":1}`), 0o644)
	if _, err := ReadRecording(filepath.Join(dir, "y.json")); !errors.Is(err, ErrFormat) {
		t.Errorf("unknown field: %v", err)
	}
}

func TestMatch(t *testing.T) {
	t.Parallel()
	a := Skill{Name: "a", Description: "x", Path: "proj/a/SKILL.md"}
	a2 := Skill{Name: "a", Description: "x", Path: "proj/b/SKILL.md"}
	b := Skill{Name: "b", Description: "", Path: ""}
	r := &Recording{Observed: []Observation{{Skills: []Skill{a, a2}}, {Skills: []Skill{a}}}}
	noPath := func(s Skill) Skill { s.Path = ""; return s }
	for _, tc := range []struct {
		name  string
		got   []Skill
		paths bool
		ok    bool
		diff  string
	}{
		{"both copies", []Skill{a2, a}, false, true, ""},
		{"one copy, other run", []Skill{a}, false, true, ""},
		{"paths ignored", []Skill{noPath(a)}, false, true, ""},
		{"paths compared", []Skill{a, a}, true, false, `extra (host does not list it): "a" "x" at proj/a/SKILL.md`},
		{"paths compared, wrong copy", []Skill{a2}, true, false, `missing (host lists it): "a" "x" at proj/a/SKILL.md`},
		{"three copies", []Skill{a, a, a}, false, false, `extra (host does not list it): "a" "x"`},
		{"other skill", []Skill{a, b}, false, false, `extra (host does not list it): "b" ""`},
		{"description differs", []Skill{{Name: "a", Description: "y"}}, false, false, `missing (host lists it): "a" "x"`},
		{"none", nil, false, false, "closest observation 2 of 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ok, diff := r.Match(tc.got, &CompareOptions{Paths: tc.paths})
			if ok != tc.ok || !strings.Contains(diff, tc.diff) || (tc.ok && diff != "") {
				t.Errorf("Match = %v, %q; want %v, containing %q", ok, diff, tc.ok, tc.diff)
			}
		})
	}
	// Paths are not compared for an observation with a path missing.
	r2 := &Recording{Observed: []Observation{{Skills: []Skill{a, b}}}}
	if ok, diff := r2.Match([]Skill{a2, b}, &CompareOptions{Paths: true}); !ok {
		t.Errorf("partial paths compared: %s", diff)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(sample))
	f.Add([]byte("cwd: ..\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := Parse("f", data)
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error not ErrFormat: %v", err)
			}
			return
		}
		for _, p := range append([]string{w.Cwd}, w.Git...) {
			if strings.HasPrefix(p, "/") || p == ".." || strings.HasPrefix(p, "../") {
				t.Fatalf("path %q escapes", p)
			}
		}
		for _, fl := range w.Files {
			if strings.HasPrefix(fl.Name, "/") || fl.Name == ".." || strings.HasPrefix(fl.Name, "../") {
				t.Fatalf("file %q escapes", fl.Name)
			}
		}
	})
}

// Format writes what Parse reads: every generated workspace of a few
// seeds, and a hand-made one, come back the same (files gaining a final
// line break where they had none); a file holding a marker line is refused.
func TestFormat(t *testing.T) {
	t.Parallel()
	wss := []*Workspace{{Name: "w", Describe: "d", Cwd: "proj/a", Git: []string{"proj"},
		Symlinks: []Link{{Link: "proj/l", Target: "/outside/x"}}, Corpus: []Copy{{Src: "a/b", Dest: "proj/c"}},
		Hosts: []string{"codex", "kilo"}, Files: []File{{Name: "proj/.git", Data: []byte("gitdir: x")}}}}
	for seed := uint64(1); seed <= 40; seed++ {
		wss = append(wss, Generate(seed))
	}
	for _, w := range wss {
		data, err := w.Format()
		if err != nil {
			t.Fatalf("%s: %v", w.Name, err)
		}
		back, err := Parse(w.Name, data)
		if err != nil {
			t.Fatalf("%s: %v", w.Name, err)
		}
		want := *w
		want.Files = nil
		for _, f := range w.Files {
			if !bytes.HasSuffix(f.Data, []byte("\n")) {
				f.Data = append(bytes.Clone(f.Data), '\n')
			}
			want.Files = append(want.Files, f)
		}
		if !reflect.DeepEqual(back, &want) {
			t.Errorf("%s: read back as\n%+v\nwant\n%+v", w.Name, back, &want)
		}
	}
	bad := &Workspace{Name: "bad", Files: []File{{Name: "a", Data: []byte("x\n-- b --\ny\n")}}}
	if _, err := bad.Format(); !errors.Is(err, ErrFormat) {
		t.Errorf("a marker line in a file: %v, want ErrFormat", err)
	}
}
