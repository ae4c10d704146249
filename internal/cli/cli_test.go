package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/testcorpus"
)

// TestExamplesClean checks that the bundled examples load with no
// diagnostic at all, and that the README's command finds all three.
func TestExamplesClean(t *testing.T) {
	var out, errb bytes.Buffer
	ws, _ := filepath.Abs("../../examples")
	code := Run(context.Background(), []string{"list", "-w", ws, "--no-user", "--json"}, &IO{Out: &out, Err: &errb})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got listJSONOut
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Diagnostics) != 0 {
		t.Errorf("the examples have diagnostics: %+v", got.Diagnostics)
	}
	var names []string
	hidden := 0
	for _, s := range got.Skills {
		names = append(names, s.Name)
		if s.Hidden {
			hidden++
		}
	}
	if len(names) != 3 || hidden != 1 {
		t.Errorf("examples: %v (%d hidden), want three skills, one hidden", names, hidden)
	}
	if errb.Len() != 0 {
		t.Errorf("stderr: %s", errb.String())
	}
}

// TestStreamedJSONIsTheSame checks that the streamed list --json writes
// byte for byte what encoding the whole docs/output.md object at once writes, for an
// empty listing and for the corpus.
func TestStreamedJSONIsTheSame(t *testing.T) {
	dirs := []string{t.TempDir()}
	if c := testcorpus.Find(); c != "" {
		dirs = append(dirs, c)
	}
	for _, dir := range dirs {
		c, err := catalog.New(context.Background(), &catalog.Options{Workspace: dir, NoUser: true, ExtraPaths: testcorpus.Roots(dir)})
		if err != nil {
			t.Fatal(err)
		}
		l, err := c.List(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var whole, streamed bytes.Buffer
		if err := writeJSON(&whole, listingJSON(l)); err != nil {
			t.Fatal(err)
		}
		if err := writeListingJSON(&streamed, l); err != nil {
			t.Fatal(err)
		}
		if whole.String() != streamed.String() {
			t.Errorf("%s: streamed JSON differs (%d vs %d bytes)", dir, streamed.Len(), whole.Len())
		}
	}
}

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"/a/b/SKILL.md":  "/a/b/SKILL.md",
		"/a/new\nline/x": `/a/new\nline/x`,
		"/a/\x1b[31m/x":  `/a/\x1b[31m/x`,
		"/a/bad-\xff/x":  `/a/bad-\xff/x`,
		"Café — déjà vu": "Café — déjà vu",
		"tab\there":      `tab\there`,
	} {
		if got := printable(in); got != want {
			t.Errorf("printable(%q) = %q, want %q", in, got, want)
		}
	}
}
