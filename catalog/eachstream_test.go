package catalog

import (
	"context"
	"github.com/skillet-go/skillet/internal/ignore"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// eachLog lists with Each in lockstep with the walk (eachLockstep) and
// returns what happened in order: "found REL" for each skill file the
// walk found, "hand NAME REL" for each skill handed out (REL relative to
// base), and the skills handed out.
func eachLog(t *testing.T, opts *Options, base string) []string {
	t.Helper()
	var mu sync.Mutex
	var log []string
	rel := func(p string) string {
		r, err := filepath.Rel(base, p)
		if err != nil {
			t.Fatal(err)
		}
		return filepath.ToSlash(r)
	}
	defer func(f func(string)) { eachLockstep = f }(eachLockstep)
	eachLockstep = func(path string) {
		mu.Lock()
		defer mu.Unlock()
		log = append(log, "found "+rel(path))
	}
	c, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.each(context.Background(), func(_ *Listing, s *Skill) error {
		mu.Lock()
		defer mu.Unlock()
		log = append(log, "hand "+s.Name+" "+rel(s.Location))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return log
}

// TestEachHandsOutWhenFinal: Each hands a skill out while the walk goes
// on as soon as nothing it can still find can change that skill or one
// before it, and not sooner. Each case lists in lockstep with the walk
// (each skill that a candidate lets out is handed out before the next
// candidate is found) and requires some events before others; e.list
// then requires the listing of List, as it runs and in lockstep. A skill
// handed out too early is either listed wrong or breaks an order below.
func TestEachHandsOutWhenFinal(t *testing.T) {
	type order struct{ first, then string }
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []order
	}{{
		name: "skills of a root before the next root is walked",
		files: map[string]string{
			".agents/skills/a/SKILL.md": skillMD("a"),
			".agents/skills/b/SKILL.md": skillMD("b"),
			".claude/skills/c/SKILL.md": skillMD("c"),
		},
		want: []order{
			{"hand a .agents/skills/a/SKILL.md", "found .agents/skills/b/SKILL.md"},
			{"hand b .agents/skills/b/SKILL.md", "found .claude/skills/c/SKILL.md"},
		},
	}, {
		// A skill in a folder of its name is final when found: a later
		// skill of that name, in its root or another, gives way to it.
		name: "a later duplicate name",
		files: map[string]string{
			".agents/skills/a/SKILL.md":     skillMD("a"),
			".agents/skills/z-dup/SKILL.md": skillMD("a"),
			".claude/skills/a/SKILL.md":     skillMD("a") + "\nAnother copy.\n",
			".claude/skills/b/SKILL.md":     skillMD("b"),
		},
		want: []order{
			{"hand a .agents/skills/a/SKILL.md", "found .agents/skills/z-dup/SKILL.md"},
			{"hand b .claude/skills/b/SKILL.md", ""},
		},
	}, {
		// A skill whose name is not its folder's gives way to a later
		// skill of its root in a folder of that name: it is held, and
		// the skills after it, until that skill has taken its place or
		// the walk has ended.
		name: "a name that is not its folder's",
		files: map[string]string{
			".agents/skills/a-held/SKILL.md": skillMD("zz"),
			".agents/skills/b/SKILL.md":      skillMD("b"),
			".agents/skills/c-odd/SKILL.md":  skillMD("odd"),
			".agents/skills/zz/SKILL.md":     skillMD("zz"),
			".claude/skills/d/SKILL.md":      skillMD("d"),
		},
		want: []order{
			{"found .agents/skills/zz/SKILL.md", "hand zz .agents/skills/zz/SKILL.md"},
			{"hand zz .agents/skills/zz/SKILL.md", "hand b .agents/skills/b/SKILL.md"},
			{"hand b .agents/skills/b/SKILL.md", "found .claude/skills/d/SKILL.md"},
			{"found .claude/skills/d/SKILL.md", "hand odd .agents/skills/c-odd/SKILL.md"},
		},
	}, {
		// Only a skill of its own root can take the place of a skill
		// whose name is not its folder's: once that root's walk has
		// ended, it is handed out while the walk goes on.
		name: "a name that is not its folder's, its root walked",
		files: map[string]string{
			".agents/skills/a-odd/SKILL.md": skillMD("odd"),
			".agents/skills/b/SKILL.md":     skillMD("b"),
			".claude/skills/d1/SKILL.md":    skillMD("d1"),
			".claude/skills/d2/SKILL.md":    skillMD("d2"),
			".claude/skills/odd/SKILL.md":   skillMD("odd"),
		},
		want: []order{
			{"found .agents/skills/b/SKILL.md", "hand odd .agents/skills/a-odd/SKILL.md"},
			{"hand odd .agents/skills/a-odd/SKILL.md", "found .claude/skills/d2/SKILL.md"},
			{"hand b .agents/skills/b/SKILL.md", "found .claude/skills/d2/SKILL.md"},
		},
	}, {
		// A root's .skilletignore withholds a skill folder as it is found:
		// the withheld skill is never handed out, nor waited for, and
		// the same name of a later root is listed.
		name: "a withheld folder",
		files: map[string]string{
			".agents/skills/" + ignore.FileName: "w/\n",
			".agents/skills/a/SKILL.md":         skillMD("a"),
			".agents/skills/w/SKILL.md":         skillMD("w"),
			".agents/skills/x/SKILL.md":         skillMD("x"),
			".claude/skills/w/SKILL.md":         skillMD("w"),
		},
		want: []order{
			{"hand a .agents/skills/a/SKILL.md", "found .agents/skills/w/SKILL.md"},
			{"hand x .agents/skills/x/SKILL.md", "found .claude/skills/w/SKILL.md"},
			{"hand w .claude/skills/w/SKILL.md", ""},
		},
	}, {
		// Which path of a file loads depends on the paths found after a
		// folder symlink or a SKILL.md symlink: from the first such
		// candidate on, nothing is handed out before the walk has ended.
		name: "a folder symlink",
		files: map[string]string{
			".agents/skills/a/SKILL.md": skillMD("a"),
			".agents/skills/b-link":     "-> c",
			".agents/skills/c/SKILL.md": skillMD("c"),
			".agents/skills/d/SKILL.md": skillMD("d"),
			".claude/skills/e/SKILL.md": skillMD("e"),
		},
		want: []order{
			{"hand a .agents/skills/a/SKILL.md", "found .agents/skills/b-link/SKILL.md"},
			{"found .claude/skills/e/SKILL.md", "hand c .agents/skills/c/SKILL.md"},
		},
	}, {
		name: "a SKILL.md symlink",
		files: map[string]string{
			".agents/skills/a/SKILL.md": skillMD("a"),
			".agents/skills/b/SKILL.md": "-> ../c/SKILL.md",
			".agents/skills/c/SKILL.md": skillMD("c"),
			".claude/skills/e/SKILL.md": skillMD("e"),
		},
		want: []order{
			{"hand a .agents/skills/a/SKILL.md", "found .agents/skills/b/SKILL.md"},
			{"found .claude/skills/e/SKILL.md", "hand c .agents/skills/c/SKILL.md"},
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			writeTree(t, e.ws, tc.files)
			_, l := e.list(t, &Options{NoUser: true})
			log := eachLog(t, e.opts(&Options{NoUser: true}), e.ws)
			var handed []string
			for _, ev := range log {
				if name, ok := strings.CutPrefix(ev, "hand "); ok {
					handed = append(handed, strings.Fields(name)[0])
				}
			}
			if !slices.Equal(handed, names(l)) {
				t.Fatalf("handed out %v, List lists %v", handed, names(l))
			}
			for _, o := range tc.want {
				i := slices.Index(log, o.first)
				j := slices.Index(log, o.then)
				if o.then == "" {
					j = len(log)
				}
				if i < 0 || j < 0 || i > j {
					t.Errorf("want %q before %q in\n%s", o.first, o.then, strings.Join(log, "\n"))
				}
			}
		})
	}
}
