// Package catalog discovers Agent Skills on disk and keeps them ready for an
// agent (docs/discovery.md).
//
// A [Catalog] scans its roots in precedence order: the workspace's project
// roots, the user's, then extra paths; a preset ([Presets]) reproduces
// another agent's layout (docs/discovery.md#roots). A folder holding
// SKILL.md is a skill, a loose NAME.md in a root a flat one; the walk goes
// into grouping folders within bounds, never below a skill folder, and the
// first skill of a name wins (docs/discovery.md#shapes,
// docs/discovery.md#precedence). Symlinks are followed only inside the
// root's boundary, and skill files are opened non-blocking, so nothing
// outside it is read and a FIFO cannot hang discovery
// (docs/discovery.md#boundaries).
//
// [Catalog.List] re-reads only the files that changed
// (docs/discovery.md#caching) and never holds bodies: [Catalog.Load] reads
// one, [Catalog.ReadFile] a bundled file, through os.Root confined to the
// skill folder.
package catalog
