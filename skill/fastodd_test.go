package skill

import (
	"testing"
	"unicode/utf8"

	"github.com/skillet-go/skillet/internal/yamlx"
)

// oddYAML are the characters and spellings next to the ones the fast path
// must leave to the library or read as it reads them: YAML indicators,
// white space and control characters, the Unicode line breaks (NEL, LS,
// PS) and spaces (NBSP, U+2000, U+3000), the byte order mark and other
// characters YAML does not print (U+FFFE, C1 controls), escapes JSON lacks
// and YAML has, and words the core schema types.
var oddYAML = []string{
	" ", "\t", "\n", "\v", "\f", "\x00", "\x1f", "\x7f", "#", ":", "-", "'", "\"", ",", "[", "]", "{", "}", "\\",
	"&", "*", "!", "|", ">", "%", "@", "`", "?", "~",
	"\u0085", "\u00a0", "\u1680", "\u2000", "\u200b", "\u2028", "\u2029", "\u202f", "\u3000", "\ufeff", "\ufffe",
	"\uffff", "\ufffd", "\U0001F600", "\u0080", "\u009f", "\ue000", "\U000F0000",
	`\u00e9`, `\ud83d\ude00`, `\x41`, `\0`, `\a`, `\e`, `\N`, `\_`, `\L`, `\P`, `\ `, `\t`, "\\\t", `\U0001F600`,
	"0x", "0o", ".inf", "1e3", "null", "true", "yes", "---", "...",
}

// TestFastPathOddChars holds the fast path to the library (it declines,
// or builds the library's node tree) on every seed of FuzzFastPath with
// each odd character inserted at every byte offset and put in place of
// the byte there: the neighbours of each shape it reads, checked every
// run rather than when the fuzzer happens on them. With -short only the
// insertions are made.
func TestFastPathOddChars(t *testing.T) {
	t.Parallel()
	n, took := 0, 0
	for _, s := range fastSeeds {
		for i := 0; i <= len(s); i++ {
			for _, o := range oddYAML {
				texts := []string{s[:i] + o + s[i:], s[:i] + o + s[min(i+1, len(s)):]}
				if testing.Short() {
					texts = texts[:1]
				}
				for _, text := range texts {
					if !utf8.ValidString(text) {
						continue // Parse rejects the file before decoding
					}
					n++
					fast, ok := fastFrontmatter([]byte(text))
					if !ok {
						continue
					}
					took++
					lib, err := yamlx.Parse([]byte(text))
					if err != nil {
						t.Fatalf("the fast path read %q, which the library rejects: %v", text, err)
					}
					if lib == nil {
						t.Fatalf("the fast path read %q, which the library reads as empty", text)
					}
					if d := sameNode(fast, lib, "$"); d != "" {
						t.Fatalf("%q: %s", text, d)
					}
				}
			}
		}
	}
	if took == 0 || took == n {
		t.Fatalf("the fast path read %d of %d texts: the test does not reach both answers", took, n)
	}
	t.Logf("the fast path read %d of %d texts", took, n)
}
