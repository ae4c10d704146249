package lint

import (
	"strings"

	"github.com/skillet-go/skillet/skill"
)

// Rule describes one diagnostic code, the way an analyzer describes its
// category in golang.org/x/tools/go/analysis: a stable id, a title, and help
// text saying what is wrong and how to fix it. SARIF reports carry one rule
// per code (reportingDescriptor), with Help as its help text.
type Rule struct {
	// Code is the stable rule id (docs/lint.md).
	Code skill.Code
	// Severity is the default level; with strict mode, rules whose Spec
	// is true are errors.
	Severity skill.Severity
	// Spec says the rule is the Agent Skills specification's.
	Spec bool
	// Title is a one-line summary (lower case, no final period).
	Title string
	// Help explains the finding and how to resolve it, in plain text.
	Help string
	// Source names where the rule comes from (seed file, spec section).
	Source string
}

// Rules lists every diagnostic code in the order of docs/lint.md, with its
// help text. It is built from skill.Codes, so a code added there gets a
// rule here; a code without help text below gets its summary as help.
var Rules = buildRules()

// RuleFor returns the rule of code, and false when the code is unknown.
func RuleFor(code skill.Code) (Rule, bool) {
	for _, r := range Rules {
		if r.Code == code {
			return r, true
		}
	}
	return Rule{}, false
}

func buildRules() []Rule {
	rules := make([]Rule, 0, len(skill.Codes))
	for _, ci := range skill.Codes {
		h := ruleHelp[ci.Code]
		if h == "" {
			h = ci.Summary + "."
		}
		rules = append(rules, Rule{
			Code: ci.Code, Severity: ci.Severity, Spec: ci.Spec,
			Title: strings.TrimSuffix(ci.Summary, "."), Help: h, Source: ci.Source,
		})
	}
	return rules
}

// ruleHelp is the help text of each code: what it means for the skill and
// what to change.
var ruleHelp = map[skill.Code]string{
	skill.CodeWorkspaceMissing: "The workspace folder given with --workspace (or the current folder) does not exist, so no project root is scanned. Check the path.",
	skill.CodeDirectoryEscape: "A directory listed under directories in skillet.yaml resolves (possibly through a symlink) to a folder outside the workspace. It is not scanned: discovery never leaves the workspace (Kestrel). " +
		"Use a path inside the workspace, or add the target to trustedPaths.",
	skill.CodeFileMissing: "A folder inside a skills root holds files but no SKILL.md, and no skill below it, so it is not a skill. Add a SKILL.md (skillet new writes one) or move the files out of the root.",
	skill.CodePathEscape: "The file or folder is a symlink whose target lies outside the boundary of its root (the workspace for project roots, the home folder for user roots). It is skipped. " +
		"Copy the skill into the root, or add the target folder to trustedPaths in skillet.yaml.",
	skill.CodeEmptyBody: "The frontmatter is not followed by any instructions, so loading the skill gives the model its description only. The specification allows it (a skill can be its description and bundled files) and the skill loads; --strict refuses it. Write the procedure below the closing --- line.",
	skill.CodeNameInvalid: "The name must be 1-64 characters of lower-case letters, digits and hyphens, with no leading, trailing or double hyphen (spec: name). " +
		"A name that still matches [a-z0-9][a-z0-9._-]* after normalisation loads with a warning; one that does not is rejected. Rename the skill and its folder to match.",
	skill.CodeDuplicateName: "Two skill files in the same scope have the same name; only the first in path order loads and the other is ignored. Rename or remove one of them.",
	skill.CodeNoFrontmatter: "The file does not start with a --- line, so it has no frontmatter: the name comes from the folder or file name and the description from the first prose line. " +
		"Add frontmatter with name and description (spec: SKILL.md format).",
	skill.CodeNoDescription: "The frontmatter has no description, so the catalog shows the first prose line of the body instead. " +
		"Add a description saying what the skill does and when to use it (spec: description).",
	skill.CodeNameMismatch: "The frontmatter name differs from the folder name (flat form: the file name), which the specification requires them to share. " +
		"Rename one of them; skillet lint --fix=name sets the name to the folder's.",
	skill.CodeNameNormalized:  "The name is not in kebab-case, so it was rewritten (for example \"Release Checklist\" to release-checklist). Write the name in kebab-case.",
	skill.CodeDescriptionLong: "The description is longer than maxDescriptionChars (240 by default), so the catalog shows it cut at a word boundary. Shorten it, or raise maxDescriptionChars in skillet.yaml.",
	skill.CodeTooLarge:        "The file is larger than maxSkillBytes (64000 by default); only that many bytes are read, so the end of the body never reaches the model. Move detail into files under references/.",
	skill.CodeParseError:      "The YAML frontmatter could not be parsed, even after quoting values that broke it, so the skill is not loaded. Fix the YAML at the line and column given.",
	skill.CodeParseRecovered: "The YAML frontmatter only parsed after a value was re-quoted (typically an unquoted \": \" inside a description). Agents with a strict YAML parser reject the file. " +
		"Quote the value; skillet lint --fix does it without changing anything else.",
	skill.CodeInvalidEncoding:      "The file is not UTF-8 text (it holds a NUL byte or an invalid byte sequence), so it is rejected. Save it as UTF-8.",
	skill.CodeDescriptionTooLong:   "The description is longer than the specification's 1024 characters; hosts that follow the specification reject the skill. Shorten it and move detail into the body.",
	skill.CodeCompatibilityTooLong: "compatibility is longer than the specification's 500 characters. Shorten it.",
	skill.CodeMetadataInvalid:      "metadata must be a map from strings to strings (spec: metadata). Nested maps, lists and null values are kept as their source text; write them as strings.",
	skill.CodeUnknownField: "The frontmatter has a field that is neither one of the specification's six (name, description, license, compatibility, metadata, allowed-tools) nor a recognised extension. " +
		"Some hosts (Anthropic's packager, the Claude API) reject such files. Move it under metadata.",
	skill.CodeShadowed:    "A skill of the same name in a higher-precedence root (project over user over extra) wins, so this copy is not loaded. Rename one of them if both are wanted.",
	skill.CodeBrokenLink:  "A symlink in a skills root points to a target that does not exist; it is skipped. Remove the link or restore its target.",
	skill.CodeSymlinkLoop: "A symlink leads back to a folder that is already being walked (or to itself); it is skipped. Remove the loop.",
	skill.CodeUnreadable:  "The entry cannot be read (permissions, or not a regular file such as a FIFO or device); it is skipped. Make it a readable regular file or remove it.",
	skill.CodeWalkLimit:   "The walk of a root stopped early at its depth limit (6 levels) or folder limit (2000 folders), so skills beyond it are not found. Flatten the layout or split the root.",
	skill.CodeBodyTooLong: "The body is over 500 lines; the specification recommends keeping SKILL.md under that and moving detail into referenced files, which the model reads only when needed.",
	skill.CodeBrokenReference: "The body links to (or names in backticks) a relative path that does not exist in the skill folder, or that leaves it. The model cannot read it. " +
		"Fix the path, add the file, or use a path relative to the folder holding SKILL.md.",
	skill.CodeCatalogTruncated: "There are more skills than maxSkills (100 by default) or than the catalog budget; the ones left out or shortened are named. They stay loadable by name. " +
		"Raise maxSkills or catalogBudgetChars in skillet.yaml, or remove skills.",
	skill.CodeNameMissing:    "The frontmatter has no name, so the folder (or file) name is used. The specification requires a name; add one equal to the folder name.",
	skill.CodeFieldInvalid:   "A known field has the wrong type, for example a list where a string is required. Write it with the type the specification gives.",
	skill.CodeDuplicateField: "A frontmatter key appears more than once; the first value is used and the others are ignored. Remove the duplicates.",
	skill.CodeFileCase:       "The skill file is named in another letter case than SKILL.md. Agents on case-sensitive file systems do not find it; rename it to SKILL.md.",
	skill.CodeConfigInvalid:  "The configuration file (skillet.yaml) cannot be read or has a value of the wrong type, so nothing else is checked. Fix the line given.",
}
