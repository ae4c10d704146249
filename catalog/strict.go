package catalog

import (
	"path/filepath"
	"slices"

	"github.com/skillet-go/skillet/internal/skillsref"
	"github.com/skillet-go/skillet/skill"
)

// parseSkill parses a skill file's bytes in the catalog's mode; dir is the
// folder holding it.
//
// In strict mode a skill folder's file loads exactly when the reference
// validator's rules find nothing wrong with it (skillsref.CheckFile, the
// one decision skillet validate and lint --strict make too,
// docs/lint.md#reference-parity), and its findings about the file's
// content are those rules' violations, each an error: a block-style nested
// metadata loads, a flow list or a file named SKILL.MD does not. The other
// findings (empty-body, description-long) keep their level. A loaded
// skill's name and description are the reference's reading of them. A
// flat-form file (ROOT/NAME.md) is no skill folder for the reference and
// is read by the strict parser alone.
func parseSkill(data []byte, o *skill.Options, dir string) (*skill.Skill, []skill.Diagnostic) {
	if o.Mode != skill.Strict || o.Flat {
		return skill.Parse(data, o)
	}
	vs, name, desc := skillsref.CheckFile(filepath.Base(dir), filepath.Base(o.Path), data)
	keep := *o
	keep.KeepRejected = true
	s, diags := skill.Parse(data, &keep)
	diags = slices.DeleteFunc(diags, func(d skill.Diagnostic) bool {
		return skillsref.ContentCode(d.Code) || d.Severity == skill.SeverityError
	})
	if len(vs) > 0 {
		skillName := filepath.Base(dir)
		if s != nil {
			skillName = s.Name
		}
		for _, v := range vs {
			diags = append(diags, v.Diagnostic(o.Path, skillName))
		}
		return nil, diags
	}
	if s == nil {
		// What the reference accepts, skillet's YAML reader could not
		// decode as written: read it as lenient mode would.
		lenient := keep
		lenient.Mode = skill.Lenient
		s, _ = skill.Parse(data, &lenient)
	}
	if s != nil {
		s.Name, s.Description = name, desc
		for i := range diags {
			diags[i].Skill = name
		}
	}
	return s, diags
}
