package lint

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/internal/benchtree/tree"
	"github.com/skillet-go/skillet/internal/testcorpus"
	"github.com/skillet-go/skillet/skill"
)

// TestMayReference: a body that mayReference turns away holds no
// Reference, on every body of the published corpus and on cases near the
// edge; skipping the parser for it loses nothing.
func TestMayReference(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		body string
		want bool
	}{
		{"plain prose, no links", false},
		{"see [the guide](references/guide.md)", true},
		{"![logo](assets/logo.png)", true},
		{"[guide][g]\n\n[g]: references/guide.md\n", true},
		{"run `scripts/build.sh` first", true},
		{"a URL https://example.com/x is not a link", false},
		{"`make test` and `go vet ./...`", false},
	} {
		if got := mayReference(c.body); got != c.want {
			t.Errorf("mayReference(%q) = %v, want %v", c.body, got, c.want)
		}
		if !c.want && len(listReferences([]byte(c.body))) != 0 {
			t.Errorf("%q: mayReference says no, but listReferences finds %v", c.body, listReferences([]byte(c.body)))
		}
	}
	dir := testcorpus.Dir(t)
	skipped, total := 0, 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.EqualFold(d.Name(), "SKILL.md") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s, _ := skill.Parse(data, &skill.Options{Path: p})
		if s == nil {
			return nil
		}
		total++
		if !mayReference(s.Body) {
			skipped++
			if refs := listReferences([]byte(s.Body)); len(refs) != 0 {
				t.Errorf("%s: mayReference says no, but listReferences finds %v", p, refs)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d of %d corpus bodies skip the Markdown parser", skipped, total)
}

func FuzzMayReference(f *testing.F) {
	f.Add("see [x](references/x.md)")
	f.Add("`scripts/a.sh`")
	f.Add("[a]: b")
	f.Fuzz(func(t *testing.T, body string) {
		if !mayReference(body) && len(listReferences([]byte(body))) != 0 {
			t.Fatalf("mayReference(%q) is false, but listReferences finds %v", body, listReferences([]byte(body)))
		}
	})
}

// TestMayReferenceOnePass holds the one-pass prefilter to its definition
// (mayReferenceContains) on markers at every offset of a word, at the
// ends of the body, split across words, and on every body of the
// published corpus and of a generated tree.
func TestMayReferenceOnePass(t *testing.T) {
	t.Parallel()
	var cases []string
	for _, m := range []string{"](", "]:", "scripts/", "references/", "assets/", "]", "/", "s/", "cripts/", "sscripts/", "] (", "]]:", "//", "x/scripts/"} {
		for pad := 0; pad < 20; pad++ {
			p := strings.Repeat("a", pad)
			cases = append(cases, p+m, m+p, p+m+p, p+m[:len(m)-1], p+m[1:])
		}
	}
	gen := t.TempDir()
	if _, err := tree.Generate(gen, &tree.Options{N: 200, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	cases = append(cases, prefilterBodies(t, gen)...)
	if dir := testcorpus.Find(); dir != "" {
		cases = append(cases, prefilterBodies(t, dir)...)
	} else {
		t.Log("corpus not found (../shared/corpus or $SKILLET_CORPUS): its bodies are not checked")
	}
	yes := 0
	for _, c := range cases {
		got, want := mayReference(c), mayReferenceContains(c)
		if got != want {
			t.Errorf("mayReference(%q) = %v, its definition says %v", c, got, want)
		}
		if want {
			yes++
		}
	}
	if yes == 0 || yes == len(cases) {
		t.Fatalf("%d of %d cases may hold a reference: the cases do not test both answers", yes, len(cases))
	}
}

// FuzzMayReferenceOnePass: the one pass says what the five substring
// searches say, on any body.
func FuzzMayReferenceOnePass(f *testing.F) {
	for _, s := range []string{"see [x](references/x.md)", "aaaaaaa](", "aaaaaaaaaaaaaaa]:", "xxxxxxxscripts/", "assets", "]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if got, want := mayReference(body), mayReferenceContains(body); got != want {
			t.Fatalf("mayReference(%q) = %v, its definition says %v", body, got, want)
		}
	})
}

// mayReferenceContains is the prefilter's definition, one strings.Contains
// per marker: "](", "]:" and each of bundleDirs.
func mayReferenceContains(body string) bool {
	if strings.Contains(body, "](") || strings.Contains(body, "]:") {
		return true
	}
	for _, d := range bundleDirs {
		if strings.Contains(body, d) {
			return true
		}
	}
	return false
}

// prefilterBodies returns the bodies of the skill files under dir.
func prefilterBodies(tb testing.TB, dir string) []string {
	var bodies []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.EqualFold(d.Name(), "SKILL.md") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if s, _ := skill.Parse(data, &skill.Options{Path: p}); s != nil {
			bodies = append(bodies, s.Body)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return bodies
}

// BenchmarkMayReference runs the prefilter over every body of the
// published corpus (half of them hold no marker, so are read to the end)
// and of a generated tree of 1,000 skills, and reports the bytes it reads
// per second (B/s) and per body.
//
//	go test ./lint -run '^$' -bench MayReference
func BenchmarkMayReference(b *testing.B) {
	gen := b.TempDir()
	if _, err := tree.Generate(gen, &tree.Options{N: 1000, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	sets := []struct {
		name string
		dir  string
	}{{"generated", gen}}
	if dir := testcorpus.Find(); dir != "" {
		sets = append([]struct {
			name string
			dir  string
		}{{"corpus", dir}}, sets...)
	}
	for _, set := range sets {
		bodies := prefilterBodies(b, set.dir)
		size := 0
		for _, body := range bodies {
			size += len(body)
		}
		for _, f := range []struct {
			name string
			fn   func(string) bool
		}{{"onepass", mayReference}, {"contains", mayReferenceContains}} {
			b.Run(set.name+"/"+f.name, func(b *testing.B) {
				b.SetBytes(int64(size))
				b.ReportAllocs()
				n := 0
				for b.Loop() {
					for _, body := range bodies {
						if f.fn(body) {
							n++
						}
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(bodies)), "ns/body")
			})
		}
	}
}
