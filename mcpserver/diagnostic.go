package mcpserver

import (
	"fmt"

	"github.com/skillet-go/skillet/skill"
)

// Diagnostic codes of serving, beside the catalog's (skill/diagnostic.go).
// They are warnings: the server logs each one once and goes on serving.
const (
	// codeExtensionExcluded: the skill is served as resources, in the
	// instructions, by the tool and as a prompt, but not through
	// skills/list and skills/get, because a host could not verify it
	// (frontmatter that only parsed after repair, a name outside the
	// specification's rule, no description, a duplicate key, an incomplete
	// manifest). SEP-2640 (docs/mcp.md#skills-extension); docs/mcp.md.
	codeExtensionExcluded skill.Code = "extension-excluded"
	// codeExtensionLimit: the skill has more than 512 files or more than
	// 16 MiB; it is still listed (SEP-2640 (docs/mcp.md#skills-extension)).
	codeExtensionLimit skill.Code = "extension-limit"
	// codeFileNotServed: a file in the skill folder is not served (larger
	// than the per-file limit, unreadable, or too many files).
	codeFileNotServed skill.Code = "file-not-served"
	// codeReloadKept: after a change on disk the skill file no longer
	// loads (for example it is half written); the last good version goes
	// on being served until it loads again.
	codeReloadKept skill.Code = "reload-kept"
	// codeFilesWithheld: entries of the skill folder are never served:
	// dotfiles and dot-folders (.env, .git/, .DS_Store) and what a
	// .skilletignore in the root or the skill folder excludes; the
	// message counts them.
	codeFilesWithheld skill.Code = "files-withheld"
)

var _ = skill.Register(
	skill.CodeInfo{Code: codeExtensionExcluded, Severity: skill.SeverityWarning,
		Summary: "the skill is served, but not through skills/list and skills/get",
		Remedy:  "fix what skillet lint reports for the file",
		Source:  "SEP-2640, docs/mcp.md",
		Help: "skillet serve offers the skill as resources, in the instructions, through the load tool and as a prompt, but leaves it out of the Skills Extension's skills/list and skills/get, " +
			"because a host could not verify it there: its frontmatter parsed only after repair, its name breaks the specification's rule, it has no description, a key appears twice, or its file list is incomplete. " +
			"Fix the finding skillet lint reports for the same file."},
	skill.CodeInfo{Code: codeExtensionLimit, Severity: skill.SeverityWarning,
		Summary: "the skill has more than 512 files or more than 16 MiB",
		Remedy:  "move large or generated files out of the skill folder",
		Source:  "SEP-2640, docs/mcp.md",
		Help:    "The skill folder is over the Skills Extension's limits (512 files, 16 MiB in all). It is still listed, but a host may refuse to fetch it whole. Move large or generated files out of the skill folder."},
	skill.CodeInfo{Code: codeFileNotServed, Severity: skill.SeverityWarning,
		Summary: "a file in the skill folder is not served",
		Remedy:  "make the file smaller or readable, or move it out of the skill folder",
		Source:  "docs/mcp.md",
		Help:    "A file of the skill folder is left out of what the server offers: it is larger than the per-file limit, cannot be read, or comes after the file limit. Make it smaller or readable, or move it out of the folder."},
	skill.CodeInfo{Code: codeReloadKept, Severity: skill.SeverityWarning,
		Summary: "after a change on disk the skill no longer loads; the last good version is served",
		Remedy:  "run skillet lint on the file and fix what it reports",
		Source:  "docs/serving.md",
		Help:    "The skill file changed and no longer loads (for example it is half written, or its frontmatter broke). The server keeps serving the last version that loaded until the file loads again. Run skillet lint on the file to see why."},
	skill.CodeInfo{Code: codeFilesWithheld, Severity: skill.SeverityWarning,
		Summary: "entries of the skill folder are withheld: dotfiles, dot-folders and what a .skilletignore excludes; the message counts them",
		Remedy:  "nothing, if the entries are the author's; rename or un-ignore a file the skill needs",
		Source:  "docs/discovery.md#withheld-files",
		Help: "skillet serve never serves the dotfiles and dot-folders of a skill folder (.env, .git/, .DS_Store) nor what a .skilletignore in the root or the skill folder excludes: " +
			"they are not listed, not in a manifest and read as absent. The message counts them per skill. " +
			"If the skill needs one of them, rename it or take its pattern out of the .skilletignore."},
)

func diag(code skill.Code, path, name, format string, args ...any) skill.Diagnostic {
	return skill.Diagnostic{
		Code:     code,
		Severity: skill.SeverityWarning,
		Path:     path,
		Skill:    name,
		Message:  fmt.Sprintf(format, args...),
	}
}
