package catalog

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillet-go/skillet/internal/testcorpus"
)

// TestCorpus loads every published skill of the corpus: each SKILL.md either
// loads, or is a bundled file of a skill folder above it (docs/discovery.md#shapes), or is named
// in a diagnostic. The exact counts make any change of behaviour visible.
func TestCorpus(t *testing.T) {
	t.Parallel()
	dir := testcorpus.Dir(t)
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.EqualFold(d.Name(), "SKILL.md") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 462 {
		t.Fatalf("the corpus holds %d SKILL.md files, want 462", len(files))
	}

	for _, tt := range []struct {
		mode   string
		strict bool
		loaded int
		codes  map[string]int
	}{
		{"lenient", false, 445, map[string]int{
			"catalog-truncated": 1, "description-long": 229, "description-too-long": 1, "duplicate-name": 2,
			"name-mismatch": 4, "too-large": 2,
		}}, // lenient: authors, category and nested metadata values (hosts read them) are not reported
		// Strict mode reads as the reference validator does
		// (internal/skillsref.CheckFile): a skill with when-to-use,
		// disable-model-invocation or an extension field has an
		// unknown-field error and is not loaded, a nested metadata is no
		// finding, and a flow mapping is a parse-error.
		{"strict", true, 424, map[string]int{
			"catalog-truncated": 1, "description-long": 229, "description-too-long": 1, "duplicate-name": 2,
			"name-mismatch": 4, "parse-error": 1, "too-large": 2, "unknown-field": 15,
		}},
	} {
		t.Run(tt.mode, func(t *testing.T) {
			e := newEnv(t)
			_, l := e.list(t, &Options{NoUser: true, Strict: tt.strict, ExtraPaths: testcorpus.Roots(dir)})
			got := map[string]int{}
			named := map[string]bool{}
			for _, d := range l.Diagnostics {
				got[string(d.Code)]++
				named[d.Path] = true
			}
			if diff := cmp.Diff(tt.codes, got); diff != "" {
				t.Errorf("diagnostic counts (-want +got):\n%s", diff)
			}
			if len(l.Skills) != tt.loaded {
				t.Errorf("%d skills loaded, want %d", len(l.Skills), tt.loaded)
			}
			loaded := map[string]bool{}
			var skillDirs []string
			for _, s := range l.Skills {
				loaded[s.Location] = true
				skillDirs = append(skillDirs, s.BaseDir)
			}
			// Only a skill that loads has bundled files: a SKILL.md inside
			// the folder of one that does not must be named itself
			// (nested-skill).
			var bundled, unexplained int
			for _, f := range files {
				switch {
				case loaded[f] || named[f]:
				case below(f, skillDirs):
					bundled++
				default:
					unexplained++
					t.Errorf("%s neither loads, nor is bundled, nor has a diagnostic", f)
				}
			}
			if bundled != 15 {
				t.Errorf("%d nested SKILL.md files are bundled files, want 15", bundled)
			}
		})
	}
}

// below reports whether file lies strictly below one of dirs.
func below(file string, dirs []string) bool {
	for _, d := range dirs {
		if filepath.Dir(file) != d && strings.HasPrefix(file, d+string(filepath.Separator)) {
			return true
		}
	}
	return false
}
