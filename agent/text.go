package agent

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// ellipsis ends a text cut by shorten.
const ellipsis = "…"

// shorten collapses every run of white space in s (newlines included) to
// one space, trims it, and, when the result is longer than max characters
// (Unicode code points), shortens it so that it is at most max characters
// long; cut reports whether it did. max <= 0 disables the cut (white space
// is still collapsed). This is the catalog's description rule
// (docs/disclosure.md#catalog-block).
//
// A text cut at its end is cut on a word boundary and ends with ellipsis;
// a word longer than half of max is cut inside rather than dropped. A text
// whose routing clause ("Use when ...", "Use this skill when ...", "This
// skill should be used when ...", "Triggers on ...") starts after its first words keeps that clause, since
// it is what routes the model to the skill: the head before it is cut
// instead ("head… Use when ..."), down to a third of max, and only then the
// clause too. No cut ever splits a user-perceived character (a grapheme
// cluster: a letter with its combining marks, an emoji sequence, a flag).
func shorten(s string, max int) (out string, cut bool) {
	s = strings.Join(strings.Fields(s), " ")
	if max <= 0 || chars(s) <= max {
		return s, false
	}
	if max == 1 {
		return ellipsis, true
	}
	if c := routingClause()(s); c > 0 && max >= minClauseMax {
		head, clause := strings.TrimRight(s[:c], " "), s[c:]
		minHead := max / 3
		if hb := max - 1 - chars(clause); hb >= minHead {
			return cutEnd(head, hb) + " " + clause, true
		}
		if chars(head) > minHead {
			return cutEnd(head, minHead) + " " + cutEnd(clause, max-1-minHead), true
		}
	}
	return cutEnd(s, max), true
}

// minClauseMax is the smallest limit at which shorten keeps a routing
// clause: below it there is no room for a head and a clause.
const minClauseMax = 40

// routingClause matches the start of a sentence that says when to use a
// skill.
var routingClause = sync.OnceValue(func() func(string) int {
	re := regexp.MustCompile(`(?i)\b(?:use (?:this (?:skill |tool )?|it )?(?:when|whenever|if|for)|this skill should be used (?:when|whenever|for|if)|(?:triggers?|invoke|activate) (?:this (?:skill )?)?(?:when|whenever|on|for)|when to use)\b`)
	return func(s string) int {
		for _, m := range re.FindAllStringIndex(s, -1) {
			i := m[0]
			if i == 0 {
				return 0 // the text opens with it: an ordinary cut keeps it
			}
			prev := strings.TrimRight(s[:i], " ")
			r, _ := utf8.DecodeLastRuneInString(prev)
			if s[i] >= 'A' && s[i] <= 'Z' || strings.ContainsRune(".!?;:)([—–-", r) {
				return i
			}
		}
		return -1
	}
})

// cutEnd shortens s, which is longer than max characters, to at most max
// characters ending with ellipsis: whole grapheme clusters, cut on a
// word boundary unless the last word is longer than half of max.
func cutEnd(s string, max int) string {
	if max <= 1 {
		return ellipsis
	}
	// keep is whole clusters of at most max-1 characters, leaving room for
	// the ellipsis; space is the end of keep's last cluster that is a space.
	end, n, space := 0, 0, -1
	bounds := []int{0} // cluster boundaries of keep
	state := -1
	for rest := s; rest != ""; {
		cl, next, _, st := uniseg.FirstGraphemeClusterInString(rest, state)
		k := chars(cl)
		if n+k > max-1 {
			break
		}
		if cl == " " {
			space = end
		}
		n, end, rest, state = n+k, end+len(cl), next, st
		bounds = append(bounds, end)
	}
	keep := s[:end]
	if end < len(s) && !strings.HasPrefix(s[end:], " ") && space >= 0 && chars(keep[:space]) > max/2 {
		keep = keep[:space] // the cut falls inside a word: back up to its start
	}
	head := strings.TrimRightFunc(keep, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(",;:-–—", r)
	})
	// Trimming may end inside a cluster (a prepended mark joins the space
	// after it): back up to the cluster's start.
	for i := len(bounds) - 1; i >= 0; i-- {
		if bounds[i] <= len(head) {
			head = head[:bounds[i]]
			break
		}
	}
	if head == "" {
		head = keep
	}
	return head + ellipsis
}

// escapeXML escapes s for XML text and attribute values: & < > " ' become
// entities, and characters XML 1.0 forbids (most C0 controls, U+FFFE,
// U+FFFF, invalid UTF-8) become U+FFFD, so the result always parses and no
// text can open or close an element (docs/disclosure.md#catalog-block).
func escapeXML(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&apos;")
		default:
			if !xmlChar(r) { // invalid UTF-8 decodes as U+FFFD already
				r = '\uFFFD'
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// xmlChar reports whether r may appear in an XML 1.0 document.
func xmlChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}

// chars counts the characters (code points) of s: the unit of every budget
// in this package.
func chars(s string) int { return utf8.RuneCountInString(s) }

// editDist computes edit distances in code points, reusing its rows from
// one call to the next: closest compares a name with every skill's, and
// at 100,000 skills two rows a comparison were most of what skillet show
// of an unknown name allocated.
type editDist struct {
	prev, cur []int
	// q is the code points distances are taken to (setQuery); bits says
	// it holds 1 to 64 of them, and then each code point of q has a bit
	// mask, bit i set where q[i] is that code point: ascii for those
	// below 128, other for the rest, in order of first place.
	q     []rune
	bits  bool
	ascii [128]uint64
	other []runeMask
}

// runeMask is the bit mask of a code point of editDist.q above ASCII.
type runeMask struct {
	r    rune
	mask uint64
}

// setQuery makes q the code points toQuery measures from (kept, not
// copied: q must not change while it is the query).
func (lv *editDist) setQuery(q []rune) {
	lv.q, lv.bits = q, len(q) > 0 && len(q) <= 64
	lv.ascii, lv.other = [128]uint64{}, lv.other[:0]
	if !lv.bits {
		return
	}
	for i, r := range q {
		if r >= 0 && r < 128 {
			lv.ascii[r] |= 1 << i
			continue
		}
		j := 0
		for j < len(lv.other) && lv.other[j].r != r {
			j++
		}
		if j == len(lv.other) {
			lv.other = append(lv.other, runeMask{r: r})
		}
		lv.other[j].mask |= 1 << i
	}
}

// eq is the bit mask of r in the query: the places of the query that
// hold r.
func (lv *editDist) eq(r rune) uint64 {
	if r >= 0 && r < 128 {
		return lv.ascii[r]
	}
	for _, o := range lv.other {
		if o.r == r {
			return o.mask
		}
	}
	return 0
}

// toQuery is within(q, rb, k) for the query q (setQuery). A query of 1
// to 64 code points is measured a column of the table at a time, the
// column's differences from one row to the next as two bit vectors
// (Myers' bit-parallel edit distance in Hyyrö's form, "A Bit-Vector
// Algorithm for Computing Levenshtein and Damerau Edit Distances", 2003,
// https://www.stringology.org/event/2002/p6.html): one pass over rb of
// a few word operations a code point, where the table fills len(q) cells.
func (lv *editDist) toQuery(rb []rune, k int) int {
	m := len(lv.q)
	if !lv.bits || len(rb) == 0 {
		return lv.within(lv.q, rb, k)
	}
	if d := m - len(rb); d > k || -d > k {
		return k + 1
	}
	last := uint64(1) << (m - 1)
	pv, mv, score := ^uint64(0), uint64(0), m
	for _, r := range rb {
		eq := lv.eq(r)
		xv := eq | mv
		xh := (((eq & pv) + pv) ^ pv) | eq
		ph := mv | ^(xh | pv)
		mh := pv & xh
		switch {
		case ph&last != 0:
			score++
		case mh&last != 0:
			score--
		}
		ph = ph<<1 | 1
		mh <<= 1
		pv = mh | ^(xv | ph)
		mv = ph & xv
	}
	return min(score, k+1)
}

// within returns the edit distance between ra and rb when it is at most
// k, else k+1: the distance is at least the lengths' difference, and no
// less than the least of a row of the table (each row's least is no less
// than the row before's), so neither is computed past k. closest needs a
// distance only when it is within a bound
// (docs/performance.md#one-skill-commands-warm-at-100000-6-december-1430-utc).
func (lv *editDist) within(ra, rb []rune, k int) int {
	if len(ra) == 0 || len(rb) == 0 {
		return min(max(len(ra), len(rb)), k+1)
	}
	if d := len(ra) - len(rb); d > k || -d > k {
		return k + 1
	}
	if cap(lv.prev) < len(rb)+1 {
		lv.prev, lv.cur = make([]int, len(rb)+1), make([]int, len(rb)+1)
	}
	prev, cur := lv.prev[:len(rb)+1], lv.cur[:len(rb)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		least := i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			least = min(least, cur[j])
		}
		if least > k {
			return k + 1
		}
		prev, cur = cur, prev
	}
	return min(prev[len(rb)], k+1)
}

// maxEchoBytes is how much of a name or query a result repeats back.
const maxEchoBytes = 256

// echo returns s, or its first maxEchoBytes bytes (cut at a character) and
// ellipsis when it is longer, so that a result never repeats a huge
// argument back.
func echo(s string) string {
	if len(s) <= maxEchoBytes {
		return s
	}
	end := maxEchoBytes
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + ellipsis
}
