// Package catalog discovers Agent Skills and keeps them ready for an agent
// (docs/discovery.md).
//
// A [Catalog] reads its [Source]s in precedence order (Options.Sources):
// the local file system by default, an fs.FS such as an embed.FS, or
// skills the program builds. On disk it scans the workspace's project
// roots, the user's, then extra paths; Options.Preset names a host whose
// layout and loading rules it emulates ([ProfileNames],
// docs/discovery.md#roots, docs/hosts.md), and every key of skillet.yaml
// has an [Options] field. A folder holding SKILL.md is a skill, a loose
// NAME.md in a root a flat one; the walk goes into grouping folders within
// bounds, never below a skill folder, and the first skill of a name wins
// (docs/discovery.md#shapes, docs/discovery.md#precedence). Symlinks are
// followed only inside the root's boundary, and skill files are opened
// non-blocking, so nothing outside it is read and a FIFO cannot hang
// discovery (docs/discovery.md#boundaries).
//
// [Catalog.List] re-reads only the files that changed
// (docs/discovery.md#caching) and never holds bodies: [Catalog.Load] reads
// one, [Catalog.ReadFile] a bundled file, confined to the skill folder;
// a .skilletignore in a root or a skill folder withholds skills and files
// from every reader (docs/discovery.md#withheld-files).
// [Catalog.Watch] delivers each change to a long-running agent, and
// [Skill.AppliesTo] filters by a skill's paths globs
// (docs/discovery.md#watching, docs/discovery.md#paths).
package catalog
