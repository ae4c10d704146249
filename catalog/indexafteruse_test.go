package catalog

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestIndexFixedStampsAfterUse: the files an index stamps as it is
// written, after the listing read them (a root's .skilletignore, the
// configuration file: fixedStamps), rewritten while the listing runs with
// their modification time put back (cp -p, rsync -t, unzip) are not
// stamped as they are now with the listing of what they were: the next
// List is a cold listing's, for the index List writes and the one written
// while Each lists. The rewrite is made after the listing is made and
// before the index is written (List's steps run one by one; the first
// skill Each hands out).
func TestIndexFixedStampsAfterUse(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name          string
		file          string // under the workspace
		before, after string
	}{
		{"ignore file withholds no more", "skills/" + ".skilletignore", "b\n", "# none\n"},
		{"ignore file withholds another", "skills/" + ".skilletignore", "b\n", "c\n"},
		{"ignore file withholds one more", "skills/" + ".skilletignore", "# none\n", "c\n"},
	}
	for _, tc := range cases {
		for _, first := range []string{"List", "show"} {
			t.Run(tc.name+"/"+first, func(t *testing.T) {
				e := newEnv(t)
				writeTree(t, e.ws, map[string]string{"skills/a/SKILL.md": skillMD("a"), "skills/b/SKILL.md": skillMD("b"),
					"skills/c/SKILL.md": skillMD("c"), tc.file: tc.before})
				age(t, e.ws, e.home)
				p := filepath.Join(e.ws, tc.file)
				fi, err := os.Stat(p)
				must(t, err)
				rewrite := func() {
					must(t, os.WriteFile(p, []byte(tc.after), 0o644))
					must(t, os.Chtimes(p, fi.ModTime(), fi.ModTime()))
				}
				idx := filepath.Join(t.TempDir(), "idx")
				c, err := New(context.Background(), e.opts(&Options{index: idx}))
				must(t, err)
				c.mu.Lock()
				if first == "List" {
					d := c.newDiskList(context.Background(), nil)
					start := time.Now()
					l, err := d.run()
					must(t, err)
					rewrite()
					c.saveIndex(l, d.roots, start, &d.s.unfollowed)
				} else {
					n := 0
					_, ok, err := c.eachIndexed(context.Background(), func(*Listing, *Skill) error {
						if n++; n == 1 {
							rewrite()
						}
						return nil
					}, nil)
					if !ok || err != nil {
						t.Fatalf("Each did not list: %v %v", ok, err)
					}
				}
				c.mu.Unlock()
				_, cold := e.list(t, &Options{})
				c2, err := New(context.Background(), e.opts(&Options{index: idx}))
				must(t, err)
				l, err := c2.List(context.Background())
				must(t, err)
				if diff := diffListing(cold, materialize(l)); diff != "" {
					t.Fatalf("the index answered with the listing of the file before its rewrite (-cold +index):\n%s", diff)
				}
			})
		}
	}
}
