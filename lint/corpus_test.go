package lint

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/skill"
)

// TestCorpus lints the real-world corpus as an extra root and checks the
// count of every code, and the file and skill counts. A change in these
// numbers is a change in what skillet tells authors about published skills:
// look at the difference before updating them.
func TestCorpus(t *testing.T) {
	t.Parallel()
	corpus := corpusDir(t)
	r, err := Run(context.Background(), &Options{
		Catalog: &catalog.Options{Workspace: t.TempDir(), NoConfigFile: true, NoUser: true},
		Targets: []string{corpus},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := map[skill.Code]int{}
	for _, d := range r.Diagnostics {
		got[d.Code]++
	}
	// The rules on by default (docs/lint.md#precision): each finding was
	// judged by reading the skill.
	want := map[skill.Code]int{diagcode.BrokenReference: 10, diagcode. // gdpr-compliant, tm7-threat-model: files missing or in another letter case (the code spans naming the user's project and obra-superpowers' links to sibling skills that exist are not reported)
										DescriptionTooLong: 1, diagcode. // claude-api: over the specification's 1024
										DuplicateName: 1, diagcode.      // webapp-testing in anthropics-skills and github-awesome-copilot
										NameMismatch: 4,                 // vercel-agent-skills: vercel-* names in shorter folders
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics per code (-want +got):\n%s", diff)
	}
	// With every rule: skillet's own limits and the specification's advice.
	all, err := Run(context.Background(), &Options{
		Catalog: &catalog.Options{Workspace: t.TempDir(), NoConfigFile: true, NoUser: true},
		Targets: []string{corpus}, Rules: &Rules{Select: []string{"all"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	gotAll := map[skill.Code]int{}
	for _, d := range all.Diagnostics {
		gotAll[d.Code]++
	}
	want[diagcode.BodyTooLong], want[diagcode.DescriptionLong], want[diagcode.TooLarge] = 29, 229, 2
	if diff := cmp.Diff(want, gotAll); diff != "" {
		t.Errorf("diagnostics per code, every rule selected (-want +got):\n%s", diff)
	}
	// 462 SKILL.md files: 435 found by discovery, 12 more under hidden
	// folders (openai-skills' .curated, .system, .experimental;
	// awesome-copilot's .github/skills), and 15 inside other skills'
	// folders, which are bundled files (docs/discovery.md#shapes). One duplicate does not load.
	wantCounts := Counts{Files: 447, Skills: 434, Errors: 1, Warnings: 15}
	if diff := cmp.Diff(wantCounts, r.Counts); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
}
