// Package spec holds the limits of the Agent Skills specification
// (https://agentskills.io/specification) that several of skillet's
// packages check: package skill when it parses a SKILL.md, lint and the
// reference validator's rule set, the scaffold of skillet new. Lengths are
// in characters (Unicode code points).
package spec

const (
	// MaxNameChars is the longest name (specification: name, "Max 64
	// characters").
	MaxNameChars = 64
	// MaxDescriptionChars is the longest description (specification:
	// description, "Max 1024 characters").
	MaxDescriptionChars = 1024
	// MaxCompatibilityChars is the longest compatibility field
	// (specification: compatibility, "Max 500 characters").
	MaxCompatibilityChars = 500
	// MaxBodyLines is the specification's guidance for a SKILL.md body
	// (progressive disclosure: "under 500 lines").
	MaxBodyLines = 500
)
