package catalog

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/internal/ignore"
	"github.com/skillet-go/skillet/internal/outfmt"
	"github.com/skillet-go/skillet/skill"
)

// skippedDiags explains an empty listing whose roots hold skills only in
// folders discovery skips by name (a leading "." or "_", such as
// skills/.curated): one skills-skipped diagnostic per such folder, counting
// its skill files and naming the --root that reads them. Symlinks are not
// followed; the search keeps to the walk's depth and folder limits.
//
// Skills that a root's .skilletignore excludes are explained the same way:
// one skills-skipped diagnostic per such root, at its .skilletignore, counting
// them and naming the first.
func (c *Catalog) skippedDiags(roots []*Root) []skill.Diagnostic {
	var diags []skill.Diagnostic
	folders := 0
	var (
		withhold  *ignore.Matcher // the root's IgnoreFile, while its root is walked
		withheld  int             // skill files below the folders it excludes
		firstHeld string
	)
	var walk func(dir string, depth int, root *Root)
	walk = func(dir string, depth int, root *Root) {
		if depth > c.settings.MaxDepth || folders >= c.settings.MaxFolders {
			return
		}
		folders++
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			if strings.EqualFold(e.Name(), SkillFile) {
				return // a skill folder: nothing below it is a skill
			}
		}
		for _, e := range entries {
			if !e.IsDir() || fsx.SkipDir(e.Name()) {
				continue
			}
			p := filepath.Join(dir, e.Name())
			if !ignored(e.Name()) {
				if withhold != nil {
					if rel, err := filepath.Rel(root.Path, p); err == nil && withhold.Excluded(filepath.ToSlash(rel), true) {
						if n := countSkillFiles(p, depth+1, c.settings.MaxDepth, &folders, c.settings.MaxFolders); n > 0 {
							if withheld == 0 {
								firstHeld = filepath.ToSlash(rel)
							}
							withheld += n
						}
						continue
					}
				}
				walk(p, depth+1, root)
				continue
			}
			n := countSkillFiles(p, depth+1, c.settings.MaxDepth, &folders, c.settings.MaxFolders)
			if n == 0 {
				continue
			}
			arg := p
			if rel, err := filepath.Rel(c.cwd, p); err == nil && !strings.HasPrefix(rel, "..") {
				arg = rel
			}
			diags = append(diags, skill.Diagnostic{Code: diagcode.SkillsSkipped, Severity: skill.SeverityWarning, Path: p,
				Message: fmt.Sprintf("no skill loads, but %s holds %s, skipped because the folder's name starts with %q; add --root %s to read %s",
					filepath.ToSlash(p), outfmt.Count(n, "skill file"), e.Name()[:1], filepath.ToSlash(arg), map[bool]string{true: "it", false: "them"}[n == 1])})
		}
	}
	for _, r := range roots {
		if !r.Exists || r.File {
			continue
		}
		withhold, _ = rootIgnore(r, func(real string) bool { return within(real, r.boundary) || c.trusted(real) })
		withheld = 0
		walk(r.Path, 0, r)
		if withheld > 0 {
			file := filepath.Join(r.Path, ignore.FileName)
			diags = append(diags, skill.Diagnostic{Code: diagcode.SkillsSkipped, Severity: skill.SeverityWarning, Path: file,
				Message: fmt.Sprintf("no skill loads, but %s excludes %s (%s%s); remove or narrow its patterns to load %s",
					filepath.ToSlash(file), outfmt.Count(withheld, "skill folder"), firstHeld,
					map[bool]string{true: "", false: ", ..."}[withheld == 1], map[bool]string{true: "it", false: "them"}[withheld == 1])})
		}
	}
	return append(diags, c.workspaceHoldsSkills(roots)...)
}

// workspaceHoldsSkills is the hint for a workspace that is itself a
// skill folder (WORKSPACE/SKILL.md) or a folder of skills
// (WORKSPACE/NAME/SKILL.md), has none of the project
// roots, and is not one of the roots:
// the workspace is the project folder whose roots are read, so such
// skills are found only through an extra root.
func (c *Catalog) workspaceHoldsSkills(roots []*Root) []skill.Diagnostic {
	if !c.wsExists {
		return nil
	}
	for _, r := range roots {
		if r.Path == c.workspace || (r.Scope == ScopeProject && r.Exists) {
			return nil // a project root exists: the workspace is one
		}
	}
	if fi, err := os.Stat(filepath.Join(c.workspace, SkillFile)); err == nil && fi.Mode().IsRegular() {
		return []skill.Diagnostic{{Code: diagcode.SkillsSkipped, Severity: skill.SeverityWarning, Path: c.workspace,
			Message: fmt.Sprintf("no skill loads, but the workspace is itself a skill folder (it holds %s): the workspace is the project folder, whose skills folders are read; to read this skill, add --root %s (catalog.Options.ExtraPaths)",
				SkillFile, filepath.ToSlash(c.workspace))}}
	}
	entries, err := os.ReadDir(c.workspace)
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() && !ignored(e.Name()) {
			if fi, err := os.Stat(filepath.Join(c.workspace, e.Name(), SkillFile)); err == nil && fi.Mode().IsRegular() {
				names = append(names, e.Name())
			}
		}
	}
	if len(names) == 0 {
		return nil
	}
	return []skill.Diagnostic{{Code: diagcode.SkillsSkipped, Severity: skill.SeverityWarning, Path: c.workspace,
		Message: fmt.Sprintf("no skill loads, but the workspace itself holds %s (%s): the workspace is the project folder, whose skills folders are read; to read this folder as a root, add --root %s (catalog.Options.ExtraPaths)",
			outfmt.Count(len(names), "skill folder"), outfmt.Names(names), filepath.ToSlash(c.workspace))}}
}

// countSkillFiles counts the SKILL.md files (any letter case) at or below
// dir, within the depth and folder limits.
func countSkillFiles(dir string, depth, maxDepth int, folders *int, maxFolders int) int {
	if depth > maxDepth || *folders >= maxFolders {
		return 0
	}
	*folders++
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		if strings.EqualFold(e.Name(), SkillFile) && e.Type().IsRegular() {
			return 1
		}
	}
	for _, e := range entries {
		if e.IsDir() && !fsx.SkipDir(e.Name()) {
			n += countSkillFiles(filepath.Join(dir, e.Name()), depth+1, maxDepth, folders, maxFolders)
		}
	}
	return n
}
