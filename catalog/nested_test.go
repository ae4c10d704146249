package catalog

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestNestedWalkIsPlainWalk holds nestedWalk, which reads each folder
// once, to the plain walk it replaced (plainNested: an lstat of SKILL.md,
// then a listing of the folder to look for it in another letter case, then
// another to go down) on random trees from a seed: folders up to six deep,
// skill files in any case, a folder named SKILL.md, folders skipped by
// name, symlinks to folders (not followed), with every depth limit from 0
// to 6; and a folder of more skill folders than maxNested. Mutations it catches: the bound passed by one, the
// check of a folder at the depth limit dropped, the depth compared off by
// one, skipped names not skipped, a folder named SKILL.md taken for a
// file, the exact name not preferred over another case.
func TestNestedWalkIsPlainWalk(t *testing.T) {
	t.Parallel()
	seeds := 40
	if testing.Short() {
		seeds = 10
	}
	for seed := range seeds {
		dir := filepath.Join(t.TempDir(), "skill")
		nestedTree(t, rand.New(rand.NewPCG(uint64(seed), 7)), dir)
		for depth := range 7 {
			w := nestedWalk{maxDepth: depth}
			w.visit(dir, 1, false)
			want := plainNested(dir, depth)
			if !slices.Equal(w.found, want) {
				t.Fatalf("seed %d, depth %d: nestedWalk found\n  %q\nthe plain walk\n  %q", seed, depth, w.found, want)
			}
		}
	}
	// Past maxNested: a folder of more skill folders than are reported.
	wide := filepath.Join(t.TempDir(), "skill")
	for i := range maxNested + 30 {
		writeTree(t, wide, map[string]string{fmt.Sprintf("s%03d/SKILL.md", i): "x"})
	}
	w := nestedWalk{maxDepth: 6}
	w.visit(wide, 1, false)
	if want := plainNested(wide, 6); len(w.found) != maxNested || !slices.Equal(w.found, want) {
		t.Fatalf("%d skill folders: nestedWalk found %d, the plain walk %d (want %d)", maxNested+30, len(w.found), len(want), maxNested)
	}
}

// nestedTree writes a random folder tree below dir.
func nestedTree(t *testing.T, r *rand.Rand, dir string) {
	t.Helper()
	names := []string{"a", "b", "refs", "_draft", ".hidden", "node_modules", "deep", "x"}
	skillNames := []string{"SKILL.md", "skill.md", "Skill.MD", "SKILL.MD"}
	var fill func(d string, depth int)
	fill = func(d string, depth int) {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if depth > 1 {
			for _, n := range skillNames {
				if r.IntN(5) == 0 {
					p := filepath.Join(d, n)
					if fi, err := os.Lstat(p); err == nil && fi.IsDir() {
						continue // a folder named so, made on an earlier visit
					}
					if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			if r.IntN(12) == 0 {
				// A folder where no file of the name was written.
				if err := os.Mkdir(filepath.Join(d, "SKILL.md"), 0o755); err != nil && !os.IsExist(err) {
					t.Fatal(err)
				}
			}
		}
		if depth >= 7 {
			return
		}
		for i := range r.IntN(5) {
			n := names[r.IntN(len(names))]
			if i > 0 && r.IntN(3) == 0 {
				n = fmt.Sprintf("%s%d", n, i)
			}
			fill(filepath.Join(d, n), depth+1)
		}
		if r.IntN(8) == 0 {
			if err := os.Symlink(".", filepath.Join(d, "loop")); err != nil && !os.IsExist(err) {
				t.Fatal(err)
			}
		}
	}
	fill(dir, 1)
}

// plainNested is the walk nestedDiags made before nestedWalk, as it was.
func plainNested(root string, maxDepth int) []string {
	var found []string
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		if depth > maxDepth || len(found) >= maxNested {
			return
		}
		ents, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range ents {
			if !e.IsDir() || ignored(e.Name()) || len(found) >= maxNested {
				continue
			}
			sub := filepath.Join(dir, e.Name())
			if f := plainSkillFileIn(sub); f != "" {
				found = append(found, f)
			}
			walk(sub, depth+1)
		}
	}
	walk(root, 1)
	return found
}

func plainSkillFileIn(dir string) string {
	if fi, err := os.Lstat(filepath.Join(dir, SkillFile)); err == nil && !fi.IsDir() {
		return filepath.Join(dir, SkillFile)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, e := range ents {
		if !e.IsDir() && strings.EqualFold(e.Name(), SkillFile) {
			return filepath.Join(dir, e.Name())
		}
	}
	return ""
}

// TestSkillFileIn: the skill file of a folder among its entries, SKILL.md
// before another letter case, a folder of the name never; and for a
// folder that could not be listed (the tests run as root here, where a
// mode does not stop a read, so the listing's error is given), SKILL.md
// asked by name: a file or a link is it, a folder or another case is not.
// The cases that hold two names in two letter cases, or ask one name in
// another case, are for a file system that tells letter cases apart.
func TestSkillFileIn(t *testing.T) {
	t.Parallel()
	unreadable := &os.PathError{Op: "open", Path: "x", Err: os.ErrPermission}
	caseSensitive := caseSensitiveAt(t, t.TempDir())
	for _, tc := range []struct {
		name   string
		files  map[string]string
		err    error
		want   string // under the folder; "" none
		byCase bool   // needs a file system that tells letter cases apart
	}{
		// SKILL.MD lists before SKILL.md.
		{"exact over other case", map[string]string{"SKILL.MD": "b", "SKILL.md": "a", "skill.md": "c"}, nil, "SKILL.md", true},
		{"other case", map[string]string{"Skill.md": "a", "README.md": "r"}, nil, "Skill.md", false},
		{"folder of the name skipped", map[string]string{"SKILL.md/x": "a", "skill.md": "b"}, nil, "skill.md", true},
		{"none", map[string]string{"README.md": "r", "sub/SKILL.md": "s"}, nil, "", false},
		{"link of the name", map[string]string{"SKILL.md": "-> missing"}, nil, "SKILL.md", false},
		{"unreadable, file", map[string]string{"SKILL.md": "a"}, unreadable, "SKILL.md", false},
		{"unreadable, link", map[string]string{"SKILL.md": "-> missing"}, unreadable, "SKILL.md", false},
		{"unreadable, folder", map[string]string{"SKILL.md/x": "a"}, unreadable, "", false},
		{"unreadable, other case", map[string]string{"skill.md": "a"}, unreadable, "", true},
		{"unreadable, none", map[string]string{"README.md": "r"}, unreadable, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.byCase && !caseSensitive {
				t.Skip("the file system does not tell letter cases apart")
			}
			dir := t.TempDir()
			writeTree(t, dir, tc.files)
			var ents []os.DirEntry
			if tc.err == nil {
				var err error
				ents, err = os.ReadDir(dir)
				must(t, err)
			}
			want := ""
			if tc.want != "" {
				want = filepath.Join(dir, tc.want)
			}
			if got := skillFileIn(dir, ents, tc.err); got != want {
				t.Errorf("skillFileIn = %q, want %q", got, want)
			}
		})
	}
}

// caseSensitiveAt reports whether the file system of dir tells two names
// that differ in letter case apart.
func caseSensitiveAt(t *testing.T, dir string) bool {
	t.Helper()
	must(t, os.WriteFile(filepath.Join(dir, "case.md"), nil, 0o644))
	_, err := os.Lstat(filepath.Join(dir, "CASE.MD"))
	return err != nil
}
