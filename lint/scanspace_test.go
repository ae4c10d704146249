package lint

import (
	"fmt"
	"strings"
	"testing"
)

// oddChars are the characters next to the ones that made the scanner and
// goldmark differ (vertical tab, 5bf75440838b542b; U+2000 around a
// destination, 3f51e5c529150701): every other Unicode space (unicode.IsSpace
// and the Zs category), NEL, NBSP, the byte order mark, zero-width and
// line or paragraph separators, ASCII controls and white space, and bytes
// that are not UTF-8.
var oddChars = []string{
	" ", "\t", "\r", "\v", "\f", "\x00", "\x1b", "\x7f",
	"\u0085", "\u00a0", "\u1680", "\u180e", "\u2000", "\u2001", "\u2002", "\u2003", "\u2004",
	"\u2005", "\u2006", "\u2007", "\u2008", "\u2009", "\u200a", "\u200b", "\u200c", "\u200d",
	"\u2028", "\u2029", "\u202f", "\u205f", "\u2060", "\u3000", "\ufeff", "\ufffd",
	"\xff", "\xc2", "\xe2\x80", "\xc2\x85"[:1], "\xef\xbb", "\xed\xa0\x80",
}

// oddTemplates place an odd character (at "§") at each spot the scanner
// reads: line starts and ends, after heading and list markers, inside and
// around link text and destinations, code spans and fences, and as a line
// of its own between blocks.
var oddTemplates = []string{
	"§\n", "§[a](references/a.md)\n", "[a](references/a.md)§\n", "para§\nnext [a](references/a.md)\n",
	"para\n§\nnext [a](references/a.md)\n", "para\n §\n[a](references/a.md)\n", "para\n§ \n[a](references/a.md)\n",
	"#§[a](references/a.md)\n", "# §[a](references/a.md)\n", "# [a](references/a.md)§\n", "# x §#\n", "#§\n",
	"-§[a](references/a.md)\n", "- §[a](references/a.md)\n", "1.§[a](references/a.md)\n", "1. §[a](references/a.md)\n",
	"- a\n§\n- [b](references/b.md)\n", "- a\n§lazy [b](references/b.md)\n", "-§\n", "1.§\n", "§- a\n",
	"[§](references/a.md)\n", "[§a](references/a.md)\n", "[a§](references/a.md)\n", "[a]§(references/a.md)\n",
	"[a](§references/a.md)\n", "[a](references/a.md§)\n", "[a](references/§a.md)\n", "[a](§)\n", "[a](§§)\n",
	"![a](§assets/a.png§)\n", "[a](§references/a.md \"t\")\n", "[a](<§references/a.md>)\n",
	"`§scripts/a.sh`\n", "`scripts/a.sh§`\n", "`scripts/a.sh§scripts/b.sh`\n", "`§`\n", "``§`` [a](references/a.md)\n",
	"```§\n[a](b)\n```\n[c](references/c.md)\n", "```\n[a](b)\n```§\n[c](references/c.md)\n", "```\n[a](b)\n§```\n[c](references/c.md)\n",
	"§```\n[a](b)\n```\n", "~~~§\nx\n~~~\n", "---§\n", "§---\n", "a\n---§\n", "a\n§===\n", "***§\n", "_§_§_\n",
	"> §[a](references/a.md)\n", "§> [a](references/a.md)\n", "<§div>\n[a](b)\n", "[a]:§references/a.md\n",
	"e.g.§[a](references/a.md)\n", "Examples:§\n\n- [a](references/a.md)\n", "Such as§:\n\n1. `scripts/x.sh`\n",
	"a§*b*§[c](references/c.md)\n", "*§[a](references/a.md)§*\n", "**a**§[b](references/b.md)\n",
	"[a](references/a.md)\n§\n", "[a](references/a.md)\n\n§\n\n[b](references/b.md)", "§",
}

// TestScanOddChars holds the scanner to goldmark (it declines or agrees)
// on every odd character at every spot of every template, alone and
// doubled, so that a divergence of the kind FuzzScanReferences found twice
// in CI is found by the tests first.
func TestScanOddChars(t *testing.T) {
	t.Parallel()
	took := 0
	for _, tpl := range oddTemplates {
		for _, c := range oddChars {
			for _, rep := range []string{c, c + c} {
				body := strings.ReplaceAll(tpl, "§", rep)
				if sameAsGoldmark(t, fmt.Sprintf("template %q with %q", tpl, rep), []byte(body)) {
					took++
				}
			}
		}
	}
	if took == 0 {
		t.Error("the scanner declined every body: the test compares nothing")
	}
	t.Logf("the scanner took %d of %d bodies", took, 2*len(oddTemplates)*len(oddChars))
}
