package lint

import "github.com/skillet-go/skillet/skill"

// The codes only lint reports, registered with their documentation
// (docs/lint.md).
var _ = skill.Register(
	skill.CodeInfo{Code: skill.CodeBodyTooLong, Severity: skill.SeverityWarning, Spec: false,
		Summary: "the body is over 500 lines (specification guidance)",
		Remedy:  "move detail into files under references/ and say when to read each",
		Source:  "https://agentskills.io/specification#progressive-disclosure",
		Help:    "The body is over 500 lines; the specification recommends keeping SKILL.md under that and moving detail into referenced files, which the model reads only when needed."},
	skill.CodeInfo{Code: skill.CodeBrokenReference, Severity: skill.SeverityWarning, Spec: false,
		Summary: "the body refers to a relative file that does not exist in the skill folder",
		Remedy:  "fix the path, or add the file to the skill folder",
		Source:  "https://agentskills.io/specification#file-references",
		Help: "The body links to (or names in backticks) a relative path that does not exist in the skill folder, or that leaves it. The model cannot read it. " +
			"Fix the path, add the file, or use a path relative to the folder holding SKILL.md. " +
			"Paths that are plainly examples are not checked: in a sentence that says e.g., for example, for instance, such as or Example:, in a list such a sentence introduces, or with a placeholder segment (path/to/, your-..., example/, foo/bar, filename.md)."},
)
