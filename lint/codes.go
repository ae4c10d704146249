package lint

import (
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/skill"
)

// The codes only lint reports, registered with their documentation
// (docs/lint.md).
var _ = skill.Register(
	skill.CodeInfo{Code: diagcode.BodyTooLong, Severity: skill.SeverityWarning, Spec: false, OptIn: true,
		Summary: "the body is over 500 lines (specification guidance)",
		Remedy:  "move detail into files under references/ and say when to read each",
		Source:  "https://agentskills.io/specification#progressive-disclosure",
		Help: "The body is over 500 lines; the specification recommends keeping SKILL.md under that and moving detail into referenced files, which the model reads only when needed. " +
			"No host refuses or cuts a longer body, so skillet lint reports it only when selected (--extend-select body-too-long)."},
	skill.CodeInfo{Code: diagcode.BrokenReference, Severity: skill.SeverityWarning, Spec: false,
		Summary: "the body refers to a relative file that does not exist in the skill folder",
		Remedy:  "fix the path, or add the file to the skill folder",
		Source:  "https://agentskills.io/specification#file-references",
		Help: "The body links to (or names in backticks) a relative path that does not exist in the skill folder, or that leaves it. The model cannot read it. " +
			"Fix the path, add the file, or use a path relative to the folder holding SKILL.md. " +
			"Paths that are plainly examples are not checked: in a sentence that says e.g., for example, for instance, such as or Example:, in a list such a sentence introduces, or with a placeholder segment (path/to/, your-..., example/, foo/bar, filename.md)."},
	skill.CodeInfo{Code: diagcode.DescriptionCut, Severity: skill.SeverityWarning, Spec: false,
		Summary: "a --target host shows the model only the first part of the description",
		Remedy:  "shorten the description, and say when to use the skill (\"Use when ...\") early in it",
		Source:  "docs/hosts.md",
		Help: "A host the skill ships to (lint --target HOST) cuts descriptions longer than its limit before the model sees them (Claude Code's skill listing " +
			"shows 1,536 characters, Codex cuts at 1,024; the host profiles of docs/hosts.md give each limit with its source). The message says how much is lost, " +
			"and quotes a \"Use when\", \"Use PROACTIVELY\" or \"Triggers on\" clause that falls in the lost part: the model never learns when to use the skill. " +
			"Shorten the description, or move the clause to its start."},
)
