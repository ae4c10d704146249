package yamlx

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillet-go/skillet/internal/swar"
)

// fmScanRule is what fmScan returns, said from its doc comment rather than
// from its byte classes: a line a line feed, the items of a line the "["
// and "{" it holds and, when it holds one, its commas; declined: "#", DEL,
// a control byte other than the line feed, C2 followed by a byte below A0
// (a C1 control), U+2028, U+2029, a BOM (U+FEFF) and U+FFFE, U+FFFF (EF BF
// followed by BE or above).
func fmScanRule(text []byte) (lines, items int, ok bool) {
	if bytes.ContainsFunc(text, func(r rune) bool { return r == '#' || r == 0x7f || r < 0x20 && r != '\n' }) {
		return 0, 0, false
	}
	for _, bad := range []string{"\u2028", "\u2029", "\ufeff"} {
		if bytes.Contains(text, []byte(bad)) {
			return 0, 0, false
		}
	}
	for _, lead := range []string{"\xc2", "\xef\xbf"} {
		for rest := text; ; {
			i := bytes.Index(rest, []byte(lead))
			if i < 0 {
				break
			}
			rest = rest[i+len(lead):]
			if len(rest) > 0 && (lead == "\xc2" && rest[0] < 0xa0 || lead != "\xc2" && rest[0] >= 0xbe) {
				return 0, 0, false
			}
		}
	}
	for _, line := range bytes.Split(text, []byte("\n")) {
		opens := bytes.Count(line, []byte("[")) + bytes.Count(line, []byte("{"))
		items += opens
		if opens > 0 {
			items += bytes.Count(line, []byte(","))
		}
	}
	return bytes.Count(text, []byte("\n")) + 1, items, true
}

// countCases are texts with every byte value at every offset of a text
// longer than a few words (so at each place in a word), and the bytes of the
// sequences fmScan declines cut at a word's end.
func countCases() [][]byte {
	base := []byte("name: a-b_c\ndescription: plain text, [x, {y: z}] é 漢 🎉 and more text\ntags: [a, b]\n")
	var out [][]byte
	for i := range base {
		for c := range 256 {
			b := []byte(string(base))
			b[i] = byte(c)
			out = append(out, b)
		}
	}
	for _, tail := range []string{"\xc2\x85", "\xc2\xa0", "\xe2\x80\xa8", "\xe2\x80\xa9", "\xef\xbb\xbf", "\xef\xbf\xbe", "\xef\xbf\xbd", "#", "\t", "\x7f", "_", "[", "{"} {
		for pad := range 17 {
			out = append(out, []byte(strings.Repeat("a", pad)+tail+"b"), []byte(strings.Repeat("a", pad)+tail))
		}
	}
	return append(out, nil, []byte("\n"), []byte(strings.Repeat("key: value\n", 20)))
}

// TestFmScan: fmScan, which skips words of plain bytes, counts and declines
// exactly as its rule (fmScanRule) says.
func TestFmScan(t *testing.T) {
	t.Parallel()
	for _, b := range countCases() {
		gl, gi, gok := fmScan(b)
		wl, wi, wok := fmScanRule(b)
		if gl != wl || gi != wi || gok != wok {
			t.Fatalf("fmScan(%q) = %d, %d, %v; want %d, %d, %v", b, gl, gi, gok, wl, wi, wok)
		}
	}
}

// TestRuneCount: swar.RuneCount, which the fast reader counts columns
// with, is utf8.RuneCountInString on the same texts, invalid UTF-8 too.
func TestRuneCount(t *testing.T) {
	t.Parallel()
	for _, b := range countCases() {
		if got, want := swar.RuneCount(string(b)), utf8.RuneCountInString(string(b)); got != want {
			t.Fatalf("RuneCount(%q) = %d, want %d", b, got, want)
		}
	}
}

// FuzzFmScan checks both on any bytes.
func FuzzFmScan(f *testing.F) {
	f.Add([]byte("name: x\ndescription: \"a, b\" [c, {d: e}] é\xc2\x85 # \t\x7f"))
	f.Fuzz(func(t *testing.T, b []byte) {
		gl, gi, gok := fmScan(b)
		wl, wi, wok := fmScanRule(b)
		if gl != wl || gi != wi || gok != wok {
			t.Fatalf("fmScan(%q) = %d, %d, %v; want %d, %d, %v", b, gl, gi, gok, wl, wi, wok)
		}
		if got, want := swar.RuneCount(string(b)), utf8.RuneCountInString(string(b)); got != want {
			t.Fatalf("RuneCount(%q) = %d, want %d", b, got, want)
		}
	})
}
