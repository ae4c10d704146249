package lint

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/skill"
)

// selectEachFinding is processSelect's dropping of findings as it was
// before runs of one code, path and skill shared a verdict and the
// folder-form ignores were indexed by skill: every finding asks the
// selection, the per-path ignores and every inline ignore in turn.
func selectEachFinding(st *state) {
	sel := st.sel
	byPath := map[string]*fileIgnores{}
	for _, fi := range st.ignores {
		fi.used = make([]bool, len(fi.entries))
		byPath[fi.path] = fi
	}
	inline := func(d *skill.Diagnostic) bool {
		fi := byPath[d.Path]
		if fi == nil && len(st.ignores) > 0 && d.Skill != "" {
			for _, x := range st.ignores {
				if x.covers(d) {
					fi = x
					break
				}
			}
		}
		if fi == nil || !fi.covers(d) {
			return false
		}
		hit := false
		for i, e := range fi.entries {
			if slices.Contains(e.codes, d.Code) {
				fi.used[i], hit = true, true
			}
		}
		return hit
	}
	ws := st.r.Workspace
	st.diags = slices.DeleteFunc(st.diags, func(d skill.Diagnostic) bool {
		if d.Code == diagcode.ConfigInvalid {
			return false
		}
		return !sel.reported(d.Code) || sel.ignoredAt(d.Code, d.Path, ws) || inline(&d)
	})
}

// TestSelectRunsIsEachFinding: on random findings (runs of one code,
// path and skill, and findings about paths in another skill's folder)
// and random inline ignores (folder and flat form, one path several
// times, several ignores of one skill), processSelect keeps the findings
// that selectEachFinding keeps and marks the same inline entries used.
// It catches a verdict shared by findings that differ in their skill or
// code, a folder-form ignore looked up under another skill, and an
// ignore other than the first in candidate order taken for a finding
// (mutations tried: Skill left out of dropKey; bySkill keeping the last
// ignore of a skill instead of all in order).
func TestSelectRunsIsEachFinding(t *testing.T) {
	t.Parallel()
	sel, err := newSelection(&Rules{Ignore: []string{"name-mismatch"}}, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	codes := []skill.Code{diagcode.BrokenReference, diagcode.BodyTooLong, diagcode.NameMismatch, diagcode.BundledSymlink, diagcode.ConfigInvalid}
	paths := []string{"/ws/s/a/SKILL.md", "/ws/s/a/x.md", "/ws/s/a/sub/y.md", "/ws/s/b/SKILL.md", "/ws/s/b.md", "/ws/s/c/SKILL.md"}
	skills := []string{"", "a", "b", "c"}
	for round := range 500 {
		var ignores []*fileIgnores
		for range r.IntN(5) {
			p := paths[r.IntN(len(paths))]
			fi := &fileIgnores{path: p, dir: p[:len(p)-len("/SKILL.md")], skill: skills[r.IntN(len(skills))], flat: r.IntN(3) == 0}
			for range 1 + r.IntN(2) {
				c := codes[r.IntN(len(codes))]
				fi.entries = append(fi.entries, inlineIgnore{entry: string(c), line: 2, column: 1, codes: []skill.Code{c}})
			}
			ignores = append(ignores, fi)
		}
		var diags []skill.Diagnostic
		for range r.IntN(30) {
			d := skill.Diagnostic{Code: codes[r.IntN(len(codes))], Path: paths[r.IntN(len(paths))], Skill: skills[r.IntN(len(skills))], Line: r.IntN(3)}
			for range 1 + r.IntN(3) { // runs, as a file's findings come
				d.Line++
				diags = append(diags, d)
			}
		}
		want := &state{r: &Report{Workspace: "/ws"}, sel: sel, ignores: cloneIgnores(ignores), diags: slices.Clone(diags)}
		got := &state{r: &Report{Workspace: "/ws"}, sel: sel, ignores: cloneIgnores(ignores), diags: slices.Clone(diags)}
		selectEachFinding(want)
		processSelect(got) // no files: no suppression-unused findings are added
		if diff := cmp.Diff(want.diags, got.diags); diff != "" {
			t.Fatalf("round %d: findings kept (-each finding +runs):\n%s", round, diff)
		}
		for i := range want.ignores {
			if !slices.Equal(want.ignores[i].used, got.ignores[i].used) {
				t.Fatalf("round %d: ignore %d of %s used %v, want %v", round, i, want.ignores[i].path, got.ignores[i].used, want.ignores[i].used)
			}
		}
	}
}

func cloneIgnores(in []*fileIgnores) []*fileIgnores {
	out := make([]*fileIgnores, len(in))
	for i, fi := range in {
		c := *fi
		out[i] = &c
	}
	return out
}
