package lint

import (
	"path/filepath"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/skillsref"
	"github.com/skillet-go/skillet/skill"
)

// strictFindings applies strict mode (skillet lint --strict) to the
// findings: the specification's rules are checked once, by package
// skillsref, with the reference validator's rules and messages, so lint
// --strict reports for every skill folder exactly the violations skillet
// validate reports, each as an error with its code (see
// docs/lint.md#reference-parity).
//
// For each skill file in folder form, the findings about the file's own
// content (every code the specification's rules own, plus parse-error,
// invalid-encoding and file-missing) are replaced by those violations; the
// fixes --fix applies are attached to them afterwards, as without
// --strict (a value the lenient reader repairs is a parse-error here, a
// name that differs from its folder a name-mismatch). Flat-form files (ROOT/NAME.md) are not skill folders for the
// reference; their specification findings are raised to errors. Findings
// that are not about a file's content (discovery, precedence, the body's
// length, broken references) keep their level. One finding goes beyond
// the reference: strict mode refuses a skill with no body (empty-body, an
// error), which the reference accepts.
func strictFindings(diags []skill.Diagnostic, candidates []*candidate) []skill.Diagnostic {
	folder := map[string]*candidate{}
	for _, cd := range candidates {
		if !cd.Flat {
			folder[cd.Path] = cd
		}
	}
	var out []skill.Diagnostic
	for _, d := range diags {
		if folder[d.Path] != nil && contentRule(d.Code) {
			continue
		}
		if d.Code.Info().Spec {
			d.Severity = skill.SeverityError
		}
		out = append(out, d)
	}
	for _, cd := range candidates {
		if cd.Flat {
			continue
		}
		name := ""
		if cd.Skill != nil {
			name = cd.Skill.Name
		}
		for _, v := range skillsref.Check(filepath.Dir(cd.Path)) {
			out = append(out, skill.Diagnostic{Code: v.Code, Severity: skill.SeverityError, Path: cd.Path,
				Line: v.Line, Column: v.Column, Message: skillsref.Brief(v.Message), Skill: name})
		}
	}
	return out
}

// contentRule reports whether code is about what a skill file says, which
// the reference validator's rules decide in strict mode.
func contentRule(code skill.Code) bool {
	switch code {
	case skill.CodeParseError, skill.CodeInvalidEncoding, skill.CodeFileMissing:
		return true
	}
	return code.Info().Spec
}

// candidate is one skill file a listing read (internal/catalogx).
type candidate = catalogx.Candidate[catalog.Skill]

// candidates are every skill file l read, ignored ones included when the
// catalog was built with catalogx.ReadIgnored.
func candidates(l *catalog.Listing) []*candidate { return catalogx.Candidates[catalog.Skill](l) }
