package catalog

import (
	"context"
	"errors"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode"
	"weak"

	"github.com/skillet-go/skillet/skill"
)

// ErrEmptyQuery is returned by [Catalog.Search] and [Listing.Search] when
// the query holds no word to search for (only spaces or punctuation).
var ErrEmptyQuery = errors.New("the query holds no words to search for")

// SearchResult is one skill found by a search.
type SearchResult struct {
	// Skill is the skill found. Hidden and unlisted skills are found too:
	// callers that answer a model filter hidden ones out.
	Skill *Skill
	// Score is the skill's BM25F score for the query: positive, higher is
	// better, comparable only within one search. An exact name match is
	// ranked first whatever its score.
	Score float64
	// Matched lists the query's words (lower-cased, stemmed) found in the
	// skill, in query order.
	Matched []string
	// ExactName says the whole query is the skill's name.
	ExactName bool
}

// Search ranks the skills of the current listing against query, best first,
// and returns at most limit results (limit <= 0: every skill that matches).
// It lists first, so skills added or edited since the last call are seen
// (docs/discovery.md#caching). The ranking is described at [Listing.Search]. The error wraps
// ErrEmptyQuery when the query has no words, or is ctx's error.
func (c *Catalog) Search(ctx context.Context, query string, limit int) ([]SearchResult, error) {
	l, err := c.List(ctx)
	if err != nil {
		return nil, err
	}
	return l.Search(query, limit)
}

// Field weights and BM25 parameters. The name is the strongest signal, the
// when-to-use hint is written for routing, the description is longest and
// noisiest.
const (
	bm25K1          = 1.2
	bm25B           = 0.75
	weightName      = 3.0
	weightWhenToUse = 2.0
	weightDesc      = 1.0
	// prefixFactor is how much a query word counts when it is only a prefix
	// of a word in the skill ("deploy" in "deployment").
	prefixFactor = 0.5
	// minPrefix is the shortest query word matched as a prefix.
	minPrefix = 3
)

// Search ranks the listing's skills (hidden and unlisted ones included)
// against query and returns at most limit results, best first (limit <= 0:
// all that match). Skills that match no query word are left out.
//
// The ranking is BM25F over three fields: the name (weight 3, split at "-",
// "_" and "."), the when-to-use hint (weight 2) and the description (weight
// 1), with k1 = 1.2 and b = 0.75, each field length-normalised against its
// average. Words are lower-cased, split at anything that is not a letter or
// a digit, and reduced by a light English stemmer ("releases", "released"
// and "releasing" all match "release"); a handful of stop words are dropped
// from the query unless nothing else is left. A query word of three or
// more characters that is only the prefix of a skill's word counts half. A
// query equal to a skill's name ranks that skill first. Ties keep the
// listing's order (precedence), so results are deterministic.
func (l *Listing) Search(query string, limit int) ([]SearchResult, error) {
	terms := queryTerms(query)
	if len(terms) == 0 {
		return nil, ErrEmptyQuery
	}
	exact := strings.ToLower(strings.Join(strings.Fields(query), "-"))

	type doc struct {
		fields [3][]string
	}
	weights := [3]float64{weightName, weightWhenToUse, weightDesc}
	docs := make([]doc, len(l.Skills))
	var total [3]float64
	for i, s := range l.Skills {
		docs[i].fields = docTokens(s.Skill)
		for f := range 3 {
			total[f] += float64(len(docs[i].fields[f]))
		}
	}
	n := float64(len(docs))
	var avg [3]float64
	for f := range 3 {
		if n > 0 {
			avg[f] = total[f] / n
		}
	}

	// tf[d][t] is the weighted, length-normalised frequency of term t in
	// document d; df[t] counts the documents holding t.
	tf := make([][]float64, len(docs))
	df := make([]float64, len(terms))
	for d := range docs {
		tf[d] = make([]float64, len(terms))
		for t, term := range terms {
			var sum float64
			for f := range 3 {
				words := docs[d].fields[f]
				if len(words) == 0 {
					continue
				}
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
		isExact := s.Name == exact
		if score == 0 && !isExact {
			continue
		}
		out = append(out, SearchResult{Skill: s, Score: score, Matched: matched, ExactName: isExact})
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
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// stopWords are dropped from queries: they appear in most descriptions and
// say nothing about a task.
var stopWords = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true, "by": true,
	"can": true, "do": true, "for": true, "from": true, "how": true, "i": true, "in": true, "into": true,
	"is": true, "it": true, "me": true, "my": true, "of": true, "on": true, "or": true, "our": true,
	"please": true, "skill": true, "that": true, "the": true, "this": true, "to": true, "we": true,
	"what": true, "with": true, "you": true, "your": true,
}

// queryTerms returns the query's distinct stemmed words, stop words dropped
// unless they are all there is.
func queryTerms(q string) []string {
	var all, kept []string
	seen := map[string]bool{}
	for _, raw := range splitWords(q) {
		w := stem(raw)
		if seen[w] {
			continue
		}
		seen[w] = true
		all = append(all, w)
		if !stopWords[raw] {
			kept = append(kept, w)
		}
	}
	if len(kept) == 0 {
		return all
	}
	return kept
}

// tokenCache holds the stemmed words of each parsed skill's name,
// when-to-use and description. The catalog keeps a parsed *skill.Skill
// while its file is unchanged (docs/discovery.md#caching), so searches after the first do not
// tokenize again. Keys are weak: an entry goes when its skill is garbage
// collected. An entry is used only while the texts it was built from are
// still the skill's.
var tokenCache = struct {
	sync.Mutex
	m map[weak.Pointer[skill.Skill]]*tokenEntry
}{m: map[weak.Pointer[skill.Skill]]*tokenEntry{}}

type tokenEntry struct {
	name, when, desc string
	fields           [3][]string
}

// docTokens returns the stemmed words of s's name, when-to-use and
// description, from the cache when they are there.
func docTokens(s *skill.Skill) [3][]string {
	key := weak.Make(s)
	tokenCache.Lock()
	e := tokenCache.m[key]
	tokenCache.Unlock()
	if e != nil && e.name == s.Name && e.when == s.WhenToUse && e.desc == s.Description {
		return e.fields
	}
	e = &tokenEntry{name: s.Name, when: s.WhenToUse, desc: s.Description,
		fields: [3][]string{tokens(s.Name), tokens(s.WhenToUse), tokens(s.Description)}}
	tokenCache.Lock()
	if _, ok := tokenCache.m[key]; !ok {
		runtime.AddCleanup(s, func(k weak.Pointer[skill.Skill]) {
			tokenCache.Lock()
			delete(tokenCache.m, k)
			tokenCache.Unlock()
		}, key)
	}
	tokenCache.m[key] = e
	tokenCache.Unlock()
	return e.fields
}

// tokens returns the stemmed words of a field.
func tokens(s string) []string {
	words := splitWords(s)
	for i, w := range words {
		words[i] = stem(w)
	}
	return words
}

// splitWords lower-cases s and splits it at every rune that is not a
// letter or a digit.
func splitWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// stem strips common English inflections so that forms of one word meet:
// plural "s"/"es"/"ies", "ing" and "ed" (undoubling a final consonant), and
// a final "e". It is deliberately small: both the query and the skills go
// through it, so it only has to be consistent.
func stem(w string) string {
	if len(w) <= 3 || !isASCIILower(w) {
		return w
	}
	switch {
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
	case strings.HasSuffix(w, "s"):
		w = w[:len(w)-1]
	}
	undouble := false
	switch {
	case strings.HasSuffix(w, "ing") && len(w) >= 6:
		w = w[:len(w)-3]
		undouble = true
	case strings.HasSuffix(w, "ed") && len(w) >= 5:
		w = w[:len(w)-2]
		undouble = true
	}
	if undouble && len(w) >= 3 {
		a, b := w[len(w)-1], w[len(w)-2]
		if a == b && !strings.ContainsRune("aeiouslz", rune(a)) {
			w = w[:len(w)-1]
		}
	}
	if len(w) > 3 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}

func isASCIILower(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}
