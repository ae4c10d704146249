package catalog_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/testcorpus"
)

// writeSkills creates W/skills/NAME/SKILL.md for each entry and returns a
// catalog over the workspace W (no user roots, no configuration file).
func writeSkills(t *testing.T, files map[string]string, opts *catalog.Options) *catalog.Catalog {
	t.Helper()
	ws := t.TempDir()
	for name, text := range files {
		dir := filepath.Join(ws, "skills", name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	o := catalog.Options{}
	if opts != nil {
		o = *opts
	}
	o.Workspace, o.NoUser, o.NoConfigFile = ws, true, true
	c, err := catalog.New(context.Background(), &o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func skillText(name, desc, when string) string {
	s := "---\nname: " + name + "\ndescription: " + desc + "\n"
	if when != "" {
		s += "when-to-use: " + when + "\n"
	}
	return s + "---\n\n# " + name + "\n\nSteps.\n"
}

var searchSkills = map[string]string{
	"release-checklist": skillText("release-checklist", "Cut a versioned release without breaking the changelog.", "The user asks to ship, tag, publish or bump a version."),
	"commit-message":    skillText("commit-message", "Write a commit message that says what changed and why.", ""),
	"deploy-preview":    skillText("deploy-preview", "Create a preview deployment of the web app for review.", ""),
	"pdf-processing":    skillText("pdf-processing", "Extract text and tables from PDF files, fill forms, merge documents.", ""),
	"changelog-writer":  skillText("changelog-writer", "Keep CHANGELOG.md tidy: group entries, one line each.", ""),
	"rotate-secrets":    "---\nname: rotate-secrets\ndescription: Rotate the deployment credentials.\ndisable-model-invocation: true\n---\n\nSteps.\n",
}

func names(res []catalog.SearchResult) []string {
	var out []string
	for _, r := range res {
		out = append(out, r.Skill.Name)
	}
	return out
}

func TestSearch(t *testing.T) {
	t.Parallel()
	c := writeSkills(t, searchSkills, nil)
	ctx := context.Background()
	tests := []struct {
		query string
		limit int
		want  []string // the first results, in order
	}{
		// when-to-use words rank the release skill first.
		{"ship a new version", 1, []string{"release-checklist"}},
		// stemming: "releasing" meets "release", "versioned" meets "version".
		{"releasing versions", 1, []string{"release-checklist"}},
		// an exact name wins over skills that mention its words more.
		{"changelog writer", 1, []string{"changelog-writer"}},
		{"commit-message", 1, []string{"commit-message"}},
		// a prefix counts: "deploy" matches "deployment" and "deploy-preview".
		{"deploy", 0, []string{"deploy-preview", "rotate-secrets"}},
		// hidden skills are found too (callers filter them).
		{"rotate credentials", 1, []string{"rotate-secrets"}},
		{"merge pdf documents", 1, []string{"pdf-processing"}},
		// nothing matches.
		{"kubernetes helm", 0, nil},
	}
	for _, tt := range tests {
		res, err := c.Search(ctx, tt.query, tt.limit)
		if err != nil {
			t.Fatalf("Search(%q): %v", tt.query, err)
		}
		got := names(res)
		if len(got) > len(tt.want) && tt.limit == 0 && tt.want != nil {
			got = got[:len(tt.want)]
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Search(%q, %d) (-want +got):\n%s", tt.query, tt.limit, diff)
		}
	}
}

func TestSearchScoresAndLimit(t *testing.T) {
	t.Parallel()
	c := writeSkills(t, searchSkills, nil)
	res, err := c.Search(context.Background(), "changelog version release", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) < 2 {
		t.Fatalf("want at least 2 results, got %v", names(res))
	}
	for i := 1; i < len(res); i++ {
		if res[i].Score > res[i-1].Score {
			t.Errorf("results not sorted by score: %v (%v) before %v (%v)", res[i-1].Skill.Name, res[i-1].Score, res[i].Skill.Name, res[i].Score)
		}
		if res[i].Score <= 0 {
			t.Errorf("%s has score %v, want > 0", res[i].Skill.Name, res[i].Score)
		}
	}
	if diff := cmp.Diff([]string{"changelog", "version", "releas"}, res[0].Matched); diff != "" {
		t.Errorf("Matched of %s (-want +got):\n%s", res[0].Skill.Name, diff)
	}
	limited, err := c.Search(context.Background(), "changelog version release", 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(limited) != 1 || limited[0].Skill.Name != res[0].Skill.Name {
		t.Errorf("limit 1: got %v, want [%s]", names(limited), res[0].Skill.Name)
	}
}

func TestSearchEmptyQuery(t *testing.T) {
	t.Parallel()
	c := writeSkills(t, searchSkills, nil)
	for _, q := range []string{"", "   ", "--- !!! ..."} {
		if _, err := c.Search(context.Background(), q, 0); !errors.Is(err, catalog.ErrEmptyQuery) {
			t.Errorf("Search(%q) error = %v, want ErrEmptyQuery", q, err)
		}
	}
	// Stop words alone are still searched.
	res, err := c.Search(context.Background(), "the", 0)
	if err != nil {
		t.Errorf(`Search("the") error = %v, want nil`, err)
	}
	got := names(res)
	slices.Sort(got)
	if diff := cmp.Diff([]string{"deploy-preview", "release-checklist", "rotate-secrets"}, got); diff != "" {
		t.Errorf(`Search("the") (-want +got):\n%s`, diff)
	}
}

func TestSearchFindsUnlisted(t *testing.T) {
	t.Parallel()
	// With maxSkills 2, the others stay findable by search (docs/discovery.md#limits).
	c := writeSkills(t, searchSkills, &catalog.Options{MaxSkills: 2})
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	unlisted := 0
	for _, s := range l.Skills {
		if s.Listed || s.Hidden() {
			continue
		}
		unlisted++
		res, err := l.Search(s.Name, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(res) != 1 || res[0].Skill != s || !res[0].ExactName {
			t.Errorf("Search(%q) = %v, want the unlisted skill itself as an exact match", s.Name, names(res))
		}
	}
	if unlisted != 3 {
		t.Errorf("%d unlisted skills, want 3", unlisted)
	}
}

func TestSearchSeesEdits(t *testing.T) {
	t.Parallel()
	c := writeSkills(t, searchSkills, nil)
	ctx := context.Background()
	if res, _ := c.Search(ctx, "terraform", 0); len(res) != 0 {
		t.Fatalf("before the edit: %v", names(res))
	}
	l, _ := c.List(ctx)
	var loc string
	for _, s := range l.Skills {
		if s.Name == "deploy-preview" {
			loc = s.Location
		}
	}
	text := skillText("deploy-preview", "Create a preview deployment with Terraform plans for review.", "")
	if err := os.WriteFile(loc, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := c.Search(ctx, "terraform", 0)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"deploy-preview"}, names(res)); diff != "" {
		t.Errorf("after the edit (-want +got):\n%s", diff)
	}
}

// corpusDir returns the real corpus or skips.
func corpusDir(t testing.TB) string { return testcorpus.Dir(t) }

func TestSearchCorpusNames(t *testing.T) {
	t.Parallel()
	dir := corpusDir(t)
	c, err := catalog.New(context.Background(), &catalog.Options{Workspace: t.TempDir(), NoUser: true, NoConfigFile: true, ExtraPaths: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Skills) < 400 {
		t.Fatalf("corpus: %d skills, want at least 400", len(l.Skills))
	}
	// Every skill is the first result for its own name, and for its name
	// written with spaces: listed or not. Each search ranks the whole
	// corpus: -short asks for one skill in eight, go test ./... for all.
	step := 1
	if testing.Short() {
		step = 8
	}
	for i, s := range l.Skills {
		if i%step != 0 {
			continue
		}
		for _, q := range []string{s.Name, strings.ReplaceAll(s.Name, "-", " ")} {
			res, err := l.Search(q, 1)
			if err != nil {
				t.Fatalf("Search(%q): %v", q, err)
			}
			if len(res) != 1 || res[0].Skill != s {
				t.Errorf("Search(%q) = %v, want %s first", q, names(res), s.Name)
			}
		}
	}
}

func TestSearchSeesChangedFields(t *testing.T) {
	t.Parallel()
	// Search caches each parsed skill's words; a caller that changes a
	// skill's fields in memory still gets results for the new text.
	c := writeSkills(t, searchSkills, nil)
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res, _ := l.Search("helm chart", 0); len(res) != 0 {
		t.Fatalf("before: %v", names(res))
	}
	for _, s := range l.Skills {
		if s.Name == "beta" || s.Name == "deploy-preview" {
			s.Description = "Package the app as a Helm chart."
		}
	}
	res, err := l.Search("helm chart", 0)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"deploy-preview"}, names(res)); diff != "" {
		t.Errorf("after the change (-want +got):\n%s", diff)
	}
}
