package skillsref

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/internal/testcorpus"
	"github.com/skillet-go/skillet/internal/yamlx"
)

// strictSeeds are frontmatters the fast reader takes and declines, with
// what strictyaml refuses in each kind of place (tabs, flow collections,
// anchors, tags, duplicate keys, characters ruamel does not read).
var strictSeeds = []string{
	"---\nname: x\ndescription: d\n---\n",
	"---\nname: x\ndescription: d\nmetadata:\n  a: b\n  c: \"d\"\n---\nBody\n",
	"---\nname: x\ndescription: d\nallowed-tools: [A, B]\n---\n",
	"---\nname: x\ndescription: {a: b}\n---\n",
	"---\nname: &a x\ndescription: *a\n---\n",
	"---\nname: !!str x\ndescription: d\n---\n",
	"---\nname: x\nname: y\ndescription: d\n---\n",
	"---\nname: x\ndescription: 'it''s'\n---\n",
	"---\nname: x\ndescription: \"a\\tb\"\n---\n",
	"---\nname: x\ndescription:\tb\n---\n",
	"---\nname: x\ndescription: a\u2028b\n---\n",
	"---\nname: x\ndescription: a\u0085b\n---\n",
	"---\nname: x\ndescription: a\ufdd0b\n---\n",
	"---\nname: x\ndescription: |\n  a\n  b\n---\n",
	"---\nname: x\ndescription: d # c\n---\n",
	"---\nname: x\ndescription: d---\n",
	"---\n- a\n- b\n---\n",
	"---\nplain\n---\n",
	"---\n\n---\n",
	"---\nname: x\nmetadata:\n  - a\n  - b\n---\n",
	"---\nname: x\ndescription: d\r\nlicense: MIT\r\n---\r\n",
	"---\nname: [a\n---\n",
}

// strictBothWays returns parseFrontmatter of data with the fast reader on
// and with the library alone.
func strictBothWays(data []byte) (fast, lib []kv, fastErr, libErr error) {
	fast, fastErr = parseFrontmatter(data)
	yamlx.LibraryOnly.Store(true)
	defer yamlx.LibraryOnly.Store(false)
	lib, libErr = parseFrontmatter(data)
	return fast, lib, fastErr, libErr
}

// TestStrictFastIsLibrary: the strict reader gives the same frontmatter,
// or the same error, whether its tree is built by skillet's fast reader or
// by the YAML library, on the seeds and on every skill file of the corpus;
// and the fast reader does take most of the corpus (else the test would
// hold nothing).
func TestStrictFastIsLibrary(t *testing.T) {
	files := map[string][]byte{}
	for i, s := range strictSeeds {
		files[filepath.Join("seed", string(rune('a'+i)))] = []byte(s)
	}
	if corpus := testcorpus.Find(); corpus != "" {
		filepath.WalkDir(corpus, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.EqualFold(d.Name(), "SKILL.md") {
				if b, err := os.ReadFile(p); err == nil {
					files[p] = b
				}
			}
			return nil
		})
	}
	taken := 0
	for p, data := range files {
		fast, lib, fastErr, libErr := strictBothWays(data)
		if !reflect.DeepEqual(fast, lib) || !reflect.DeepEqual(fastErr, libErr) {
			t.Errorf("%s: with the fast reader %v, %v; with the library %v, %v", p, fast, fastErr, lib, libErr)
		}
		if fm, opened, closed := frontmatterText(data); opened && closed && len(fm) > 0 {
			if _, release, ok := yamlx.FastTree([]byte(fm)); ok {
				release()
				taken++
			}
		}
	}
	t.Logf("the fast reader took %d of %d frontmatters", taken, len(files))
	if taken == 0 || len(files) > 100 && taken < len(files)/2 {
		t.Errorf("the fast reader took %d of %d frontmatters", taken, len(files))
	}
}

// FuzzStrictFast: on any file the strict reader's verdict (frontmatter or
// error) is the same with its tree built by the fast reader and by the
// library alone.
func FuzzStrictFast(f *testing.F) {
	for _, s := range strictSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, lib, fastErr, libErr := strictBothWays(data)
		if !reflect.DeepEqual(fast, lib) || !reflect.DeepEqual(fastErr, libErr) {
			t.Fatalf("%q: with the fast reader %v, %v; with the library %v, %v", data, fast, fastErr, lib, libErr)
		}
	})
}

// FuzzReplaceRare holds toParserText and fromParserText, which skip texts
// holding no first byte of what they replace, to the replacers themselves.
func FuzzReplaceRare(f *testing.F) {
	for _, s := range strictSeeds {
		f.Add(s)
	}
	for _, s := range []string{"", "a\u0085b", "\u2028", "x\u2029y", "\ufdd0\ufdd1", "\xc2", "\xe2\x80", "\xef\xb7", "é€", "\xc2\x85\xe2\x80\xa8\xef\xb7\x90"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := toParserText(s), toParser.Replace(s); got != want {
			t.Errorf("toParserText(%q) = %q, Replace gives %q", s, got, want)
		}
		if got, want := fromParserText(s), fromParser.Replace(s); got != want {
			t.Errorf("fromParserText(%q) = %q, Replace gives %q", s, got, want)
		}
	})
}
