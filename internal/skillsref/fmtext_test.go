package skillsref

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/internal/testcorpus"
)

// TestFrontmatterText: the frontmatter read from a file's bytes without
// copying the file is the one read from its whole text, on edge cases and
// every file of the published corpus.
func TestFrontmatterText(t *testing.T) {
	files := []string{
		"", "-", "--", "---", "----", "---\n---", "------", "---\nname: a\n---\nbody ---\n",
		"---\r\nname: a\r\n---\r\n", "---\rname: a\r---\r", "\ufeff---\n---\n", "x---\n---\n",
		"---\nname: a\n", "--\r-\nname: a\n---\n", "---\nname: a\n--\r-\n---\n", "---a---b---c",
	}
	if dir := testcorpus.Find(); dir != "" {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.Name() == "SKILL.md" {
				if b, err := os.ReadFile(p); err == nil {
					files = append(files, string(b))
				}
			}
			return nil
		})
	}
	for _, f := range files {
		fm, opened, closed := frontmatterText([]byte(f))
		wfm, wopened, wclosed := frontmatterOfText(f)
		if fm != wfm || opened != wopened || closed != wclosed {
			t.Errorf("%q: got %q, %v, %v; want %q, %v, %v", f, fm, opened, closed, wfm, wopened, wclosed)
		}
	}
	if len(files) < 100 {
		t.Logf("corpus not found: %d edge cases only", len(files))
	}
}

// BenchmarkCheckFile checks a skill file of a 16 KB body; B/op stays
// below the file's size (only the frontmatter is copied).
//
//	go test ./internal/skillsref -run '^$' -bench CheckFile -benchmem
func BenchmarkCheckFile(b *testing.B) {
	data := []byte("---\nname: fm\ndescription: Checks a release. Use when a release is cut.\n---\n\n" +
		strings.Repeat("Run `scripts/check.sh` before the release; see [the guide](references/guide.md).\n", 200))
	b.ReportAllocs()
	for b.Loop() {
		if vs, _, _ := CheckFile("fm", "SKILL.md", data); len(vs) != 0 {
			b.Fatal(vs)
		}
	}
}
