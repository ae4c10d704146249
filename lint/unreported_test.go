package lint

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/skill"
)

// TestUnreportedChecksDoNotRun: under rules that report none of a
// check's codes the check is not run (lintCheck.runs, and the body
// check's references with broken-reference off), and the report is byte
// for byte the one of a run where every check runs and processSelect
// drops their findings: inline ignores of the rules left out still count
// as suppressing nothing, the levels, fixes and counts are the same.
func TestUnreportedChecksDoNotRun(t *testing.T) {
	ws := t.TempDir()
	long := strings.Repeat("line\n", 520)
	writeTree(t, ws, map[string]string{
		"outside.md": "x",
		"skills/a/SKILL.md": "---\nname: a\ndescription: d # skillet: ignore[broken-reference]\n---\n\n" +
			"See [the guide](references/guide.md) and `scripts/run.sh`.\n\n" + long,
		"skills/b/SKILL.md": "---\nname: b\ndescription: d\n---\n\nSee [x](references/x.md).\n",
		"skills/c/SKILL.md": "---\nname: wrong\ndescription: 'd' # skillet: ignore[bundled-symlink]\n---\n\nSee [y](y.md).\n",
		"skills/c/y.md":     "y",
	})
	if err := os.Symlink("../../outside.md", filepath.Join(ws, "skills", "b", "out.md")); err != nil {
		t.Skip("no symlinks:", err)
	}
	report := func(rules *Rules) []byte {
		t.Helper()
		r, err := Run(context.Background(), &Options{Rules: rules,
			Catalog: &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true}})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := r.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	for _, tc := range []struct {
		name  string
		rules Rules
		off   []string // checks that must not run
	}{
		{"default", Rules{}, nil},
		{"ignore broken-reference", Rules{Ignore: []string{"broken-reference"}}, []string{"body"}}, // body-too-long is opt-in
		{"body-too-long only of the body's", Rules{ExtendSelect: []string{"body-too-long"}, Ignore: []string{"broken-reference"}}, nil},
		{"ignore bundled-symlink", Rules{Ignore: []string{"bundled-symlink"}}, []string{"bundle"}},
		{"ignore both body codes", Rules{Ignore: []string{"broken-reference", "body-too-long"}}, []string{"body"}},
		{"select name", Rules{Select: []string{"name"}}, []string{"bundle", "body"}},
		{"select broken-reference", Rules{Select: []string{"broken-reference"}}, []string{"bundle"}},
		{"select bundled-symlink, severity", Rules{Select: []string{"bundled-symlink", "suppression-unused"},
			Severity: map[string]skill.Severity{"bundled-symlink": skill.SeverityError}}, []string{"body"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sel, err := newSelection(&tc.rules, nil, "")
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range checks {
				want := !slices.Contains(tc.off, c.Name)
				if got := c.runs(sel); got != want {
					t.Errorf("check %s runs: %v, want %v", c.Name, got, want)
				}
			}
			p := pass{sel: sel}
			if p.reports(diagcode.BrokenReference) != sel.reported(diagcode.BrokenReference) {
				t.Error("pass.reports is not the selection's")
			}
			got := report(&tc.rules)
			if tc.name == "default" {
				for _, code := range []string{"broken-reference", "bundled-symlink", "suppression-unused", "name-mismatch"} {
					if !bytes.Contains(got, []byte(`"code": "`+code+`"`)) {
						t.Errorf("the default report has no %s: the tree does not try what it should\n%s", code, got)
					}
				}
			}
			allChecksRun = true
			want := report(&tc.rules)
			allChecksRun = false
			if !bytes.Equal(got, want) {
				t.Errorf("report with checks left out differs from the one with every check run:\n%s\nwant\n%s", got, want)
			}
		})
	}
}
