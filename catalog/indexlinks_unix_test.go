//go:build unix

package catalog

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestIndexUnfollowedLinks: a symlink the listing could not follow (its
// target missing, or a loop of links) is kept in the index as a path
// stamped missing, so that its target appearing later, outside every
// folder the walk read (so that no folder's stamp changes), is seen. For
// the index List writes and the one written while Each lists (the first
// show NAME), and for a folder link and a skill-file link, the next List
// after the target appears is a cold listing's, and the first listing did
// write an index (else the case would prove nothing).
func TestIndexUnfollowedLinks(t *testing.T) {
	t.Parallel()
	loop := map[string]string{"out/l1": "-> l2", "out/l2": "-> l1"}
	cases := []struct {
		name string
		tree map[string]string // under the workspace
		// fix makes the link resolve: the paths removed, then the tree
		// written, under the workspace.
		remove []string
		fix    map[string]string
	}{
		{"folder link, target missing", map[string]string{"skills/x": "-> ../out/x"},
			nil, map[string]string{"out/x/SKILL.md": skillMD("x")}},
		{"folder link, target's folder missing", map[string]string{"skills/x": "-> ../out/deep/x"},
			nil, map[string]string{"out/deep/x/SKILL.md": skillMD("x")}},
		{"skill file link, target missing", map[string]string{"skills/y/SKILL.md": "-> ../../out/y.md"},
			nil, map[string]string{"out/y.md": skillMD("y")}},
		{"flat file link, target missing", map[string]string{"skills/f.md": "-> ../out/f.md"},
			nil, map[string]string{"out/f.md": skillMD("f")}},
		{"folder link, loop", merged(loop, map[string]string{"skills/w": "-> ../out/l1"}),
			[]string{"out/l2"}, map[string]string{"out/l2/SKILL.md": skillMD("w")}},
		{"skill file link, loop", merged(loop, map[string]string{"skills/z/SKILL.md": "-> ../../out/l1"}),
			[]string{"out/l2"}, map[string]string{"out/l2": skillMD("z")}},
	}
	for _, tc := range cases {
		for _, first := range []string{"List", "show"} {
			t.Run(tc.name+"/"+first, func(t *testing.T) {
				e := newEnv(t)
				writeTree(t, e.ws, merged(tc.tree, map[string]string{"skills/b/SKILL.md": skillMD("b"), "out/keep": "x"}))
				age(t, e.ws, e.home)
				idx := filepath.Join(t.TempDir(), "idx")
				newc := func() *Catalog {
					c, err := New(context.Background(), e.opts(&Options{index: idx}))
					must(t, err)
					return c
				}
				if first == "List" {
					_, err := newc().List(context.Background())
					must(t, err)
				} else if l := newc().listNamed(context.Background(), "b", nil); l == nil || len(l.Skills) != 1 {
					t.Fatalf("the first show of b did not answer: %+v", l)
				}
				if files, _ := filepath.Glob(filepath.Join(idx, "*.idx")); len(files) != 1 {
					t.Fatalf("the first %s wrote %d index files, want 1", first, len(files))
				}
				for _, p := range tc.remove {
					must(t, os.Remove(filepath.Join(e.ws, p)))
				}
				writeTree(t, e.ws, tc.fix)
				age(t, filepath.Join(e.ws, "out"))
				_, cold := e.list(t, &Options{})
				l, err := newc().List(context.Background())
				must(t, err)
				if diff := diffListing(cold, materialize(l)); diff != "" {
					t.Fatalf("after the link's target appeared, the index answered with a stale listing (-cold +index):\n%s", diff)
				}
			})
		}
	}
}

// merged is the union of trees a and b (b's entry where both have one).
func merged(a, b map[string]string) map[string]string {
	m := make(map[string]string, len(a)+len(b))
	for k, v := range a {
		m[k] = v
	}
	for k, v := range b {
		m[k] = v
	}
	return m
}
