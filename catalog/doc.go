// Package catalog discovers Agent Skills on disk and keeps them ready for an
// agent: roots and scopes, presets of other agents' layouts, the walk with
// its bounds, symlink and boundary rules, precedence, limits, the
// configuration file and the mtime cache (docs/discovery.md).
//
// # Roots
//
// A [Catalog] scans roots in precedence order: the project roots of the
// workspace (W/.agents/skills and W/skills with the default preset), the
// user roots (~/.agents/skills, $XDG_CONFIG_HOME/skillet/skills), then
// extra paths given by flags or configuration. [Presets] reproduce other
// agents' layouts (claude, codex, opencode, gemini, copilot, brute,
// kestrel).
//
// # Discovery
//
// A folder holding SKILL.md is a skill (directory form); a loose NAME.md
// directly in a root is a skill too (flat form). A folder without SKILL.md
// is a grouping folder and the walk goes into it, up to a depth and a number
// of folders (walk-limit). The walk never looks below a skill folder: a
// SKILL.md further down is a bundled file. Names starting with "." or "_"
// and node_modules are skipped. First found wins: a skill of the same name
// in a later scope is shadowed, in the same scope it is a duplicate-name.
//
// Symlinks are followed while their targets stay inside the root's boundary
// (the workspace, the home folder, or the extra path itself, plus
// trustedPaths); otherwise the entry is path-escape. Dangling links, loops
// and unreadable entries are reported and skipped. Skill files are opened
// non-blocking and must be regular files, so a FIFO or device named
// SKILL.md cannot hang discovery.
//
// # Caching
//
// [Catalog.List] keeps each parsed skill keyed by path, size, modification
// time and inode and re-reads only what changed; an edit, an added and a
// removed skill are all seen by the next List. Bodies are not held: they are
// read on [Catalog.Load] or [Skill.Content]. Bundled files are read with
// [Catalog.ReadFile] through os.Root, confined to the skill folder.
package catalog
