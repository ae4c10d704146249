package catalog

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestTextLenAtMostBytes holds the length checks of a host's description
// (Parse.MaxDescriptionChars, Parse.FallbackChars, Disclosure.CatalogChars),
// which count a text only when it is longer than the limit in bytes, to
// counting every text: a text's length in characters or UTF-16 units is
// never more than its bytes, for characters of one to four bytes, invalid
// UTF-8 and every cut of them.
func TestTextLenAtMostBytes(t *testing.T) {
	texts := []string{"", "a", "é", "€", "😀", "a😀é€\n", "\xff", "\xe2\x82", "\xf0\x9f\x98", strings.Repeat("😀", 300),
		strings.Repeat("é€a", 400), "\xed\xa0\x80", "\U0010FFFF", "\uFFFD\uFFFF\U00010000"}
	for _, s := range texts {
		for i := 0; i <= len(s); i++ {
			p := s[:i]
			for _, units := range []string{"", "chars", "utf16"} {
				if n := textLen(units, p); n > len(p) {
					t.Errorf("textLen(%q, %q) = %d, more than its %d bytes", units, p, n, len(p))
				}
			}
			if n := utf8.RuneCountInString(p); n > len(p) {
				t.Errorf("RuneCountInString(%q) = %d, more than its %d bytes", p, n, len(p))
			}
		}
	}
}
