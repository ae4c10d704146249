package catalog

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/skillet-go/skillet/internal/catalogx"
)

// TestOnParsed: the function catalogx.Hooks.OnParsed sets is called once for
// every skill file the first List reads (ignored and rejected-by-name ones
// included, a file that does not parse not), with the Location, BaseDir,
// Flat and Parsed() the listing's skill for it has and the bytes read (the
// listing keeps no body, though Bodies is set), and not at all by a List
// that finds nothing changed.
func TestOnParsed(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	writeFiles(t, ws, map[string]string{
		"skills/a/SKILL.md":        skillText("a"),
		"skills/group/b/SKILL.md":  skillText("b"),
		"skills/_draft/SKILL.md":   skillText("draft"),
		"skills/dup/SKILL.md":      skillText("a"),
		"skills/broken/SKILL.md":   "---\n- a list, not a mapping\n---\n\nBody.\n",
		"flat/loose.md":            skillText("loose"),
		"flat/notes/readme.txt":    "not a skill",
		"skills/a/references/x.md": "bundled",
	})
	opts := &Options{Workspace: ws, NoUser: true, bodies: true, ExtraPaths: []string{ws + "/flat"}}
	c, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	cx := catalogx.Get[Catalog, Options, Listing, Skill, File]()
	cx.ReadIgnored(c)
	var mu sync.Mutex
	got := map[string]catalogx.Parsed{}
	calls := 0
	cx.OnParsed(c, func(p catalogx.Parsed) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		p.Data = slices.Clone(p.Data) // the reader's bytes are valid only during the call
		got[p.Path] = p
	})
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	cands := cx.Candidates(l)
	n := 0
	for _, cd := range cands {
		if cd.Skill == nil {
			if _, ok := got[cd.Path]; ok && cd.Path != "" {
				t.Errorf("%s: no skill, yet OnParsed was called with it", cd.Path)
			}
			continue
		}
		n++
		s := cd.Skill
		p, ok := got[s.Location]
		switch {
		case !ok:
			t.Errorf("%s: OnParsed was not called", s.Location)
		case p.Dir != s.BaseDir || p.Flat != s.Flat || p.Skill != s.Parsed():
			t.Errorf("%s: OnParsed got dir %q flat %v skill %p, the listing has %q %v %p", s.Location, p.Dir, p.Flat, p.Skill, s.BaseDir, s.Flat, s.Parsed())
		case p.Skill.Body != "":
			t.Errorf("%s: the listing holds the body %q", s.Location, p.Skill.Body)
		case string(p.Data[p.Skill.BodyOffset:]) != "Body.\n":
			t.Errorf("%s: OnParsed got data %q, not the file's", s.Location, p.Data)
		}
	}
	if n < 5 || calls != n {
		t.Errorf("OnParsed called %d times for %d skill files (want at least 5: a, b, _draft, dup, loose)", calls, n)
	}
	calls = 0
	if _, err := c.List(context.Background()); err != nil {
		t.Fatal(err)
	}
	if calls != 0 {
		t.Errorf("a List with nothing changed called OnParsed %d times", calls)
	}
}

// TestPresetCache: under every host preset a List that finds nothing
// changed reads and parses no skill file again, as without a preset
// (docs/discovery.md#caching), and an edited file is read again and seen.
func TestPresetCache(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	writeFiles(t, ws, map[string]string{
		"team/a/SKILL.md": skillText("a"),
		"team/b/SKILL.md": skillText("b"),
		"team/c/SKILL.md": skillText("c"),
	})
	ctx := context.Background()
	for _, preset := range ProfileNames()[1:] { // [0] is skillet's own, which TestOnParsed covers
		c, err := New(ctx, &Options{Workspace: ws, NoUser: true, NoConfigFile: true, Preset: preset, Directories: []string{"team"}})
		if err != nil {
			t.Fatal(err)
		}
		parses := func() int {
			c.hostMemo.mu.Lock()
			defer c.hostMemo.mu.Unlock()
			return c.hostMemo.parses
		}
		for i := range 2 {
			l, err := c.List(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Skills) != 3 || parses() != 3 {
				t.Errorf("%s: List %d: %d skills, %d files parsed in all; want 3 and 3", preset, i+1, len(l.Skills), parses())
			}
		}
		writeFiles(t, ws, map[string]string{"team/b/SKILL.md": "---\nname: b\ndescription: Edited description.\n---\nB.\n"})
		l, err := c.List(ctx)
		if err != nil {
			t.Fatal(err)
		}
		desc := ""
		for _, s := range l.Skills {
			if s.OwnName() == "b" {
				desc = s.Description
			}
		}
		if desc != "Edited description." || parses() != 4 {
			t.Errorf("%s: after an edit: description %q, %d files parsed; want the edit and 4", preset, desc, parses())
		}
		writeFiles(t, ws, map[string]string{"team/b/SKILL.md": skillText("b")})
		// A removed skill leaves the cache with the next List.
		if err := os.Rename(filepath.Join(ws, "team", "c"), filepath.Join(ws, "gone-c")); err != nil {
			t.Fatal(err)
		}
		if _, err := c.List(ctx); err != nil {
			t.Fatal(err)
		}
		c.hostMemo.mu.Lock()
		_, kept := c.hostMemo.files[filepath.Join(ws, "team", "c", "SKILL.md")]
		n := len(c.hostMemo.files)
		c.hostMemo.mu.Unlock()
		if kept || n != 2 {
			t.Errorf("%s: after a removal the cache holds %d files (c kept: %v); want 2", preset, n, kept)
		}
		if err := os.Rename(filepath.Join(ws, "gone-c"), filepath.Join(ws, "team", "c")); err != nil {
			t.Fatal(err)
		}
	}
}
