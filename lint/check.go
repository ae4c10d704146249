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
		Codes: []skill.Code{skill.CodeBodyTooLong, skill.CodeBrokenReference}, Run: checkBody},
	{Name: "bundle", Doc: "files and folders in the skill folder that are symlinks to somewhere outside it",
		Codes: []skill.Code{CodeBundledSymlink}, Run: checkBundle},
}

// Checks returns lint's own checks, in the order [Run] runs them.
func Checks() []*Check { return slices.Clone(checks) }

func runChecks(s *catalog.Skill) []skill.Diagnostic {
	var diags []skill.Diagnostic
	for _, c := range checks {
		diags = append(diags, c.Run(s)...)
	}
	return diags
}
