package catalog

import (
	"bytes"
	"fmt"
	"os"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/skill"
)

// otherFolder is the finding about skill s, which has the name of the
// loaded skill w, when the two sit in different roots of one scope: the
// folders of two agents (.agents/skills and .claude/skills). A copy with
// the same bytes is a note (duplicate-copy); a different skill of the same
// name is shadowed by the one that loads. ok is false for two skills of
// one root, or of two extra roots, which are duplicate-name.
func otherFolder(w, s *Skill) (skill.Diagnostic, bool) {
	if w.Scope != s.Scope || w.Root == s.Root || s.Scope == ScopeExtra {
		return skill.Diagnostic{}, false
	}
	if sameBytes(w.Location, s.Location) {
		return skill.Diagnostic{Code: diagcode.DuplicateCopy, Severity: skill.SeverityNote,
			Path: s.Location, Skill: s.Name, Related: w.Location,
			Message: fmt.Sprintf("the skill %q in %s is a copy of the one in %s, which is listed", s.Name, s.Folder, w.Folder)}, true
	}
	return skill.Diagnostic{Code: diagcode.Shadowed, Severity: skill.SeverityWarning,
		Path: s.Location, Skill: s.Name, Related: w.Location,
		Message: fmt.Sprintf("the skill %q in %s differs from the one in %s, which is listed; this one is not", s.Name, s.Folder, w.Folder)}, true
}

// sameBytes reports whether two files hold the same bytes (both readable,
// at most 4 MiB).
func sameBytes(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	if err != nil || fa.Size() != fb.Size() || fa.Size() > 4<<20 || !fa.Mode().IsRegular() || !fb.Mode().IsRegular() {
		return false
	}
	da, err := fsx.ReadFile(a, fa.Size())
	if err != nil {
		return false
	}
	db, err := fsx.ReadFile(b, fb.Size())
	return err == nil && bytes.Equal(da, db)
}
