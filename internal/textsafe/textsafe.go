// Package textsafe makes text from skill folders (names, paths,
// descriptions, bodies) safe to print on a terminal: control characters,
// escape sequences (ESC, CSI, OSC), bidirectional overrides and invalid
// UTF-8 are written as visible escapes, so a skill cannot move the cursor,
// retitle the window, hide text or forge a line of output.
package textsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape returns s with every C0 and C1 control character (line breaks and
// tabs included), DEL, bidirectional formatting character (U+202A-U+202E,
// U+2066-U+2069, U+200E, U+200F, U+061C) and invalid UTF-8 byte written as
// a Go escape (\n, \t, \x1b, \u202e), so s stays on one line. It returns s
// itself when nothing needs escaping.
func Escape(s string) string { return escape(s, false) }

// EscapeBlock is [Escape] for text of several lines (a body, a prompt): line
// feeds and tabs stay, and a carriage return stays only before a line feed.
func EscapeBlock(s string) string { return escape(s, true) }

func escape(s string, block bool) string {
	if clean(s, block) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case block && (r == '\n' || r == '\t' || r == '\r' && i+1 < len(s) && s[i+1] == '\n'):
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func clean(s string, block bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				if !block || !(c == '\n' || c == '\t' || c == '\r' && i+1 < len(s) && s[i+1] == '\n') {
					return false
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || unsafe(r) {
			return false
		}
		i += size
	}
	return true
}

// unsafe reports a non-ASCII rune that is a C1 control or a
// bidirectional formatting character.
func unsafe(r rune) bool {
	switch {
	case r >= 0x80 && r < 0xa0:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
}
