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
// length, broken references, empty-body) keep their level.
func strictFindings(diags []skill.Diagnostic, candidates []*candidate) []skill.Diagnostic {
	folder := map[string]*candidate{}
	for _, cd := range candidates {
		if !cd.Flat {
			folder[cd.Path] = cd
		}
	}
	// The violations, and which codes each file has among them: a file the
	// reference cannot read (a folder named SKILL.md, say) is unreadable
	// there too, and is reported once, as validate reports it.
	var vs []skill.Diagnostic
	type pathCode struct {
		path string
		code skill.Code
	}
	seen := map[pathCode]bool{}
	for _, cd := range candidates {
		if cd.Flat {
			continue
		}
		name := ""
		if cd.Skill != nil {
			name = cd.Skill.Name
		}
		for _, v := range skillsref.Check(filepath.Dir(cd.Path)) {
			vs = append(vs, v.Diagnostic(cd.Path, name))
			seen[pathCode{cd.Path, v.Code}] = true
		}
	}
	var out []skill.Diagnostic
	for _, d := range diags {
		if folder[d.Path] != nil && (contentRule(d.Code) || seen[pathCode{d.Path, d.Code}]) {
			continue
		}
		if d.Code.Info().Spec {
			d.Severity = skill.SeverityError
		}
		out = append(out, d)
	}
	return append(out, vs...)
}

// contentRule reports whether code is about what a skill file says, which
// the reference validator's rules decide in strict mode.
func contentRule(code skill.Code) bool { return skillsref.ContentCode(code) }

// candidate is one skill file a listing read (internal/catalogx).
type candidate = catalogx.Candidate[catalog.Skill]

// catx are catalog's hooks for lint (internal/catalogx), typed.
var catx = catalogx.Get[catalog.Catalog, catalog.Options, catalog.Listing, catalog.Skill, catalog.File]()

// candidates are every skill file l read, ignored ones included when the
// catalog was built with catx.ReadIgnored.
func candidates(l *catalog.Listing) []*candidate { return catx.Candidates(l) }
