package skill

import (
	"fmt"
	"slices"
	"strings"
)

// Severity is how serious a [Diagnostic] is.
type Severity string

// Severities. An error attached to a skill means the skill is not loaded
// (except duplicate-name, where the first copy still loads); a warning means
// it loads with a departure from the specification reported.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
	// SeverityNote is information that needs no change: a skill copied
	// into a second agent's folder (duplicate-copy).
	SeverityNote Severity = "note"
)

// Code identifies the kind of a [Diagnostic]. Codes are stable strings: CI
// scripts, SARIF rules and JSON consumers key on them. [Codes] lists all.
type Code string

// Diagnostic codes. The first group comes from the 004 seed's lint table, the
// rest are skillet's (docs/lint.md).
const (
	CodeWorkspaceMissing     Code = "workspace-missing"
	CodeDirectoryEscape      Code = "directory-escape"
	CodeFileMissing          Code = "file-missing"
	CodePathEscape           Code = "path-escape"
	CodeEmptyBody            Code = "empty-body"
	CodeNameInvalid          Code = "name-invalid"
	CodeDuplicateName        Code = "duplicate-name"
	CodeNoFrontmatter        Code = "no-frontmatter"
	CodeNoDescription        Code = "no-description"
	CodeNameMismatch         Code = "name-mismatch"
	CodeNameNormalized       Code = "name-normalized"
	CodeDescriptionLong      Code = "description-long"
	CodeTooLarge             Code = "too-large"
	CodeParseError           Code = "parse-error"
	CodeParseRecovered       Code = "parse-recovered"
	CodeInvalidEncoding      Code = "invalid-encoding"
	CodeDescriptionTooLong   Code = "description-too-long"
	CodeCompatibilityTooLong Code = "compatibility-too-long"
	CodeMetadataInvalid      Code = "metadata-invalid"
	CodeUnknownField         Code = "unknown-field"
	CodeShadowed             Code = "shadowed"
	CodeBrokenLink           Code = "broken-link"
	CodeSymlinkLoop          Code = "symlink-loop"
	CodeUnreadable           Code = "unreadable"
	CodeWalkLimit            Code = "walk-limit"
	CodeBodyTooLong          Code = "body-too-long"
	CodeBrokenReference      Code = "broken-reference"
	CodeCatalogTruncated     Code = "catalog-truncated"
	CodeNameMissing          Code = "name-missing"
	CodeFieldInvalid         Code = "field-invalid"
	CodeDuplicateField       Code = "duplicate-field"
	CodeFileCase             Code = "file-case"
	CodeConfigInvalid        Code = "config-invalid"
	CodeNotLoaded            Code = "not-loaded"
	CodeDuplicateCopy        Code = "duplicate-copy"
	CodeSkillsSkipped        Code = "skills-skipped"
)

// CodeInfo documents one [Code]: its default severity, a one-line summary
// and where the rule comes from.
type CodeInfo struct {
	Code     Code
	Severity Severity // default; --strict raises spec rules (Spec true) to errors
	Spec     bool     // the rule is the Agent Skills specification's
	Summary  string
	Source   string
}

// Codes lists every diagnostic code in the order of docs/lint.md.
var Codes = []CodeInfo{
	{CodeWorkspaceMissing, SeverityError, false, "the workspace path does not exist", "004"},
	{CodeDirectoryEscape, SeverityError, false, "a configured directory resolves outside the workspace", "004"},
	{CodeFileMissing, SeverityError, false, "a skill folder has no SKILL.md", "004"},
	{CodePathEscape, SeverityError, false, "a file resolves outside the boundary of its root (for example through a symlink)", "Kestrel, docs/discovery.md#boundaries"},
	{CodeEmptyBody, SeverityWarning, false, "frontmatter exists but nothing follows it; the skill loads with its description only (an error with --strict)", "004, spec §body content"},
	{CodeNameInvalid, SeverityError, true, "the name does not match [a-z0-9][a-z0-9._-]* after normalisation (a warning when only the spec's stricter rule is broken)", "Kestrel, spec §name"},
	{CodeDuplicateName, SeverityError, false, "two files claim the same skill name in one scope; only the first is loaded", "Kestrel, docs/discovery.md#precedence"},
	{CodeNoFrontmatter, SeverityWarning, true, "no frontmatter: name and description are inferred from the path and the first line", "Kestrel, spec §SKILL.md format"},
	{CodeNoDescription, SeverityWarning, true, "no description: the catalog uses the first prose line of the body", "Kestrel, spec §description"},
	{CodeNameMismatch, SeverityWarning, true, "the folder or file name and the frontmatter name disagree", "Kestrel, spec §name"},
	{CodeNameNormalized, SeverityWarning, true, "the raw name was rewritten to kebab-case", "004"},
	{CodeDescriptionLong, SeverityWarning, false, "the description is longer than maxDescriptionChars; the catalog truncates it", "004"},
	{CodeTooLarge, SeverityWarning, false, "the file is larger than maxSkillBytes; only that many bytes are read", "004"},
	{CodeParseError, SeverityError, false, "YAML frontmatter that could not be parsed or repaired", "docs/format.md#parsing"},
	{CodeParseRecovered, SeverityWarning, true, "YAML frontmatter repaired (for example an unquoted \": \" in a value)", "docs/format.md#parsing, client guide"},
	{CodeInvalidEncoding, SeverityError, false, "the file is not UTF-8 text", "docs/format.md#encoding"},
	{CodeDescriptionTooLong, SeverityWarning, true, "the description is over the specification's 1024 characters", "spec §description"},
	{CodeCompatibilityTooLong, SeverityWarning, true, "compatibility is over the specification's 500 characters", "spec §compatibility"},
	{CodeMetadataInvalid, SeverityWarning, true, "metadata is not a map of strings", "spec §metadata"},
	{CodeUnknownField, SeverityWarning, true, "a frontmatter field outside the specification and the recognised extensions", "000"},
	{CodeShadowed, SeverityWarning, false, "a higher-precedence root has a skill of the same name", "Brute, Kestrel, docs/discovery.md#precedence"},
	{CodeBrokenLink, SeverityWarning, false, "a symlink whose target does not exist; skipped", "docs/discovery.md#boundaries"},
	{CodeSymlinkLoop, SeverityWarning, false, "a symlink loop; skipped", "docs/discovery.md#boundaries"},
	{CodeUnreadable, SeverityWarning, false, "an entry that cannot be read (permissions, not a regular file); skipped", "docs/discovery.md#boundaries"},
	{CodeWalkLimit, SeverityWarning, false, "the depth or folder limit of a root was reached; the walk stopped early", "docs/discovery.md#shapes"},
	{CodeBodyTooLong, SeverityWarning, false, "the body is over 500 lines (specification guidance)", "spec §progressive disclosure"},
	{CodeBrokenReference, SeverityWarning, false, "the body refers to a relative file that does not exist in the skill folder", "spec §file references"},
	{CodeCatalogTruncated, SeverityWarning, false, "skills beyond maxSkills or the catalog budget were shortened or left out", "Kestrel, docs/discovery.md#limits, docs/disclosure.md#catalog-block"},
	{CodeNameMissing, SeverityWarning, true, "the frontmatter has no name; the folder or file name is used", "spec §name"},
	{CodeFieldInvalid, SeverityWarning, true, "a known field has the wrong type (for example a list where a string is required)", "spec §frontmatter"},
	{CodeDuplicateField, SeverityWarning, true, "a frontmatter key appears twice; the first value is used", "YAML 1.2 §3.2.1.1"},
	{CodeFileCase, SeverityWarning, false, "the skill file is named in another letter case than SKILL.md", "docs/discovery.md#shapes"},
	{CodeConfigInvalid, SeverityError, false, "the configuration file could not be read or has a wrong value", "docs/discovery.md#configuration"},
	{CodeNotLoaded, SeverityWarning, false, "the host of --preset (or a --target of lint) does not load this skill file; the message says why", "docs/hosts.md"},
	{CodeDuplicateCopy, SeverityNote, false, "the same skill, byte for byte, is also in another agent's folder; it is listed once", "docs/discovery.md#precedence"},
	{CodeSkillsSkipped, SeverityWarning, false, "no skill loads, but folders skipped by name hold skills; the message counts them and names the --root that reads them", "docs/discovery.md#shapes"},
}

// Info returns the [CodeInfo] of c, or a zero CodeInfo with Code set when c
// is not a known code.
func (c Code) Info() CodeInfo {
	for _, ci := range Codes {
		if ci.Code == c {
			return ci
		}
	}
	return CodeInfo{Code: c}
}

// Diagnostic is one finding about a file: what (Code, Message), how bad
// (Severity) and where (Path, Line, Column; Line and Column are 1-based and
// 0 when unknown; Column counts characters, not bytes).
type Diagnostic struct {
	Code     Code     `json:"code"`
	Severity Severity `json:"severity"`
	Path     string   `json:"path"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Message  string   `json:"message"`
	// Skill is the name of the skill the diagnostic is about, when known.
	Skill string `json:"skill"`
	// Related is a second path the finding involves (the winning copy of a
	// shadowed skill, the first of two duplicates), or "".
	Related string `json:"related,omitempty"`
}

// String formats d the way Go tools do: "path:line:col: severity: message [code]".
// Line and column are left out when unknown.
func (d Diagnostic) String() string {
	var b strings.Builder
	b.WriteString(d.Path)
	if d.Line > 0 {
		fmt.Fprintf(&b, ":%d", d.Line)
		if d.Column > 0 {
			fmt.Fprintf(&b, ":%d", d.Column)
		}
	}
	fmt.Fprintf(&b, ": %s: %s [%s]", d.Severity, d.Message, d.Code)
	return b.String()
}

// HasErrors reports whether any diagnostic has error severity.
func HasErrors(diags []Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}

// SortDiagnostics orders diagnostics by path, line, column, code and
// message, so every report is deterministic.
func SortDiagnostics(diags []Diagnostic) {
	slices.SortStableFunc(diags, func(a, b Diagnostic) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		if a.Column != b.Column {
			return a.Column - b.Column
		}
		if c := strings.Compare(string(a.Code), string(b.Code)); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
}
