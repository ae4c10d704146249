package agent

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Ellipsis ends a text cut by [Shorten].
const Ellipsis = "…"

// Shorten collapses every run of white space in s (newlines included) to
// one space, trims it, and, when the result is longer than max characters
// (Unicode code points), cuts it on a word boundary and appends [Ellipsis],
// so the result is at most max characters long. cut reports whether it was
// cut. A word longer than half of max is cut inside the word rather than
// dropped. max <= 0 disables the cut (white space is still collapsed).
// This is the catalog's description rule (004: "the prompt truncates
// descriptions at 240 characters"; docs/disclosure.md#catalog-block).
func Shorten(s string, max int) (out string, cut bool) {
	s = strings.Join(strings.Fields(s), " ")
	if max <= 0 || utf8.RuneCountInString(s) <= max {
		return s, false
	}
	if max == 1 {
		return Ellipsis, true
	}
	// keep is the first max-1 characters, leaving room for the ellipsis;
	// next is the character after them.
	end, n := 0, 0
	for n < max-1 {
		_, size := utf8.DecodeRuneInString(s[end:])
		end += size
		n++
	}
	keep := s[:end]
	if s[end] != ' ' { // the cut falls inside a word: back up to its start
		if i := strings.LastIndexByte(keep, ' '); i >= 0 && utf8.RuneCountInString(keep[:i]) > max/2 {
			keep = keep[:i]
		}
	}
	head := strings.TrimRightFunc(keep, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(",;:-–—", r)
	})
	if head == "" {
		head = keep
	}
	return head + Ellipsis, true
}

// EscapeXML escapes s for XML text and attribute values: & < > " ' become
// entities, and characters XML 1.0 forbids (most C0 controls, U+FFFE,
// U+FFFF, invalid UTF-8) become U+FFFD, so the result always parses and no
// text can open or close an element (docs/disclosure.md#catalog-block).
func EscapeXML(s string) string {
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

// plural returns "1 skill" or "N skills".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// levenshtein returns the edit distance between a and b, in code points.
func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	if len(ra) == 0 {
		return len(rb)
	}
	if len(rb) == 0 {
		return len(ra)
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// maxEchoBytes is how much of a name or query a result repeats back.
const maxEchoBytes = 256

// echo returns s, or its first maxEchoBytes bytes (cut at a character) and
// [Ellipsis] when it is longer, so that a result never repeats a huge
// argument back.
func echo(s string) string {
	if len(s) <= maxEchoBytes {
		return s
	}
	end := maxEchoBytes
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + Ellipsis
}
