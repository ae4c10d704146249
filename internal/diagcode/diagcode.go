// Package diagcode names the diagnostic codes skillet's packages report,
// one constant a code, so a misspelt code is a compile error. The codes
// are stable strings (CI scripts, SARIF rules and JSON consumers key on
// them); a program that embeds skillet compares skill.Diagnostic.Code with
// the string itself ("unknown-field") and finds every registered code, with
// its documentation, in skill.Codes (docs/lint.md). Each code is
// registered, with its severity and help, beside the check that reports it.
//
// The constants are untyped, so they are a skill.Code wherever one is
// expected.
package diagcode

// The first group comes from the 004 seed's lint table, the rest are
// skillet's (docs/lint.md).
const (
	WorkspaceMissing     = "workspace-missing"
	DirectoryEscape      = "directory-escape"
	FileMissing          = "file-missing"
	PathEscape           = "path-escape"
	EmptyBody            = "empty-body"
	NameInvalid          = "name-invalid"
	DuplicateName        = "duplicate-name"
	NoFrontmatter        = "no-frontmatter"
	NoDescription        = "no-description"
	NameMismatch         = "name-mismatch"
	NameNormalized       = "name-normalized"
	DescriptionLong      = "description-long"
	TooLarge             = "too-large"
	ParseError           = "parse-error"
	ParseRecovered       = "parse-recovered"
	InvalidEncoding      = "invalid-encoding"
	DescriptionTooLong   = "description-too-long"
	CompatibilityTooLong = "compatibility-too-long"
	MetadataInvalid      = "metadata-invalid"
	UnknownField         = "unknown-field"
	Shadowed             = "shadowed"
	BrokenLink           = "broken-link"
	SymlinkLoop          = "symlink-loop"
	Unreadable           = "unreadable"
	WalkLimit            = "walk-limit"
	BodyTooLong          = "body-too-long"
	BrokenReference      = "broken-reference"
	CatalogTruncated     = "catalog-truncated"
	NameMissing          = "name-missing"
	FieldInvalid         = "field-invalid"
	DuplicateField       = "duplicate-field"
	FileCase             = "file-case"
	ConfigInvalid        = "config-invalid"
	NotLoaded            = "not-loaded"
	DuplicateCopy        = "duplicate-copy"
	SkillsSkipped        = "skills-skipped"
	NestedSkill          = "nested-skill"
	IndexUntrusted       = "index-untrusted"

	// ValueComment: a description or when-to-use hint written as a plain
	// (unquoted) scalar holds " #", where YAML starts a comment, so the
	// text after it is lost (YAML 1.2 §6.6).
	ValueComment = "value-comment"
	// ConfigUnknownKey: skillet.yaml has a key skillet does not know; it
	// is ignored.
	ConfigUnknownKey = "config-unknown-key"
	// BundledSymlink: a file or folder inside a skill folder is a symlink
	// to somewhere outside it, which the load tool refuses to read.
	BundledSymlink = "bundled-symlink"
	// DescriptionCut: a --target host cuts the description before the
	// model sees it.
	DescriptionCut = "description-cut"
	// NoSkills: no skill file was found, but the workspace holds files
	// that look like skills outside every root.
	NoSkills = "no-skills"
	// SuppressionUnused: a skill's frontmatter comment
	// "# skillet: ignore[CODE]" suppressed nothing, or names no code.
	SuppressionUnused = "suppression-unused"
)
