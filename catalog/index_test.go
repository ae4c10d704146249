package catalog

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/skillet-go/skillet/internal/benchtree/tree"
	"github.com/skillet-go/skillet/internal/testcorpus"
	"github.com/skillet-go/skillet/skill"
)

// listingOpts compares listings field by field, the catalog pointer aside.
var listingOpts = cmp.Options{
	cmp.AllowUnexported(Skill{}, Listing{}, Root{}),
	cmpopts.IgnoreFields(Skill{}, "c"),
	cmpopts.IgnoreFields(Listing{}, "search"), // TestSearchFromIndex checks it
	cmpopts.EquateEmpty(),
}

// materialize decodes the frontmatter of every skill a listing read from
// the index holds lazily, so that cmp compares it as a walk's listing.
func materialize(l *Listing) *Listing {
	if l == nil {
		return nil
	}
	do := func(s *Skill) {
		if s != nil && s.lazy != nil {
			s.parsed = s.lazy.get()
			s.lazy = nil
		}
	}
	for _, s := range l.Skills {
		do(s)
	}
	for _, cd := range l.candidates {
		do(cd.Skill)
	}
	return l
}

// age sets the modification time of everything under dir an hour back, so
// an index written now trusts the stamps (files written by a test a moment
// ago are too fresh for it).
func age(t testing.TB, dirs ...string) {
	t.Helper()
	if err := ageTrees(time.Now().Add(-time.Hour), dirs...); err != nil {
		t.Fatal(err)
	}
}

// ageTrees sets the modification time of everything under dirs (symlinks
// aside) to old.
func ageTrees(old time.Time, dirs ...string) error {
	for _, dir := range dirs {
		var paths []string
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type()&fs.ModeSymlink == 0 {
				paths = append(paths, p)
			}
			return nil
		})
		if err != nil {
			return err
		}
		// Children first: a folder's time is set after its entries'.
		for i := len(paths) - 1; i >= 0; i-- {
			if err := os.Chtimes(paths[i], old, old); err != nil {
				return err
			}
		}
	}
	return nil
}

// indexed lists a new catalog with an index in idx, and reports whether
// the listing came from the index.
func indexed(t testing.TB, e testEnv, idx string, o *Options) (*Catalog, *Listing, bool) {
	t.Helper()
	if o == nil {
		o = &Options{}
	}
	cp := *o
	cp.index = idx
	c, l := e.list(t, &cp)
	return c, l, c.idx != nil && c.idx.listing == l
}

// indexFixture is the workspace of TestIndexSameListing and
// TestIndexStreamSameListing, made once per test binary run and only read
// by them: generated skills (60 with -short, 120 in the full run: either is
// more than the MaxSkills 50 they list with, beside the hand-written ones,
// so the cap applies), a flat one, a repaired one, a duplicate name in the
// same root (dup), a name whose folder sorts before its own (a-first holds
// zeta), an ignored folder, a hidden one, a symlinked one, a broken one,
// one without frontmatter, a nested one, and one the workspace shadows in
// the home folder, every file aged an hour so an index trusts its stamps.
func indexFixture(t *testing.T) testEnv {
	t.Helper()
	indexFix.once.Do(func() { indexFix.e, indexFix.err = makeIndexFixture() })
	if indexFix.err != nil {
		t.Fatal(indexFix.err)
	}
	return indexFix.e
}

var indexFix struct {
	once sync.Once
	e    testEnv
	err  error
}

func makeIndexFixture() (testEnv, error) {
	base, err := os.MkdirTemp("", "skillet-index-fixture-")
	if err != nil {
		return testEnv{}, err
	}
	removeAtExit(base)
	if r, err := filepath.EvalSymlinks(base); err == nil {
		base = r
	}
	e := testEnv{ws: filepath.Join(base, "ws"), home: filepath.Join(base, "home")}
	n := 120
	if testing.Short() {
		n = 60
	}
	if _, err := tree.Generate(filepath.Join(e.ws, ".agents", "skills"), &tree.Options{N: n}); err != nil {
		return testEnv{}, err
	}
	files := map[string]map[string]string{e.ws: {
		"skills/flat-one.md":           "---\nname: flat-one\ndescription: Flat.\n---\nBody.\n",
		"skills/colon/SKILL.md":        "---\nname: colon\ndescription: Use when: repaired\nmetadata:\n  version: 1.10\n  n: 3\n  deep: {a: [1, 2.5, true, null, x]}\n---\nB\n",
		"skills/dup/SKILL.md":          skillMD("colon"),
		"skills/a-first/SKILL.md":      skillMD("zeta"),
		"skills/zeta/SKILL.md":         skillMD("zeta"),
		"skills/_draft/SKILL.md":       skillMD("draft"),
		"skills/hidden/SKILL.md":       "---\nname: hidden\ndescription: Hidden.\ndisable-model-invocation: true\nallowed-tools: [Read, Grep]\n---\nB\n",
		"skills/link":                  "-> ../outside/linked",
		"outside/linked/SKILL.md":      skillMD("linked"),
		"skills/broken/SKILL.md":       "---\nname: [unclosed\n---\n",
		"skills/nofm/SKILL.md":         "# Title\n\nA prose line describes it.\n",
		"skills/group/deep/x/SKILL.md": skillMD("x"),
	}, e.home: {".agents/skills/colon/SKILL.md": skillMD("colon")}}
	for dir, m := range files {
		if err := makeTree(dir, m); err != nil {
			return testEnv{}, err
		}
	}
	return e, ageTrees(time.Now().Add(-time.Hour), e.ws, e.home)
}

func TestIndexSameListing(t *testing.T) {
	t.Parallel()
	e := indexFixture(t)
	// Each name is read narrowed and searched (checkNamed, checkSearched).
	idx := t.TempDir()
	for _, ignored := range []bool{false, true} {
		list := func(index string) (*Catalog, *Listing, bool) {
			c, err := New(context.Background(), e.opts(&Options{MaxSkills: 50, index: index}))
			if err != nil {
				t.Fatal(err)
			}
			c.ignored = ignored
			l, err := c.List(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			return c, l, c.idx != nil && c.idx.listing == l
		}
		_, cold, _ := list("")
		_, first, hit := list(idx)
		if hit {
			t.Fatal("the first catalog answered from an index that did not exist")
		}
		c, second, hit := list(idx)
		if !hit {
			t.Fatalf("ignored=%v: the second catalog walked instead of using the index", ignored)
		}
		for _, l := range []*Listing{first, second} {
			if diff := diffListing(cold, materialize(l)); diff != "" {
				t.Fatalf("ignored=%v: listing differs from a cold List (-cold +got):\n%s", ignored, diff)
			}
		}
		// Skills from the index load and read their files.
		for _, s := range second.Skills[:5] {
			if _, err := s.Load(); err != nil {
				t.Errorf("%s: Load after an index hit: %v", s.Name, err)
			}
		}
		if _, err := c.Load(context.Background(), "linked"); err != nil {
			t.Errorf("Load(linked) after an index hit: %v", err)
		}
		// A narrowed read (show NAME) gives what the listing holds of
		// each name: the hidden, flat, repaired and shadowed ones.
		names := fixtureNames(cold)
		newc := func() *Catalog {
			c, err := New(context.Background(), e.opts(&Options{MaxSkills: 50, index: idx}))
			must(t, err)
			c.ignored = ignored
			return c
		}
		checkNamed(t, newc, cold, append(names, "draft", "broken"), true)
		checkSearched(t, newc, cold, namedQueries(append(names, "draft", "broken")), true)
		checkBrief(t, newc, cold, true)
		if !ignored { // TestIndexStreamSameListing's reads at maxSkills 50
			checkNameList(t, newc, cold)
			checkPrefixed(t, newc, cold, "co")
		}
	}
}

// fixtureNames is the names of l's skills (indexFixture's listing): every
// one, or under -short the fixture's own (the hidden, flat, repaired,
// shadowed and linked ones) and one generated name in four, taken by a
// fixed stride from the whole listing (tree.Generate's names end in five
// digits).
func fixtureNames(l *Listing) []string {
	var names []string
	for i, s := range l.Skills {
		n := s.Name
		generated := len(n) > 6 && n[len(n)-6] == '-' && strings.Trim(n[len(n)-5:], "0123456789") == ""
		if !testing.Short() || !generated || i%4 == 0 {
			names = append(names, n)
		}
	}
	return names
}

func TestIndexCorpus(t *testing.T) {
	t.Parallel()
	dir := testcorpus.Dir(t)
	e := newEnv(t)
	var roots []string
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range entries {
		if d.IsDir() {
			roots = append(roots, filepath.Join(dir, d.Name()))
		}
	}
	idx := t.TempDir()
	o := &Options{ExtraPaths: roots, NoUser: true, MaxSkills: 1000}
	_, cold := e.list(t, &Options{ExtraPaths: roots, NoUser: true, MaxSkills: 1000})
	indexed(t, e, idx, o)
	_, l, hit := indexed(t, e, idx, o)
	if !hit {
		t.Fatal("the corpus listing was not answered from the index (are its files' times in the future?)")
	}
	if len(l.Skills) < 400 {
		t.Fatalf("%d skills from the index, want the corpus's 440 or so", len(l.Skills))
	}
	if diff := diffListing(cold, materialize(l)); diff != "" {
		t.Fatalf("corpus listing from the index differs (-cold +index):\n%s", diff)
	}
}

func TestIndexStale(t *testing.T) {
	t.Parallel()
	base := map[string]string{
		"skills/a/SKILL.md":          skillMD("a"),
		"skills/group/b/SKILL.md":    skillMD("b"),
		"skills/link":                "-> ../other/c",
		"other/c/SKILL.md":           skillMD("c"),
		"other/d/SKILL.md":           skillMD("d"),
		"skills/group/notyet/x.txt":  "a grouping folder",
		"skills/a/references/doc.md": "bundled",
		"skills/.skilletignore":      "# nothing withheld yet\n",
	}
	for _, tt := range []struct {
		name   string
		change func(t *testing.T, e testEnv)
		want   []string
	}{
		{"skill edited", func(t *testing.T, e testEnv) {
			writeTree(t, e.ws, map[string]string{"skills/a/SKILL.md": "---\nname: a\ndescription: Changed, and longer than before.\n---\nB\n"})
		}, []string{"a", "b", "c"}},
		{"skill added to a grouping folder", func(t *testing.T, e testEnv) {
			writeTree(t, e.ws, map[string]string{"skills/group/notyet/SKILL.md": skillMD("notyet")})
		}, []string{"a", "b", "notyet", "c"}},
		{"skill removed", func(t *testing.T, e testEnv) {
			must(t, os.RemoveAll(filepath.Join(e.ws, "skills", "group", "b")))
		}, []string{"a", "c"}},
		{"folder renamed", func(t *testing.T, e testEnv) {
			must(t, os.Rename(filepath.Join(e.ws, "skills", "a"), filepath.Join(e.ws, "skills", "e")))
		}, []string{"a", "b", "c"}},
		{"symlink retargeted", func(t *testing.T, e testEnv) {
			must(t, os.Remove(filepath.Join(e.ws, "skills", "link")))
			must(t, os.Symlink("../other/d", filepath.Join(e.ws, "skills", "link")))
		}, []string{"a", "b", "d"}},
		{"configuration file added", func(t *testing.T, e testEnv) {
			writeTree(t, e.ws, map[string]string{"skillet.yaml": "maxSkills: 1\n"})
		}, []string{"a", "b", "c"}},
		{"missing root created", func(t *testing.T, e testEnv) {
			writeTree(t, e.ws, map[string]string{".agents/skills/z/SKILL.md": skillMD("z")})
		}, []string{"z", "a", "b", "c"}},
		{"root's ignore file edited", func(t *testing.T, e testEnv) {
			writeTree(t, e.ws, map[string]string{"skills/.skilletignore": "group/\n"})
		}, []string{"a", "c"}},
		{"skill rewritten with its size and time put back", func(t *testing.T, e testEnv) {
			p := filepath.Join(e.ws, "skills", "a", "SKILL.md")
			fi, err := os.Stat(p)
			must(t, err)
			data, err := os.ReadFile(p)
			must(t, err)
			must(t, os.WriteFile(p, []byte(strings.Replace(string(data), "The a skill.", "The A skill.", 1)), 0o644))
			must(t, os.Chtimes(p, fi.ModTime(), fi.ModTime()))
		}, []string{"a", "b", "c"}},
		{"index byte flipped", func(t *testing.T, e testEnv) {
			files, _ := filepath.Glob(filepath.Join(e.home, "idx", "*.idx"))
			if len(files) != 1 {
				t.Fatalf("%d index files, want 1", len(files))
			}
			data, err := os.ReadFile(files[0])
			must(t, err)
			data[len(data)/2] ^= 0x20
			must(t, os.WriteFile(files[0], data, 0o600))
		}, []string{"a", "b", "c"}},
		{"a FIFO in the index's place", func(t *testing.T, e testEnv) {
			files, _ := filepath.Glob(filepath.Join(e.home, "idx", "*.idx"))
			if len(files) != 1 {
				t.Fatalf("%d index files, want 1", len(files))
			}
			must(t, os.Remove(files[0]))
			if err := mkfifo(files[0], 0o600); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
		}, []string{"a", "b", "c"}},
		{"index file corrupt", func(t *testing.T, e testEnv) {
			files, _ := filepath.Glob(filepath.Join(e.home, "idx", "*.idx"))
			if len(files) != 1 {
				t.Fatalf("%d index files, want 1", len(files))
			}
			data, err := os.ReadFile(files[0])
			must(t, err)
			must(t, os.WriteFile(files[0], data[:len(data)/2], 0o600))
		}, []string{"a", "b", "c"}},
		// A file of the right length but torn, or with only its
		// checksum wrong: the checksum refuses it.
		{"index file zero-filled at the end", func(t *testing.T, e testEnv) {
			damageIndex(t, e, func(data []byte) { clear(data[len(data)*3/4:]) })
		}, []string{"a", "b", "c"}},
		{"index file with its checksum changed", func(t *testing.T, e testEnv) {
			damageIndex(t, e, func(data []byte) { data[len(data)-1]++ })
		}, []string{"a", "b", "c"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// Each case has its own workspace and index and waits out
			// the racy window: they wait together.
			t.Parallel()
			e := newEnv(t)
			writeTree(t, e.ws, base)
			age(t, e.ws)
			// The ignore file's change time, which age moves, is older
			// than the racy window once it has passed: it is stamped
			// after the listing read it (stampedAfterUse).
			time.Sleep(indexRacyWindow)
			idx := filepath.Join(e.home, "idx")
			o := &Options{NoUser: true}
			indexed(t, e, idx, o)
			if _, _, hit := indexed(t, e, idx, o); !hit {
				t.Fatal("unchanged workspace: the index was not used")
			}
			tt.change(t, e)
			_, cold := e.list(t, &Options{NoUser: true})
			_, l, hit := indexed(t, e, idx, o)
			if hit {
				t.Fatal("the index answered after the change")
			}
			if diff := cmp.Diff(tt.want, names(l)); diff != "" {
				t.Errorf("skills after the change (-want +got):\n%s", diff)
			}
			if diff := diffListing(cold, materialize(l)); diff != "" {
				t.Errorf("listing differs from a cold List (-cold +got):\n%s", diff)
			}
		})
	}
}

// damageIndex rewrites the one index file of e with damage applied to its
// bytes, keeping its length.
func damageIndex(t *testing.T, e testEnv, damage func([]byte)) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(e.home, "idx", "*.idx"))
	if len(files) != 1 {
		t.Fatalf("%d index files, want 1", len(files))
	}
	data, err := os.ReadFile(files[0])
	must(t, err)
	damage(data)
	must(t, os.WriteFile(files[0], data, 0o600))
}

// TestIndexHitThenChange: a catalog that answered from the index still
// sees a later change on its next List.
func TestIndexHitThenChange(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{"skills/a/SKILL.md": skillMD("a")})
	age(t, e.ws)
	idx := t.TempDir()
	indexed(t, e, idx, &Options{NoUser: true})
	c, l, hit := indexed(t, e, idx, &Options{NoUser: true})
	if !hit {
		t.Fatal("not answered from the index")
	}
	again, err := c.List(context.Background())
	must(t, err)
	if again != l {
		t.Error("a second List with nothing changed did not reuse the index's listing")
	}
	writeTree(t, e.ws, map[string]string{"skills/b/SKILL.md": skillMD("b")})
	after, err := c.List(context.Background())
	must(t, err)
	if diff := cmp.Diff([]string{"a", "b"}, names(after)); diff != "" {
		t.Errorf("after adding b (-want +got):\n%s", diff)
	}
}

// TestIndexKey: a catalog with other settings or another home does not
// take another catalog's index.
func TestIndexKey(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{"skills/a/SKILL.md": skillMD("a"), "skills/b/SKILL.md": skillMD("b")})
	age(t, e.ws)
	idx := t.TempDir()
	indexed(t, e, idx, &Options{NoUser: true})
	if _, _, hit := indexed(t, e, idx, &Options{NoUser: true, MaxSkills: 1}); hit {
		t.Error("other settings answered from the index")
	}
	if _, _, hit := indexed(t, e, idx, &Options{NoUser: true, Strict: true}); hit {
		t.Error("strict mode answered from the lenient index")
	}
	if _, _, hit := indexed(t, e, idx, &Options{NoUser: true}); !hit {
		t.Error("the same settings again did not use the index")
	}
}

// TestIndexKeyResolved: one tree is one index, whatever form its paths
// were typed in. The workspace and an extra path given relative to the
// current folder and given absolute answer from the same index file, and
// the same relative extra path from another folder names another tree and
// does not.
func TestIndexKeyResolved(t *testing.T) {
	e := newEnv(t)
	base := filepath.Dir(e.ws)
	writeTree(t, base, map[string]string{
		"ws/skills/a/SKILL.md": skillMD("a"),
		"more/b/SKILL.md":      skillMD("b"),
		"ws/more/c/SKILL.md":   skillMD("c"),
	})
	age(t, base)
	idx := t.TempDir()
	t.Chdir(base)
	indexed(t, e, idx, &Options{NoUser: true, Workspace: "ws", ExtraPaths: []string{"more"}})
	_, l, hit := indexed(t, e, idx, &Options{NoUser: true, Workspace: e.ws, ExtraPaths: []string{filepath.Join(base, "more")}})
	if !hit {
		t.Error("the workspace and extra path typed absolute did not use the index written for them typed relative")
	}
	if got := names(l); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("listing from the index: %v, want [a b]", got)
	}
	if n := len(globIdx(t, idx)); n != 1 {
		t.Errorf("%d index files for one tree, want 1", n)
	}
	t.Chdir(e.ws)
	_, l, hit = indexed(t, e, idx, &Options{NoUser: true, Workspace: ".", ExtraPaths: []string{"more"}})
	if hit {
		t.Error("the extra path \"more\" from another folder (another tree) answered from the index")
	}
	if got := names(l); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("listing with ./more from the workspace: %v, want [a c]", got)
	}
}

func globIdx(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "*.idx"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestIndexForeignFile: the index file of other settings copied over this
// catalog's (the roots and every stamp the same) is not taken for its
// index: the listing is the one of a walk with these settings.
func TestIndexForeignFile(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		"skills/Bad_Name/SKILL.md": "---\nname: Bad_Name\ndescription: Loads leniently only.\n---\nbody\n",
		"skills/b/SKILL.md":        skillMD("b"),
	})
	age(t, e.ws)
	lenient, strict := t.TempDir(), t.TempDir()
	indexed(t, e, lenient, &Options{NoUser: true})
	_, want, _ := indexed(t, e, strict, &Options{NoUser: true, Strict: true})
	from, _ := filepath.Glob(filepath.Join(lenient, "*.idx"))
	to, _ := filepath.Glob(filepath.Join(strict, "*.idx"))
	if len(from) != 1 || len(to) != 1 {
		t.Fatalf("index files: %v %v, want one each", from, to)
	}
	data, err := os.ReadFile(from[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to[0], data, 0o600); err != nil {
		t.Fatal(err)
	}
	_, got, hit := indexed(t, e, strict, &Options{NoUser: true, Strict: true})
	if hit {
		t.Error("the lenient index file answered for strict settings")
	}
	if d := diffListing(materialize(want), materialize(got)); d != "" {
		t.Errorf("listing with a foreign index file (-walk +got):\n%s", d)
	}
}

// TestIndexFreshStampsNotWritten: files modified just now are not trusted
// to an index (their stamp could survive one more change within the
// clock's granularity). The skill file's mtime is set a minute ahead, so
// that it is still within indexRacyWindow of the walk however long the
// test waits for a core (it failed at load 17 when the walk began more
// than 100 ms after the write).
func TestIndexFreshStampsNotWritten(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{"skills/a/SKILL.md": skillMD("a")})
	ahead := time.Now().Add(time.Minute)
	must(t, os.Chtimes(filepath.Join(e.ws, "skills", "a", "SKILL.md"), ahead, ahead))
	idx := t.TempDir()
	indexed(t, e, idx, &Options{NoUser: true})
	if files, _ := filepath.Glob(filepath.Join(idx, "*.idx")); len(files) != 0 {
		t.Errorf("an index was written over files modified a moment ago: %v", files)
	}
}

// fill sets every exported field reachable from v to a non-zero value, so
// that a field the index codec does not write shows up as a difference.
func fill(v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.Pointer:
		if depth > 4 {
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), depth+1)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth+1)
			}
		}
	case reflect.String:
		v.SetString("s-" + v.Type().Name())
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(int64(7 + depth))
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		for i := range 2 {
			fill(s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, depth+1)
		fill(e, depth+1)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Interface:
		v.Set(reflect.ValueOf(any(skill.Map{
			{Key: "s", Value: "x"}, {Key: "i", Value: int64(-3)}, {Key: "f", Value: 1.1}, {Key: "t", Value: true},
			{Key: "n", Value: nil}, {Key: "l", Value: []any{"a", int64(1), []any{}, skill.Map{{Key: "k", Value: false}}}},
		})))
	}
}

// TestIndexCodecCoversEveryField round-trips a listing in which every
// exported field of every type it holds is set (and the unexported ones of
// Root and Skill that the codec writes). A field added to Listing,
// Root, Skill, a candidate file, skill.Skill, skill.Diagnostic or the types
// below them fails here until indexcodec.go writes it.
func TestIndexCodecCoversEveryField(t *testing.T) {
	t.Parallel()
	var l Listing
	fill(reflect.ValueOf(&l).Elem(), 0)
	fill(reflect.ValueOf(&l.candidates).Elem(), 1) // unexported: lint reads it through catalogx
	// The parsed frontmatter is unexported; fill it as fill would (so the
	// names it copies into Name, Description and WhenToUse agree).
	parsed := func() *skill.Skill {
		var p skill.Skill
		fill(reflect.ValueOf(&p).Elem(), 2)
		return &p
	}
	for i := range l.Roots {
		l.Roots[i].boundary, l.Roots[i].display = "/root-boundary", "~/root-display"
	}
	for _, s := range l.Skills {
		s.boundary = "/boundary"
		s.setParsed(parsed())
	}
	for _, cd := range l.candidates {
		if cd.Skill != nil {
			cd.Skill.setParsed(parsed())
		}
	}
	// Candidates share skills with the listing, or hold their own.
	l.candidates[0].Skill = l.Skills[1]
	var e ienc
	if err := e.listing(&l); err != nil {
		t.Fatal(err)
	}
	d := newDec(string(e.b))
	back := d.listing(nil)
	if d.err != nil || d.left() != 0 {
		t.Fatalf("decode: %v, %d bytes left", d.err, d.left())
	}
	materialize(back)
	if diff := cmp.Diff(&l, back, cmp.AllowUnexported(Skill{}, Listing{}, Root{}), cmpopts.IgnoreFields(Skill{}, "c"), cmpopts.IgnoreFields(Listing{}, "search")); diff != "" {
		t.Fatalf("round trip (-want +got):\n%s", diff)
	}
	if back.candidates[0].Skill != back.Skills[1] {
		t.Error("a candidate's skill is not the listing's own after decoding")
	}
	// A value type the parser never produces is refused, not mangled.
	bad := Listing{Skills: []*Skill{{parsed: &skill.Skill{Extra: skill.Map{{Key: "k", Value: 3}}}}}}
	var e2 ienc
	if err := e2.listing(&bad); err == nil {
		t.Error("an int (not int64) frontmatter value was encoded")
	}
}

// FuzzIndexDecode: no input makes the index decoder panic or allocate
// without bound, and what it accepts re-encodes to the same bytes.
func FuzzIndexDecode(f *testing.F) {
	var l Listing
	fill(reflect.ValueOf(&l).Elem(), 0)
	var e ienc
	if err := e.listing(&l); err != nil {
		f.Fatal(err)
	}
	f.Add(e.b)
	f.Add([]byte{})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})
	f.Fuzz(func(t *testing.T, data []byte) {
		d := newDec(string(data))
		got := d.listing(nil)
		if d.err != nil || got == nil {
			return
		}
		var again ienc
		if err := again.listing(got); err != nil {
			t.Fatalf("a decoded listing does not encode: %v", err)
		}
		d2 := newDec(string(again.b))
		if back := materialize(d2.listing(nil)); d2.err != nil || !cmp.Equal(materialize(got), back, cmp.AllowUnexported(Skill{}, Listing{}, Root{}), cmpopts.IgnoreFields(Skill{}, "c"), cmpopts.IgnoreFields(Listing{}, "search")) {
			t.Fatalf("re-encoding changed the listing")
		}
	})
}

// FuzzIndexFile: no file makes reading an index (its head, its stamps,
// then the rest, checksum and listing) panic or allocate without bound;
// the seed is a real index file and versions of it cut short.
func FuzzIndexFile(f *testing.F) {
	e := newEnv(f)
	writeTree(f, e.ws, map[string]string{
		"skills/a/SKILL.md": skillMD("a"),
		"skills/b/SKILL.md": "---\nname: b\ndescription: Writes release notes.\nmetadata:\n  v: 1\n---\nB\n",
	})
	age(f, e.ws)
	idx := filepath.Join(e.home, "idx")
	indexed(f, e, idx, &Options{NoUser: true})
	files, _ := filepath.Glob(filepath.Join(idx, "*.idx"))
	if len(files) != 1 {
		f.Fatalf("%d index files, want 1", len(files))
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		f.Fatal(err)
	}
	if st, err := readIndex(indexCache(filepath.Dir(files[0])), files[0]); err != nil || st.rest.finish(nil) == nil {
		f.Fatalf("the index just written does not read back (%v)", err)
	}
	f.Add(data)
	f.Add(data[:indexHead+3])
	f.Add(data[:len(data)/2])
	f.Add([]byte(indexMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		// The checksum begins with the file's name: the seed's.
		p := filepath.Join(t.TempDir(), filepath.Base(files[0]))
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		st, err := readIndex(indexCache(filepath.Dir(p)), p)
		if err != nil {
			return
		}
		if l := st.rest.finish(nil); l != nil {
			materialize(l)
		}
	})
}
