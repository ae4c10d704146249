package catalog

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/skill"
)

// TestDiskListSteps runs the steps of one List of the disk (diskList) one
// at a time, twice on one catalog, and checks what each hands the next: the
// first walk reads its files while it walks (entries set), a later one
// walks only and readAll takes every unchanged file from the cache the
// first List left (the same entries); precedence keeps the first x and
// loses the second (duplicate-name: both are extra roots), whose folder
// nestedDiags then searches.
func TestDiskListSteps(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, b := filepath.Join(e.ws, "a"), filepath.Join(e.ws, "b")
	writeTree(t, e.ws, map[string]string{
		"a/x/SKILL.md": skillMD("x"),
		"b/x/SKILL.md": skillMD("x"),
		"b/y/SKILL.md": skillMD("y"),
	})
	c, err := New(context.Background(), e.opts(&Options{NoUser: true, NoConfigFile: true, ExtraPaths: []string{a, b}}))
	if err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	wantPaths := []string{filepath.Join(a, "x", SkillFile), filepath.Join(b, "x", SkillFile), filepath.Join(b, "y", SkillFile)}

	var first []*entry
	for round, cold := range []bool{true, false} {
		d := c.newDiskList(context.Background(), nil)
		d.walkRoots()
		var paths []string
		for _, cd := range d.cands {
			paths = append(paths, cd.path)
		}
		if !slices.Equal(paths, wantPaths) {
			t.Fatalf("round %d: walkRoots found %q, want %q", round, paths, wantPaths)
		}
		if got := d.entries != nil; got != cold {
			t.Errorf("round %d: entries read during the walk: %v, want %v", round, got, cold)
		}
		d.readAll()
		if len(d.entries) != len(d.cands) || slices.Contains(d.entries, nil) {
			t.Fatalf("round %d: readAll gave %d entries for %d candidates, or a nil one", round, len(d.entries), len(d.cands))
		}
		if cold {
			first = slices.Clone(d.entries)
		} else if !slices.Equal(d.entries, first) {
			t.Errorf("round %d: readAll did not take the unchanged files from the cache", round)
		}
		d.applyPrecedence()
		if got := skillNames(d.l.Skills); !slices.Equal(got, []string{"x", "y"}) {
			t.Errorf("round %d: applyPrecedence loaded %q, want [x y]", round, got)
		}
		if len(d.lost) != 1 || d.lost[0].path != wantPaths[1] {
			t.Errorf("round %d: lost %d candidates, want the second x", round, len(d.lost))
		}
		if !slices.ContainsFunc(d.diags, func(g skill.Diagnostic) bool { return g.Code == diagcode.DuplicateName && g.Path == wantPaths[1] }) {
			t.Errorf("round %d: no duplicate-name diagnostic for the second x in %v", round, d.diags)
		}
		if len(c.cache) != 3 || c.cache[wantPaths[0]] != d.entries[0] {
			t.Errorf("round %d: the catalog's cache holds %d entries, or not the walk's", round, len(c.cache))
		}
		d.closeRoots()
	}
}
