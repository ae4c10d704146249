package jsonw

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillet-go/skillet/internal/benchcpu"
	"github.com/skillet-go/skillet/internal/benchtree/tree"
	"github.com/skillet-go/skillet/internal/testcorpus"
	"github.com/skillet-go/skillet/skill"
)

// quoteBytes is quote a byte at a time: the plain path of its
// eight-bytes-at-a-time skip (swar.Skip with quoteFlags).
func (w *Writer) quoteBytes(s string, html bool) {
	b := append(w.B, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if k := strClass[c]; k == plainByte || k == htmlByte && !html {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			b = appendEscape(b, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			start = i + size
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			start = i + size
		}
		i += size
	}
	b = append(b, s[start:]...)
	w.B = append(b, '"')
}

// appendEscape appends the escape of an ASCII byte quote escapes.
func appendEscape(b []byte, c byte) []byte {
	switch c {
	case '\\', '"':
		return append(b, '\\', c)
	case '\b':
		return append(b, '\\', 'b')
	case '\f':
		return append(b, '\\', 'f')
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
}

// reportStrings returns the strings list --json and lint --json write of
// each SKILL.md under dir: its path and folder, name, description,
// when-to-use and the parser's messages.
func reportStrings(tb testing.TB, dir string) []string {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.EqualFold(d.Name(), "SKILL.md") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s, diags := skill.Parse(data, &skill.Options{Path: p})
		out = append(out, p, filepath.Dir(p))
		if s != nil {
			out = append(out, s.Name, s.Description, s.WhenToUse)
		}
		for _, d := range diags {
			out = append(out, d.Message)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// BenchmarkQuote writes the strings of the reports of the published
// corpus and of a generated tree of 1,000 skills (reportStrings) as JSON
// strings, a byte at a time (quoteBytes, the plain path) and eight bytes
// at a time (Str), after checking that both write the same bytes.
// cpu-ns/op is the process's CPU time an operation (internal/benchcpu).
//
//	go test ./internal/jsonw -run '^$' -bench Quote -count 6 -benchmem
func BenchmarkQuote(b *testing.B) {
	gen := b.TempDir()
	if _, err := tree.Generate(gen, &tree.Options{N: 1000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	sets := []struct {
		name string
		strs []string
	}{{"generated", reportStrings(b, gen)}}
	if dir := testcorpus.Find(); dir != "" {
		sets = append(sets, struct {
			name string
			strs []string
		}{"corpus", reportStrings(b, dir)})
	} else {
		b.Log("corpus of published skills not found (SKILLET_CORPUS or ../shared/corpus): only the generated tree")
	}
	for _, set := range sets {
		size := 0
		var words, plain Writer
		for _, s := range set.strs {
			size += len(s)
			words.Str(s)
			plain.quoteBytes(s, false)
		}
		if string(words.B) != string(plain.B) {
			b.Fatalf("%s: quoteBytes writes other bytes than Str", set.name)
		}
		for _, path := range []struct {
			name  string
			quote func(w *Writer, s string)
		}{{"bytes", func(w *Writer, s string) { w.quoteBytes(s, false) }}, {"words", (*Writer).Str}} {
			b.Run(set.name+"/"+path.name, func(b *testing.B) {
				b.SetBytes(int64(size))
				b.ReportAllocs()
				w := Writer{B: make([]byte, 0, 2*size)}
				cpu := benchcpu.Now()
				for b.Loop() {
					w.B = w.B[:0]
					for _, s := range set.strs {
						path.quote(&w, s)
					}
				}
				benchcpu.Report(b, cpu)
				b.ReportMetric(float64(len(set.strs)), "strings")
			})
		}
	}
}
