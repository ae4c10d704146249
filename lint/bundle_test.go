package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillet-go/skillet/catalog"
)

// TestWalkBundle holds walkBundle (getdents64 on Linux) to the
// filepath.WalkDir walk, finding for finding and in order: links inside
// and outside, broken links, skipped and too-deep folders, the skill file
// as a link, a skill folder that is a link, the entry cap, and folders that
// are not walked at all.
func TestWalkBundle(t *testing.T) {
	ws := t.TempDir()
	files := map[string]string{
		"outside.md":                        "x",
		"out/dir/f.md":                      "y",
		"a/SKILL.md":                        "s",
		"a/references/guide.md":             "g",
		"a/node_modules/pkg/index.js":       "",
		"a/.git/config":                     "",
		"a/Zed/b.md":                        "",
		"big/SKILL.md":                      "s",
		"plain/SKILL.md":                    "s",
		"plain/scripts/run.sh":              "",
		"linked-skill/SKILL.md":             "s",
		"nolink/SKILL.md":                   "s",
		"deep/SKILL.md":                     "s",
		"deep/1/2/3/4/5/6/7/8/9/inner.md":   "",
		"unreadable/SKILL.md":               "s",
		"unreadable/locked/in.md":           "",
		"linkfile/real.md":                  "---\nname: x\n---\n",
		"a/assets/with space/and-ü.md":      "",
		"a/assets/with space/and-ü.md.orig": "",
	}
	writeTree(t, ws, files)
	links := map[string]string{
		"a/references/out.md":     "../../outside.md",
		"a/references/in.md":      "guide.md",
		"a/sibling":               "../plain",
		"a/broken.md":             "missing.md",
		"a/node_modules/pkg/x.md": "../../../outside.md",
		"a/.git/x.md":             "../../outside.md",
		"a/Zed/out":               "../../out/dir",
		"a/assets/with space/l":   "../../../outside.md",
		"a/abs":                   filepath.Join(ws, "outside.md"),
		"linkfile/SKILL.md":       "real.md",
		"linked":                  "linked-skill",
		"deep/1/2/3/4/5/6/7/out":  "../../../../../../../../outside.md",
		"deep/1/2/3/4/5/6/7/8/o":  "../../../../../../../../../outside.md",
	}
	for i := range 5000 {
		links[fmt.Sprintf("big/l%04d", i)] = "../outside.md"
	}
	for link, target := range links {
		if err := os.Symlink(target, filepath.Join(ws, link)); err != nil {
			t.Skip("no symlinks:", err)
		}
	}
	if err := os.Chmod(filepath.Join(ws, "unreadable/locked"), 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(ws, "unreadable/locked"), 0o755) })
	for _, tc := range []struct{ dir, file string }{
		{"a", "SKILL.md"}, {"a/", "SKILL.md"}, {"./a", "SKILL.md"}, {"big", "SKILL.md"}, {"plain", "SKILL.md"},
		{"linked", "SKILL.md"}, {"deep", "SKILL.md"}, {"unreadable", "SKILL.md"}, {"linkfile", "SKILL.md"},
		{"missing", "SKILL.md"}, {"outside.md", "SKILL.md"}, {"a", "broken.md"},
	} {
		base := filepath.Join(ws, tc.dir)
		if strings.HasSuffix(tc.dir, "/") || strings.HasPrefix(tc.dir, "./") {
			base = ws + "/" + tc.dir
		}
		s := &catalog.Skill{Name: "s", BaseDir: base, Location: filepath.Join(base, tc.file)}
		want := walkBundleDir(s)
		got := walkBundle(s)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: walkBundle differs from the WalkDir walk (-want +got):\n%s", tc.dir, diff)
		}
		if tc.dir == "a" && tc.file == "SKILL.md" && len(want) != 5 {
			t.Errorf("a: %d findings, want 5: %v", len(want), want)
		}
		if tc.dir == "big" && len(want) != maxBundleEntries-2 { // the folder and SKILL.md count too
			t.Errorf("big: %d findings, want %d", len(want), maxBundleEntries-2)
		}
	}
}
