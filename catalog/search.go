package catalog

import (
	"context"
	"errors"
	"iter"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"weak"
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
//
// A catalog with a persistent index that has not listed yet answers from
// the index without decoding its listing when the index is current
// (indexsearch.go): the same results, read with the same checks, holding
// only the skills returned. With no current index it lists as Each does,
// writing the index meanwhile, and reads back only the skills returned
// (indexwalk.go).
func (c *Catalog) Search(ctx context.Context, query string, limit int) ([]SearchResult, error) {
	if res, ok := c.searchIndexed(ctx, query, limit); ok {
		return res, nil
	}
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
	exact := exactQuery(query)
	var hits []hit
	var df []float64
	ok := false
	if sd := l.search.usable(l); sd != nil {
		hits, df, ok = sd.hits(terms)
	}
	if !ok {
		hits, df = tokenHits(l.Skills, terms)
	}
	rs := scoreHits(hits, df, len(l.Skills), func(d int) bool { return l.Skills[d].Name == exact })
	rs = bestRanked(rs, limit)
	return searchResults(rs, hits, terms, func(d int) *Skill { return l.Skills[d] }), nil
}

// exactQuery is the name a query would be as a whole: its words, lower
// case, joined by "-".
func exactQuery(query string) string {
	return strings.ToLower(strings.Join(strings.Fields(query), "-"))
}

// ranked is a matching skill scored: a small record of its own, so that
// only the results returned are built (a query that matches thousands of
// skills returns ten of them by default).
type ranked struct {
	score  float64
	doc    int
	lo, hi int // its hits
	exact  bool
	terms  uint64 // the query's terms it holds (sectionScan.rank), by bit
}

// topRanked keeps what it is given in rankOrder: the first limit only,
// when limit is at most maxSelect, else all of them (n at most).
type topRanked struct {
	limit int
	rs    []ranked
}

func newTopRanked(limit, n int) *topRanked {
	if limit > 0 && limit <= maxSelect {
		return &topRanked{limit: limit, rs: make([]ranked, 0, limit)}
	}
	return &topRanked{limit: limit, rs: make([]ranked, 0, min(n, 64))}
}

func (tr *topRanked) add(r ranked) {
	if tr.limit > 0 && tr.limit <= maxSelect {
		tr.rs = keepFirst(tr.rs, r, tr.limit, rankOrder)
		return
	}
	tr.rs = append(tr.rs, r)
}

// ranked returns what was kept, in rankOrder.
func (tr *topRanked) ranked() []ranked {
	if tr.limit > 0 && tr.limit <= maxSelect {
		return tr.rs
	}
	return bestRanked(tr.rs, tr.limit)
}

// scoreHits scores each of n skills (by position) that has hits or is
// named as the whole query (exact reports whether skill d is), in
// position order: BM25's sum over its hits of idf × the saturated term
// frequency. hits are ordered by skill; df counts the skills of each term.
func scoreHits(hits []hit, df []float64, n int, exact func(d int) bool) []ranked {
	nf := float64(n)
	rs := make([]ranked, 0, min(len(hits)+1, n))
	for d, i := 0, 0; d < n; d++ {
		j := i
		for j < len(hits) && hits[j].doc == d {
			j++
		}
		if isExact := exact(d); j > i || isExact {
			var score float64
			for _, h := range hits[i:j] {
				idf := math.Log(1 + (nf-df[h.term]+0.5)/(df[h.term]+0.5))
				score += idf * h.tf * (bm25K1 + 1) / (h.tf + bm25K1)
			}
			if score != 0 || isExact {
				rs = append(rs, ranked{score: score, doc: d, lo: i, hi: j, exact: isExact})
			}
		}
		i = j
	}
	return rs
}

// rankOrder puts exact names first, then higher scores, ties in listing
// order: the skills' positions make the order total, so this is the
// stable sort by (exact name, score), and its first results are the same
// whether the rest are sorted or not.
func rankOrder(a, b ranked) int {
	if a.exact != b.exact {
		if a.exact {
			return -1
		}
		return 1
	}
	switch {
	case a.score > b.score:
		return -1
	case a.score < b.score:
		return 1
	}
	return a.doc - b.doc
}

// bestRanked returns the first limit of rs in rankOrder (all of them when
// limit <= 0).
func bestRanked(rs []ranked, limit int) []ranked {
	if limit > 0 && limit <= maxSelect && len(rs) > limit {
		return firstRanked(rs, limit, rankOrder)
	}
	slices.SortFunc(rs, rankOrder)
	if limit > 0 && len(rs) > limit {
		rs = rs[:limit]
	}
	return rs
}

// searchResults builds the results of rs, each skill from skillAt(its
// position), with the query terms its hits matched.
func searchResults(rs []ranked, hits []hit, terms []string, skillAt func(d int) *Skill) []SearchResult {
	var out []SearchResult
	if len(rs) > 0 {
		out = make([]SearchResult, len(rs))
	}
	for k, r := range rs {
		var matched []string
		for _, h := range hits[r.lo:r.hi] {
			matched = append(matched, terms[h.term])
		}
		out[k] = SearchResult{Skill: skillAt(r.doc), Score: r.score, Matched: matched, ExactName: r.exact}
	}
	return out
}

// hit is a (skill, term) pair that matches: the skill's position in the
// listing, the term's in the query, and tf, the term's weighted,
// length-normalised frequency in the skill.
type hit struct {
	doc, term int
	tf        float64
}

// tokenHits returns the hits of terms in skills, ordered by skill then
// term, and the number of skills holding each term, from the skills' own
// text.
func tokenHits(skills []*Skill, terms []string) ([]hit, []float64) {
	docs := make([][3][]string, len(skills))
	var total [3]float64
	for i, s := range skills {
		docs[i] = docTokens(s)
		for f := range 3 {
			total[f] += float64(len(docs[i][f]))
		}
	}
	var avg [3]float64
	for f := range 3 {
		if len(docs) > 0 {
			avg[f] = total[f] / float64(len(docs))
		}
	}
	tc := newTermCounter(terms)
	// hits are the (skill, term) pairs that match, skill by skill, terms
	// in query order. df counts the skills holding each term.
	var hits []hit
	df := make([]float64, len(terms))
	for d := range docs {
		for _, t := range tc.count(&docs[d]) {
			hits = append(hits, hit{d, t, tc.tf(t, &docs[d], &avg)})
			df[t]++
		}
	}
	return hits, df
}

// termCounter counts the query's terms in one skill's words after
// another: every term against every word of each field, as a word (1) or,
// for a term of minPrefix bytes or more, as a word's proper prefix
// (prefixFactor). queryTerms keeps at most maxQueryTerms distinct terms,
// so a skill costs at most that many passes over its words.
type termCounter struct {
	terms   []string
	counts  [3][]float64 // by field and term: the current skill's counts
	touched []int        // the terms the current skill holds
}

func newTermCounter(terms []string) *termCounter {
	tc := &termCounter{terms: terms}
	for f := range 3 {
		tc.counts[f] = make([]float64, len(terms))
	}
	return tc
}

// count counts the terms in the three fields of one skill's words and
// returns those it holds, in query order (valid until the next call).
func (tc *termCounter) count(doc *[3][]string) []int {
	tc.touched = tc.touched[:0]
	for t, term := range tc.terms {
		held := false
		for f := range 3 {
			for _, w := range doc[f] {
				switch {
				case w == term:
					tc.counts[f][t]++
					held = true
				case len(term) >= minPrefix && strings.HasPrefix(w, term):
					tc.counts[f][t] += prefixFactor
					held = true
				}
			}
		}
		if held {
			tc.touched = append(tc.touched, t)
		}
	}
	return tc.touched
}

// tf returns term t's weighted, length-normalised frequency in the skill
// whose words doc are (as count counted them; avg the fields' average
// word counts) and clears its counts.
func (tc *termCounter) tf(t int, doc *[3][]string, avg *[3]float64) float64 {
	weights := [3]float64{weightName, weightWhenToUse, weightDesc}
	var sum float64
	for f := range 3 {
		c := tc.counts[f][t]
		tc.counts[f][t] = 0
		if c == 0 {
			continue
		}
		norm := 1 - bm25B
		if avg[f] > 0 {
			norm += bm25B * float64(len(doc[f])) / avg[f]
		}
		sum += weights[f] * c / norm
	}
	return sum
}

// maxSelect is the largest limit for which Search keeps the first results
// as it scores instead of sorting every match.
const maxSelect = 64

// firstRanked returns the first k of rs in order, sorted, keeping a sorted
// list of the best k seen: one comparison for most of a long list.
func firstRanked[T any](rs []T, k int, order func(a, b T) int) []T {
	top := make([]T, 0, k)
	for _, r := range rs {
		top = keepFirst(top, r, k, order)
	}
	return top
}

// keepFirst adds r to top, the first k so far in order, sorted, when it
// is one of the first k.
func keepFirst[T any](top []T, r T, k int, order func(a, b T) int) []T {
	if len(top) == k && order(r, top[k-1]) >= 0 {
		return top
	}
	i, _ := slices.BinarySearchFunc(top, r, order)
	if len(top) < k {
		top = append(top, r)
	}
	copy(top[i+1:], top[i:len(top)-1])
	top[i] = r
	return top
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

// maxQueryTerms is how many distinct words of a query are searched for:
// the first ones, stop words aside; the rest are ignored, so a query's
// cost is bounded whatever its length.
const maxQueryTerms = 64

// maxTermBytes is the longest query word searched for: no skill's name or
// description holds a longer one that matters.
const maxTermBytes = 256

// queryTerms returns the query's distinct stemmed words, stop words dropped
// unless they are all there is, at most maxQueryTerms of them.
func queryTerms(q string) []string {
	var all, kept []string
	seen := map[string]bool{}
	for raw := range wordsOf(q) {
		if len(raw) > maxTermBytes {
			continue
		}
		w := stem(raw)
		if seen[w] {
			continue
		}
		seen[w] = true
		if len(all) < maxQueryTerms {
			all = append(all, w)
		}
		if !stopWords[raw] {
			kept = append(kept, w)
			if len(kept) == maxQueryTerms {
				break
			}
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
	m map[weak.Pointer[Skill]]*tokenEntry
}{m: map[weak.Pointer[Skill]]*tokenEntry{}}

type tokenEntry struct {
	name, when, desc string
	fields           [3][]string
}

// docTokens returns the stemmed words of s's name, when-to-use and
// description, from the cache when they are there.
func docTokens(s *Skill) [3][]string {
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
		runtime.AddCleanup(s, func(k weak.Pointer[Skill]) {
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

// wordsOf yields the words splitWords returns, one at a time, without
// holding them all.
func wordsOf(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for len(s) > 0 {
			i := strings.IndexFunc(s, notWord)
			seg := s
			if i >= 0 {
				_, size := utf8.DecodeRuneInString(s[i:])
				seg, s = s[:i], s[i+size:]
			} else {
				s = ""
			}
			// Lower-casing can turn a letter into something else, so the
			// lower-cased segment is split again, as splitWords splits.
			for _, w := range strings.FieldsFunc(strings.ToLower(seg), notWord) {
				if !yield(w) {
					return
				}
			}
		}
	}
}

func notWord(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// splitWords lower-cases s and splits it at every rune that is not a
// letter or a digit: strings.FieldsFunc(strings.ToLower(s), notWord), with
// ASCII bytes classified by a table and the words appended in one pass
// (splitting was most of a first search's time over a listing read from the
// index; FuzzSplitWords holds it to FieldsFunc).
func splitWords(s string) []string {
	s = strings.ToLower(s)
	words := make([]string, 0, len(s)/6+1)
	start := -1
	for i := 0; i < len(s); {
		c := s[i]
		size := 1
		word := asciiWord[c]
		if c >= utf8.RuneSelf {
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			word = !notWord(r)
		}
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			words = append(words, s[start:i])
			start = -1
		}
		i += size
	}
	if start >= 0 {
		words = append(words, s[start:])
	}
	return words
}

// asciiWord says which ASCII bytes are letters or digits.
var asciiWord = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	return t
}()

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
