// Package skill parses one SKILL.md: it splits the --- fences (BOM, CRLF and
// mixed line endings allowed), decodes the YAML frontmatter, repairs broken
// plain scalars, applies the field rules of docs/format.md and reports every
// departure as a [Diagnostic] with a code, a line and a column.
//
// [Parse] is pure: bytes in, a [*Skill] and diagnostics out. It reads no file
// and never panics, whatever the input (it is fuzzed).
//
// # Modes
//
// In [Lenient] mode (the default) a skill loads whenever it can: an
// unquoted ": " in a value is re-quoted (parse-recovered), a name that breaks
// the rules is normalised to kebab-case (name-normalized), a missing
// description is taken from the first prose line (no-description). In
// [Strict] mode the file is read as the Agent Skills specification's
// reference validator reads it: every specification violation is an error
// and the skill is rejected.
//
// # Fields
//
// The specification's six fields (name, description, license,
// compatibility, metadata, allowed-tools), when-to-use (with the aliases
// whenToUse and when_to_use), disable-model-invocation, and Claude Code's
// extension fields are recognised. Anything else is kept in [Skill.Extra]
// with an unknown-field warning. [Skill.Frontmatter] keeps every key as a
// YAML 1.2 core parser types it, in source order.
package skill
