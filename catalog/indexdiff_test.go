package catalog

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/skillet-go/skillet/internal/ignore"
	"github.com/skillet-go/skillet/skill"
)

// The differential test of the persistent index: a one-skill answer (Load
// of a name, as show gives it) from a catalog that may answer from the
// index is compared with the answer of a fresh full listing, on random
// trees, after random edits. Any layout of the index that checks less than
// every stamp (docs/performance.md#persistent-index) must pass it.

// diffNames is the pool the random trees take folder and skill names from:
// small, so that names collide across roots and inside one.
var diffNames = []string{"alpha", "beta", "gamma", "delta", "eps"}

// diffRoots are the roots, relative to the test's base folder, that random
// skills go in: three of the workspace and one of the user.
var diffRoots = []string{"ws/.agents/skills", "ws/.claude/skills", "ws/skills", "home/.agents/skills"}

// diffTree is a random tree under base and what the test knows of it.
type diffTree struct {
	t    *testing.T
	rng  *rand.Rand
	base string
	old  time.Time // the time every edited path is set back to
	// more, when set, makes edit take every kind of diffEdits in turn,
	// from the first-th on, where it takes the first five at random.
	more         bool
	first, edits int
	// configured says the last edit changed the configuration file,
	// which a catalog reads once (New).
	configured bool
	// fresh is when an edit last changed a file the index stamps after
	// the listing read it (an ignore file, the configuration), whose
	// change time must be older than indexRacyWindow for an index to be
	// written (stampedAfterUse).
	fresh time.Time
}

// skillDirs is every skill folder of the tree, sorted.
func (d *diffTree) skillDirs() []string {
	var out []string
	for _, r := range diffRoots {
		filepath.WalkDir(filepath.Join(d.base, r), func(p string, e fs.DirEntry, err error) error {
			if err == nil && e.Name() == "SKILL.md" {
				out = append(out, filepath.Dir(p))
			}
			return nil
		})
	}
	slices.Sort(out)
	return out
}

// randOf is a random element of s.
func randOf[T any](rng *rand.Rand, s []T) T { return s[rng.IntN(len(s))] }

// write puts a skill of the given name in dir, and sets the times of what
// it created or changed back to d.old (an index trusts no stamp newer than
// the walk): the file's ctime, and the folders' when they changed, still
// move, as an editor's write moves them.
func (d *diffTree) write(dir, name string) {
	d.t.Helper()
	// made is the first folder this write creates ("" when dir exists):
	// its parent's entries change.
	made := ""
	for q := dir; ; q = filepath.Dir(q) {
		if _, err := os.Stat(q); err == nil {
			break
		}
		made = q
	}
	must(d.t, os.MkdirAll(dir, 0o755))
	p := filepath.Join(dir, "SKILL.md")
	must(d.t, os.WriteFile(p, []byte(skillMD(name)), 0o644))
	d.setBack(p)
	if made == "" {
		return
	}
	for q := dir; ; q = filepath.Dir(q) {
		d.setBack(q)
		if q == filepath.Dir(made) {
			break
		}
	}
}

func (d *diffTree) setBack(p string) {
	d.t.Helper()
	must(d.t, os.Chtimes(p, d.old, d.old))
}

// grow makes a random tree of 4 to 11 skills, some in grouping folders,
// most named as their folder.
func (d *diffTree) grow() {
	for range 4 + d.rng.IntN(8) {
		d.addSkill()
	}
	if d.more && d.first%2 == 1 {
		// A configuration file to edit in place (configFile).
		d.writeKept(filepath.Join(d.base, "ws", "skillet.yaml"), "maxSkills: 50\n")
	}
}

func (d *diffTree) addSkill() string {
	dir := filepath.Join(d.base, randOf(d.rng, diffRoots))
	if d.rng.IntN(3) == 0 {
		dir = filepath.Join(dir, "group")
	}
	dir = filepath.Join(dir, randOf(d.rng, diffNames))
	name := filepath.Base(dir)
	if d.rng.IntN(4) == 0 {
		name = randOf(d.rng, diffNames)
	}
	d.write(dir, name)
	return fmt.Sprintf("add %s as %s", dir, name)
}

// edit makes one random edit and says which: one of the first five kinds
// of diffEdits at random, or, with d.more, the next kind in turn.
func (d *diffTree) edit() string {
	dirs := d.skillDirs()
	if len(dirs) == 0 {
		return d.addSkill()
	}
	dir := randOf(d.rng, dirs)
	k := (d.first + d.edits) % len(diffEdits)
	if d.more {
		d.edits++
	} else {
		k = d.rng.IntN(5)
	}
	return diffEdits[k](d, dir)
}

// diffEdits are the kinds of edit of a diffTree, each given a random skill
// folder. Those after the fifth reach what only some stamps see: a file
// rewritten with its size and times put back (its change time), links
// (a target that is missing and appears outside every folder the walk
// read, a retargeted link), a root removed then made again (the resolved
// roots), the roots' ignore files and the configuration file edited in
// place (the stamps taken after use), a folder's entries changed with its
// times put back (its change time). A kind that needs the one before it
// (a link's target made, a missing root made) follows it.
var diffEdits = []func(d *diffTree, dir string) string{
	func(d *diffTree, _ string) string { return d.addSkill() },
	func(d *diffTree, dir string) string {
		must(d.t, os.RemoveAll(dir))
		d.setBack(filepath.Dir(dir))
		return "remove " + dir
	},
	func(d *diffTree, dir string) string {
		to := filepath.Join(filepath.Dir(dir), randOf(d.rng, diffNames))
		if _, err := os.Stat(to); err == nil {
			return "rename " + dir + " onto an existing folder: skipped"
		}
		must(d.t, os.Rename(dir, to))
		d.setBack(filepath.Dir(dir))
		return "rename " + dir + " to " + to
	},
	func(d *diffTree, dir string) string {
		// The name edited in place: no folder's stamp moves.
		name := randOf(d.rng, diffNames)
		d.write(dir, name)
		return "rename in place " + dir + " to " + name
	},
	func(d *diffTree, dir string) string {
		// The same name in another root, most often the first.
		root := diffRoots[0]
		if d.rng.IntN(2) == 0 {
			root = randOf(d.rng, diffRoots)
		}
		to := filepath.Join(d.base, root, filepath.Base(dir))
		d.write(to, filepath.Base(dir))
		return "copy " + dir + " to " + to
	},
	(*diffTree).rewriteKept,
	(*diffTree).addKept,
	func(d *diffTree, _ string) string { return d.link(false) },
	func(d *diffTree, _ string) string { return d.link(true) },
	(*diffTree).makeTarget,
	(*diffTree).removeRoot,
	(*diffTree).makeRoot,
	(*diffTree).ignoreFile,
	(*diffTree).configFile,
}

// diffOut is the folder, relative to base, of the links' targets: in the
// workspace (the boundary of its roots), in no root.
const diffOut = "ws/out"

// rewriteKept rewrites dir's SKILL.md with one letter of its description
// in the other case, and its size and modification time put back (cp -p,
// unzip -o): only its change time moves.
func (d *diffTree) rewriteKept(dir string) string {
	d.t.Helper()
	p := filepath.Join(dir, "SKILL.md")
	fi, err := os.Stat(p)
	must(d.t, err)
	data, err := os.ReadFile(p)
	must(d.t, err)
	i := strings.Index(string(data), "description: ") + len("description: ")
	data[i] ^= 0x20 // "T" <-> "t"
	must(d.t, os.WriteFile(p, data, 0o644))
	must(d.t, os.Chtimes(p, fi.ModTime(), fi.ModTime()))
	return "rewrite " + p + " with its size and times kept"
}

// addKept adds a skill folder beside dir and puts the times of the
// folder that holds them back (rsync -t, unzip): only its change time
// moves.
func (d *diffTree) addKept(dir string) string {
	d.t.Helper()
	parent := filepath.Dir(dir)
	fi, err := os.Stat(parent)
	must(d.t, err)
	to := filepath.Join(parent, randOf(d.rng, diffNames))
	if _, err := os.Stat(to); err == nil {
		to = filepath.Join(parent, filepath.Base(to)+"-2")
	}
	d.write(to, filepath.Base(to))
	must(d.t, os.Chtimes(parent, fi.ModTime(), fi.ModTime()))
	return "add " + to + " with its folder's times kept"
}

// link adds a symlink to a folder of diffOut to one of the workspace's
// roots, or points one of them elsewhere (add false, when there is one).
// A new link's target is one that does not exist when there is one.
func (d *diffTree) link(add bool) string {
	d.t.Helper()
	links := d.links()
	var at string
	if add || len(links) == 0 {
		at = filepath.Join(d.base, randOf(d.rng, diffRoots[:3]), randOf(d.rng, diffNames)+"-l")
		if fi, err := os.Lstat(at); err == nil && fi.Mode()&fs.ModeSymlink == 0 {
			return "link " + at + " over a folder: skipped"
		}
	} else {
		at = randOf(d.rng, links)
	}
	to := filepath.Join(d.base, diffOut, randOf(d.rng, diffNames))
	for _, n := range diffNames {
		if _, err := os.Stat(filepath.Join(d.base, diffOut, n)); add && err != nil {
			to = filepath.Join(d.base, diffOut, n)
			break
		}
	}
	os.Remove(at)
	must(d.t, os.MkdirAll(filepath.Dir(at), 0o755))
	must(d.t, os.Symlink(to, at))
	d.setBack(filepath.Dir(at))
	return "link " + at + " to " + to
}

// links is every symlink directly in a root of the workspace.
func (d *diffTree) links() []string {
	var out []string
	for _, r := range diffRoots[:3] {
		entries, _ := os.ReadDir(filepath.Join(d.base, r))
		for _, e := range entries {
			if e.Type()&fs.ModeSymlink != 0 {
				out = append(out, filepath.Join(d.base, r, e.Name()))
			}
		}
	}
	return out
}

// makeTarget makes the missing target of a link a skill folder (outside
// every folder the walk reads), or, with no such link, a skill in
// diffOut.
func (d *diffTree) makeTarget(string) string {
	to := filepath.Join(d.base, diffOut, randOf(d.rng, diffNames))
	for _, l := range d.links() {
		if _, err := os.Stat(l); err != nil {
			to, _ = os.Readlink(l)
			break
		}
	}
	d.write(to, filepath.Base(to))
	return "make " + to
}

// removeRoot removes a root, links and all.
func (d *diffTree) removeRoot(string) string {
	root := filepath.Join(d.base, randOf(d.rng, diffRoots))
	must(d.t, os.RemoveAll(root))
	d.setBack(filepath.Dir(root))
	return "remove the root " + root
}

// makeRoot adds a skill to a root that does not exist, when there is one,
// else to any.
func (d *diffTree) makeRoot(string) string {
	for _, r := range d.rng.Perm(len(diffRoots)) {
		root := filepath.Join(d.base, diffRoots[r])
		if _, err := os.Stat(root); err != nil {
			dir := filepath.Join(root, randOf(d.rng, diffNames))
			d.write(dir, filepath.Base(dir))
			return "make the root " + root + " with " + dir
		}
	}
	return d.addSkill()
}

// ignoreFile writes a root's .skilletignore, withholding a name or a
// grouping folder, or nothing.
func (d *diffTree) ignoreFile(string) string {
	root := filepath.Join(d.base, randOf(d.rng, diffRoots))
	if _, err := os.Stat(root); err != nil {
		return "ignore file in the missing root " + root + ": skipped"
	}
	text := randOf(d.rng, []string{randOf(d.rng, diffNames) + "\n", "group/\n", "# none\n"})
	d.writeKept(filepath.Join(root, ignore.FileName), text)
	return fmt.Sprintf("ignore %q in %s", text, root)
}

// configFile writes the workspace's skillet.yaml, with an unknown key
// (a warning of the listing) or none: another text than it holds, so that
// one that exists is edited in place, the settings and so the index's
// key the same (its removal, like its making, changes the key).
func (d *diffTree) configFile(string) string {
	p := filepath.Join(d.base, "ws", "skillet.yaml")
	d.configured = true
	was, _ := os.ReadFile(p)
	texts := slices.DeleteFunc([]string{"maxSkills: 50\n", "maxSkills: 50\nbogus: 1\n", "maxSkills: 50\nother: 1\n"},
		func(s string) bool { return s == string(was) })
	text := randOf(d.rng, texts)
	d.writeKept(p, text)
	return fmt.Sprintf("configure %q", text)
}

// writeKept writes text to p, a file the index stamps after the listing
// read it, and notes when (d.fresh).
func (d *diffTree) writeKept(p, text string) {
	d.t.Helper()
	_, err := os.Stat(p)
	must(d.t, os.WriteFile(p, []byte(text), 0o644))
	d.setBack(p)
	if err != nil {
		d.setBack(filepath.Dir(p))
	}
	d.fresh = time.Now()
}

// settle waits until what the last edit wrote (d.fresh) is old enough to
// be stamped in an index.
func (d *diffTree) settle() {
	time.Sleep(time.Until(d.fresh.Add(indexRacyWindow)))
}

// answer is what a one-skill command shows of name: the skill's path,
// name, description and body, or the error; and the listing's
// diagnostics about that name (of a skill of the name, or of a folder of
// it), which show prints beside it.
type answer struct {
	Location, Name, Description, Body string
	Err                               string
	Diagnostics                       []string
}

func oneSkill(t *testing.T, c *Catalog, name string) answer {
	t.Helper()
	ctx := context.Background()
	var a answer
	if ld, err := c.Load(ctx, name); err != nil {
		if !errors.Is(err, ErrNotFound) {
			t.Fatalf("Load(%s): %v", name, err)
		}
		a.Err = err.Error()
	} else {
		a = answer{Location: ld.Skill.Location, Name: ld.Skill.Name, Description: ld.Skill.Description, Body: ld.Body}
	}
	l, err := c.List(ctx)
	must(t, err)
	for _, d := range l.Diagnostics {
		if d.Skill == name || filepath.Base(filepath.Dir(d.Path)) == name {
			a.Diagnostics = append(a.Diagnostics, d.String())
		}
	}
	return a
}

func TestIndexOneSkillDifferential(t *testing.T) {
	t.Parallel()
	// Each seed's edits take the kinds of diffEdits in turn from the
	// seed-th. -short: two of the full run's twelve seeds, by a stride of
	// seven, whose seven edits each make every kind (fourteen) once.
	seeds, stride, edits := uint64(12), uint64(1), 8
	if testing.Short() {
		stride, edits = 7, 7
	}
	for seed := uint64(0); seed < seeds; seed += stride {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			d := &diffTree{t: t, rng: rand.New(rand.NewPCG(seed, 1)), base: filepath.Dir(e.ws),
				old: time.Now().Add(-time.Hour).Truncate(time.Second), more: true, first: int(seed)}
			d.grow()
			age(t, e.ws, e.home)
			// age moves every change time, the configuration file's
			// (grow, odd seeds) included, which is stamped after use:
			// the racy window is waited from now, not from grow's write.
			d.fresh = time.Now()
			idx := filepath.Join(t.TempDir(), "idx")
			d.settle()
			indexed(t, e, idx, nil)
			// live lists again after each edit, as a long-running
			// process (the MCP server) does: from the index, then from
			// the folders it read before.
			live, err := New(context.Background(), e.opts(&Options{index: idx}))
			must(t, err)
			warmAt := func() *Catalog {
				c, err := New(context.Background(), e.opts(&Options{index: idx}))
				must(t, err)
				return c
			}
			var log []string
			for k := range edits {
				if _, _, hit := indexed(t, e, idx, nil); !hit {
					t.Fatalf("after %q: the index was not used before the next edit", log)
				}
				before := indexBytes(t, warmAt())
				log = append(log, d.edit())
				// A second's difference, so an edit is never
				// hidden by a time set back to the one before.
				d.old = d.old.Add(time.Duration(k+1) * time.Second)
				cold, coldL := e.list(t, nil)
				// A narrowed read of the index the edit made stale
				// answers as the full listing or not at all: each kind
				// of read is given that index back (staleAt).
				checkNamed(t, staleAt(t, warmAt, before), coldL, diffNames, false)
				checkSearched(t, staleAt(t, warmAt, before), coldL, namedQueries(diffNames), false)
				checkBrief(t, staleAt(t, warmAt, before), coldL, false)
				for _, name := range diffNames {
					warm, err := New(context.Background(), e.opts(&Options{index: idx}))
					must(t, err)
					want, got := oneSkill(t, cold, name), oneSkill(t, warm, name)
					if diff := cmp.Diff(want, got); diff != "" {
						t.Fatalf("after %q, %s differs from a full listing's (-full +index):\n%s", log, name, diff)
					}
				}
				d.settle()
				_, warmL, _ := indexed(t, e, idx, nil)
				if diff := diffListing(coldL, materialize(warmL)); diff != "" {
					t.Fatalf("after %q, the listing differs (-full +index):\n%s", log, diff)
				}
				if d.configured {
					// A catalog reads its configuration once: the
					// process that holds it makes another.
					live, err = New(context.Background(), e.opts(&Options{index: idx}))
					must(t, err)
					d.configured = false
				}
				liveL, err := live.List(context.Background())
				must(t, err)
				if diff := diffListing(coldL, materialize(liveL)); diff != "" {
					t.Fatalf("after %q, the listing of a catalog listing again differs (-full +again):\n%s", log, diff)
				}
				checkNamed(t, warmAt, coldL, diffNames, true)
				checkSearched(t, warmAt, coldL, namedQueries(diffNames), true)
				checkBrief(t, warmAt, coldL, true)
			}
		})
	}
}

// indexBytes is the index file of c (its path, its bytes).
func indexBytes(t *testing.T, c *Catalog) [2]string {
	t.Helper()
	file := c.indexFile()
	data, err := os.ReadFile(file)
	must(t, err)
	return [2]string{file, string(data)}
}

// staleAt puts the index file of before back (as the catalog writes it: a
// new file renamed onto it) and returns a maker of catalogs of it, warmAt's,
// that returns nil once that file was replaced: a read found the index
// stale and the walk it answered from wrote the index again, so what is
// asked after that is a read of the current index, which the test asks
// once the listing has used it. Of a read that does not find the index
// stale, every read is asked of it.
func staleAt(t *testing.T, warmAt func() *Catalog, before [2]string) func() *Catalog {
	t.Helper()
	file := before[0]
	must(t, indexCache(filepath.Dir(file)).Put(filepath.Base(file), func(f *os.File) error {
		_, err := f.WriteString(before[1])
		return err
	}))
	put, err := os.Stat(file)
	must(t, err)
	return func() *Catalog {
		if fi, err := os.Stat(file); err != nil || !os.SameFile(put, fi) {
			return nil
		}
		return warmAt()
	}
}

// checkNamed requires that a narrowed read of the index (listNamed), by a
// catalog newc makes, gives for each name and the name in other letter
// cases and with spaces what full holds of it (namedOf), keeping the
// diagnostics about the name and the errors, or does not answer when full
// holds no skill of the name; must says that the index is current, so
// that the read has to answer for a name it holds.
//
// Each name is asked of a new catalog (the whole command) in one of its
// three spellings, in turn. -short asks the other two spellings of one
// name in eight, each of a new catalog too; the full run asks them of
// every name, of one mapping of the index by one more catalog (readNamed,
// every stamp checked at each read), as checkSearched asks its other
// limits. A nil catalog from newc ends the check.
func checkNamed(t *testing.T, newc func() *Catalog, full *Listing, names []string, must bool) {
	t.Helper()
	ctx := context.Background()
	var own, mapped []string // asked of a catalog each; of one mapping
	for i, n := range names {
		sp := []string{n, strings.ToUpper(n), " " + n + " "}
		switch {
		case testing.Short() && i%8 == 0:
			own = append(own, sp...)
		case testing.Short():
			own = append(own, n)
		default:
			own = append(own, sp[i%3])
			mapped = append(mapped, slices.Delete(sp, i%3, i%3+1)...)
		}
	}
	own = append(own, "nonesuch", "")
	for _, name := range own {
		c := newc()
		if c == nil {
			return // newc's index is no longer the one to ask
		}
		keep := namedKeep(name)
		checkNamedOne(t, full, name, keep, c.listNamed(ctx, name, keep), must)
	}
	if len(mapped) == 0 {
		return
	}
	c := newc()
	if c == nil {
		return
	}
	c.readMapped(ctx, func(data []byte, seed uint32, roots []byte) {
		for _, name := range mapped {
			q := &namedQuery{raw: name, name: strings.TrimSpace(name), keep: namedKeep(name)}
			got := c.readNamed(data, seed, roots, q)
			if got == nil && !q.none && !must {
				continue // the index is stale: the command would walk
			}
			checkNamedOne(t, full, name, q.keep, got, must)
		}
	})
}

// namedKeep keeps the diagnostics about name (spaces trimmed, in any
// letter case) and the errors.
func namedKeep(name string) func(d *skill.Diagnostic) bool {
	return func(d *skill.Diagnostic) bool {
		return strings.EqualFold(d.Skill, strings.TrimSpace(name)) || d.Severity == skill.SeverityError
	}
}

// checkNamedOne requires that got, a narrowed read of name (nil: it did
// not answer), is what full holds of it (namedOf).
func checkNamedOne(t *testing.T, full *Listing, name string, keep func(*skill.Diagnostic) bool, got *Listing, must bool) {
	t.Helper()
	want := namedOf(full, name, keep)
	if len(want.Skills) == 0 {
		if got != nil {
			t.Fatalf("%q: the narrowed read answered for a name the listing does not hold", name)
		}
		return
	}
	if got == nil {
		if must {
			t.Fatalf("%q: the narrowed read of a current index did not answer", name)
		}
		return
	}
	if diff := diffListing(want, materialize(got)); diff != "" {
		t.Fatalf("%q: the narrowed read differs from the full listing's (-full +narrowed):\n%s", name, diff)
	}
}

// namedOf is what a narrowed read of l's index gives for name: l's
// workspace and roots, the skills of the name (namedQuery.wants) and the
// diagnostics keep takes.
func namedOf(l *Listing, name string, keep func(*skill.Diagnostic) bool) *Listing {
	q := namedQuery{raw: name, name: strings.TrimSpace(name)}
	out := &Listing{Workspace: l.Workspace, Roots: l.Roots}
	for _, s := range l.Skills {
		if q.wants(s.Name) {
			out.Skills = append(out.Skills, s)
		}
	}
	for i := range l.Diagnostics {
		if keep(&l.Diagnostics[i]) {
			out.Diagnostics = append(out.Diagnostics, l.Diagnostics[i])
		}
	}
	return out
}
