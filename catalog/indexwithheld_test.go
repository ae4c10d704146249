package catalog

import (
	"testing"
	"time"
)

// TestIndexStreamWithheld: the index the first show writes as it lists
// (indexstream.go), of a root whose .skilletignore withholds skills found
// before others (one with a diagnostic of its own), answers List with the
// cold listing: the withheld candidates and their diagnostics after the
// others, in both (caught: List adding the candidates in the walk's
// order, which Each, holding the withheld ones back, does not; found by
// TestIndexOneSkillDifferential's ignore-file edits).
func TestIndexStreamWithheld(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		"skills/.skilletignore": "a\nb\n",
		"skills/a/SKILL.md":     skillMD("a"),
		"skills/b/SKILL.md":     skillMD("not-b"), // a name-mismatch of its own
		"skills/c/SKILL.md":     skillMD("c"),
		"skills/d/SKILL.md":     skillMD("d"),
	})
	age(t, e.ws, e.home)
	// The ignore file's change time, which age moves, must be older than
	// the racy window for the index to be written (stampedAfterUse).
	time.Sleep(indexRacyWindow)
	streamCheck(t, e, Options{}, "c", true)
}
