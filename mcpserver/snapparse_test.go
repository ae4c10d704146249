package mcpserver

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSnapshotTakesListingsParse: a snapshot serves each SKILL.md with the
// parse its listing made of those bytes (the same frontmatter, not a
// second parse of it), and parses again only a file that changed since the
// listing read it.
func TestSnapshotTakesListingsParse(t *testing.T) {
	t.Parallel()
	s := newServer(t, newWorkspace(t), nil)
	sn := s.snap.Load()
	if len(sn.skills) < 2 {
		t.Fatalf("%d skills served", len(sn.skills))
	}
	for _, sv := range sn.skills {
		got, listed := sv.parsed.Frontmatter, sv.cat.Parsed().Frontmatter
		if len(got) == 0 || len(listed) == 0 {
			continue
		}
		if &got[0] != &listed[0] {
			t.Errorf("%s: the snapshot parsed SKILL.md again instead of taking the listing's parse", sv.name)
		}
		if sv.parsed.Body == "" {
			t.Errorf("%s: the snapshot's parse has no body", sv.name)
		}
	}

	// A file rewritten after the listing read it is parsed from the bytes
	// the snapshot read.
	sv := sn.skills[0]
	data, err := os.ReadFile(sv.cat.Location)
	if err != nil {
		t.Fatal(err)
	}
	l, err := s.cat.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sv.cat.Location, append(data, "\nOne line more.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(sv.cat.Location, later, later); err != nil {
		t.Fatal(err)
	}
	for _, cs := range l.Skills {
		if cs.Location != sv.cat.Location {
			continue
		}
		got := &served{name: cs.Name, byRel: map[string]*file{}}
		budget := &readBudget{mem: &s.mem}
		budget.left.Store(1 << 30)
		if _, _, err := s.snapSkillFile(got, cs, nil, budget); err != nil {
			t.Fatal(err)
		}
		if fm := cs.Parsed().Frontmatter; len(fm) > 0 && &got.parsed.Frontmatter[0] == &fm[0] {
			t.Error("a file changed since the listing was given the listing's parse")
		}
		if want := "One line more."; len(got.parsed.Body) < len(want) || got.parsed.Body[len(got.parsed.Body)-len(want):] != want {
			t.Errorf("the changed file's body ends %q, want the line added", got.parsed.Body)
		}
		return
	}
	t.Fatalf("%s is not in the listing", filepath.Base(sv.cat.Location))
}
