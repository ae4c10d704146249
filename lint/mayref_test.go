package lint

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/internal/testcorpus"
	"github.com/skillet-go/skillet/skill"
)

// TestMayReference: a body that mayReference turns away holds no
// Reference, on every body of the published corpus and on cases near the
// edge; skipping the parser for it loses nothing.
func TestMayReference(t *testing.T) {
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
		if !c.want && len(References([]byte(c.body))) != 0 {
			t.Errorf("%q: mayReference says no, but References finds %v", c.body, References([]byte(c.body)))
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
			if refs := References([]byte(s.Body)); len(refs) != 0 {
				t.Errorf("%s: mayReference says no, but References finds %v", p, refs)
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
		if !mayReference(body) && len(References([]byte(body))) != 0 {
			t.Fatalf("mayReference(%q) is false, but References finds %v", body, References([]byte(body)))
		}
	})
}
