package catalog

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReadFile(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	outside := filepath.Join(filepath.Dir(e.ws), "outside")
	writeTree(t, outside, map[string]string{"secret.txt": "top secret"})
	writeTree(t, e.ws, map[string]string{
		"skills/a/SKILL.md":            skillMD("a"),
		"skills/a/references/guide.md": "# Guide\n",
		"skills/a/references/big.txt":  strings.Repeat("x", 2000),
		"skills/a/link-in.md":          "-> references/guide.md",
		"skills/a/link-out.txt":        "-> " + filepath.Join(outside, "secret.txt"),
		"skills/a/dir-out":             "-> " + outside,
		"skills/b/SKILL.md":            skillMD("b"),
		"skills/b/private.txt":         "b's file",
		"skills/flat.md":               skillMD("flat"),
	})
	c, _ := e.list(t, &Options{NoUser: true})
	ctx := context.Background()
	for _, tt := range []struct {
		skill, path string
		limit       int64
		want        string
		err         error
	}{
		{"a", "references/guide.md", 0, "# Guide\n", nil},
		{"a", "./references//guide.md", 0, "# Guide\n", nil},
		{"a", `references\guide.md`, 0, "# Guide\n", nil},
		{"a", "link-in.md", 0, "# Guide\n", nil},
		{"a", "SKILL.md", 0, skillMD("a"), nil},
		{"a", "references/big.txt", 1000, "", ErrTooLarge},
		{"a", "references/big.txt", 2000, strings.Repeat("x", 2000), nil},
		{"a", "../b/private.txt", 0, "", ErrOutside},
		{"a", "references/../../b/private.txt", 0, "", ErrOutside},
		{"a", filepath.Join(e.ws, "skills/b/private.txt"), 0, "", ErrOutside},
		{"a", "/etc/passwd", 0, "", ErrOutside},
		{"a", "C:/Windows/win.ini", 0, "", ErrOutside},
		{"a", "link-out.txt", 0, "", ErrOutside},
		{"a", "dir-out/secret.txt", 0, "", ErrOutside},
		{"a", "references", 0, "", ErrNotFile},
		{"a", ".", 0, "", ErrNotFile},
		{"a", "missing.md", 0, "", ErrFileNotFound},
		{"a", "", 0, "", ErrFileNotFound},
		{"a", "bad\x00name", 0, "", ErrOutside},
		{"zzz", "x", 0, "", ErrNotFound},
		{"flat", "flat.md", 0, skillMD("flat"), nil},
		{"flat", "a/SKILL.md", 0, "", ErrFileNotFound},
	} {
		got, err := c.ReadFile(ctx, tt.skill, tt.path, tt.limit)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("%s %q: error %v, want %v", tt.skill, tt.path, err, tt.err)
			}
			if got != nil {
				t.Errorf("%s %q: returned %d bytes with an error", tt.skill, tt.path, len(got))
			}
			continue
		}
		if err != nil || string(got) != tt.want {
			t.Errorf("%s %q: %q, %v", tt.skill, tt.path, got, err)
		}
	}
}

func TestFiles(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		"skills/a/SKILL.md":            skillMD("a"),
		"skills/a/scripts/run.sh":      "echo hi",
		"skills/a/references/z.md":     "z",
		"skills/a/references/b.md":     "bb",
		"skills/a/.git/config":         "x",
		"skills/a/node_modules/p/i.js": "x",
		"skills/a/nested/SKILL.md":     skillMD("nested"),
		"skills/a/link.md":             "-> references/b.md",
		"skills/a/out.md":              "-> ../../../outside.md",
		"skills/a/loop":                "-> loop",
		"outside.md":                   "x",
	})
	c, _ := e.list(t, &Options{NoUser: true})
	files, more, err := c.Files(context.Background(), "a", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []File{
		{"SKILL.md", int64(len(skillMD("a")))}, {"link.md", 2}, {"nested/SKILL.md", int64(len(skillMD("nested")))},
		{"references/b.md", 2}, {"references/z.md", 1}, {"scripts/run.sh", 7},
	}
	if diff := cmp.Diff(want, files); diff != "" || more {
		t.Errorf("files (-want +got):\n%s\nmore %v", diff, more)
	}
	files, more, err = c.Files(context.Background(), "a", 2)
	if err != nil || len(files) != 2 || !more {
		t.Errorf("limit 2: %v more=%v err=%v", files, more, err)
	}
}

// TestSwappedAfterDiscovery checks the boundary at read time: a skill
// folder or SKILL.md swapped for a symlink leading outside after List is
// refused when read, whatever the path says (docs/discovery.md#boundaries).
func TestSwappedAfterDiscovery(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	outside := filepath.Join(filepath.Dir(e.ws), "outside")
	writeTree(t, outside, map[string]string{
		"secret/SKILL.md":        skillMD("a"),
		"secret/references/r.md": "secret reference",
		"secret.md":              skillMD("b"),
	})
	writeTree(t, e.ws, map[string]string{
		"skills/a/SKILL.md":        skillMD("a"),
		"skills/a/references/r.md": "r",
		"skills/b/SKILL.md":        skillMD("b"),
	})
	c, _ := e.list(t, &Options{NoUser: true})
	ctx := context.Background()
	a, err := c.Get(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := c.Get(ctx, "b")
	// Swap the folder of a and the SKILL.md of b.
	must(t, os.Rename(filepath.Join(e.ws, "skills/a"), filepath.Join(e.ws, "a-old")))
	must(t, os.Symlink(filepath.Join(outside, "secret"), filepath.Join(e.ws, "skills/a")))
	must(t, os.Remove(filepath.Join(e.ws, "skills/b/SKILL.md")))
	must(t, os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(e.ws, "skills/b/SKILL.md")))

	if _, err := a.ReadFile("references/r.md", 0); !errors.Is(err, ErrOutside) {
		t.Errorf("ReadFile through a swapped folder: %v", err)
	}
	if _, _, err := a.Files(ctx, 0); !errors.Is(err, ErrOutside) {
		t.Errorf("Files through a swapped folder: %v", err)
	}
	if _, err := a.Content(); !errors.Is(err, ErrOutside) {
		t.Errorf("Content through a swapped folder: %v", err)
	}
	if f, err := b.openSkillFile(); !errors.Is(err, ErrOutside) {
		if f != nil {
			f.Close()
		}
		t.Errorf("openSkillFile of a swapped SKILL.md: %v", err)
	}
	if _, err := b.Load(); !errors.Is(err, ErrOutside) {
		t.Errorf("Load of a swapped SKILL.md: %v", err)
	}
	// The next List reports both.
	l, _ := c.List(ctx)
	if got := codes(l, e.ws); !cmp.Equal(got, []string{"path-escape skills/a", "path-escape skills/b/SKILL.md"}) {
		t.Errorf("after the swap: %v", got)
	}
}

// TestSized: a read buffer keeps its memory while it is large enough and
// grows, in 4 KiB steps, to what a larger file needs.
func TestSized(t *testing.T) {
	t.Parallel()
	b := make([]byte, 0, readBufMin)
	bp := &b
	for _, tc := range []struct{ n, cap int }{
		{0, readBufMin}, {100, readBufMin}, {readBufMin, readBufMin},
		{readBufMin + 1, readBufMin + 4096}, {10, readBufMin + 4096}, {64001, 65536},
	} {
		got := sized(bp, tc.n)
		if len(got) != tc.n || cap(*bp) != tc.cap {
			t.Errorf("sized(%d): len %d, buffer cap %d; want %d, %d", tc.n, len(got), cap(*bp), tc.n, tc.cap)
		}
	}
}
