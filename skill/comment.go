package skill

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/skillet-go/skillet/internal/diagcode"
)

var _ = Register(CodeInfo{Code: diagcode.ValueComment, Severity: SeverityWarning,
	Summary: "an unquoted description or when-to-use hint holds \" #\": YAML reads the rest of the line as a comment, and it is lost",
	Remedy:  "put the whole value in quotes (description: \"... # ...\")",
	Source:  "YAML 1.2 §6.6 (https://yaml.org/spec/1.2.2/#66-comments)",
	Help: "In an unquoted (plain) YAML value, a # after a space or tab starts a comment: `description: Tracks C # and F # code` reads as \"Tracks C\". " +
		"Every YAML reader agrees, the reference validator included, so hosts show the model the text up to the #. Quote the whole value, or write the # without a space before it."})

// proseKeys are the fields whose text hosts show the model.
var proseKeys = [...]string{"description", "when-to-use", "whenToUse", "when_to_use"}

// reportValueComments reports each prose field written as a plain scalar
// whose text YAML cut at a comment: " #" (or a tab before the #) on the
// key's line or on one of the value's continuation lines, with the text
// after it missing from the value read (got returns the value read for a
// key). The position is the # (file line, column in characters).
func (p *parser) reportValueComments(fm *frontmatter, got func(key string) string) {
	if fm == nil || fm.lines == nil && bytes.IndexByte(fm.text, '#') < 0 {
		return // no line holds a # (lines, when set, are the repaired ones)
	}
	for _, key := range proseKeys {
		k := fm.get(key)
		if k == nil || k.line <= 0 || k.col <= 0 {
			continue
		}
		lines := fm.splitLines()
		i := k.line - fm.lineOff
		if i < 0 || i >= len(lines) {
			continue
		}
		line, col, comment := plainComment(lines[i:], k.col)
		if comment == "" || strings.Contains(got(key), comment) {
			continue
		}
		short := comment
		if utf8.RuneCountInString(short) > 60 {
			short = string([]rune(short)[:57]) + "..."
		}
		p.report(diagcode.ValueComment, k.line+line, col,
			"the %s ends before the \" #\" at column %d: YAML reads %q as a comment, so hosts never show it; put the whole value in quotes to keep it", key, col, short)
	}
}

// plainComment looks at a key's line (lines[0], the key at 1-based column
// keyCol) and the lines after it, and when the value is a plain scalar
// that a comment cuts, returns the line (0 for the key's) and 1-based
// column of the # and the comment's text (without the #, trimmed); ""
// when there is none.
func plainComment(lines []string, keyCol int) (line, col int, comment string) {
	first := lines[0]
	start := byteCol(first, keyCol)
	if start < 0 {
		return 0, 0, ""
	}
	colon := strings.Index(first[start:], ":")
	if colon < 0 {
		return 0, 0, ""
	}
	rest := first[start+colon+1:]
	v := strings.TrimLeft(rest, " \t")
	if v != "" && strings.ContainsRune("\"'|>[{&!*`@%", rune(v[0])) {
		return 0, 0, "" // quoted, block, flow or an indicator: no plain scalar
	}
	off := len(first) - len(rest) // where seg starts in the line
	for n, l := range lines {
		seg := rest
		if n > 0 {
			if strings.TrimSpace(l) == "" {
				continue
			}
			if indent := len(l) - len(strings.TrimLeft(l, " \t")); indent < keyCol {
				return 0, 0, "" // the value ended: the next key, or less indented
			}
			seg, off = l, 0
		}
		for j := 1; j < len(seg); j++ {
			// A # after a space or tab starts a comment; one that is the
			// first thing on its line is a comment line the author meant.
			if seg[j] != '#' || (seg[j-1] != ' ' && seg[j-1] != '\t') || strings.TrimSpace(seg[:j]) == "" {
				continue
			}
			c := strings.TrimSpace(seg[j+1:])
			if c == "" || isDirective(c) {
				return 0, 0, "" // a skillet: directive is meant as a comment
			}
			return n, utf8.RuneCountInString(l[:off+j]) + 1, c
		}
	}
	return 0, 0, ""
}

// byteCol is the byte offset of the 1-based character column col of s,
// or -1 past its end.
func byteCol(s string, col int) int {
	n := 1
	for i := range s {
		if n == col {
			return i
		}
		n++
	}
	return -1
}

// isDirective reports whether comment (the text after a #, trimmed) is a
// skillet directive, "skillet: ignore[...]" (docs/lint.md#choosing-rules),
// which lint reads from the comment.
func isDirective(comment string) bool {
	rest, ok := strings.CutPrefix(comment, "skillet:")
	return ok && strings.HasPrefix(strings.TrimLeft(rest, " \t"), "ignore[")
}
