package catalog

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/profile"
	"github.com/skillet-go/skillet/internal/testcorpus"
	"github.com/skillet-go/skillet/skill"
)

// paddedSeeds are skill files whose frontmatter a host that ends it at the
// first "---" (Parse.FenceAnywhere) reads with one more line break than
// skillet: block scalars kept, clipped and stripped at its end, errors at
// its end, repairs, duplicate keys and a '+' elsewhere.
var paddedSeeds = []string{
	"---\nname: a\ndescription: d\n---\nBody.\n",
	"---\nname: a\ndescription: |+\n  d\n\n---\nBody.\n",
	"---\nname: a\ndescription: >+\n  d\n---\n",
	"---\nname: a\ndescription: |\n  d\n\n---\n\nBody.\n",
	"---\nname: a\ndescription: |-\n  d\n---\n",
	"---\nname: a\ndescription: [d\n---\n",
	"---\nname: a\ndescription: \"d\n---\n",
	"---\nname: a\ndescription: d: e\n---\n",
	"---\nname: a\nname: b\ndescription: d\n---\n",
	"---\nname: a\ndescription: C++ and d\n---\n",
	"---\nname: a\ndescription:\n---\n",
	"---\n\n---\nBody.\n",
	"---\nname: a\ndescription: d\n---   \nBody.\n",
	"---\nname: a\ndescription: d\n  e\n\n---\n",
	"---\nname: a\nmetadata:\n  k: |\n    v\n---\n",
	"---\nname: a\ndescription: d\n---",
}

// givenMemo returns a memo holding the parse lint's listing makes of data
// (skill.Parse with skillet's limits, no body), as Give hands it over.
func givenMemo(data []byte, path string) *yamlMemo {
	memo := &yamlMemo{}
	s, diags := skill.Parse(data, &skill.Options{Path: path, SkipBody: true})
	memo.givenParse(&catalogx.Parsed{Path: path, Data: data, Skill: s, Diags: diags, Mode: skill.Lenient}, data)
	return memo
}

// checkGivenParse fails when a profile's reading of data with the
// listing's parse given (yamlMemo.givenParse, padded) is not its reading
// alone, and returns how many readings took a padded parse.
func checkGivenParse(t *testing.T, data []byte) int {
	t.Helper()
	const path = "/x/fm/SKILL.md"
	memo := givenMemo(data, path)
	for _, p := range profile.All() {
		got := hostParseMemo(p, data, path, "fm", false, memo)
		want := hostParse(p, data, path, "fm", false)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q, profile %s: with the listing's parse %+v\nalone %+v", data, p.Name, got, want)
		}
	}
	padded := 0
	for _, y := range memo.parses {
		if y.padded {
			padded++
		}
	}
	return padded
}

// TestGivenParseIsHostParse: every profile reads a file alike with and
// without the listing's parse given, on the seeds and every skill file of
// the corpus; most of the corpus takes the padded parse (else the test
// holds nothing).
func TestGivenParseIsHostParse(t *testing.T) {
	t.Parallel()
	files := map[string][]byte{}
	for i, s := range paddedSeeds {
		files[string(rune('a'+i))] = []byte(s)
	}
	if corpus := testcorpus.Find(); corpus != "" && !testing.Short() {
		filepath.WalkDir(corpus, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && d.Name() == SkillFile {
				if b, err := os.ReadFile(p); err == nil {
					files[p] = b
				}
			}
			return nil
		})
	}
	padded := 0
	for _, data := range files {
		padded += checkGivenParse(t, data)
	}
	t.Logf("%d of %d files took a padded parse", padded, len(files))
	if padded == 0 || len(files) > 100 && padded < len(files)/2 {
		t.Errorf("%d of %d files took a padded parse", padded, len(files))
	}
}

// FuzzGivenParseIsHostParse: on any file every profile reads it alike with
// and without the listing's parse given.
func FuzzGivenParseIsHostParse(f *testing.F) {
	for _, s := range paddedSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkGivenParse(t, data)
	})
}

// FuzzOneLine: oneLine, which returns a text already on one line as it
// is, is strings.Join(strings.Fields(s), " ") for any text.
func FuzzOneLine(f *testing.F) {
	for _, s := range []string{"", " ", "a", "a b", " a", "a ", "a  b", "a\tb", "a\nb", "a\u00a0b", "a\u2028b",
		"a\u3000", "\u0085a", "é è", "\xff \xfe", "a \xc2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := oneLine(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Fatalf("oneLine(%q) = %q, want %q", s, got, want)
		}
	})
}

// keyLine is the regular expression keyValue stands for.
var keyLine = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+(.*))?$`)

// FuzzKeyValue: keyValue matches a line exactly when keyLine does, with
// its key and, blanks trimmed, its value, for any line subsetFields reads
// (no line feed, no blank at its end).
func FuzzKeyValue(f *testing.F) {
	for _, s := range []string{"name: a", "name:", "name:a", "_x-1: v", "1x: v", "-x: v", "a-b_c9:\tv",
		"name:  \t x y", "na me: v", ":", "", "é: v", "a:\xff", "A: B: C", "a\r: b", "a: \r", "[: x", "`: x", "@: x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		line = strings.TrimRight(strings.ReplaceAll(line, "\n", ""), " \t")
		key, val, ok := keyValue(line)
		m := keyLine.FindStringSubmatch(line)
		if ok != (m != nil) || ok && (key != m[1] || strings.TrimSpace(val) != strings.TrimSpace(m[2])) {
			t.Fatalf("keyValue(%q) = %q, %q, %v; the expression: %q", line, key, val, ok, m)
		}
	})
}
