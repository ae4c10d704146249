package catalog

import (
	"unicode"
	"unicode/utf8"
)

// namePatternMatch is regexp.MatchString of the name patterns of the host
// profiles (profile.Naming.Pattern) as one pass over the name's bytes,
// for the five patterns the profiles hold; known is false for any other
// pattern, which the caller matches with its regular expression. Each
// profile that reads a file matched its name with the regular expression
// (regexp's one-pass matcher, 2.3 ms of a lint --compat run over both
// corpus folders: pprof of 30 runs of BenchmarkCompat/compat).
// FuzzNamePatternMatch holds it to the expressions.
func namePatternMatch(pattern, name string) (ok, known bool) {
	switch pattern {
	case `^[a-z0-9-]+$`:
		return name != "" && allBytes(name, func(c byte) bool { return lowerDigit(c) || c == '-' }), true
	case `^[a-z0-9][a-z0-9._-]*$`:
		return name != "" && lowerDigit(name[0]) &&
			allBytes(name, func(c byte) bool { return lowerDigit(c) || c == '.' || c == '_' || c == '-' }), true
	case `^[A-Za-z0-9][A-Za-z0-9_.-]*$`:
		return name != "" && alnum(name[0]) &&
			allBytes(name, func(c byte) bool { return alnum(c) || c == '.' || c == '_' || c == '-' }), true
	case `^[a-z0-9]+(-[a-z0-9]+)*$`:
		return kebab(name), true
	case `^[\p{L}\p{N}_:.-]+$`:
		if name == "" {
			return false, true
		}
		for i := 0; i < len(name); {
			r, n := utf8.DecodeRuneInString(name[i:])
			if !unicode.IsLetter(r) && !unicode.IsNumber(r) && r != '_' && r != ':' && r != '.' && r != '-' {
				return false, true
			}
			i += n
		}
		return true, true
	}
	return false, false
}

func lowerDigit(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

func alnum(c byte) bool { return lowerDigit(c) || c >= 'A' && c <= 'Z' }

func allBytes(s string, ok func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

// kebab reports whether s is runs of a-z and 0-9 joined by single hyphens.
func kebab(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '-' {
			if s[i-1] == '-' {
				return false
			}
			continue
		}
		if !lowerDigit(c) {
			return false
		}
	}
	return true
}
