package skill

import (
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/internal/testcorpus"
)

// TestGuessesOnCorpus runs the description guess on every skill of the
// corpus folders (corpus and corpus-community beside it) that has no
// frontmatter, and requires a guess that is neither empty, code, metadata
// nor marked up. With SKILLET_GUESS_DUMP=FILE it also writes, for every
// skill's body, a line "half<TAB>kind<TAB>path<TAB>guess" (half A or B by
// a seeded hash of the path, kind nofm or body), the material the rules of
// prose.go were fitted on (half A) and counted on (half B) by hand
// (docs/format.md#the-first-prose-line).
func TestGuessesOnCorpus(t *testing.T) {
	t.Parallel()
	corpus := testcorpus.Dir(t)
	var dump strings.Builder
	nofm := 0
	for _, root := range []string{corpus, filepath.Join(filepath.Dir(corpus), "corpus-community")} {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.EqualFold(d.Name(), "SKILL.md") {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			f := splitFences(data)
			kind, body := "nofm", data[f.start:]
			if f.found {
				kind, body = "body", data[f.bodyStart:]
			}
			guess := firstProseLine(body, !f.found)
			rel, _ := filepath.Rel(filepath.Dir(corpus), p)
			h := fnv.New32a()
			h.Write([]byte("split-23:" + filepath.ToSlash(rel)))
			fmt.Fprintf(&dump, "%c\t%s\t%s\t%q\n", "AB"[h.Sum32()%2], kind, filepath.ToSlash(rel), guess)
			if f.found {
				return nil
			}
			nofm++
			if m := keyValueLine().FindStringSubmatch(guess); guess == "" || isCodeLine(guess) || strings.Contains(guess, "**") ||
				m != nil && (m[1] != "" || isMetadataKey(m[2])) {
				t.Errorf("%s: guessed description %q", rel, guess)
			}
			return nil
		})
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	if nofm < 10 {
		t.Errorf("only %d skills without frontmatter found", nofm)
	}
	if out := os.Getenv("SKILLET_GUESS_DUMP"); out != "" {
		if err := os.WriteFile(out, []byte(dump.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
