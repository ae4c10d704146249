// Package ignore matches paths against the patterns of a .skilletignore
// file, which uses the syntax of .gitignore (https://git-scm.com/docs/gitignore#_pattern_format):
// one pattern a line; blank lines and lines starting with "#" are skipped;
// "!" re-includes; a trailing "/" matches folders only; a "/" at the start
// or in the middle anchors the pattern to the file's folder, otherwise it
// matches a name at any depth; "*", "?" and "[...]" match within one path
// segment, and "**" as a whole segment matches any number of segments
// ("**/x", "a/**/b", "a/**"). "\" escapes the next character; trailing
// spaces are dropped unless escaped.
package ignore

import (
	"bytes"
	"path"
	"strings"
	"unicode/utf8"
)

// FileName is the file, in a root or in a skill folder, whose patterns
// name skills that are not loaded (a root's file) and bundled files that
// are never listed or read (docs/discovery.md#withheld-files).
const FileName = ".skilletignore"

// MaxFileBytes is the largest .skilletignore file read; the lines of a
// longer one that do not fit whole are not used (Parse reports it).
const MaxFileBytes = 64 << 10

// A Problem is a part of an ignore file that Parse could not use: a
// pattern that can never match (an unclosed "[", for example), which
// matches nothing, as git treats it, or, with TooLarge, the lines past
// MaxFileBytes.
type Problem struct {
	// Line and Column (1-based; Column counts characters) are where the
	// unusable part starts: the pattern's segment that fails, or the first
	// line that is not used.
	Line, Column int
	// Pattern is the line as written (without its line ending).
	Pattern string
	// TooLarge says the file is longer than MaxFileBytes and the lines
	// from Line on are not used.
	TooLarge bool
}

// A Matcher holds the rules of one file. The zero value and nil match
// nothing.
type Matcher struct {
	rules []rule
}

type rule struct {
	segs     []string // pattern segments; "**" is a whole-segment wildcard
	negate   bool
	dirOnly  bool
	anchored bool // matched against the whole path, else against the last segment
}

// Parse reads the rules of a .skilletignore file. It returns the parts it
// could not use, in line order: patterns that can never match, and the
// lines that do not fit whole in the first MaxFileBytes of a longer file.
func Parse(data []byte) (m *Matcher, bad []Problem) {
	m = &Matcher{}
	cut := -1
	if len(data) > MaxFileBytes {
		// Only whole lines of the first MaxFileBytes are used.
		data = data[:MaxFileBytes]
		if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
			data = data[:i+1]
		} else {
			data = nil
		}
		cut = bytes.Count(data, []byte("\n")) + 1
	}
	if len(data) > 0 {
		data = bytes.TrimSuffix(data, []byte("\n"))
		for i, line := range bytes.Split(data, []byte("\n")) {
			s := string(bytes.TrimSuffix(line, []byte("\r")))
			r, ok, at := parseLine(s)
			if at >= 0 {
				bad = append(bad, Problem{Line: i + 1, Column: utf8.RuneCountInString(s[:at]) + 1, Pattern: s})
				continue
			}
			if ok {
				m.rules = append(m.rules, r)
			}
		}
	}
	if cut > 0 {
		bad = append(bad, Problem{Line: cut, Column: 1, TooLarge: true})
	}
	return m, bad
}

// parseLine returns the line's rule; ok is false for a blank line or a
// comment. bad is -1, or for a pattern that cannot match the byte offset
// in s of the segment that fails.
func parseLine(s string) (r rule, ok bool, bad int) {
	if strings.HasPrefix(s, "#") {
		return r, false, -1
	}
	s = trimTrailingSpaces(s)
	if s == "" {
		return r, false, -1
	}
	off := 0 // of s in the line
	if strings.HasPrefix(s, "!") {
		r.negate = true
		s, off = s[1:], 1
	}
	if strings.HasSuffix(s, "/") && !strings.HasSuffix(s, `\/`) {
		r.dirOnly = true
		s = strings.TrimRight(s, "/")
	}
	if s == "" {
		return r, false, -1
	}
	if strings.Contains(s, "/") {
		r.anchored = true
		if strings.HasPrefix(s, "/") {
			s, off = s[1:], off+1
		}
	}
	for seg := range strings.SplitSeq(s, "/") {
		at := off
		off += len(seg) + 1
		if seg == "" {
			continue // "a//b" is "a/b"
		}
		if seg != "**" {
			seg = convertClass(seg)
			if _, err := path.Match(seg, ""); err != nil {
				return r, false, at
			}
		}
		r.segs = append(r.segs, seg)
	}
	if len(r.segs) == 0 {
		return r, false, -1
	}
	return r, true, -1
}

// trimTrailingSpaces drops trailing spaces that are not escaped with "\".
func trimTrailingSpaces(s string) string {
	for strings.HasSuffix(s, " ") {
		t := s[:len(s)-1]
		// Count the backslashes before the space: an odd number escapes it.
		n := 0
		for n < len(t) && t[len(t)-1-n] == '\\' {
			n++
		}
		if n%2 == 1 {
			return s
		}
		s = t
	}
	return s
}

// convertClass turns the "[!...]" of gitignore into the "[^...]" of
// path.Match.
func convertClass(seg string) string {
	if !strings.Contains(seg, "[!") {
		return seg
	}
	var b strings.Builder
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		if c == '\\' && i+1 < len(seg) {
			b.WriteByte(c)
			b.WriteByte(seg[i+1])
			i++
			continue
		}
		b.WriteByte(c)
		if c == '[' && i+1 < len(seg) && seg[i+1] == '!' {
			b.WriteByte('^')
			i++
		}
	}
	return b.String()
}

// Decide reports whether a rule matches p (relative to the file's folder,
// "/" separators, no leading "./") and, when one does, whether the last
// matching rule excludes it. It looks at p itself only; [Matcher.Excluded]
// also looks at p's folders.
func (m *Matcher) Decide(p string, isDir bool) (matched, excluded bool) {
	if m == nil || p == "" || p == "." {
		return false, false
	}
	segs := strings.Split(p, "/")
	for i := len(m.rules) - 1; i >= 0; i-- {
		r := &m.rules[i]
		if r.dirOnly && !isDir {
			continue
		}
		if r.match(segs) {
			return true, !r.negate
		}
	}
	return false, false
}

// Excluded reports whether p, or one of the folders that hold it, is
// excluded: as in git, a file cannot be re-included when a folder above
// it is excluded.
func (m *Matcher) Excluded(p string, isDir bool) bool {
	return Chain{{Matcher: m}}.Excluded(p, isDir)
}

// Layer is the matcher of one ignore file and the path of the folder
// being matched relative to that file's folder ("" when it is the same).
type Layer struct {
	Matcher *Matcher
	Prefix  string
}

// Chain is the ignore files of nested folders, outermost first. A deeper
// file's decision wins over an outer one, as with nested .gitignore files.
type Chain []Layer

// Excluded reports whether p (relative to the innermost folder), or one
// of the folders that hold it, is excluded by the chain.
func (c Chain) Excluded(p string, isDir bool) bool {
	segs := strings.Split(p, "/")
	for i := 1; i <= len(segs); i++ {
		dir := i < len(segs) || isDir
		if c.decide(strings.Join(segs[:i], "/"), dir) {
			return true
		}
	}
	return false
}

func (c Chain) decide(p string, isDir bool) bool {
	for i := len(c) - 1; i >= 0; i-- {
		q := p
		if c[i].Prefix != "" {
			q = c[i].Prefix + "/" + p
		}
		if matched, excluded := c[i].Matcher.Decide(q, isDir); matched {
			return excluded
		}
	}
	return false
}

// match matches the rule against a path's segments.
func (r *rule) match(segs []string) bool {
	if !r.anchored {
		ok, _ := path.Match(r.segs[0], segs[len(segs)-1])
		return len(r.segs) == 1 && ok
	}
	return matchSegs(r.segs, segs)
}

// matchSegs matches pattern segments against path segments, "**" standing
// for any number of segments (at least one when it is the last pattern
// segment: "a/**" matches what is inside a, not a itself). It runs in
// O(len(pat) × len(segs)).
func matchSegs(pat, segs []string) bool {
	// ok[j] says pat[:i] matches segs[:j], for the current i.
	ok := make([]bool, len(segs)+1)
	ok[0] = true
	for i, p := range pat {
		next := make([]bool, len(segs)+1)
		if p == "**" {
			last := i == len(pat)-1
			seen := false
			for j := 0; j <= len(segs); j++ {
				// next[j]: some k <= j with ok[k] (k < j when last).
				if last {
					next[j] = seen
				} else {
					next[j] = seen || ok[j]
				}
				seen = seen || ok[j]
			}
		} else {
			for j := 1; j <= len(segs); j++ {
				if ok[j-1] {
					if m, _ := path.Match(p, segs[j-1]); m {
						next[j] = true
					}
				}
			}
		}
		ok = next
	}
	return ok[len(segs)]
}
