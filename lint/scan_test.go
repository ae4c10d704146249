package lint

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/yuin/goldmark/util"

	"github.com/skillet-go/skillet/internal/benchtree/tree"
	"github.com/skillet-go/skillet/internal/testcorpus"
	"github.com/skillet-go/skillet/skill"
)

// scanned is what a reference is compared on: the Reference itself, its
// offset and the block context exampleContext reads.
type scanned struct {
	bodyRef
	Off    int
	Lines  []bspan
	Intros [][]bspan
}

func flatten(body []byte, refs []foundRef) []scanned {
	out := []scanned{}
	for _, r := range refs {
		c := r.context()
		lines, intros := c.lines, c.intros
		if c.spans {
			lines = c.blk.lines(body)
			if c.intro != (sblock{}) {
				intros = [][]bspan{c.intro.lines(body)}
			}
		}
		out = append(out, scanned{r.bodyRef, r.off, lines, intros})
	}
	return out
}

// sameAsGoldmark fails t when the scanner takes body and finds anything
// other than what goldmark's tree gives; it reports whether it took it.
func sameAsGoldmark(t *testing.T, name string, body []byte) bool {
	t.Helper()
	for _, examples := range []bool{false, true} {
		got, ok := scanReferences(body, examples)
		if !ok {
			return false
		}
		want := parseReferences(body, examples)
		w, g := flatten(body, want), flatten(body, got)
		if reflect.DeepEqual(w, g) { // plain values: equal as cmp.Diff finds them, without its cost
			continue
		}
		if diff := cmp.Diff(w, g, cmp.AllowUnexported(bspan{}, scanned{})); diff != "" {
			t.Fatalf("%s: the scanner and goldmark differ (-goldmark +scanner):\n%s\nbody: %q", name, diff, body)
		}
	}
	return true
}

// TestScanReferences holds the scanner to goldmark on hand-written edge
// cases, on every body of the published corpus and on a generated tree: for
// each body it either declines or finds the same references at the same
// offsets with the same block context. It also checks that the shapes it is
// meant for are taken, so a scanner that declines everything fails.
func TestScanReferences(t *testing.T) {
	t.Parallel()
	cases := []struct {
		body string
		take bool
	}{
		{"", true},
		{"plain prose\n", true},
		{"See [the guide](references/guide.md) for more.\n", true},
		{"# Title\n\nRead [a](references/a.md).\nSecond line `scripts/x.sh` here.\n\n## [H](assets/h.png)\n", true},
		{"Examples:\n\n1. [a](references/a.md)\n2. b\nlazy [c](references/c.md)\n\n3. d\n", true},
		{"Intro line\n- [a](scripts/a.sh)\n- `references/b.md`\n", true},
		{"```sh\ngo test [x](y)\n```\n1. see [g](references/g.md)\n", true},
		{"~~~\n[x](y)\n", true},
		{"````\n```\n[x](y)\n````\n[z](references/z.md)\n", true},
		{"Text\n2. not a list [a](references/a.md)\n", false},
		{"1. a\n- b\n", false},
		{"![logo](assets/logo.png) and [e]() and [x] [y] and `` `code` `` and `scripts/a.sh:12`\n", true},
		{"a `span\nover lines` here\n", false},
		{"unclosed `tick and [a](references/a.md)\n", true},
		{"[a](references/a.md \"title\")\n", false},
		{"[a [b]](c)\n", false},
		{"  indented\n", false},
		{"> quote [a](b)\n", false},
		{"a\n---\n", false},
		{"<div>[a](b)</div>\n", false},
		{"[a]: references/a.md\n", false},
		{"# Heading #\n", false},
		{"#\n##  \n### x  \n", true},
		{"- [ ] task\n- [x] done\n", true},
		{"* a\n* b\n\n\n* c\n\nafter\n1) x\n", true},
		{"Para\n1. starts at one [a](references/a.md)\n", true},
		{"2024. A year [a](references/a.md)\n", true},
		{"para  \nwith hard break [a](references/a.md)   \n", true},
		{"[text](references/a%20b.md?x=1#frag) [t](#anchor) [u](https://x.y) [v](../up.md)\n", true},
		{"no trailing newline [a](references/a.md)", true},
		{"ünïcödé [a](references/ä.md) e.g. [b](scripts/b.sh)\n", true},
	}
	for _, c := range cases {
		if took := sameAsGoldmark(t, fmt.Sprintf("%q", c.body), []byte(c.body)); took != c.take {
			t.Errorf("%q: scanner took it = %v, want %v", c.body, took, c.take)
		}
	}

	var bodies []string
	total := 0
	collect := func(dir string) {
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
			t.Fatal(err)
		}
	}
	collect(testcorpus.Dir(t))
	corpus := len(bodies)
	gen := t.TempDir()
	if _, err := tree.Generate(gen, &tree.Options{N: 100, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	collect(gen)
	took := [2]int{}
	for i, b := range bodies {
		total++
		if sameAsGoldmark(t, fmt.Sprintf("body %d", i), []byte(b)) {
			took[min(i/corpus, 1)]++
		}
	}
	t.Logf("the scanner takes %d of %d corpus bodies and %d of %d generated ones", took[0], corpus, took[1], len(bodies)-corpus)
	if took[1] < (len(bodies)-corpus)*9/10 {
		t.Errorf("the scanner takes only %d of %d generated bodies", took[1], len(bodies)-corpus)
	}
}

// FuzzScanReferences: on any body the scanner declines or agrees with
// goldmark.
func FuzzScanReferences(f *testing.F) {
	for _, s := range []string{
		"See [a](references/a.md).\n",
		"Examples:\n\n1. [a](references/a.md)\n2. b\nlazy `scripts/c.sh`\n",
		"```\n[x](y)\n```\n- [z](assets/z.png)\n",
		"# [H](references/h.md)\npara\n* x\n",
		"a `b` ``c`` [d]() [e] ![f](g)\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		sameAsGoldmark(t, "fuzz", []byte(body))
	})
}

// TestGmSpaceIsGoldmarks: the scanner's white space is goldmark's, byte
// for byte (a vertical tab counted as space made a line of " \v" blank to
// the scanner and a paragraph's to goldmark, FuzzScanReferences' input
// 5bf75440838b542b).
func TestGmSpaceIsGoldmarks(t *testing.T) {
	t.Parallel()
	for c := range 256 {
		if got, want := gmSpace(byte(c)), util.IsSpace(byte(c)); got != want {
			t.Errorf("gmSpace(%#02x) = %v, goldmark's util.IsSpace %v", c, got, want)
		}
	}
}
