package agent_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillet-go/skillet/agent"
	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/testcorpus"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// golden compares got with testdata/golden/name, or rewrites the file
// with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-want +got; go test -update rewrites it):\n%s", path, diff)
	}
}

// examplesDir is the repository's examples folder, absolute.
func examplesDir(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// examplesCatalog is a catalog over examples/ (its skills/ folder), with
// no user roots and no configuration file.
func examplesCatalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	c, err := catalog.New(context.Background(), &catalog.Options{Workspace: examplesDir(t), NoUser: true, NoConfigFile: true})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// portable replaces the examples folder's absolute path with $EXAMPLES so
// golden files do not depend on where the repository is.
func portable(t testing.TB, s string) string {
	return strings.ReplaceAll(s, examplesDir(t), "$EXAMPLES")
}

// corpusDir returns the real corpus or skips the test.
func corpusDir(t testing.TB) string { return testcorpus.Dir(t) }

// corpusCatalog is a catalog over one root of the corpus.
func corpusCatalog(t testing.TB, sub string, opts *catalog.Options) (*catalog.Catalog, string) {
	t.Helper()
	dir := corpusDir(t)
	o := catalog.Options{}
	if opts != nil {
		o = *opts
	}
	o.Workspace, o.NoUser, o.NoConfigFile = t.TempDir(), true, true
	o.ExtraPaths = []string{filepath.Join(dir, sub)}
	c, err := catalog.New(context.Background(), &o)
	if err != nil {
		t.Fatal(err)
	}
	return c, dir
}

// digest stands for a text the project must not copy (a corpus skill's
// prose): its length and the start of its SHA-256. A golden file of
// digests still fixes the exact output.
func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "[" + strconv.Itoa(len(s)) + " bytes sha256:" + hex.EncodeToString(sum[:6]) + "]"
}

// writeTree creates the files (slash paths relative to root, content) and
// returns root.
func writeTree(t testing.TB, root string, files map[string]string) string {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// tempCatalog writes files into a new workspace (paths like
// "skills/x/SKILL.md") and returns a catalog over it and the workspace.
func tempCatalog(t testing.TB, files map[string]string, opts *catalog.Options) (*catalog.Catalog, string) {
	t.Helper()
	ws := writeTree(t, t.TempDir(), files)
	o := catalog.Options{}
	if opts != nil {
		o = *opts
	}
	o.Workspace, o.NoUser, o.NoConfigFile = ws, true, true
	c, err := catalog.New(context.Background(), &o)
	if err != nil {
		t.Fatal(err)
	}
	return c, ws
}

// skillMD returns a SKILL.md with the given frontmatter lines and body.
func skillMD(front, body string) string {
	return "---\n" + front + "\n---\n\n" + body + "\n"
}

// newSkills is agent.New, failing the test on its error.
func newSkills(t testing.TB, c *catalog.Catalog, o *agent.Options) *agent.Wiring {
	t.Helper()
	sk, err := agent.New(context.Background(), c, o)
	if err != nil {
		t.Fatal(err)
	}
	return sk
}
