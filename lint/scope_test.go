package lint

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/skillet-go/skillet/catalog"
)

// TestMayReport: a target keeps the checks of the skills it covers and of
// a skill whose folder holds it, and only those.
func TestMayReport(t *testing.T) {
	t.Parallel()
	a := "/ws/skills/a/SKILL.md"
	for _, tc := range []struct {
		scope []string
		want  bool
	}{
		{nil, true},
		{[]string{"/ws"}, true},
		{[]string{"/ws/skills/a"}, true},
		{[]string{a}, true},
		{[]string{"/ws/skills/a/scripts/run.sh"}, true}, // a bundled file of a
		{[]string{"/ws/skills/b"}, false},
		{[]string{"/ws/skills/ab"}, false},
		{[]string{"/ws/skills/b", "/ws/skills/a/references"}, true},
	} {
		if got := mayReport(a, tc.scope); got != tc.want {
			t.Errorf("mayReport(%s, %q) = %v, want %v", a, tc.scope, got, tc.want)
		}
	}
}

// TestTargetReportIsTheSame: linting one skill of a workspace reports, for
// that skill, exactly what linting the whole workspace reports for it,
// although its siblings' bodies are not checked.
func TestTargetReportIsTheSame(t *testing.T) {
	ws := t.TempDir()
	body := "---\nname: %s\ndescription: A skill. Use when testing.\n---\n\nSee [the guide](references/missing.md) and [x](gone.md).\n"
	files := map[string]string{}
	for _, n := range []string{"a", "b", "c"} {
		files["skills/"+n+"/SKILL.md"] = fmt.Sprintf(body, n)
	}
	writeTree(t, ws, files)
	ctx := context.Background()
	copts := &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true}
	whole, err := Run(ctx, &Options{Catalog: copts})
	if err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(ws, "skills", "b")
	var mu sync.Mutex
	var checked []string
	onChecks = func(p string, _ bool) { mu.Lock(); checked = append(checked, p); mu.Unlock() }
	defer func() { onChecks = nil }()
	one, err := Run(ctx, &Options{Catalog: copts, Targets: []string{target}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(target, "SKILL.md")}; !cmp.Equal(checked, want) {
		t.Errorf("lint %s checked %q, want only %q", target, checked, want)
	}
	var want []string
	for _, d := range whole.Diagnostics {
		if inScope(d.Path, []string{target}) {
			want = append(want, d.String())
		}
	}
	var got []string
	for _, d := range one.Diagnostics {
		got = append(got, d.String())
	}
	if len(want) == 0 {
		t.Fatal("the whole workspace reports nothing for b: the test tree is wrong")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lint %s differs from the whole workspace's findings for it (-want +got):\n%s", target, diff)
	}
}
