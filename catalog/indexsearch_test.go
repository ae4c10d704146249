package catalog

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillet-go/skillet/skill"
)

// searchAnswer is what skillet search prints of a result (name, score,
// scope, location, description, when-to-use, hidden, listed, the words
// matched), and whether the name was the whole query.
type searchAnswer struct {
	Name, Description, WhenToUse, Location string
	Scope                                  Scope
	Hidden, Listed, Exact                  bool
	Score                                  float64
	Matched                                []string
}

func searchAnswers(res []SearchResult) []searchAnswer {
	out := []searchAnswer{}
	for _, r := range res {
		s := r.Skill
		out = append(out, searchAnswer{Name: s.Name, Description: s.Description, WhenToUse: s.WhenToUse,
			Location: s.Location, Scope: s.Scope, Hidden: s.Hidden(), Listed: s.Listed, Exact: r.ExactName,
			Score: r.Score, Matched: r.Matched})
	}
	return out
}

// checkSearched requires that a search read from the index without its
// listing (searchIndexed), by a catalog newc makes, ranks each query as
// full's Listing.Search does (every field the command prints, the score
// bit for bit), at limits 0, 1 and 10, or does not answer; must says that
// the index is current, so that it has to answer. A query asked twice is
// asked once (the same read of the same index).
//
// Each query is asked of a new catalog (the whole command: roots
// resolved, the index opened and mapped, or the walk that writes it) at
// one of the three limits, in turn; -short asks no more. The full run
// asks the other two limits too, of one mapping of the index by one more
// catalog (readSearch, every stamp checked at each read): the command
// differs from that only by what it does before it reads the mapping,
// which is the same at each limit. A catalog with no index to map (a
// walk's, of a new folder) asks nothing more; a nil catalog from newc
// ends the check.
func checkSearched(t *testing.T, newc func() *Catalog, full *Listing, queries []string, must bool) {
	t.Helper()
	ctx := context.Background()
	limits := []int{0, 1, 10}
	seen := map[string]bool{}
	var asked []string
	for _, q := range queries {
		if !seen[q] {
			seen[q] = true
			asked = append(asked, q)
		}
	}
	for i, q := range asked {
		c := newc()
		if c == nil {
			return // newc's index is no longer the one to ask
		}
		limit := limits[i%3]
		got, ok := c.searchIndexed(ctx, q, limit)
		checkSearch(t, full, q, limit, got, ok, must)
	}
	if testing.Short() {
		return
	}
	c := newc()
	if c == nil {
		return
	}
	c.readMapped(ctx, func(data []byte, seed uint32, roots []byte) {
		for i, q := range asked {
			terms := queryTerms(q)
			for k, limit := range limits {
				if k == i%3 {
					continue // asked of its own catalog above
				}
				var got []SearchResult
				ok := len(terms) > 0
				if ok {
					got, ok = c.readSearch(data, seed, roots, terms, exactQuery(q), limit)
				}
				checkSearch(t, full, q, limit, got, ok, must)
			}
		}
	})
}

// checkSearch requires that got (ok: answered) is what full's
// Listing.Search answers for q at limit; must says that the read had to
// answer.
func checkSearch(t *testing.T, full *Listing, q string, limit int, got []SearchResult, ok, must bool) {
	t.Helper()
	want, err := full.Search(q, limit)
	if err != nil {
		if ok {
			t.Fatalf("%q: the narrowed search answered a query the listing refuses (%v)", q, err)
		}
		return
	}
	if !ok {
		if must {
			t.Fatalf("%q, limit %d: the narrowed search of a current index did not answer", q, limit)
		}
		return
	}
	// reflect.DeepEqual first: cmp.Diff of equal answers was a quarter
	// of TestIndexSameListing's CPU.
	if w, g := searchAnswers(want), searchAnswers(got); !reflect.DeepEqual(w, g) {
		if diff := cmp.Diff(w, g); diff != "" {
			t.Fatalf("%q, limit %d: the narrowed search differs from the listing's (-listing +narrowed):\n%s", q, limit, diff)
		}
	}
}

// namedQueries are queries for a listing of names: each name (an exact
// match), its words, a prefix, words of the descriptions, none that
// matches, and one of no words. -short asks for the prefix and the words
// around the name for one name in eight (each query is a new catalog's
// search, and in the full run two more of one mapping: checkSearched);
// go test ./... asks for them for every name.
func namedQueries(names []string) []string {
	qs := []string{"the skill", "thing", "release notes", "nonesuch", "  ", "do"}
	for i, n := range names {
		qs = append(qs, n)
		if !testing.Short() || i%8 == 0 {
			qs = append(qs, n[:min(3, len(n))], "the "+n+" skill")
		}
	}
	return qs
}

// BenchmarkIndexSearch measures skillet search QUERY over a warm
// persistent index, as the command does it: a new catalog's Search, read
// from the index without its listing (searchIndexed). B/op is what it
// allocates: the index's string table (16 bytes a string), 4 bytes a skill
// of offsets and 4 of order, the search section's words and the score
// of each skill that matches, the results; it does not depend on the
// machine's load. BenchmarkIndexSearchListing is the same
// command through the whole listing (List, then Listing.Search).
func BenchmarkIndexSearch(b *testing.B) {
	benchSearch(b, func(c *Catalog, q string) ([]SearchResult, error) {
		res, ok := c.searchIndexed(context.Background(), q, 10)
		if !ok {
			return nil, fmt.Errorf("the index did not answer")
		}
		return res, nil
	})
}

// BenchmarkIndexSearchListing is BenchmarkIndexSearch through the whole
// listing read from the index (the plain path).
func BenchmarkIndexSearchListing(b *testing.B) {
	benchSearch(b, func(c *Catalog, q string) ([]SearchResult, error) {
		l, err := c.List(context.Background())
		if err != nil {
			return nil, err
		}
		return l.Search(q, 10)
	})
}

func benchSearch(b *testing.B, search func(c *Catalog, q string) ([]SearchResult, error)) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ws := benchTree(b, n)
			c, _, _ := indexWriter(b, ws)
			opts := c.opts
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				c, err := New(ctx, &opts)
				if err != nil {
					b.Fatal(err)
				}
				res, err := search(c, "release notes")
				if err != nil || len(res) == 0 {
					b.Fatalf("no result: %v", err)
				}
			}
		})
	}
}

// FuzzIndexSearch: no index bytes make the narrowed search (readSearch)
// panic, and what it answers is what Listing.Search of the whole decode
// of the same bytes answers. The checksum is made right for each input,
// as FuzzIndexNamed makes it.
func FuzzIndexSearch(f *testing.F) {
	ws := f.TempDir()
	writeTree(f, ws, map[string]string{
		".agents/skills/a/SKILL.md":      skillMD("a"),
		".agents/skills/b/SKILL.md":      "---\nname: b\ndescription: Writes release notes.\nmetadata:\n  v: 1\n---\nB\n",
		".agents/skills/c/SKILL.md":      "---\nname: a\ndescription: A second a.\n---\nC\n",
		".agents/skills/hid/SKILL.md":    "---\nname: hid\ndescription: Hidden notes.\ndisable-model-invocation: true\n---\n",
		".agents/skills/broken/SKILL.md": "---\nname: [\n---\n",
	})
	c, _, roots := indexWriter(f, ws)
	file := c.indexFile()
	data, err := os.ReadFile(file)
	must(f, err)
	for _, q := range []string{"a", "release", "notes b", "zz"} {
		f.Add(data, q)
		for _, at := range []int{indexHead + 1, len(data) / 3, len(data) / 2, len(data) - indexSumSize - 1} {
			bad := slices.Clone(data)
			bad[at] ^= 0x41
			f.Add(bad, q)
		}
	}
	seed := indexSeed(file)
	enc := encodeRoots(roots)
	f.Fuzz(func(t *testing.T, data []byte, q string) {
		terms := queryTerms(q)
		if len(data) < indexHead+indexSumSize || len(data) > 1<<20 || len(terms) == 0 {
			return
		}
		data = slices.Clone(data)
		end := len(data) - indexSumSize
		crc := crc32.Update(seed, castagnoli(), data[indexHead:end])
		crc = crc32.Update(crc, castagnoli(), data[:indexHead])
		binary.LittleEndian.PutUint32(data[end:], crc)
		p := filepath.Join(t.TempDir(), filepath.Base(file))
		got, ok := c.readSearch(mapped(t, p, data), seed, enc, terms, exactQuery(q), 10)
		if !ok {
			return
		}
		st, err := readIndex(indexCache(filepath.Dir(p)), p)
		if err != nil {
			t.Fatalf("the narrowed search answered; the whole read of the same bytes fails: %v", err)
		}
		full := st.rest.finish(c)
		if full == nil {
			t.Fatal("the narrowed search answered; the whole decode of the same bytes gives no listing")
		}
		want, err := full.Search(q, 10)
		must(t, err)
		if diff := cmp.Diff(searchAnswers(want), searchAnswers(got)); diff != "" {
			t.Fatalf("%q: the narrowed search differs from the whole decode's (-whole +narrowed):\n%s", q, diff)
		}
	})
}

// checkBrief requires that the block's read of the index (listBrief), by
// a catalog newc makes, gives what full holds for the catalog block: the
// workspace and roots, the Listed skills whole and the hidden ones by name
// (in order), the others' names in order, and the diagnostics keep takes;
// or does not answer; must says that the index is current, so that it
// has to answer. A nil catalog from newc asks nothing.
func checkBrief(t *testing.T, newc func() *Catalog, full *Listing, must bool) {
	t.Helper()
	keep := func(d *skill.Diagnostic) bool { return d.Severity == skill.SeverityError }
	c := newc()
	if c == nil {
		return
	}
	got, gotNames := c.listBrief(context.Background(), keep)
	if got == nil {
		if must {
			t.Fatal("the block's read of a current index did not answer")
		}
		return
	}
	want := &Listing{Workspace: full.Workspace, Roots: full.Roots}
	var wantNames, hiddenGot, hiddenWant []string
	for _, s := range full.Skills {
		switch {
		case s.Hidden():
			hiddenWant = append(hiddenWant, fmt.Sprintf("%s (listed %v)", s.Name, s.Listed))
		case s.Listed:
			want.Skills = append(want.Skills, s)
		default:
			wantNames = append(wantNames, s.Name)
		}
	}
	for i := range full.Diagnostics {
		if keep(&full.Diagnostics[i]) {
			want.Diagnostics = append(want.Diagnostics, full.Diagnostics[i])
		}
	}
	shown := &Listing{Workspace: got.Workspace, Roots: got.Roots, Diagnostics: got.Diagnostics}
	for _, s := range got.Skills {
		if s.Hidden() {
			hiddenGot = append(hiddenGot, fmt.Sprintf("%s (listed %v)", s.Name, s.Listed))
		} else {
			shown.Skills = append(shown.Skills, s)
		}
	}
	if diff := diffListing(materialize(want), materialize(shown)); diff != "" {
		t.Fatalf("the block's read differs from the listing's (-listing +brief):\n%s", diff)
	}
	if !slices.Equal(hiddenGot, hiddenWant) || !slices.Equal(gotNames, wantNames) {
		t.Fatalf("the block's read gives hidden %q and not listed %d names; the listing %q and %d", hiddenGot, len(gotNames), hiddenWant, len(wantNames))
	}
}

// BenchmarkIndexBrief measures what skillet prompt reads of a warm
// persistent index (listBrief) by a new catalog: B/op is what it
// allocates (the string table, a name a skill, the Listed skills whole).
func BenchmarkIndexBrief(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ws := benchTree(b, n)
			c, _, _ := indexWriter(b, ws)
			opts := c.opts
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				c, err := New(ctx, &opts)
				if err != nil {
					b.Fatal(err)
				}
				if l, _ := c.listBrief(ctx, nil); l == nil {
					b.Fatal("the index did not answer")
				}
			}
		})
	}
}
