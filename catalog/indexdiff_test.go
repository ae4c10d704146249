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

// edit makes one random edit and says which.
func (d *diffTree) edit() string {
	dirs := d.skillDirs()
	if len(dirs) == 0 {
		return d.addSkill()
	}
	dir := randOf(d.rng, dirs)
	switch d.rng.IntN(5) {
	case 0:
		return d.addSkill()
	case 1:
		must(d.t, os.RemoveAll(dir))
		d.setBack(filepath.Dir(dir))
		return "remove " + dir
	case 2:
		to := filepath.Join(filepath.Dir(dir), randOf(d.rng, diffNames))
		if _, err := os.Stat(to); err == nil {
			return "rename " + dir + " onto an existing folder: skipped"
		}
		must(d.t, os.Rename(dir, to))
		d.setBack(filepath.Dir(dir))
		return "rename " + dir + " to " + to
	case 3:
		// The name edited in place: no folder's stamp moves.
		name := randOf(d.rng, diffNames)
		d.write(dir, name)
		return "rename in place " + dir + " to " + name
	default:
		// The same name in another root, most often the first.
		root := diffRoots[0]
		if d.rng.IntN(2) == 0 {
			root = randOf(d.rng, diffRoots)
		}
		to := filepath.Join(d.base, root, filepath.Base(dir))
		d.write(to, filepath.Base(dir))
		return "copy " + dir + " to " + to
	}
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
	// -short: two of the full run's twelve seeds, by a stride of six.
	seeds, stride, edits := uint64(12), uint64(1), 8
	if testing.Short() {
		stride, edits = 6, 6
	}
	for seed := uint64(0); seed < seeds; seed += stride {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			d := &diffTree{t: t, rng: rand.New(rand.NewPCG(seed, 1)), base: filepath.Dir(e.ws),
				old: time.Now().Add(-time.Hour).Truncate(time.Second)}
			d.grow()
			age(t, e.ws, e.home)
			idx := filepath.Join(t.TempDir(), "idx")
			indexed(t, e, idx, nil)
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
				_, warmL, _ := indexed(t, e, idx, nil)
				if diff := diffListing(coldL, materialize(warmL)); diff != "" {
					t.Fatalf("after %q, the listing differs (-full +index):\n%s", log, diff)
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
