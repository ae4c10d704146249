package catalog

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillet-go/skillet/internal/benchcpu"
	"github.com/skillet-go/skillet/internal/testcorpus"
)

// naiveSearch is the ranking of Listing.Search written the plain way,
// every query term against every word of every skill, as a reference for
// the indexed implementation.
func naiveSearch(l *Listing, query string) []SearchResult {
	return naiveSearchOf(l, query, freshTokens)
}

// freshTokens returns the stemmed words of s's name, when-to-use and
// description, made anew.
func freshTokens(s *Skill) [3][]string {
	return [3][]string{tokens(s.Name), tokens(s.WhenToUse), tokens(s.Description)}
}

// naiveSearchOf is naiveSearch with each skill's words from words.
func naiveSearchOf(l *Listing, query string, words func(*Skill) [3][]string) []SearchResult {
	terms := queryTerms(query)
	exact := strings.ToLower(strings.Join(strings.Fields(query), "-"))
	weights := [3]float64{weightName, weightWhenToUse, weightDesc}
	docs := make([][3][]string, len(l.Skills))
	var total [3]float64
	for i, s := range l.Skills {
		docs[i] = words(s)
		for f := range 3 {
			total[f] += float64(len(docs[i][f]))
		}
	}
	n := float64(len(docs))
	var avg [3]float64
	for f := range 3 {
		if n > 0 {
			avg[f] = total[f] / n
		}
	}
	tf := make([][]float64, len(docs))
	df := make([]float64, len(terms))
	for d := range docs {
		tf[d] = make([]float64, len(terms))
		for t, term := range terms {
			var sum float64
			for f := range 3 {
				words := docs[d][f]
				var count float64
				for _, w := range words {
					switch {
					case w == term:
						count++
					case len(term) >= minPrefix && strings.HasPrefix(w, term):
						count += prefixFactor
					}
				}
				if count == 0 {
					continue
				}
				norm := 1 - bm25B
				if avg[f] > 0 {
					norm += bm25B * float64(len(words)) / avg[f]
				}
				sum += weights[f] * count / norm
			}
			tf[d][t] = sum
			if sum > 0 {
				df[t]++
			}
		}
	}
	var out []SearchResult
	for d, s := range l.Skills {
		var score float64
		var matched []string
		for t, term := range terms {
			x := tf[d][t]
			if x == 0 {
				continue
			}
			idf := math.Log(1 + (n-df[t]+0.5)/(df[t]+0.5))
			score += idf * x * (bm25K1 + 1) / (x + bm25K1)
			matched = append(matched, term)
		}
		if score == 0 && s.Name != exact {
			continue
		}
		out = append(out, SearchResult{Skill: s, Score: score, Matched: matched, ExactName: s.Name == exact})
	}
	slices.SortStableFunc(out, func(a, b SearchResult) int {
		if a.ExactName != b.ExactName {
			if a.ExactName {
				return -1
			}
			return 1
		}
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	return out
}

func corpusListing(t *testing.T) *Listing {
	t.Helper()
	dir := testcorpus.Dir(t)
	c, err := New(context.Background(), &Options{Workspace: t.TempDir(), NoUser: true, NoConfigFile: true, ExtraPaths: testcorpus.Roots(dir)})
	if err != nil {
		t.Fatal(err)
	}
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Skills) < 100 {
		t.Fatalf("the corpus lists %d skills", len(l.Skills))
	}
	return l
}

// TestSearchMatchesNaive checks the indexed search against the plain one
// on the corpus, for queries made of the corpus's own words and prefixes.
func TestSearchMatchesNaive(t *testing.T) {
	t.Parallel()
	l := corpusListing(t)
	var vocab []string
	for _, s := range l.Skills {
		vocab = append(vocab, splitWords(s.Name+" "+s.Description)...)
	}
	r := rand.New(rand.NewPCG(1, 2))
	queries := []string{"pdf", "release notes", "deploy", "the", "git commit message", l.Skills[3].Name, "ÉTUDE Résumé"}
	for range 80 {
		var q []string
		for range 1 + r.IntN(5) {
			w := vocab[r.IntN(len(vocab))]
			if r.IntN(3) == 0 && len(w) > 4 {
				w = w[:3+r.IntN(len(w)-3)] // a prefix
			}
			q = append(q, w)
		}
		queries = append(queries, strings.Join(q, " "))
	}
	for _, q := range queries {
		got, err := l.Search(q, 0)
		if err != nil {
			t.Fatalf("Search(%q): %v", q, err)
		}
		want := naiveSearch(l, q)
		if diff := cmp.Diff(summary(want), summary(got)); diff != "" {
			t.Fatalf("Search(%q) differs from the plain ranking (-want +got):\n%s", q, diff)
		}
	}
}

func summary(rs []SearchResult) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Skill.Name+" "+strings.Join(r.Matched, ",")+" "+strconv.FormatFloat(r.Score, 'g', -1, 64))
	}
	return out
}

// TestSearchIsBoundedInTerms: a query's allocations grow with its
// matches, not with skills × words, and a 64 KB query costs about what
// its first maxQueryTerms words cost.
func TestSearchIsBoundedInTerms(t *testing.T) {
	l := corpusListing(t)
	words := func(n int) string {
		var q []string
		for i := range n {
			q = append(q, "zq"+strconv.Itoa(i)) // matches no skill
		}
		return strings.Join(q, " ")
	}
	alloc := func(q string) int64 {
		if _, err := l.Search(q, 0); err != nil { // warms the token cache
			t.Fatal(err)
		}
		runtime.GC()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		for range 5 {
			if _, err := l.Search(q, 0); err != nil {
				t.Fatal(err)
			}
		}
		runtime.ReadMemStats(&m1)
		return int64(m1.TotalAlloc-m0.TotalAlloc) / 5
	}
	one, many := alloc(words(1)), alloc(words(maxQueryTerms))
	// A float per skill and term would be len(l.Skills)*63*8 bytes more.
	if extra, limit := many-one, int64(len(l.Skills))*8*8; extra > limit {
		t.Errorf("%d terms allocate %d bytes more than one (skills %d), over %d", maxQueryTerms, extra, len(l.Skills), limit)
	}
	huge := words(12000)
	if len(huge) < 64<<10 {
		t.Fatalf("the query is %d bytes", len(huge))
	}
	if n := len(queryTerms(huge)); n != maxQueryTerms {
		t.Fatalf("queryTerms kept %d words of the 64 KB query, want %d", n, maxQueryTerms)
	}
	if got, limit := alloc(huge), many+4*int64(len(huge)); got > limit {
		t.Errorf("a 64 KB query allocates %d bytes a search, over %d", got, limit)
	}
}

// BenchmarkSearchRanking ranks the published corpus's skills (every
// root, as TestSearchMatchesNaive lists them) for queries of 1, 3 and 64
// of its own words: "naive" is the plain path (naiveSearch: every query
// term against every word of every skill, the skills' words made anew),
// "naive-cached" the same with the words cached (docTokens), "indexed"
// Listing.Search with the words cached, as a kept listing (the server's
// load tool) has them, "indexed-cold" with a fresh copy of the skills
// each time, as one `search --no-cache` has them.
// cpu-ns/op is the process's CPU time an operation (internal/benchcpu;
// with indexed-cold, the copy of the skills too).
//
// Six runs alternate the paths (-count would run each path its runs in a
// row):
//
//	for i in 1 2 3 4 5 6; do go test ./catalog -run '^$' -bench SearchRanking -benchmem; done
func BenchmarkSearchRanking(b *testing.B) {
	dir := testcorpus.Dir(b)
	c, err := New(context.Background(), &Options{Workspace: b.TempDir(), NoUser: true, NoConfigFile: true, ExtraPaths: testcorpus.Roots(dir)})
	if err != nil {
		b.Fatal(err)
	}
	l, err := c.List(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	var vocab []string
	for _, s := range l.Skills {
		vocab = append(vocab, splitWords(s.Name+" "+s.Description)...)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, words := range []int{1, 3, 64} {
		q := make([]string, words)
		for i := range q {
			q[i] = vocab[r.IntN(len(vocab))]
		}
		query := strings.Join(q, " ")
		b.Run(fmt.Sprintf("words=%d/naive", words), func(b *testing.B) {
			b.ReportAllocs()
			cpu := benchcpu.Now()
			for b.Loop() {
				naiveSearch(l, query)
			}
			benchcpu.Report(b, cpu)
		})
		b.Run(fmt.Sprintf("words=%d/naive-cached", words), func(b *testing.B) {
			b.ReportAllocs()
			cpu := benchcpu.Now()
			for b.Loop() {
				naiveSearchOf(l, query, docTokens)
			}
			benchcpu.Report(b, cpu)
		})
		b.Run(fmt.Sprintf("words=%d/indexed", words), func(b *testing.B) {
			b.ReportAllocs()
			cpu := benchcpu.Now()
			for b.Loop() {
				if _, err := l.Search(query, 0); err != nil {
					b.Fatal(err)
				}
			}
			benchcpu.Report(b, cpu)
		})
		b.Run(fmt.Sprintf("words=%d/indexed-cold", words), func(b *testing.B) {
			b.ReportAllocs()
			cpu := benchcpu.Now()
			for b.Loop() {
				b.StopTimer()
				fresh := *l
				fresh.Skills = make([]*Skill, len(l.Skills))
				for i, s := range l.Skills {
					cp := *s
					fresh.Skills[i] = &cp
				}
				b.StartTimer()
				if _, err := fresh.Search(query, 0); err != nil {
					b.Fatal(err)
				}
			}
			benchcpu.Report(b, cpu)
		})
	}
}
