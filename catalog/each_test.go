package catalog

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/skill"
)

// TestEachStops: an error from fn ends Each with that error after the
// skills handed out so far, a cancelled context ends it with ctx's error,
// and the catalog lists normally afterwards.
func TestEachStops(t *testing.T) {
	t.Parallel()
	ws := benchTree(t, 300)
	opts := &Options{Workspace: ws, NoUser: true, NoConfigFile: true}
	c, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	stop := errors.New("stop")
	n := 0
	_, err = c.each(context.Background(), func(*Listing, *Skill) error {
		n++
		if n == 5 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 5 {
		t.Fatalf("Each = %v after %d skills, want %v after 5", err, n, stop)
	}
	ctx, cancel := context.WithCancel(context.Background())
	n = 0
	_, err = c.each(ctx, func(*Listing, *Skill) error {
		n++
		cancel()
		return nil
	})
	if !errors.Is(err, context.Canceled) || n != 1 {
		t.Fatalf("Each = %v after %d skills, want %v after 1", err, n, context.Canceled)
	}
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Skills) < 250 {
		t.Fatalf("List after Each: %d skills, want the tree's", len(l.Skills))
	}
	checkEach(t, opts, l)
}

// TestEachAfterLettingGo: Each lets go of the candidates of the skills it
// has handed out, a chunk of candChunk at a time, and keeps a record of
// its own for precedence. The skills here that clash with, wait for or
// repeat a file of a skill handed out hundreds of candidates earlier must
// give what List gives: a duplicate name in the same root, a shadowed
// skill in the user root, a skill whose folder is not its name waiting
// for the folder of its name, a lost skill with a skill nested inside,
// and an ignored hard link to an early skill's file.
func TestEachAfterLettingGo(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	files := map[string]string{}
	const n = 3 * candChunk
	for i := range n {
		name := fmt.Sprintf("s-%04d", i)
		files[".agents/skills/"+name+"/SKILL.md"] = skillMD(name)
	}
	// Late in the walk: a second s-0001 (duplicate-name), a folder whose
	// own name is taken by an earlier skill that is not its folder's
	// (a-held holds zz-own until zz-own is past), a lost skill with one
	// nested inside it, and the user root's s-0002 (shadowed).
	files[".agents/skills/zz-dup/SKILL.md"] = skillMD("s-0001")
	files[".agents/skills/a-held/SKILL.md"] = skillMD("zz-own")
	files[".agents/skills/zz-own/SKILL.md"] = skillMD("zz-own")
	files[".agents/skills/zz-lost/SKILL.md"] = "---\nname: zz-lost\n---\n"
	files[".agents/skills/zz-lost/inner/SKILL.md"] = skillMD("inner")
	files[".agents/skills/_ignored/s-0003/SKILL.md"] = skillMD("s-0003")
	writeTree(t, e.ws, files)
	home := filepath.Join(e.home, ".agents", "skills", "s-0002")
	must(t, os.MkdirAll(home, 0o755))
	must(t, os.WriteFile(filepath.Join(home, SkillFile), []byte(skillMD("s-0002")), 0o644))
	// The ignored copy is the same file as s-0003's, by a hard link.
	ign := filepath.Join(e.ws, ".agents/skills/_ignored/s-0003/SKILL.md")
	must(t, os.Remove(ign))
	must(t, os.Link(filepath.Join(e.ws, ".agents/skills/s-0003/SKILL.md"), ign))

	for _, ignored := range []bool{false, true} {
		opts := e.opts(nil)
		c, err := New(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		c.ignored = ignored
		l, err := c.List(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, code := range []skill.Code{diagcode.DuplicateName, diagcode.Shadowed, diagcode.NestedSkill} {
			if findDiag(l, code) == nil {
				t.Errorf("ignored=%v: no %s in %v", ignored, code, codes(l, e.ws))
			}
		}
		if ignored {
			checkEachIgnored(t, opts, l)
		} else {
			checkEach(t, opts, l)
		}
	}
}

// TestOwnRank: ownRank orders two paths to one file as ownPath does.
func TestOwnRank(t *testing.T) {
	t.Parallel()
	var cands []candidate
	for k := range 8 {
		c := candidate{ignored: k&1 != 0, flat: k&2 != 0}
		if k&4 != 0 {
			c.stamp = stamp{ino: 1}
		}
		cands = append(cands, c)
	}
	for i := range cands {
		a := &cands[i]
		if ownRank(a) == 0 {
			t.Errorf("ownRank(%+v) = 0", *a)
		}
		for j := range cands {
			b := &cands[j]
			if got, want := ownRank(a) > ownRank(b), ownPath(a, b); got != want {
				t.Errorf("ownRank says %v for %+v over %+v, ownPath %v", got, *a, *b, want)
			}
		}
	}
}

// TestSymlinkedSkillFileGivesWay: a SKILL.md that is a symlink to another
// skill's SKILL.md gives way to that file's own path, found after it, in
// Each as in List.
func TestSymlinkedSkillFileGivesWay(t *testing.T) {
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		"skills/a/SKILL.md": "-> ../b/SKILL.md",
		"skills/b/SKILL.md": skillMD("b"),
	})
	_, l := e.list(t, &Options{NoUser: true}) // and Each, against List
	if len(l.Skills) != 1 || l.Skills[0].Location != filepath.Join(e.ws, "skills", "b", SkillFile) {
		t.Errorf("skills %v, want b's own SKILL.md", l.Skills)
	}
}

// TestSymlinkedFolderGivesWay: a skill folder reached through a folder
// symlink (alias -> real), or below a grouping folder that is one, gives
// way to the file's path through folders only, found after it, in Each as
// in List: the skill is not loaded under the link's folder name (which
// made its name a name-mismatch that --fix=name "mended" in the real file).
func TestSymlinkedFolderGivesWay(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		"skills/alias":             "-> real",
		"skills/real/SKILL.md":     skillMD("real"),
		"skills/agroup":            "-> zgroup",
		"skills/zgroup/g/SKILL.md": skillMD("g"),
	})
	_, l := e.list(t, &Options{NoUser: true}) // and Each, against List
	var got []string
	for _, s := range l.Skills {
		got = append(got, s.Location)
	}
	want := []string{filepath.Join(e.ws, "skills", "real", SkillFile), filepath.Join(e.ws, "skills", "zgroup", "g", SkillFile)}
	if !slices.Equal(got, want) {
		t.Errorf("skills at %q, want %q", got, want)
	}
	for _, d := range l.Diagnostics {
		if d.Code == diagcode.NameMismatch {
			t.Errorf("finding %v", d)
		}
	}
}

// TestEachKeepsLittle: the live heap while Each hands out the skills of a
// generated tree, and after it returns, is a small part of what List's
// listing holds; it grows by what precedence keeps per skill handed out
// (name, location, root), not by the skills. Measured with
// runtime.ReadMemStats after a collection, as ratios.
func TestEachKeepsLittle(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes what the heap holds")
	}
	if testing.Short() {
		t.Skip("measures the heap over four listings of 2,000 skills: skipped with -short")
	}
	const n = 2000
	// A tree without broken skills: a skill whose name is not its
	// folder's is held, with every skill after it, until the walk of its
	// root has ended (Each), which for this tree's one root in lockstep is
	// the end of the listing. The tree is TestWarmListDoesNotAllocatePerSkill's.
	ws := cleanTree(t, n)
	opts := &Options{Workspace: ws, NoUser: true, NoConfigFile: true}
	// Each runs in lockstep with its walk (eachLockstep), and the
	// smallest of a few readings is taken: otherwise the walk and the
	// readers go on while fn measures, how far they have got (and so how
	// many skills are held behind a broken one) depends on the scheduler,
	// and what they allocate between a collection and ReadMemStats counts
	// in HeapAlloc as if it were live (0.36 to 0.47 of List's listing on
	// the benchmark tree when two runs of this test share the processors).
	live := func() int64 {
		least := int64(math.MaxInt64)
		for range 4 {
			runtime.GC()
			runtime.GC() // and what sync.Pool kept for one collection

			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			least = min(least, int64(m.HeapAlloc))
		}
		return least
	}
	base := live()
	c, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	listed := live() - base
	runtime.KeepAlive(l)
	runtime.KeepAlive(c)
	l, c = nil, nil

	defer func(f func(string)) { eachLockstep = f }(eachLockstep)
	eachLockstep = func(string) {}
	base = live()
	c, err = New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	var during int64
	k := 0
	_, err = c.each(context.Background(), func(*Listing, *Skill) error {
		if k++; k%500 == 0 {
			during = max(during, live()-base)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	after := live() - base
	runtime.KeepAlive(c)
	t.Logf("live heap: List's listing %d KB, during Each at most %d KB, a catalog after Each %d KB (%d skills)", listed>>10, during>>10, after>>10, k)
	if k < n*9/10 {
		t.Fatalf("Each handed out %d skills", k)
	}
	if r := float64(during) / float64(listed); r > 0.35 {
		t.Errorf("while Each runs the live heap is %.2f of List's listing (%d of %d KB), over 0.35", r, during>>10, listed>>10)
	}
	if r := float64(after) / float64(listed); r > 0.01 {
		t.Errorf("after Each the catalog holds %.3f of List's listing (%d of %d KB), over 0.01", r, after>>10, listed>>10)
	}
}

// TestGoneSet: the table of skills handed out finds every name put, and
// only those, however they collide and whether it was sized for them or
// grew (Each sizes it for eachWindow), with each record's location, base
// folder, root and flat flag as put; putting a name again replaces its
// record. It runs with records in the blocks, with a record too large for
// a shared block, and with the blocks' positions used up (goneMaxBlocks),
// where records go to the map beside them.
func TestGoneSet(t *testing.T) {
	defer func(m int) { goneMaxBlocks = m }(goneMaxBlocks)
	for _, maxBlocks := range []int{goneMaxBlocks, 2} {
		goneMaxBlocks = maxBlocks
		for _, n := range []int{0, 1, 7, 8, 300, 1000, -9, -300, -1000} {
			size := n
			if n < 0 { // sized for none: the table grows
				n, size = -n, 0
			}
			g := newGoneSet(size)
			roots := []*Root{{Path: "/r"}, {Path: "/s"}, {Path: "/loose.md", File: true}}
			type want struct {
				loc, dir string
				root     *Root
				flat     bool
			}
			wants := map[string]want{}
			for i := range n {
				name := fmt.Sprintf("skill-%d", i)
				r := roots[i%len(roots)]
				w := want{loc: r.Path + "/" + name + "/SKILL.md", dir: r.Path + "/" + name, root: r, flat: i%5 == 0}
				if r.File {
					w.loc, w.dir = r.Path, "/"
				}
				g.put(name, &Skill{Location: w.loc, BaseDir: w.dir, Flat: w.flat}, r)
				wants[name] = w
			}
			if n > 0 {
				// Outside the root, and a base folder that does not start
				// the location; then a record larger than a block's eighth.
				g.put("skill-0", &Skill{Location: "/other/SKILL.md", BaseDir: "/base"}, roots[0])
				wants["skill-0"] = want{loc: "/other/SKILL.md", dir: "/base", root: roots[0]}
				long := "/r/" + strings.Repeat("d", goneBlock/4) + "/SKILL.md"
				g.put("long", &Skill{Location: long, BaseDir: filepath.Dir(long)}, roots[0])
				wants["long"] = want{loc: long, dir: filepath.Dir(long), root: roots[0]}
			}
			if got := g.n + len(g.over); got != len(wants) {
				t.Errorf("blocks %d, n=%d: %d records", maxBlocks, n, got)
			}
			for name, w := range wants {
				rec, _, ok := g.find(name)
				if !ok || rec.name() != name || rec.loc() != w.loc || rec.dir(rec.loc()) != w.dir || rec.root != w.root || rec.flat != w.flat {
					t.Errorf("blocks %d, n=%d: find(%q) = %v %q %q %v, want %q %q %v", maxBlocks, n, name, ok, rec.name(), rec.loc(), rec.flat, name, w.loc, w.flat)
				}
			}
			for _, name := range []string{"", "skill-", fmt.Sprintf("skill-%d", n), "x"} {
				if rec, _, ok := g.find(name); ok {
					t.Errorf("blocks %d, n=%d: find(%q) = %q, want none", maxBlocks, n, name, rec.name())
				}
			}
		}
	}
}

// TestGoneSetBytes holds a record of a skill handed out to its header and
// text: at most 8 bytes beside the name and the location less the root.
func TestGoneSetBytes(t *testing.T) {
	t.Parallel()
	g := newGoneSet(0)
	root := &Root{Path: "/tmp/tree/skills"}
	text := 0
	for i := range 1000 {
		name := fmt.Sprintf("alert-alert-%05d", i)
		g.put(name, &Skill{Location: root.Path + "/" + name + "/SKILL.md", BaseDir: root.Path + "/" + name}, root)
		text += len(name) + len(name+"/SKILL.md")
	}
	used := 0
	for _, b := range g.blocks {
		used += len(b)
	}
	if per := float64(used-text) / 1000; per > 8 {
		t.Errorf("%.1f bytes a record beside its text, want at most 8", per)
	}
}
