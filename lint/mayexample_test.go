package lint

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/internal/benchtree/tree"
)

// TestMayExample holds the prefilter to the expressions it guards: wherever
// exampleMarker, introMarker or templateMarker match, the prefilter says
// they may.
func TestMayExample(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"e.g. scripts/run.sh", "E.G. this", "see e. g. that", "e.\tg. tab", "e.\fg. form feed",
		"For example, references/x.md", "for instance a/b", "FOR INSTANCE", "such as this", "SUCH AS",
		"Examples:", "example :", "Example", "ſuch as (long s)", "for inſtance", "[Description] a/b", "x [Component name]", "[a] [B]", "[",
		"plain text", "see the file.", "use e.x", "forexample", "e.", "",
	} {
		b := []byte(s)
		if (exampleMarker().MatchString(s) || introMarker().MatchString(s)) && !mayExample(b) {
			t.Errorf("%q: an example marker matches, but mayExample says no", s)
		}
		if templateMarker().Match(b) && !mayTemplate(b) {
			t.Errorf("%q: templateMarker matches, but mayTemplate says no", s)
		}
	}
	for _, s := range []string{"plain text", "see the file.", "use e.x"} {
		if mayExample([]byte(s)) {
			t.Errorf("%q: mayExample says yes to a text without any marker", s)
		}
	}
}

// FuzzMayExample checks the same on any input.
func FuzzMayExample(f *testing.F) {
	for _, s := range []string{"e.g.", "for instance", "such as", "Example:", "ſuch as", "e.\fg."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if (exampleMarker().MatchString(s) || introMarker().MatchString(s)) && !mayExample([]byte(s)) {
			t.Errorf("%q: an example marker matches, but mayExample says no", s)
		}
		if templateMarker().MatchString(s) && !mayTemplate([]byte(s)) {
			t.Errorf("%q: templateMarker matches, but mayTemplate says no", s)
		}
		if got, want := mayExample([]byte(s)), mayExampleEveryByte([]byte(s)); got != want {
			t.Errorf("mayExample(%q) = %v, comparing at every byte %v", s, got, want)
		}
	})
}

// mayExampleEveryByte is mayExample as it was first written, comparing at
// every byte: the reference TestMayExampleWords holds mayExample to.
// It reports whether exampleMarker or introMarker can match text
// (or a sentence of it): each of their alternatives holds "example", "for
// instance", "such as" or "e.g." (with at most one space after "e."), which
// text must hold in some letter case. A text with non-ASCII bytes is always
// handed to the expressions, since (?i) folds letters such as U+017F (long
// s) that ASCII lowering does not.
func mayExampleEveryByte(text []byte) bool {
	for _, c := range text {
		if c >= 0x80 {
			return true
		}
	}
	// ASCII only from here: compare with letters lowered in place.
	lower := func(c byte) byte {
		if c >= 'A' && c <= 'Z' {
			return c + 'a' - 'A'
		}
		return c
	}
	has := func(i int, word string) bool {
		if i+len(word) > len(text) {
			return false
		}
		for k := 0; k < len(word); k++ {
			if lower(text[i+k]) != word[k] {
				return false
			}
		}
		return true
	}
	for i, c := range text {
		switch lower(c) {
		case 'e':
			if has(i, "example") {
				return true
			}
			if k := i + 2; has(i, "e.") && k < len(text) && (lower(text[k]) == 'g' || (isSpace(text[k]) || text[k] == '\f') && k+1 < len(text) && lower(text[k+1]) == 'g') {
				return true
			}
		case 's':
			if has(i, "such as") {
				return true
			}
		case 'f':
			if has(i, "for instance") {
				return true
			}
		}
	}
	return false
}

// TestMayExampleWords: mayExample, which compares letters only where
// bytes.IndexByte finds an anchor, says what comparing at every byte says,
// for the texts of TestMayExample, every letter case and spacing of its
// words at every offset of a text, and (FuzzMayExample) any text.
func TestMayExampleWords(t *testing.T) {
	t.Parallel()
	texts := []string{"plain text", "see the file.", "use e.x", "e.", "", "x", ".", "E.G", "e.\fg", "e. G", "e.  g"}
	for _, w := range []string{"example", "e.g", "e. g", "e.\tg", "such as", "for instance", "Examples", "E.G.", "SUCH AS", "For Instance", "suc as", "fo instance", "exampl", "xample"} {
		for _, pad := range []string{"", "a", "ab ", "abcdefgh", "abcdefghijklmno"} {
			texts = append(texts, pad+w, w+pad, pad+w+pad, pad+w[:len(w)-1], pad+strings.ToUpper(w)+"é")
		}
	}
	for _, s := range texts {
		if got, want := mayExample([]byte(s)), mayExampleEveryByte([]byte(s)); got != want {
			t.Errorf("mayExample(%q) = %v, comparing at every byte %v", s, got, want)
		}
	}
}

// TestExampleWord: mayExample's word test flags exactly the bytes of a
// word that are non-ASCII or start one of the pairs (with the byte after
// it, which may be the next word's first), for every pair of byte values
// at every position among bytes of several kinds.
func TestExampleWord(t *testing.T) {
	t.Parallel()
	starts := func(w []byte, i int) bool {
		a, b := lowerASCII(w[i]), w[i+1]
		return w[i] >= 0x80 || a == 'x' && lowerASCII(b) == 'a' || a == 'e' && b == '.' ||
			a == 'u' && lowerASCII(b) == 'c' || a == 'n' && lowerASCII(b) == 's'
	}
	for _, fill := range []byte{'a', ' ', 'X' + 1, '.' - 1, 'x', 'E', 'S'} {
		for p := range 8 {
			for c := range 256 * 256 {
				var w [9]byte
				for i := range w {
					w[i] = fill
				}
				w[p], w[p+1] = byte(c>>8), byte(c)
				want := false
				for i := range 8 {
					want = want || starts(w[:], i)
				}
				m := exampleWord(binary.LittleEndian.Uint64(w[:]), binary.LittleEndian.Uint64(w[1:]))
				if got := m != 0; got != want {
					t.Fatalf("%q: exampleWord says %v, want %v", w, got, want)
				}
				for i := range 8 {
					if flagged := m&(0x80<<(8*i)) != 0; flagged != starts(w[:], i) {
						t.Fatalf("%q: exampleWord flags byte %d: %v, want %v", w, i, flagged, !flagged)
					}
				}
			}
		}
	}
}

// BenchmarkMayExample runs mayExample, and comparing at every byte
// (mayExampleEveryByte), over the paragraphs of the bodies of a generated
// tree of 1,000 skills (most hold no marker, so are read to the end, as
// the blocks around lint's references are), and reports the bytes read
// per second (B/s).
//
//	go test ./lint -run '^$' -bench MayExample
func BenchmarkMayExample(b *testing.B) {
	gen := b.TempDir()
	if _, err := tree.Generate(gen, &tree.Options{N: 1000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	var paras [][]byte
	size := 0
	for _, body := range prefilterBodies(b, gen) {
		for p := range strings.SplitSeq(body, "\n\n") {
			paras = append(paras, []byte(p))
			size += len(p)
		}
	}
	for _, f := range []struct {
		name string
		fn   func([]byte) bool
	}{{"pairs", mayExample}, {"everybyte", mayExampleEveryByte}} {
		b.Run(f.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			n := 0
			for b.Loop() {
				for _, p := range paras {
					if f.fn(p) {
						n++
					}
				}
			}
			b.ReportMetric(float64(n)/float64(b.N), "markers/op")
		})
	}
}
