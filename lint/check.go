package lint

import (
	"slices"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/skill"
)

// Check is one of the checks lint adds to what the runtime reports while
// it loads skills, in the manner of a go/analysis Analyzer: a name, its
// documentation, the codes it reports (registered in skill.Codes), and the
// function that checks one loaded skill file.
type Check struct {
	Name  string
	Doc   string
	Codes []skill.Code
	Run   func(s *catalog.Skill) []skill.Diagnostic
}

// checks are lint's own checks, run in this order on every skill file that
// parses (drafts and hidden files included).
var checks = []*Check{
	{Name: "body", Doc: "the body's length, and the relative files it refers to that do not exist or leave the skill folder",
		Codes: []skill.Code{skill.CodeBodyTooLong, skill.CodeBrokenReference}, Run: func(s *catalog.Skill) []skill.Diagnostic { return checkBody(about(s), nil) }},
	{Name: "bundle", Doc: "files and folders in the skill folder that are symlinks to somewhere outside it",
		Codes: []skill.Code{CodeBundledSymlink}, Run: func(s *catalog.Skill) []skill.Diagnostic { return checkBundle(about(s), nil) }},
}

// subject is what the checks read of one skill file: the fields of its
// catalog.Skill (about), or what the listing's reader parsed, before the
// listing made a catalog.Skill of it (catalogx.Parsed), and its body.
type subject struct {
	location, baseDir, name string
	flat                    bool
	parsed                  *skill.Skill
	body                    string
}

// same reports whether s and o are the same file's subject (bodies aside).
func (s *subject) same(o *subject) bool {
	return s.location == o.location && s.baseDir == o.baseDir && s.name == o.name && s.flat == o.flat && s.parsed == o.parsed
}

// about is the subject of s (nil for nil).
func about(s *catalog.Skill) *subject {
	if s == nil {
		return nil
	}
	sub := &subject{location: s.Location, baseDir: s.BaseDir, name: s.Name, flat: s.Flat, parsed: s.Parsed()}
	if sub.parsed != nil {
		sub.body = sub.parsed.Body
	}
	return sub
}

// Checks returns lint's own checks, in the order [Run] runs them.
func Checks() []*Check { return slices.Clone(checks) }

// runChecks runs the checks of checks on s and returns their findings in
// that order. The skill folder is read once for both: the bundle walk
// keeps the names of the folder's top level (in the file system's order),
// and the body check's letter-case lookups start from them instead of
// reading the folder again. TestRunChecks holds it to the checks run one
// by one.
func runChecks(s *subject) []skill.Diagnostic {
	var view folderView
	bundle := checkBundle(s, &view)
	diags := checkBody(s, &view)
	if len(bundle) == 0 {
		return diags
	}
	return append(diags, bundle...)
}
