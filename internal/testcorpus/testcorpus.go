// Package testcorpus finds the corpus of published skills that tests run
// on: $SKILLET_CORPUS, else ../shared/corpus beside the module root.
package testcorpus

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the corpus folder, or skips the test with a message when it
// cannot be found.
func Dir(t testing.TB) string {
	t.Helper()
	if d := Find(); d != "" {
		return d
	}
	t.Skip("corpus of published skills not found: set SKILLET_CORPUS or place it at ../shared/corpus beside the module root")
	return ""
}

// Find returns the corpus folder, or "" when there is none.
func Find() string {
	if d := os.Getenv("SKILLET_CORPUS"); d != "" {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			abs, _ := filepath.Abs(d)
			return abs
		}
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			d := filepath.Join(dir, "..", "shared", "corpus")
			if fi, err := os.Stat(d); err == nil && fi.IsDir() {
				return filepath.Clean(d)
			}
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Roots lists the folders of the corpus that hold skills, including the
// hidden ones (.system, .curated, .experimental, .github/skills) that
// discovery would skip inside a root, so every published skill is reached.
func Roots(dir string) []string {
	var roots []string
	for _, rel := range []string{
		"anthropics-skills/skills",
		"openai-skills/skills/.system",
		"openai-skills/skills/.curated",
		"openai-skills/skills/.experimental",
		"obra-superpowers/skills",
		"vercel-agent-skills/skills",
		"github-awesome-copilot/skills",
		"github-awesome-copilot/.github/skills",
	} {
		roots = append(roots, filepath.Join(dir, rel))
	}
	return roots
}
