package textsafe

import "testing"

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, line, block string }{
		{"plain café ✓", "plain café ✓", "plain café ✓"},
		{"a\x1b[31mred\x1b[0m", `a\x1b[31mred\x1b[0m`, `a\x1b[31mred\x1b[0m`},
		{"title\x1b]0;pwned\x07", `title\x1b]0;pwned\x07`, `title\x1b]0;pwned\x07`},
		{"csi\u009b2J", `csi\u009b2J`, `csi\u009b2J`},
		{"two\nlines\ttab", `two\nlines\ttab`, "two\nlines\ttab"},
		{"crlf\r\nover\rwrite", `crlf\r\nover\rwrite`, "crlf\r\nover\\rwrite"},
		{"bidi \u202eevil", `bidi \u202eevil`, `bidi \u202eevil`},
		{"bad \xff byte", `bad \xff byte`, `bad \xff byte`},
		{"del\x7f", `del\x7f`, `del\x7f`},
	} {
		if got := Escape(tc.in); got != tc.line {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.line)
		}
		if got := EscapeBlock(tc.in); got != tc.block {
			t.Errorf("EscapeBlock(%q) = %q, want %q", tc.in, got, tc.block)
		}
	}
}

func FuzzEscape(f *testing.F) {
	f.Add("a\x1b[31m\n\u202e\xff")
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Escape(s), EscapeBlock(s)} {
			for _, r := range out {
				if r < 0x20 && r != '\n' && r != '\t' && r != '\r' || r == 0x7f || r >= 0x80 && r < 0xa0 || r == 0x202e {
					t.Fatalf("%q escaped to %q still holds %U", s, out, r)
				}
			}
		}
		for _, r := range Escape(s) {
			if r == '\n' || r == '\r' {
				t.Fatalf("Escape(%q) = %q has a line break", s, Escape(s))
			}
		}
	})
}
