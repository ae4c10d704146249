package catalog

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillet-go/skillet/internal/benchtree/tree"
	"github.com/skillet-go/skillet/internal/testcorpus"
)

// coldAndIndexed returns a cold listing of e with o (no index), the
// listing of a walk that wrote the index, and the same listing answered
// from the index, failing unless it was.
func coldAndIndexed(t *testing.T, e testEnv, o *Options) (cold, first, warm *Listing) {
	t.Helper()
	cp := *o
	_, cold = e.list(t, &cp)
	idx := t.TempDir()
	_, first, _ = indexed(t, e, idx, o)
	_, warm, hit := indexed(t, e, idx, o)
	if !hit {
		t.Fatal("the second listing was not answered from the index")
	}
	for _, l := range []*Listing{first, warm} {
		if l.search == nil || decodeSearch(l.search.data, len(l.Skills)) == nil {
			t.Fatal("the listing has no search section that decodes")
		}
	}
	if cold.search != nil {
		t.Fatal("a listing without an index has a search section")
	}
	return cold, first, warm
}

// searchQueries are the table's queries and, from r, queries made of the
// listing's own words, their prefixes, upper-cased and stemmed forms, stop
// words, punctuation and words no skill holds.
func searchQueries(l *Listing, r *rand.Rand, random int) []string {
	qs := []string{
		"pdf", "release notes", "Release Notes", "deploy", "deploying", "the", "a the of",
		"git commit message", "rel", "re", "xx", "ÉTUDE Résumé", "über straße", "c++ / c#",
		"notify-benchmark", "test, test; TEST", "nothing-matches-this-zzqx", "2024", "---",
		l.Skills[0].Name, l.Skills[len(l.Skills)/2].Name, strings.ToUpper(l.Skills[1].Name),
		strings.Repeat("word ", 100),
	}
	var vocab []string
	for _, s := range l.Skills {
		vocab = append(vocab, strings.Fields(s.Name+" "+s.WhenToUse+" "+s.Description)...)
	}
	for range random {
		var q []string
		for range 1 + r.IntN(6) {
			w := vocab[r.IntN(len(vocab))]
			switch r.IntN(6) {
			case 0:
				if n := len(w); n > 3 {
					w = w[:2+r.IntN(n-2)] // a prefix, perhaps cut inside a rune
				}
			case 1:
				w = strings.ToUpper(w)
			case 2:
				w = []string{"the", "and", "skill", "please", "of"}[r.IntN(5)]
			case 3:
				w += []string{"s", "ing", "ed", "es"}[r.IntN(4)]
			}
			q = append(q, w)
		}
		qs = append(qs, strings.Join(q, []string{" ", ", ", "-", "  "}[r.IntN(4)]))
	}
	return qs
}

// resultsOf is a search's results in a comparable form: each skill's
// location, the exact score, the matched terms and the exact-name flag.
func resultsOf(rs []SearchResult) []string {
	out := make([]string, 0, len(rs))
	for _, r := range rs {
		out = append(out, r.Skill.Location+" "+strconv.FormatFloat(r.Score, 'b', -1, 64)+" "+
			strings.Join(r.Matched, ",")+" "+strconv.FormatBool(r.ExactName))
	}
	return out
}

// TestSearchFromIndex: a search of a listing read from the index, or of the
// listing whose walk wrote it, ranks from the index's search section, and
// gives exactly (scores bit for bit) what a
// search of a cold listing gives, over the corpus and a generated tree, for
// the table's queries and random ones; so do the section's hits and
// document frequencies against the skills' own tokens.
func TestSearchFromIndex(t *testing.T) {
	t.Parallel()
	trees := []struct {
		name  string
		setup func(t *testing.T, e testEnv) *Options
	}{
		{"corpus", func(t *testing.T, e testEnv) *Options {
			return &Options{ExtraPaths: testcorpus.Roots(testcorpus.Dir(t)), NoUser: true, MaxSkills: 1000}
		}},
		{"generated", func(t *testing.T, e testEnv) *Options {
			n := 200 // -short: 100
			if testing.Short() {
				n = 100
			}
			if _, err := tree.Generate(filepath.Join(e.ws, ".agents", "skills"), &tree.Options{N: n, Seed: 3}); err != nil {
				t.Fatal(err)
			}
			writeTree(t, e.ws, map[string]string{
				"skills/when/SKILL.md":  "---\nname: when\ndescription: Releases things.\nwhen_to_use: When releasing a new version\n---\nB\n",
				"skills/hide/SKILL.md":  "---\nname: hide\ndescription: Release notes, hidden.\ndisable-model-invocation: true\n---\nB\n",
				"skills/empty/SKILL.md": "---\nname: empty\ndescription: \"\"\n---\nB\n",
			})
			age(t, e.ws)
			return &Options{NoUser: true, MaxSkills: 1000}
		}},
	}
	for _, tr := range trees {
		t.Run(tr.name, func(t *testing.T) {
			t.Parallel()
			if testing.Short() && tr.name == "corpus" {
				t.Skip("lists and searches the whole corpus: skipped with -short (the generated tree runs)")
			}
			e := newEnv(t)
			o := tr.setup(t, e)
			cold, first, warm := coldAndIndexed(t, e, o)
			sd := warm.search.usable(warm)
			r := rand.New(rand.NewPCG(7, uint64(len(tr.name))))
			for _, q := range searchQueries(cold, r, 200) {
				want, werr := cold.Search(q, 0)
				for _, l := range []*Listing{first, warm} {
					got, gerr := l.Search(q, 0)
					if (werr == nil) != (gerr == nil) {
						t.Fatalf("Search(%q): error %v from the index, %v cold", q, gerr, werr)
					}
					// slices.Equal first: cmp.Diff of equal results was a
					// third of this test's CPU.
					if w, g := resultsOf(want), resultsOf(got); !slices.Equal(w, g) {
						t.Fatalf("Search(%q) from the index differs from a cold search (-cold +index):\n%s", q, cmp.Diff(w, g))
					}
					// A limit returns the first results of the whole ranking.
					top, _ := l.Search(q, 5)
					if w, g := resultsOf(want[:min(5, len(want))]), resultsOf(top); !slices.Equal(w, g) {
						t.Fatalf("Search(%q, 5) is not the first 5 results (-want +got):\n%s", q, cmp.Diff(w, g))
					}
				}
				terms := queryTerms(q)
				if len(terms) == 0 {
					continue
				}
				hits, df, ok := sd.hits(terms)
				if !ok {
					t.Fatalf("%q: the search section's postings do not decode", q)
				}
				wantHits, wantDF := tokenHits(cold.Skills, terms)
				if !sameSlice(wantHits, hits) || !sameSlice(wantDF, df) {
					t.Fatalf("%q: the section's hits differ from the tokens'", q)
				}
			}
		})
	}
}

// sameSlice reports whether a and b hold the same elements (==) and are
// both nil or neither: cmp.Equal of slices of plain values, without its
// reflection.
func sameSlice[T comparable](a, b []T) bool {
	return (a == nil) == (b == nil) && slices.Equal(a, b)
}

// TestSearchIndexNotTrusted: a listing from the index whose skills were
// changed, or whose search section does not decode, is searched from the
// skills' text, and finds what that text says.
func TestSearchIndexNotTrusted(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		"skills/a/SKILL.md": "---\nname: a\ndescription: Deploys the app.\n---\nB\n",
		"skills/b/SKILL.md": "---\nname: b\ndescription: Writes release notes.\n---\nB\n",
	})
	age(t, e.ws)
	for _, tt := range []struct {
		name   string
		change func(l *Listing)
		query  string
		want   []string
	}{
		{"unchanged", func(l *Listing) {}, "release", []string{"b"}},
		{"description changed", func(l *Listing) { l.Skills[0].Description = "Release it." }, "release", []string{"a", "b"}},
		{"skill removed", func(l *Listing) { l.Skills = l.Skills[1:] }, "deploy", nil},
		{"skills reordered", func(l *Listing) { l.Skills[0], l.Skills[1] = l.Skills[1], l.Skills[0] }, "deploy", []string{"a"}},
		{"section truncated", func(l *Listing) { l.search.data = l.search.data[:len(l.search.data)-1] }, "release", []string{"b"}},
		{"postings out of range", func(l *Listing) { l.search.data = "\x02\x01\x01\x01\x01\x01\x01\x01\x06releas\x04\x7f\x01\x00\x00" }, "release", []string{"b"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, _, warm := coldAndIndexed(t, e, &Options{NoUser: true})
			tt.change(warm)
			rs, err := warm.Search(tt.query, 0)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range rs {
				got = append(got, r.Skill.Name)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Search(%q) (-want +got):\n%s", tt.query, diff)
			}
			// Whatever the section says, the results are the text's.
			want, _ := (&Listing{Skills: warm.Skills}).Search(tt.query, 0)
			if diff := cmp.Diff(resultsOf(want), resultsOf(rs)); diff != "" {
				t.Errorf("differs from a search without the section (-want +got):\n%s", diff)
			}
		})
	}
}

// skillsOf makes skills from texts, three per skill (name, when-to-use,
// description), for the fuzz targets.
func skillsOf(texts ...string) []*Skill {
	var out []*Skill
	for i := 0; i+2 < len(texts); i += 3 {
		out = append(out, &Skill{Name: texts[i], WhenToUse: texts[i+1], Description: texts[i+2]})
	}
	return out
}

// FuzzSearchSection: for any skills' texts and any query, the hits and
// document frequencies read from the search section are exactly those
// computed from the texts' tokens.
func FuzzSearchSection(f *testing.F) {
	f.Add("release notes", "release-notes", "", "Writes release notes.", "deploy", "When deploying", "Deploys, releases the app")
	f.Add("rel", "relay", "RELEASE", "Ünïcode wörds, réleases", "x", "", "")
	f.Add("ab", "ab", "abc ab", "a b c", "ab-cd", "", "Ab AB aB")
	f.Fuzz(func(t *testing.T, query, n1, w1, d1, n2, w2, d2 string) {
		terms := queryTerms(query)
		if len(terms) == 0 {
			return
		}
		skills := skillsOf(n1, w1, d1, n2, w2, d2, n1+" "+n2, d2, w1)
		sd := decodeSearch(string(searchSection(skills)), len(skills))
		if sd == nil {
			t.Fatal("a section just written does not decode")
		}
		hits, df, ok := sd.hits(terms)
		if !ok {
			t.Fatal("postings just written do not decode")
		}
		wantHits, wantDF := tokenHits(skills, terms)
		if !cmp.Equal(wantHits, hits, cmp.AllowUnexported(hit{}), cmp.Comparer(func(a, b float64) bool {
			return strconv.FormatFloat(a, 'b', -1, 64) == strconv.FormatFloat(b, 'b', -1, 64)
		})) || !cmp.Equal(wantDF, df) {
			t.Fatalf("hits differ:\n tokens %v %v\nsection %v %v", wantHits, wantDF, hits, df)
		}
	})
}

// FuzzSearchSectionDecode: no section makes the decoder or a search of it
// panic or allocate without bound.
func FuzzSearchSectionDecode(f *testing.F) {
	f.Add(searchSection(skillsOf("release-notes", "", "Writes release notes.", "deploy", "", "Deploys releases")), 2, "release")
	f.Add([]byte{}, 0, "x")
	f.Add([]byte{0x01, 0x00, 0x00, 0x00, 0x01, 0x03, 'a', 'b', 'c', 0x04, 0x7f, 0x01, 0x00, 0x00}, 1, "abc")
	f.Fuzz(func(t *testing.T, data []byte, n int, query string) {
		if n < 0 || n > 1000 {
			return
		}
		sd := decodeSearch(string(data), n)
		if sd == nil {
			return
		}
		if terms := queryTerms(query); len(terms) > 0 {
			hits, _, _ := sd.hits(terms)
			for _, h := range hits {
				if h.doc < 0 || h.doc >= n || h.term >= len(terms) {
					t.Fatalf("hit %+v of %d skills and %d terms", h, n, len(terms))
				}
			}
		}
	})
}

// TestFirstRanked: the first k kept while scanning are the first k of the
// whole list sorted, for lists with ties broken by position, and any k.
func TestFirstRanked(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	type item struct{ score, pos int }
	order := func(a, b item) int {
		if a.score != b.score {
			return b.score - a.score
		}
		return a.pos - b.pos
	}
	for n := range 40 {
		items := make([]item, n)
		for i := range items {
			items[i] = item{r.IntN(5), i}
		}
		sorted := slices.Clone(items)
		slices.SortFunc(sorted, order)
		for k := 1; k <= n; k++ {
			if got := firstRanked(items, k, order); !slices.Equal(got, sorted[:k]) {
				t.Fatalf("n=%d k=%d: %v, want %v", n, k, got, sorted[:k])
			}
		}
	}
}
