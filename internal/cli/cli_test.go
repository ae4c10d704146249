package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/benchtree/tree"
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/outfmt"
	"github.com/skillet-go/skillet/internal/testcorpus"
	"github.com/skillet-go/skillet/skill"
)

// TestExamplesClean checks that the bundled examples load with no
// diagnostic at all, and that the README's command finds all three.
func TestExamplesClean(t *testing.T) {
	t.Parallel()
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

// TestStreamedJSONIsTheSame checks that the one-pass list --json writer
// writes byte for byte what encoding/json writes for the whole docs/output.md object at
// once, for an empty listing, the corpus, a generated tree (with broken
// skills, so diagnostics) and a listing of hard values. -short writes a
// tree of 100 skills and leaves the corpus out; go test ./... writes the
// corpus and a tree of 300.
func TestStreamedJSONIsTheSame(t *testing.T) {
	t.Parallel()
	n := 300
	if testing.Short() {
		n = 100
	}
	gen := t.TempDir()
	if _, err := tree.Generate(gen, &tree.Options{N: n, Seed: 7, BrokenPercent: 10}); err != nil {
		t.Fatal(err)
	}
	dirs := []string{t.TempDir(), gen}
	if c := testcorpus.Find(); c != "" && !testing.Short() {
		dirs = append(dirs, c)
	}
	check := func(name string, l *catalog.Listing) {
		t.Helper()
		var whole, streamed bytes.Buffer
		if err := outfmt.JSON(&whole, listingJSON(l)); err != nil {
			t.Fatal(err)
		}
		if err := writeListingJSON(&streamed, l); err != nil {
			t.Fatal(err)
		}
		if whole.String() != streamed.String() {
			w, s := whole.String(), streamed.String()
			i := 0
			for i < len(w) && i < len(s) && w[i] == s[i] {
				i++
			}
			t.Errorf("%s: streamed JSON differs at byte %d (%d vs %d bytes): ...%q vs ...%q", name, i, streamed.Len(), whole.Len(),
				s[max(0, i-40):min(len(s), i+40)], w[max(0, i-40):min(len(w), i+40)])
		}
	}
	for _, dir := range dirs {
		var extra []string
		for _, r := range testcorpus.Roots(dir) {
			if _, err := os.Stat(r); err == nil {
				extra = append(extra, r)
			}
		}
		c, err := catalog.New(context.Background(), &catalog.Options{Workspace: dir, NoUser: true, ExtraPaths: extra})
		if err != nil {
			t.Fatal(err)
		}
		l, err := c.List(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		check(dir, l)
		// list --json writes each skill as Catalog.Each hands it out:
		// the same bytes as the whole listing encoded at once.
		var whole, out bytes.Buffer
		if err := outfmt.JSON(&whole, listingJSON(l)); err != nil {
			t.Fatal(err)
		}
		args := []string{"list", "--json", "-q", "-w", dir, "--no-user"}
		for _, r := range extra {
			args = append(args, "--root", r)
		}
		var errb bytes.Buffer
		code := Run(context.Background(), args, &IO{Out: &out, Err: &errb})
		if out.String() != whole.String() {
			t.Errorf("%s: list --json (%d bytes, exit %d, %s) is not the listing encoded whole (%d bytes)", dir, out.Len(), code, errb.String(), whole.Len())
		}
	}
	odd := "q\"\\ <&> \b\f\n\r\t\x00\x1f\x7f bad\xff\xfe \u2028\u2029 é😀"
	check("hard values", &catalog.Listing{
		Workspace: "/w/" + odd,
		Roots:     []catalog.Root{{Path: "/w/a", Scope: catalog.ScopeProject, Exists: true}, {Path: odd, Scope: catalog.ScopeUser}},
		Skills: []*catalog.Skill{with(catx.NewSkill(&skill.Skill{Name: odd, Description: odd, WhenToUse: "w", License: odd, Compatibility: "c",
			Metadata:     map[string]string{"z": odd, "a": "1", odd: ""},
			AllowedTools: []string{"Read", odd},
			Extra: skill.Map{
				{Key: "f", Value: 1.5}, {Key: "big", Value: 1e21}, {Key: "tiny", Value: 1e-7}, {Key: "neg", Value: math.Copysign(0, -1)},
				{Key: "i", Value: int64(-42)}, {Key: "b", Value: true}, {Key: "n", Value: nil}, {Key: odd, Value: odd},
				{Key: "list", Value: []any{"a", int64(1), []any{}, skill.Map{}, skill.Map{{Key: "x", Value: []any{false, nil, 2.25}}}}},
				{Key: "empty", Value: []any{}}, {Key: "map", Value: skill.Map{{Key: "k", Value: skill.Map{{Key: "deep", Value: "v"}}}}},
			},
			DisableModelInvocation: true}), func(s *catalog.Skill) {
			s.Location, s.BaseDir, s.Scope, s.Bytes, s.Truncated = "/w/a/s/SKILL.md", "/w/a/s", catalog.ScopeProject, 123, true
		}), with(catx.NewSkill(&skill.Skill{Name: "plain"}), func(s *catalog.Skill) {
			s.Location, s.BaseDir, s.Scope = "/w/a/p/SKILL.md", "/w/a/p", catalog.ScopeExtra
		})},
		Diagnostics: []skill.Diagnostic{
			{Code: diagcode.Shadowed, Severity: skill.SeverityWarning, Path: odd, Line: 3, Column: 9, Message: odd, Skill: "s", Related: "/r"},
			{Code: diagcode.ParseError, Severity: skill.SeverityError, Path: "/p", Message: "m"},
		},
	})
}

// with returns s after set has set its fields.
func with(s *catalog.Skill, set func(*catalog.Skill)) *catalog.Skill {
	set(s)
	return s
}

func TestPrintable(t *testing.T) {
	t.Parallel()
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
