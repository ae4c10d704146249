package catalog

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
)

// TestListAgainLoserNotListed: a catalog that lists again, after a skill
// it listed lost its place (shadowed by a project skill of its name, or a
// duplicate of one), gives that skill's candidate as not listed, as a new
// catalog does: the skill the new listing reuses from the previous one
// keeps its Listed flag otherwise (found by TestIndexOneSkillDifferential
// with a catalog listing after each edit; caught: applyMaxSkills leaving
// the candidates' skills as they were).
func TestListAgainLoserNotListed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, was, now string }{
		{"shadowed", "home/.agents/skills/alpha/SKILL.md", "ws/.agents/skills/alpha/SKILL.md"},
		{"duplicate", "ws/skills/alpha/SKILL.md", "ws/.agents/skills/alpha/SKILL.md"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			base := filepath.Dir(e.ws)
			writeTree(t, base, map[string]string{tc.was: skillMD("alpha"), "ws/skills/beta/SKILL.md": skillMD("beta")})
			c, first := e.list(t, nil)
			if got := names(first); len(got) != 2 {
				t.Fatalf("first listing: %v, want alpha and beta", got)
			}
			writeTree(t, base, map[string]string{tc.now: skillMD("alpha")})
			again, err := c.List(context.Background())
			must(t, err)
			_, cold := e.list(t, nil)
			if diff := diffListing(cold, again); diff != "" {
				t.Fatalf("listing again differs from a new catalog's (-new +again):\n%s", diff)
			}
			for _, cd := range again.candidates {
				if cd.Skill != nil && cd.Skill.Listed && !slices.Contains(again.Skills, cd.Skill) {
					t.Errorf("%s: a candidate not in the listing is Listed", cd.Path)
				}
			}
		})
	}
}
