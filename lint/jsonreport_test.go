package lint

import (
	"bytes"
	"context"
	"testing"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/benchtree/tree"
	"github.com/skillet-go/skillet/internal/testcorpus"
	"github.com/skillet-go/skillet/skill"
)

// TestWriteJSONIsEncodingJSON: the one-pass WriteJSON writes exactly what
// encoding/json writes for the same report, over the corpus (with and
// without the compatibility report), a generated tree, an empty report and
// hard strings.
func TestWriteJSONIsEncodingJSON(t *testing.T) {
	gen := t.TempDir()
	if _, err := tree.Generate(gen, &tree.Options{N: 50, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	var reports []*Report
	for _, o := range []*Options{
		{Catalog: &catalog.Options{Workspace: t.TempDir(), NoConfigFile: true, NoUser: true}, Targets: []string{testcorpus.Dir(t)}},
		{Catalog: &catalog.Options{Workspace: t.TempDir(), NoConfigFile: true, NoUser: true}, Targets: []string{testcorpus.Dir(t)}, Compat: true},
		{Catalog: &catalog.Options{Workspace: gen, NoConfigFile: true, NoUser: true}},
	} {
		r, err := Run(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		reports = append(reports, r)
	}
	hard := "q\"b\\s\n\t\x01\x7f\xff<&>\u2028é"
	reports = append(reports, &Report{}, &Report{Workspace: "/w" + hard, Compat: []*Compat{},
		Files: []*File{{Path: "/w/a" + hard, Name: hard}, {Path: "/w/b", Diagnostics: []skill.Diagnostic{
			{Code: "c", Severity: skill.SeverityError, Message: hard, Line: 1, Column: -2, Related: "/r" + hard},
			{Code: "d", Severity: skill.SeverityWarning, Message: ""},
		}}},
		Counts: Counts{Files: 1, Skills: 2, Errors: 3, Warnings: 4}})
	for i, r := range reports {
		var got, want bytes.Buffer
		if err := r.WriteJSON(&got); err != nil {
			t.Fatal(err)
		}
		if err := r.writeJSONEncoded(&want); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("report %d: WriteJSON differs from encoding/json:\n%s\nwant\n%s", i, got.String(), want.String())
		}
		if i < 3 && len(r.Files) == 0 {
			t.Errorf("report %d has no files", i)
		}
	}
}
