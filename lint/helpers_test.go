package lint

import (
	"os"
	"path/filepath"
	"testing"
)

// corpusDir returns the real-world corpus (SKILLET_CORPUS, else
// ../shared/corpus next to the module), or skips the test.
func corpusDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("SKILLET_CORPUS")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "corpus")
	}
	abs, err := filepath.Abs(dir)
	if err == nil {
		if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
			return abs
		}
	}
	t.Skipf("corpus not found at %s: set SKILLET_CORPUS to run the corpus checks", dir)
	return ""
}

// writeTree writes files (slash paths relative to dir).
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
