package catalog

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/skillet-go/skillet/internal/testcorpus"
)

// walkCheck requires that the first runs of search and prompt (a fresh
// catalog, no index: searchWalk and listBriefWalk, which list as Each does
// and write the index meanwhile) answer, and as the cold listing does:
// Listing.Search for each query at limits 0, 1 and 10, and the block's
// listing. Each answer comes from a catalog of a new, empty index folder,
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
	checkSearched(t, newc, cold, queries, true)
	checkBrief(t, newc, cold, true)
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
			for _, maxSkills := range []int{0, 20} {
				walkCheck(t, e, Options{NoUser: true, MaxSkills: maxSkills, ExtraPaths: c.roots}, queries)
			}
		})
	}
}
