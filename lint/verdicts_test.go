package lint

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/diagcode"
)

// TestVerdictsFind: refCheck.find gives each target's verdict before and
// after the verdicts outgrow the one-by-one comparison (smallVerdicts)
// and go into the map. It catches a verdict left out of the map when it
// takes over (the first smallVerdicts not copied), an index off by one,
// and a target found by its text without its code flag.
func TestVerdictsFind(t *testing.T) {
	rc := refCheck{seen: map[refKey]int{}}
	n := 3*smallVerdicts + 1
	key := func(i int) refKey { return refKey{target: fmt.Sprintf("references/f%02d.md", i/2), code: i%2 == 1} }
	for i := range n {
		if _, ok := rc.find(key(i)); ok {
			t.Fatalf("%v found before it was kept", key(i))
		}
		rc.keep(key(i), refVerdict{problem: fmt.Sprint(i)})
		for j := 0; j <= i; j++ {
			got, ok := rc.find(key(j))
			if !ok || got != j || rc.vs[got].problem != fmt.Sprint(j) {
				t.Fatalf("after %d kept: find(%v) = %d, %v, want %d", i+1, key(j), got, ok, j)
			}
		}
	}
}

// TestVerdictsManyTargets: a body naming more files than smallVerdicts,
// each twice (the second time in the opposite order), gets a
// broken-reference finding at each naming of a missing file and none for
// a file that is there, as with few targets. It catches a reference given
// another target's verdict once the map holds them.
func TestVerdictsManyTargets(t *testing.T) {
	ws := t.TempDir()
	n := 2*smallVerdicts + 3
	files := map[string]string{}
	var body strings.Builder
	var want []int // the body lines of the references to missing files
	line := 6      // the body's first line in the file
	name := func(i int) string { return fmt.Sprintf("references/f%02d.md", i) }
	for _, round := range [][]int{seq(n, false), seq(n, true)} {
		for _, i := range round {
			fmt.Fprintf(&body, "See [file %d](%s) here.\n\n", i, name(i))
			if i%2 == 1 {
				want = append(want, line)
			}
			line += 2
		}
	}
	for i := 0; i < n; i += 2 {
		files[".agents/skills/a/"+name(i)] = "x\n"
	}
	files[".agents/skills/a/SKILL.md"] = "---\nname: a\ndescription: d\n---\n\n" + body.String()
	writeTree(t, ws, files)
	r, err := Run(context.Background(), &Options{Catalog: &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true}})
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, d := range r.Diagnostics {
		if d.Code == diagcode.BrokenReference {
			got = append(got, d.Line)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("broken references at lines %v, want %v", got, want)
	}
}

// seq is 0..n-1, reversed when rev is set.
func seq(n int, rev bool) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	if rev {
		slices.Reverse(s)
	}
	return s
}
