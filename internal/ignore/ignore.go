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
)

// MaxFileBytes is the largest .skilletignore file read; the rest of a
// longer one is not used (Parse reports it).
const MaxFileBytes = 64 << 10

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

// Parse reads the rules of a .skilletignore file. It returns the line
// numbers (1-based) of patterns it could not use (an unclosed "[", for
// example), which match nothing, as git treats them.
func Parse(data []byte) (m *Matcher, bad []int) {
	m = &Matcher{}
	if len(data) > MaxFileBytes {
		data = data[:MaxFileBytes]
	}
	for i, line := range bytes.Split(data, []byte("\n")) {
		r, ok, valid := parseLine(string(bytes.TrimSuffix(line, []byte("\r"))))
		if !valid {
			bad = append(bad, i+1)
			continue
		}
		if ok {
			m.rules = append(m.rules, r)
		}
	}
	return m, bad
}

// parseLine returns the line's rule; ok is false for a blank line or a
// comment, valid false for a pattern that cannot match.
func parseLine(s string) (r rule, ok, valid bool) {
	if strings.HasPrefix(s, "#") {
		return r, false, true
	}
	s = trimTrailingSpaces(s)
	if s == "" {
		return r, false, true
	}
	if strings.HasPrefix(s, "!") {
		r.negate = true
		s = s[1:]
	}
	if strings.HasSuffix(s, "/") && !strings.HasSuffix(s, `\/`) {
		r.dirOnly = true
		s = strings.TrimRight(s, "/")
	}
	if s == "" {
		return r, false, true
	}
	if strings.Contains(s, "/") {
		r.anchored = true
		s = strings.TrimPrefix(s, "/")
	}
	for _, seg := range strings.Split(s, "/") {
		if seg == "" {
			continue // "a//b" is "a/b"
		}
		if seg != "**" {
			seg = convertClass(seg)
			if _, err := path.Match(seg, ""); err != nil {
				return r, false, false
			}
		}
		r.segs = append(r.segs, seg)
	}
	if len(r.segs) == 0 {
		return r, false, true
	}
	return r, true, true
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
