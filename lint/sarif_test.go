package lint

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/skill"
)

// sarifSchemaFile is the SARIF 2.1.0 JSON schema as the OASIS SARIF
// technical committee publishes it (oasis-tcs/sarif-spec,
// Schemata/sarif-schema-2.1.0.json, JSON Schema draft 2020-12), kept
// unchanged.
const sarifSchemaFile = "testdata/sarif-schema-2.1.0.json"

// loadSARIFSchema reads the schema and repairs, in memory, its one known
// defect: in the definition of "region" the anyOf that requires startLine,
// charOffset or byteOffset sits inside "properties", where a validator
// reads it as a property named anyOf whose schema is an array (which is not
// a schema). It is moved up beside "properties", where the specification
// (§3.30.2) puts that requirement.
func loadSARIFSchema(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	data, err := os.ReadFile(sarifSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	region := raw["definitions"].(map[string]any)["region"].(map[string]any)
	props := region["properties"].(map[string]any)
	if anyOf, ok := props["anyOf"]; ok {
		region["anyOf"] = anyOf
		delete(props, "anyOf")
	}
	if data, err = json.Marshal(raw); err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// TestSARIF writes the SARIF log of a workspace with findings of every
// kind of location (file with line and column, file without, folder, the
// workspace itself, a path outside the workspace, a related location) and
// validates it against the SARIF 2.1.0 schema.
func TestSARIF(t *testing.T) {
	t.Parallel()
	rs := loadSARIFSchema(t)
	ws := filepath.Join(t.TempDir(), "my ws")
	outside := filepath.Join(filepath.Dir(ws), "outside")
	writeTree(t, ws, map[string]string{
		"skillet.yaml":              "maxSkills: 1\n",
		"skills/dup-first/SKILL.md": "---\nname: dup\ndescription: First.\n---\n\nBody.\n",
		"skills/dup/SKILL.md":       "---\nname: dup\ndescription: Second.\n---\n\nBody.\n",
		"skills/colon/SKILL.md":     "---\nname: colon\ndescription: Use when: x\n---\n\nSee [a](<references/ä b.md>).\n",
		"skills/notes/readme.txt":   "no skill here\n",
		"skills/empty/SKILL.md":     "---\nname: empty\ndescription: d\n---\n",
	})
	writeTree(t, outside, map[string]string{"x/SKILL.md": "---\nname: Odd Name\ndescription: d\n---\n\nBody.\n"})
	r, err := Run(context.Background(), &Options{
		Catalog: &catalog.Options{Workspace: ws, NoUser: true, ExtraPaths: []string{outside}},
		// empty-body as a note: a result's level is the finding's.
		Rules: &Rules{ExtendSelect: []string{"catalog-truncated"}, Severity: map[string]skill.Severity{"empty-body": skill.SeverityNote}},
	})
	if err != nil {
		t.Fatal(err)
	}
	codes := map[skill.Code]bool{}
	for _, d := range r.Diagnostics {
		codes[d.Code] = true
	}
	for _, c := range []skill.Code{diagcode.DuplicateName, diagcode.ParseRecovered, diagcode.BrokenReference, diagcode.FileMissing, diagcode.EmptyBody, diagcode.CatalogTruncated, diagcode.NameNormalized} {
		if !codes[c] {
			t.Errorf("the test workspace should produce %s; got %v", c, r.Diagnostics)
		}
	}
	var buf bytes.Buffer
	if err := r.WriteSARIF(&buf, "v1.2.3"); err != nil {
		t.Fatal(err)
	}
	var log any
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if err := rs.Validate(log); err != nil {
		t.Fatalf("the SARIF log does not validate: %v\n%s", err, buf.String())
	}

	// One rule per code, each with help text; every result names its rule.
	var got sarifLog
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	run := got.Runs[0]
	if len(run.Tool.Driver.Rules) != len(skill.Codes()) {
		t.Errorf("%d rules, want one per code (%d)", len(run.Tool.Driver.Rules), len(skill.Codes()))
	}
	for _, rule := range run.Tool.Driver.Rules {
		if rule.Help.Text == "" || rule.ShortDescription.Text == "" || rule.DefaultConfiguration.Level == "" {
			t.Errorf("rule %s lacks help, description or level", rule.ID)
		}
		if want := "https://github.com/skillet-go/skillet/blob/main/docs/lint.md#" + rule.ID; rule.HelpURI != want {
			t.Errorf("rule %s: helpUri %q, want %q", rule.ID, rule.HelpURI, want)
		}
	}
	if len(run.Results) != len(r.Diagnostics) {
		t.Errorf("%d results for %d diagnostics", len(run.Results), len(r.Diagnostics))
	}
	levels := map[string]int{}
	for i, res := range run.Results {
		levels[res.Level]++
		if i < len(r.Diagnostics) && res.Level != string(r.Diagnostics[i].Severity) {
			t.Errorf("result %s has level %q; the finding is a %s", res.RuleID, res.Level, r.Diagnostics[i].Severity)
		}
		if run.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("result %s points at rule %d (%s)", res.RuleID, res.RuleIndex, run.Tool.Driver.Rules[res.RuleIndex].ID)
		}
		uri := res.Locations[0].PhysicalLocation.ArtifactLocation
		if strings.HasPrefix(uri.URI, "file://") == (uri.URIBaseID != "") {
			t.Errorf("location %+v: want a workspace-relative URI with a base, or an absolute file URI", uri)
		}
	}
	if levels["error"] == 0 || levels["warning"] == 0 || levels["note"] == 0 {
		t.Errorf("want results of every level, got %v", levels)
	}
	if !strings.Contains(buf.String(), `"uri": "skills/colon/SKILL.md"`) || !strings.Contains(buf.String(), "file://"+filepath.ToSlash(outside)) {
		t.Errorf("expected relative workspace URIs and an absolute URI outside:\n%s", buf.String())
	}
	if !strings.Contains(buf.String(), `"uri": "file://`+strings.ReplaceAll(filepath.ToSlash(ws), " ", "%20")+`/"`) {
		t.Errorf("the workspace base URI should be escaped and end with /:\n%s", buf.String())
	}
}

// The schema check can fail: a log missing what SARIF requires does not
// validate.
func TestSARIFSchemaRejects(t *testing.T) {
	t.Parallel()
	rs := loadSARIFSchema(t)
	for _, bad := range []string{
		`{"version": "2.1.0"}`,
		`{"version": "2.0.0", "runs": []}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {}}}]}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"ruleId": "r"}]}]}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "level": "fatal"}]}]}`,
	} {
		var v any
		if err := json.Unmarshal([]byte(bad), &v); err != nil {
			t.Fatal(err)
		}
		if err := rs.Validate(v); err == nil {
			t.Errorf("validated: %s", bad)
		}
	}
}
