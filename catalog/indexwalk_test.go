package catalog

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/testcorpus"
	"github.com/skillet-go/skillet/skill"
)

// walkCheck requires that the first runs of search, prompt and show of
// an unknown name (a fresh
// catalog, no index: searchWalk and listBriefWalk, which list as Each does
// and write the index meanwhile) answer, and as the cold listing does:
// Listing.Search for each query at one of the limits 0, 1 and 10 in turn
// (checkSearched: a walk answers each), the block's listing, and the
// listing of names (checkNames). Each answer comes from a catalog of a new, empty index folder,
// and each walk must leave an index there.
func walkCheck(t *testing.T, e testEnv, o Options, queries []string) {
	t.Helper()
	_, cold := e.list(t, &o)
	var folders []string
	newc := func() *Catalog {
		cp := o
		cp.index = filepath.Join(t.TempDir(), "idx")
		folders = append(folders, cp.index)
		c, err := New(context.Background(), e.opts(&cp))
		must(t, err)
		return c
	}
	if len(cold.Skills) > 0 { // and a name the listing holds (an exact match)
		queries = append(slices.Clip(queries), cold.Skills[len(cold.Skills)/2].Name)
	}
	checkSearched(t, newc, cold, queries, true)
	checkBrief(t, newc, cold, true)
	checkNames(t, newc, cold)
	// The listing of names from the walk, then from the index it wrote
	// (when its stamps were old enough to write one).
	cp := o
	cp.index = filepath.Join(t.TempDir(), "idx")
	folders = append(folders, cp.index)
	same := func() *Catalog {
		c, err := New(context.Background(), e.opts(&cp))
		must(t, err)
		return c
	}
	checkNameList(t, same, cold)
	checkNameList(t, same, cold)
	// show of an unknown name over the index the walk wrote.
	checkNames(t, same, cold)
	// Completion's prefixes: from a walk, then from its index.
	prefixes := []string{"", "zzz-none"}
	for _, s := range cold.Skills {
		prefixes = append(prefixes, s.Name[:min(2, len(s.Name))])
		break
	}
	for _, p := range prefixes {
		checkPrefixed(t, newc, cold, p)
		checkPrefixed(t, same, cold, p)
	}
	for _, f := range folders {
		files, err := filepath.Glob(filepath.Join(f, "*.idx"))
		must(t, err)
		if len(files) > 1 {
			t.Fatalf("a walk wrote %d index files, want at most 1", len(files))
		}
		must(t, os.RemoveAll(f))
	}
}

// TestIndexWalkDifferential holds the first runs of search and prompt to
// a cold listing on random trees after random edits
// (TestIndexStreamDifferential's), with maxSkills cutting the listing and
// not, two of the skills hidden, and with the last edit too fresh for the index to be written (the
// answer then comes from the walk all the same).
func TestIndexWalkDifferential(t *testing.T) {
	t.Parallel()
	seeds, edits := 5, 5
	if testing.Short() {
		seeds, edits = 2, 3
	}
	for seed := range uint64(seeds) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			d := &diffTree{t: t, rng: rand.New(rand.NewPCG(seed, 3)), base: filepath.Dir(e.ws),
				old: time.Now().Add(-time.Hour).Truncate(time.Second)}
			d.grow()
			// Hidden skills, which the block's listing keeps by name.
			for i := range 2 {
				dir := filepath.Join(d.base, randOf(d.rng, diffRoots), fmt.Sprint("hid-", i))
				must(t, os.MkdirAll(dir, 0o755))
				p := filepath.Join(dir, "SKILL.md")
				must(t, os.WriteFile(p, []byte(fmt.Sprintf("---\nname: hid-%d\ndescription: A hidden %s.\ndisable-model-invocation: true\n---\nB\n", i, randOf(d.rng, diffNames))), 0o644))
			}
			age(t, e.ws, e.home)
			for k := range edits {
				d.edit()
				d.old = d.old.Add(time.Duration(k+1) * time.Second)
				if k == edits-1 {
					d.old = time.Now() // too fresh to stamp
				}
				l := listOf(t, e.opts(&Options{}))
				var names []string
				for _, s := range l.Skills {
					names = append(names, s.Name)
				}
				qs := append(namedQueries(names), randOf(d.rng, diffNames)+" "+randOf(d.rng, diffNames))
				walkCheck(t, e, Options{MaxSkills: 2 * (k % 2)}, qs)
			}
		})
	}
}

// TestIndexWalkCorpus holds the first runs of search and prompt to a cold
// listing on the corpus folders of published skills (skipped when they
// are absent): queries of words their descriptions hold, and names.
func TestIndexWalkCorpus(t *testing.T) {
	t.Parallel()
	corpus := testcorpus.Dir(t)
	queries := []string{"pdf", "release notes", "test", "react component", "review code", "deploy to vercel", "frontend-design", "xlsx spreadsheet", "git", "nonesuch"}
	for _, c := range []struct {
		name  string
		roots []string
	}{
		{"corpus", testcorpus.Roots(corpus)},
		{"corpus-community", []string{filepath.Join(filepath.Dir(corpus), "corpus-community")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if fi, err := os.Stat(c.roots[0]); err != nil || !fi.IsDir() {
				t.Skipf("%s not found beside the corpus (%s)", c.name, c.roots[0])
			}
			e := newEnv(t)
			maxes, qs, roots := []int{0, 20}, queries, c.roots
			if testing.Short() { // no cap, three queries and the one that finds nothing, a third of the skills
				maxes, qs = maxes[:1], append(slices.Clone(queries[:3]), "nonesuch")
				roots = sampleRoots(t, roots, 3)
			}
			for _, maxSkills := range maxes {
				walkCheck(t, e, Options{NoUser: true, MaxSkills: maxSkills, ExtraPaths: roots}, qs)
			}
		})
	}
}

// sampleRoots copies one skill folder in stride of those under roots (the
// folders holding a SKILL.md, in the order of their paths, a folder inside
// one already copied going with it) into a temporary folder, each root to
// a root of its own there, its files' times an hour old (old enough for
// the index to be written), and returns the new roots.
func sampleRoots(t *testing.T, roots []string, stride int) []string {
	t.Helper()
	var dirs [][2]string // root, skill folder
	for _, r := range roots {
		must(t, filepath.WalkDir(r, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && d.Name() == "SKILL.md" {
				dirs = append(dirs, [2]string{r, filepath.Dir(p)})
			}
			return err
		}))
	}
	base := t.TempDir()
	out := make([]string, len(roots))
	for i, r := range roots {
		out[i] = filepath.Join(base, fmt.Sprint(i))
		must(t, os.MkdirAll(out[i], 0o755))
		for j, d := range dirs {
			if d[0] != r || j%stride != 0 {
				continue
			}
			rel, err := filepath.Rel(r, d[1])
			must(t, err)
			to := filepath.Join(out[i], rel)
			if _, err := os.Lstat(to); err == nil {
				continue // inside a folder already copied
			}
			must(t, os.MkdirAll(filepath.Dir(to), 0o755))
			must(t, os.CopyFS(to, os.DirFS(d[1])))
		}
	}
	age(t, base)
	return out
}

// checkNames requires that the first run of show for a name the listing
// does not hold (listNamedOrNames) gives the listing's names: the cold
// listing's workspace and roots, its diagnostics that keep reports true
// for (every one, then the errors alone), and its skills' names, the
// visible and the hidden ones, each in order, and no skill; and that a
// name it holds, or one of spaces alone, gives no names.
func checkNames(t *testing.T, newc func() *Catalog, cold *Listing) {
	t.Helper()
	for _, keep := range []func(*skill.Diagnostic) bool{
		func(*skill.Diagnostic) bool { return true },
		func(d *skill.Diagnostic) bool { return d.Severity == skill.SeverityError },
	} {
		got, names := newc().listNamedOrNames(context.Background(), "nonesuch-xyz", keep)
		if got == nil || names == nil {
			t.Fatalf("the walk for an unknown name gave %v, names %v; want the listing of names", got, names)
		}
		if diff := cmp.Diff(coldNames(cold), names, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("the names differ from the cold listing's (-cold +names):\n%s", diff)
		}
		want := &Listing{Workspace: cold.Workspace, Roots: cold.Roots, Diagnostics: keptDiags(cold.Diagnostics, keep)}
		if diff := diffListing(want, got); diff != "" {
			t.Fatalf("the listing of names' workspace, roots, skills or diagnostics differ from the cold listing's (-cold +names):\n%s", diff)
		}
	}
	if _, names := newc().listNamedOrNames(context.Background(), "  ", nil); names != nil {
		t.Fatal("a name of spaces alone gave the listing of names")
	}
	if len(cold.Skills) > 0 {
		if l, names := newc().listNamedOrNames(context.Background(), cold.Skills[0].Name, nil); l == nil || names != nil {
			t.Fatalf("the walk for %q, which the listing holds, gave %v, names %v", cold.Skills[0].Name, l, names)
		}
	}
}

// coldNames is the names of l's skills as nameKeeper keeps them.
func coldNames(l *Listing) *catalogx.Names {
	out := &catalogx.Names{}
	for _, s := range l.Skills {
		if s.Hidden() {
			out.Hidden = append(out.Hidden, s.Name)
		} else {
			out.Visible = append(out.Visible, s.Name)
		}
	}
	return out
}

// checkNameList requires that listNames of newc's catalog gives the cold
// listing's workspace and roots, no skill and no diagnostic, and its
// skills' names, the visible and the hidden ones, each in order.
func checkNameList(t *testing.T, newc func() *Catalog, cold *Listing) {
	t.Helper()
	got, names := newc().listNames(context.Background())
	if got == nil || names == nil {
		t.Fatal("listNames did not answer")
	}
	if diff := cmp.Diff(coldNames(cold), names, cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("listNames differs from the cold listing (-cold +names):\n%s", diff)
	}
	want := &Listing{Workspace: cold.Workspace, Roots: cold.Roots}
	if diff := diffListing(want, got); diff != "" || len(got.Diagnostics) != 0 {
		t.Fatalf("listNames' workspace, roots or skills differ from the cold listing's, or it has %d diagnostics (-cold +names):\n%s", len(got.Diagnostics), diff)
	}
}

// BenchmarkIndexWalk measures the first runs that answer from the walk
// writing the index (indexwalk.go), on a tree of n generated skills with
// no index: prompt's brief listing, search release notes, the listing of
// names (tool-schema) and show of an unknown name, with List (the whole
// listing, as they did before) beside them. answer-B/skill is the heap the
// answer holds once the walk is done (after a collection, beyond the heap
// before it): what each keeps of the listing, where List keeps every
// skill.
func BenchmarkIndexWalk(b *testing.B) {
	ctx := context.Background()
	kinds := []struct {
		name string
		run  func(c *Catalog) any
	}{
		{"list", func(c *Catalog) any { l, _ := c.List(ctx); return l }},
		{"brief", func(c *Catalog) any { l, names := c.listBrief(ctx, nil); return []any{l, names} }},
		{"search", func(c *Catalog) any { res, _ := c.searchIndexed(ctx, "release notes", 10); return res }},
		{"names", func(c *Catalog) any { _, names := c.listNames(ctx); return names }},
		{"unknown", func(c *Catalog) any { l, names := c.listNamedOrNames(ctx, "nonesuch", nil); return []any{l, names} }},
	}
	for _, n := range []int{1000, 10000} {
		ws := benchTree(b, n)
		age(b, ws)
		for _, k := range kinds {
			b.Run(fmt.Sprintf("%s/%d", k.name, n), func(b *testing.B) {
				newc := func() *Catalog {
					c, err := New(ctx, &Options{Workspace: ws, NoUser: true, NoConfigFile: true, index: b.TempDir()})
					must(b, err)
					return c
				}
				b.ReportAllocs()
				for b.Loop() {
					if k.run(newc()) == nil {
						b.Fatal("no answer")
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/skill")
				c := newc()
				b.ReportMetric(heldPerSkill(func() any { return k.run(c) }, n), "answer-B/skill")
			})
		}
	}
}

// heldPerSkill returns the heap the answer of run holds (after a
// collection, beyond the heap before it) over n skills.
func heldPerSkill(run func() any, n int) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	answer := run()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(answer)
	return max(float64(after.HeapAlloc)-float64(before.HeapAlloc), 0) / float64(n)
}

// BenchmarkIndexNames measures what skillet tool-schema (listNames) and
// show of an unknown name (listNamedOrNames, keeping the diagnostics about
// the name) read of a warm persistent index, with the whole listing (List,
// what they read before the listing of names) beside them: B/op is what a
// new catalog allocates, answer-B/skill the heap the answer holds. The
// names alone hold about 36 bytes a skill (a string header and the name's
// bytes), where a listing of names held a Skill of 216 bytes for each.
func BenchmarkIndexNames(b *testing.B) {
	ctx := context.Background()
	about := func(d *skill.Diagnostic) bool { return d.Skill == "nonesuch" }
	kinds := []struct {
		name string
		run  func(c *Catalog) any
	}{
		{"list", func(c *Catalog) any { l, _ := c.List(ctx); return l }},
		{"names", func(c *Catalog) any { _, names := c.listNames(ctx); return names }},
		{"unknown", func(c *Catalog) any { l, names := c.listNamedOrNames(ctx, "nonesuch", about); return []any{l, names} }},
	}
	for _, n := range []int{1000, 10000} {
		ws := benchTree(b, n)
		c, _, _ := indexWriter(b, ws)
		opts := c.opts
		for _, k := range kinds {
			b.Run(fmt.Sprintf("%s/%d", k.name, n), func(b *testing.B) {
				newc := func() *Catalog {
					c, err := New(ctx, &opts)
					must(b, err)
					return c
				}
				b.ReportAllocs()
				for b.Loop() {
					if k.run(newc()) == nil {
						b.Fatal("no answer")
					}
				}
				c := newc()
				b.ReportMetric(heldPerSkill(func() any { return k.run(c) }, n), "answer-B/skill")
			})
		}
	}
}

// checkPrefixed requires that listPrefixed of newc's catalog gives the
// cold listing's skills whose name begins with prefix, in order and field
// by field, with its workspace and roots and no diagnostics.
func checkPrefixed(t *testing.T, newc func() *Catalog, cold *Listing, prefix string) {
	t.Helper()
	got := newc().listPrefixed(context.Background(), prefix)
	if got == nil {
		t.Fatalf("listPrefixed(%q) did not answer", prefix)
	}
	want := &Listing{Workspace: cold.Workspace, Roots: cold.Roots}
	for _, s := range cold.Skills {
		if strings.HasPrefix(s.Name, prefix) {
			want.Skills = append(want.Skills, s)
		}
	}
	if len(got.Diagnostics) != 0 {
		t.Fatalf("listPrefixed(%q) has %d diagnostics", prefix, len(got.Diagnostics))
	}
	if diff := diffListing(materialize(want), materialize(&Listing{Workspace: got.Workspace, Roots: got.Roots, Skills: got.Skills})); diff != "" {
		t.Fatalf("listPrefixed(%q) differs from the cold listing (-cold +prefixed):\n%s", prefix, diff)
	}
}
