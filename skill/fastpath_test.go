package skill

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillet-go/skillet/internal/benchtree/tree"
	"github.com/skillet-go/skillet/internal/testcorpus"
	"github.com/skillet-go/skillet/internal/yamlx"
)

// fastSeeds are frontmatters of the shapes the fast path reads, and of the
// ones next to them it must leave to the library.
var fastSeeds = []string{
	"name: x\ndescription: d\n",
	"a: b\nc:\nd:   \ne: x\n",
	"m:\n  k: v\n  n:\nz: 1\n",
	"l:\n- a\n- b\nq: [a, \"b\", 'c']\nj: {\"x\": 1, \"y\": [1, 2]}\n",
	"n: 0o17\nh: 0x1F\nf: 1.10\nb: yes\nt: True\ne: 1e3\ni: +12\nu: 1_000\nd: .5\ninf: .inf\nnan: .NaN\n",
	"j: {\"x\":1}\n", "a: x:y\nb: [x:y]\n", "a: \"x\" \n", "a: 'it''s'\n", "a: b\n\n\nc: d\n",
	"description: \"Use when: \\\"quoted\\\" \\u00e9 \\n \\/\"\n", "a: \"\\x41\"\n", "a: \"\\ud800\"\n",
	"allowed-tools:\n  - Read\n  - \"Bash(git:*)\"\n", "metadata:\n  version: \"1.0\"\n  author: me\n",
	"metadata:\n  a: 1\n   b: 2\n", "metadata:\n  a:\n    b: c\n", "a: b\n  c\n", "a: [b,\n c]\n",
	"a: [b, ]\n", "a: []\nb: {}\n", "a: [[1, 2], {k: v}]\n", "a: {k: }\n", "a: - b\n", "a: b # c\n",
	"a: |\n  x\n", "a: >-\n  x\n", "a: &x b\nc: *x\n", "a: !!str 1\n", "- a\n- b\n", "a\n", "a: b: c\n",
	"a: \"x\" y\n", "a: 'x\n  y'\n", "a:\n- b\nc: d\n", "a:\n  - b\n  - c: d\n", "a:b\n", "a :b\n",
	"é: x\n", "a: é ü 😀\n", "a: x\u0085y\n", "a: x\u2028y\n", "a: \u00a0x\n", "a: x\u00a0\n", "a: ~\nb: null\n",
	"a: --- x\n", "a: ...\n", "a: 'x' \n", "a: \"\"\nb: ''\n", "a: [\"\", '']\n", "k.e_y-1: v\n", "1: x\ntrue: y\n",
	"a:\n\n  b: c\n\nd: e\n", "a:\n\n", "a: @x\n", "a: `x`\n", "a: %x\n", "a: ?x\n", "a: :x\n", "a: x:\n",
	"a: {\"k\" : 1}\n", "a: {k: [1, {z: \"w\"}]}\n", "a: [a b, c  d ]\n", "a: [ a ]\n", "a: {\"k\": \"v\", }\n",
}

// FuzzFastPath is the differential test of the frontmatter fast path: on
// any input it either declines or builds the node tree the YAML library
// builds (compared by sameNode), and then Parse gives the same skill and
// diagnostics with the fast path on and off. It is seeded with every
// frontmatter of the corpus and of a generated tree.
func FuzzFastPath(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add([]byte(s))
	}
	for _, fm := range seedFrontmatters(f) {
		f.Add(fm)
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		text = bytes.ReplaceAll(text, []byte("\r"), nil)
		if !utf8.Valid(text) {
			return // Parse rejects the file before decoding
		}
		fast, ok := fastFrontmatter(text)
		if !ok {
			return
		}
		lib, err := yamlx.Parse(text)
		if err != nil {
			t.Fatalf("the fast path read %q, which the library rejects: %v", text, err)
		}
		if lib == nil {
			t.Fatalf("the fast path read %q, which the library reads as empty", text)
		}
		if d := sameNode(fast, lib, "$"); d != "" {
			t.Fatalf("%q: %s", text, d)
		}
		src := append(append([]byte("---\n"), text...), "\n---\nbody\n"...)
		on, onDiags := Parse(src, &Options{Path: "/r/fuzz-skill/SKILL.md"})
		yamlx.LibraryOnly.Store(true)
		off, offDiags := Parse(src, &Options{Path: "/r/fuzz-skill/SKILL.md"})
		yamlx.LibraryOnly.Store(false)
		if !reflect.DeepEqual(on, off) || !reflect.DeepEqual(onDiags, offDiags) {
			t.Fatalf("%q: Parse differs with the fast path on and off:\n%+v %v\n%+v %v", text, on, onDiags, off, offDiags)
		}
	})
}

// sameNode compares what skillet reads of a node: kind, style, value,
// position, anchor, alias, comments, children, and the typed value of
// scalars. The resolved tag is compared except on plain scalars, which the
// fast path leaves untagged (skillet types them with yamlx.Scalar).
func sameNode(fast, lib *yamlx.Node, at string) string {
	if fast.Kind != lib.Kind || fast.Style != lib.Style || fast.Value != lib.Value || fast.Line != lib.Line ||
		fast.Column != lib.Column || fast.Anchor != lib.Anchor || (fast.Alias == nil) != (lib.Alias == nil) ||
		fast.HeadComment != lib.HeadComment || fast.LineComment != lib.LineComment || fast.FootComment != lib.FootComment {
		return fmt.Sprintf("%s: fast %s, library %s", at, nodeString(fast), nodeString(lib))
	}
	plain := fast.Kind == yamlx.ScalarNode && fast.Style == 0 && fast.Tag == ""
	if !plain && fast.Tag != lib.Tag {
		return fmt.Sprintf("%s: tag %q, library %q", at, fast.Tag, lib.Tag)
	}
	if fast.Kind == yamlx.ScalarNode && !reflect.DeepEqual(yamlx.Scalar(fast), yamlx.Scalar(lib)) {
		return fmt.Sprintf("%s: value %#v, library %#v", at, yamlx.Scalar(fast), yamlx.Scalar(lib))
	}
	if len(fast.Content) != len(lib.Content) {
		return fmt.Sprintf("%s: %d children, library %d", at, len(fast.Content), len(lib.Content))
	}
	for i := range fast.Content {
		if d := sameNode(fast.Content[i], lib.Content[i], fmt.Sprintf("%s[%d]", at, i)); d != "" {
			return d
		}
	}
	return ""
}

func nodeString(n *yamlx.Node) string {
	return fmt.Sprintf("{kind %d style %d tag %q value %q at %d:%d}", n.Kind, n.Style, n.Tag, n.Value, n.Line, n.Column)
}

// seedFrontmatters returns the frontmatter text of every corpus file and
// of a small generated tree.
func seedFrontmatters(tb testing.TB) [][]byte {
	var out [][]byte
	add := func(root string) {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.EqualFold(d.Name(), "SKILL.md") {
				return nil
			}
			if b, err := os.ReadFile(p); err == nil {
				if fm, ok := frontmatterText(b); ok {
					out = append(out, fm)
				}
			}
			return nil
		})
	}
	if c := testcorpus.Find(); c != "" {
		add(c)
	}
	gen := tb.TempDir()
	if _, err := tree.Generate(gen, &tree.Options{N: 200, Seed: 3, BrokenPercent: 10}); err != nil {
		tb.Fatal(err)
	}
	add(gen)
	return out
}

// frontmatterText is the text between the fences, as Parse hands it to the
// decoder (CR removed as decodeFrontmatter does for CRLF files).
func frontmatterText(b []byte) ([]byte, bool) {
	b = bytes.TrimPrefix(b, bom)
	f := splitFences(b)
	if !f.found || !f.closed {
		return nil, false
	}
	return bytes.ReplaceAll(b[f.fmStart:f.fmEnd], []byte("\r\n"), []byte("\n")), true
}

// TestFastPathCorpus runs every corpus frontmatter through the fast path
// and the library, checks they agree, and reports the share the fast path
// takes. That share is asserted loosely: a change that makes the fast path
// decline most files would make every listing slow without failing anything
// else.
func TestFastPathCorpus(t *testing.T) {
	t.Parallel()
	c := testcorpus.Find()
	if c == "" {
		t.Skip("the corpus is not here")
	}
	var total, taken int
	filepath.WalkDir(c, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "SKILL.md" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		total++
		fm, ok := frontmatterText(b)
		if !ok {
			return nil
		}
		fast, ok := fastFrontmatter(fm)
		if !ok {
			return nil
		}
		taken++
		lib, err := yamlx.Parse(fm)
		if err != nil {
			t.Errorf("%s: the fast path read what the library rejects: %v", p, err)
			return nil
		}
		if d := sameNode(fast, lib, "$"); d != "" {
			t.Errorf("%s: %s", p, d)
		}
		return nil
	})
	t.Logf("the fast path reads %d of %d corpus files (%.1f%%)", taken, total, 100*float64(taken)/float64(total))
	if taken*2 < total {
		t.Errorf("the fast path reads %d of %d corpus files, under half", taken, total)
	}
}

// TestFastPathSeeds checks the seeds directly, so a plain go test run
// covers them without the fuzzing engine.
func TestFastPathSeeds(t *testing.T) {
	t.Parallel()
	declined := 0
	for _, s := range fastSeeds {
		fast, ok := fastFrontmatter([]byte(s))
		if !ok {
			declined++
			continue
		}
		lib, err := yamlx.Parse([]byte(s))
		if err != nil {
			t.Errorf("%q: the fast path read what the library rejects: %v", s, err)
			continue
		}
		if d := sameNode(fast, lib, "$"); d != "" {
			t.Errorf("%q: %s", s, d)
		}
	}
	if declined == 0 || declined == len(fastSeeds) {
		t.Errorf("the fast path declined %d of %d seeds; the seeds hold both kinds", declined, len(fastSeeds))
	}
}

// TestFastBufRelease reads a large frontmatter and then small ones into
// one buffer, in turn and several times over. release clears nothing (a
// released buffer is the used buffer as it is, which the test reuses
// without the pool, which other tests share), so each read must build the
// tree a fresh buffer builds, with nothing of an earlier file showing
// through (a node, a child list or a value left over).
func TestFastBufRelease(t *testing.T) {
	t.Parallel()
	var big strings.Builder
	big.WriteString("name: a\ndescription: d\nmetadata:\n")
	for i := range 60 {
		fmt.Fprintf(&big, "  k%d: v%d\n", i, i)
	}
	big.WriteString("tags: [x, \"y\", [z, {\"k\": w}]]\nlist:\n  - one\n  - two\n")
	files := []string{
		big.String(),
		"name: b\ndescription: e\n",
		"name: c\nmetadata:\n  owner: x\n",
		"tags: [p]\n",
		"list:\n  - q\nname: r\n",
	}
	b := new(fastBuf)
	for round := range 3 {
		for _, f := range files {
			got, ok := b.Read([]byte(f))
			want, wok := fastFrontmatter([]byte(f))
			if !ok || !wok {
				t.Fatalf("the fast path declined %q", f)
			}
			if d := sameNode(got, want, "$"); d != "" {
				t.Errorf("round %d, %q read into a used buffer: %s", round, f, d)
			}
		}
	}
}

// TestPooledParseKeepsNothing: the frontmatter and nodes of a parse live
// in pooled memory that the next parse reuses, so a skill parsed earlier
// must not change when more are parsed: files with few and many keys, a
// repaired one, metadata, lists and extra fields, parsed in turn, each
// compared with a parse of its own afterwards.
func TestPooledParseKeepsNothing(t *testing.T) {
	t.Parallel()
	var many strings.Builder
	many.WriteString("---\nname: many\ndescription: many keys\n")
	for i := range 12 {
		fmt.Fprintf(&many, "x-%d: v%d\n", i, i)
	}
	many.WriteString("---\nBody.\n")
	files := []string{
		"---\nname: one\ndescription: first\nmetadata:\n  a: \"1\"\n  b: two\nallowed-tools: [Read, Write]\n---\nBody.\n",
		many.String(),
		"---\nname: rep\ndescription: a: colon that needs a repair\nlicense: MIT\n---\nBody.\n",
		"---\nname: four\ndescription: |\n  block scalar\nuser-invocable: true\n---\nBody.\n",
	}
	var got []*Skill
	for round := range 3 {
		for i, f := range files {
			s, _ := Parse([]byte(f), &Options{Path: fmt.Sprintf("/s/%d/SKILL.md", i)})
			if s == nil {
				t.Fatalf("round %d: file %d rejected", round, i)
			}
			got = append(got, s)
		}
	}
	for k, s := range got {
		i := k % len(files)
		want, _ := Parse([]byte(files[i]), &Options{Path: fmt.Sprintf("/s/%d/SKILL.md", i)})
		if !reflect.DeepEqual(s, want) {
			t.Errorf("skill %d (file %d) changed after later parses:\n got %+v\nwant %+v", k, i, s, want)
		}
	}
}
