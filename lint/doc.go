// Package lint checks Agent Skills the way the runtime reads them and
// reports every problem any agent would object to (docs/lint.md): the
// library behind skillet lint and skillet new.
//
// # Checks
//
// [Run] discovers a workspace's skills with package catalog and parses them
// with package skill, so lint and the runtime never disagree about a file:
// every discovery finding (workspace-missing, directory-escape,
// file-missing, path-escape, duplicate-name, shadowed, broken-link,
// symlink-loop, unreadable, walk-limit, too-large, catalog-truncated) and
// every parse finding (parse-error, parse-recovered, name-invalid,
// description-too-long, unknown-field, ...) is the runtime's own. Lint adds
// what only it checks: body-too-long (over the specification's 500 lines)
// and broken-reference (relative links, images and code-span paths into
// scripts/, references/ or assets/ that do not exist in the skill folder,
// or leave it; see [References]), and bundled-symlink (a file in the skill
// folder that links outside it, which the load tool refuses). Each is a
// [Check] value, listed by [Checks]. Strict mode (catalog.Options.Strict,
// skillet lint --strict) raises every rule of the specification to an
// error.
//
// Files the runtime skips by name, under an entry starting with "_" (drafts)
// or "." (hidden folders, such as openai/skills' .curated), are checked
// too, with the same reader and parser, but never loaded: they take no part
// in duplicate-name, shadowed or catalog-truncated, and one named after its
// folder without the "_" or "." has no name-mismatch. Version-control
// stores, node_modules, __pycache__ and .venv are not searched. A SKILL.md
// inside another skill's folder is one of that skill's bundled files
// (docs/discovery.md#shapes), not a skill, and is not checked as one.
//
// Every code is registered, with its default level, whether --fix mends it,
// its source and help text, in the one registry of package skill
// (skill.Codes), by the package that emits it; docs/lint.md is generated
// from it, and [HelpURL] points into that page.
//
// # Reports
//
// A [Report] is written as text ("path:line:col: level: message [code]",
// the convention of Go tools, sorted), as the JSON object of docs/output.md,
// or as SARIF 2.1.0 for code-scanning services, and summed up by
// [Report.Summary]. With Options.Compat it also says, for each skill, which
// presets of catalog.Presets would discover it in the workspace and which
// rules of known [Hosts] it breaks.
//
// # Fixes
//
// [Fix] and [FixSource] rewrite only what is mechanical and safe: a value
// that only parsed after repair is quoted in place, and, when asked, the
// name is made equal to the folder's. The result must parse back to the
// same values, and a file that changed on disk since it was read is left
// alone: [Change.Write] replaces a file atomically, compares it with what
// was read right before the rename and puts back an edit that raced with
// it, keeps its owner, mode and extended attributes, and refuses a
// read-only or hard-linked file.
//
// # Scaffold
//
// [Scaffold] writes a new skill into the first project directory; what it
// writes passes lint with no error and no warning.
package lint
