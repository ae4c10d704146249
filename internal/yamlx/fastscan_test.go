package yamlx

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillet-go/skillet/internal/swar"
)

// fmScanRef is fmScan a byte at a time, as the fast reader's first pass
// read the text before it skipped words.
func fmScanRef(text []byte) (lines, items int, ok bool) {
	lines, lineItems, flow := 1, 0, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch fmClass[c] {
		case fmNewline:
			lines++
			if flow {
				items += lineItems
			}
			lineItems, flow = 0, false
		case fmComma:
			lineItems++
		case fmOpen:
			items++
			flow = true
		case fmReject:
			return 0, 0, false
		case fmHigh:
			switch {
			case c == 0xC2 && i+1 < len(text) && text[i+1] < 0xA0:
				return 0, 0, false
			case c == 0xE2 && i+2 < len(text) && text[i+1] == 0x80 && (text[i+2] == 0xA8 || text[i+2] == 0xA9):
				return 0, 0, false
			case c == 0xEF && i+2 < len(text) && (text[i+1] == 0xBB && text[i+2] == 0xBF || text[i+1] == 0xBF && text[i+2] >= 0xBE):
				return 0, 0, false
			}
		}
	}
	if flow {
		items += lineItems
	}
	return lines, items, true
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
// exactly as the byte-at-a-time pass (fmScanRef) does.
func TestFmScan(t *testing.T) {
	t.Parallel()
	for _, b := range countCases() {
		gl, gi, gok := fmScan(b)
		wl, wi, wok := fmScanRef(b)
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
		wl, wi, wok := fmScanRef(b)
		if gl != wl || gi != wi || gok != wok {
			t.Fatalf("fmScan(%q) = %d, %d, %v; want %d, %d, %v", b, gl, gi, gok, wl, wi, wok)
		}
		if got, want := swar.RuneCount(string(b)), utf8.RuneCountInString(string(b)); got != want {
			t.Fatalf("RuneCount(%q) = %d, want %d", b, got, want)
		}
	})
}
