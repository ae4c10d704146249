package mcpserver

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/testcorpus"
	"github.com/skillet-go/skillet/skill"
)

// TestCorpus serves every published skill of the corpus and checks, for
// every listed skill, that its manifest is complete (every file of the
// folder that the catalog lists), that each digest and size matches the
// file on disk, that resources/read returns those bytes, and that the
// frontmatter in the entry is what the served SKILL.md parses to.
func TestCorpus(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("serves and reads back every file of the 462-skill corpus: skipped with -short; go test ./... runs it")
	}
	dir := testcorpus.Dir(t)
	cat, err := catalog.New(t.Context(), &catalog.Options{Workspace: t.TempDir(), NoUser: true, NoConfigFile: true, ExtraPaths: testcorpus.Roots(dir)})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(t.Context(), cat, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s, nil, nil)
	names, listed := s.skills()
	entries := allSkills(t, cs)
	if len(entries) != listed || listed == 0 {
		t.Fatalf("skills/list has %d entries, the server says %d", len(entries), listed)
	}
	resources := allResources(t, cs)
	files := 0
	for _, e := range entries {
		name, _, err := parseURI(e.URI)
		if err != nil {
			t.Fatal(err)
		}
		cs2, err := cat.Get(t.Context(), name)
		if err != nil {
			t.Fatal(err)
		}
		onDisk, _, err := cs2.Files(t.Context(), 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(e.Resources.Files) != len(onDisk) {
			t.Errorf("%s: %d manifest entries, %d files in the folder", e.URI, len(e.Resources.Files), len(onDisk))
		}
		for _, r := range e.Resources.Files {
			files++
			_, rel, _ := parseURI(r.URI)
			path := filepath.Join(cs2.BaseDir, filepath.FromSlash(rel))
			if rel == "SKILL.md" {
				path = cs2.Location
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if "sha256:"+sum(data) != r.Digest || int64(len(data)) != r.Size {
				t.Errorf("%s: manifest %s %d, file %s %d", r.URI, r.Digest, r.Size, sum(data), len(data))
			}
			res, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: r.URI})
			if err != nil {
				t.Fatalf("%s: %v", r.URI, err)
			}
			got := res.Contents[0].Blob
			if res.Contents[0].Text != "" {
				got = []byte(res.Contents[0].Text)
			}
			if !bytes.Equal(got, data) {
				t.Errorf("%s: served bytes differ from the file", r.URI)
			}
			if rel == "SKILL.md" {
				p, _ := skill.Parse(data, nil)
				fm, _ := p.Frontmatter.MarshalJSON()
				if string(fm) != string(e.Frontmatter) {
					t.Errorf("%s: entry frontmatter %s, file parses to %s", e.URI, e.Frontmatter, fm)
				}
			}
		}
	}
	t.Logf("corpus: %d skills served, %d in skills/list with %d files; %d resources", len(names), len(entries), files, len(resources))
	if len(resources) < files {
		t.Errorf("resources/list has %d resources, fewer than the %d manifest files", len(resources), files)
	}
}
