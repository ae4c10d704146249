package mcpserver

import (
	"fmt"

	"github.com/skillet-go/skillet/skill"
)

// Diagnostic codes of serving, beside the catalog's (skill/diagnostic.go).
// They are warnings: the server logs each one once and goes on serving.
const (
	// CodeExtensionExcluded: the skill is served as resources, in the
	// instructions, by the tool and as a prompt, but not through
	// skills/list and skills/get, because a host could not verify it
	// (frontmatter that only parsed after repair, a name outside the
	// specification's rule, no description, a duplicate key, an incomplete
	// manifest). SEP-2640 (docs/mcp.md#skills-extension); docs/mcp.md.
	CodeExtensionExcluded skill.Code = "extension-excluded"
	// CodeExtensionLimit: the skill has more than 512 files or more than
	// 16 MiB; it is still listed (SEP-2640 (docs/mcp.md#skills-extension)).
	CodeExtensionLimit skill.Code = "extension-limit"
	// CodeFileNotServed: a file in the skill folder is not served (larger
	// than the per-file limit, unreadable, or too many files).
	CodeFileNotServed skill.Code = "file-not-served"
	// CodeReloadKept: after a change on disk the skill file no longer
	// loads (for example it is half written); the last good version goes
	// on being served until it loads again.
	CodeReloadKept skill.Code = "reload-kept"
	// CodeFilesWithheld: entries of the skill folder are never served:
	// dotfiles and dot-folders (.env, .git/, .DS_Store) and what a
	// .skilletignore in the root or the skill folder excludes; the
	// message counts them.
	CodeFilesWithheld skill.Code = "files-withheld"
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
