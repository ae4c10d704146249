// Package lint checks Agent Skills the way the runtime reads them and
// reports every problem any agent would object to (docs/lint.md): the
// library behind skillet lint and skillet new.
//
// [Run] discovers a workspace with package catalog and parses with package
// skill, so every discovery and parse finding is the runtime's own; lint
// adds its own checks (the list checks: body-too-long, broken-reference,
// bundled-symlink, ...). Skills the runtime skips by name (_drafts, dot
// folders) are checked too but never loaded. Every code is registered in
// package skill's registry (skill.Codes) with its level, fixability and
// help; docs/lint.md is generated from it and [HelpURL] points into it.
//
// A [Report] is written as text (path:line:col: level: message [code]),
// JSON (docs/output.md), SARIF 2.1.0 or GitHub annotations; with
// Options.Compat it says which hosts would load each skill ([Hosts]).
// [Fix] and FixSource apply only mechanical, safe fixes that parse back
// to the same values, and [Change.Write] never loses a concurrent edit
// (docs/lint.md#fixes). [Scaffold] writes a new skill that lints clean.
package lint
