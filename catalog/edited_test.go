package catalog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillet-go/skillet/internal/benchtree/tree"
)

// TestListEditedIsList checks listEdited against List: after each write,
// a patched listing, when listEdited makes one, must be a new catalog's
// cold listing (every exported field of the listing, its skills and its
// candidates, as JSON); where it must not patch (a name, visibility or
// diagnostic changed, a path it cannot place, a file it reads or cannot
// trust), it says so and leaves the catalog as it was, so that a List
// then is a cold one too. The changes are made one after the other on
// one tree, each preceded by the List a reload would have made.
func TestListEditedIsList(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	if _, err := tree.Generate(ws, &tree.Options{N: 40, Seed: 7, BrokenPercent: -1}); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(ws, "skills")
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range ents {
		if _, err := os.Stat(filepath.Join(root, e.Name(), SkillFile)); err == nil {
			dirs = append(dirs, filepath.Join(root, e.Name()))
		}
	}
	if len(dirs) < 6 {
		t.Fatalf("%d skill folders at the top of the tree, want 6", len(dirs))
	}
	file := func(i int) string { return filepath.Join(dirs[i], SkillFile) }
	name := func(i int) string { return filepath.Base(dirs[i]) }
	rewrite := func(i int, name, desc, extra string) func() []string {
		return func() []string {
			writeFile(t, file(i), fmt.Sprintf("---\nname: %s\ndescription: %s\n%s---\nBody.\n", name, desc, extra))
			return []string{file(i)}
		}
	}
	appendTo := func(p, line string) []string {
		f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(f, line)
		f.Close()
		return []string{p}
	}
	ref := filepath.Join(dirs[1], "references", "notes.md")
	writeFile(t, ref, "# Notes\n")
	outside := filepath.Join(root, "docs", "notes.md") // a grouping folder's
	writeFile(t, outside, "# Notes\n")
	writeFile(t, filepath.Join(dirs[5], "skillet.yaml"), "maxSkills: 1\n")
	linked := filepath.Join(t.TempDir(), "link")
	if err := os.Link(file(4), linked); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		what   string
		change func() []string
		patch  bool
	}{
		{"append to a skill file", func() []string { return appendTo(file(0), "More.") }, true},
		{"the description alone", rewrite(2, name(2), "Described again.", ""), true},
		{"a reference file", func() []string { return appendTo(ref, "More.") }, true},
		{"a file outside every skill", func() []string { return appendTo(outside, "More.") }, true},
		{"a flat-form skill file", func() []string { return appendTo(filepath.Join(root, "loose.md"), "More.") }, false},
		{"nothing written", func() []string { return []string{file(3)} }, true},
		{"the name, to another skill's", rewrite(2, name(3), "A clash.", ""), false},
		{"the name, back", rewrite(2, name(2), "Back.", ""), false},
		{"hidden", rewrite(3, name(3), "Hidden.", "disable-model-invocation: true\n"), false},
		{"a parse error", func() []string { writeFile(t, file(3), "---\nname: [\n"); return []string{file(3)} }, false},
		{"mended", rewrite(3, name(3), "Mended.", ""), false},
		{"a skill file of two links", func() []string { appendTo(linked, "Through the link."); return []string{file(4)} }, false},
		{"the root's ignore file", func() []string { return appendTo(filepath.Join(root, ".skilletignore"), "# none") }, false},
		{"a configuration file's name", func() []string { return appendTo(filepath.Join(dirs[5], "skillet.yaml"), "# more") }, false},
		{"a skill folder's mode", func() []string { return []string{dirs[0]} }, false},
		{"a path outside every root", func() []string { return []string{filepath.Join(ws, "README.md")} }, false},
	} {
		t.Run(tc.what, func(t *testing.T) {
			c := newTestCatalog(t, ws)
			if _, err := c.List(t.Context()); err != nil {
				t.Fatal(err)
			}
			paths := tc.change()
			l, ok, err := c.listEdited(t.Context(), paths)
			if err != nil {
				t.Fatal(err)
			}
			if ok != tc.patch {
				t.Fatalf("patched %t, want %t", ok, tc.patch)
			}
			if !ok {
				if l, err = c.List(t.Context()); err != nil {
					t.Fatal(err)
				}
			}
			if got, want := editedJSON(t, l), editedJSON(t, coldList(t, ws)); !bytes.Equal(got, want) {
				t.Fatalf("listing\n%s\nwant\n%s", got, want)
			}
			// The catalog's cache is the listing's: a List now is cold's too.
			l2, err := c.List(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if got, want := editedJSON(t, l2), editedJSON(t, coldList(t, ws)); !bytes.Equal(got, want) {
				t.Fatalf("the List after:\n%s\nwant\n%s", got, want)
			}
		})
	}
}

func newTestCatalog(t *testing.T, ws string) *Catalog {
	t.Helper()
	c, err := New(t.Context(), &Options{Workspace: ws, NoUser: true, NoConfigFile: true})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func coldList(t *testing.T, ws string) *Listing {
	t.Helper()
	l, err := newTestCatalog(t, ws).List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// editedJSON is the listing, its skills and its candidates as JSON.
func editedJSON(t *testing.T, l *Listing) []byte {
	t.Helper()
	data, err := json.MarshalIndent(struct {
		*Listing
		Skills     []*Skill
		Candidates []*candidateFile
	}{l, l.Skills, l.candidates}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func writeFile(t *testing.T, p, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
