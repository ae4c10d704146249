package lint

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/internal/outfmt"
	"github.com/skillet-go/skillet/skill"
)

var _ = skill.Register(skill.CodeInfo{Code: diagcode.NoSkills, Severity: skill.SeverityWarning,
	Summary: "no skill was found, but the workspace has skill-like files outside every root",
	Remedy:  "move the skills into a root (skillet list shows the roots), or read their folder with --root",
	Source:  "docs/discovery.md#roots",
	Help: "lint found no skill file in the roots it reads, yet the workspace holds SKILL.md files, or Markdown files that start with a frontmatter naming a name or " +
		"description, in folders that no root covers. A SKILL.md is read only inside a root (such as .agents/skills/NAME/SKILL.md), and a loose NAME.md only " +
		"directly in a root that reads the flat form. The message names the files and the --root flags that would read them; move them into a root, or pass those flags. " +
		"skillet list and skillet serve print the same warning when they find no skill."})

// Bounds of the search for skill-like files.
const (
	maxElsewhereEntries = 20000
	maxElsewhereDepth   = 8
	maxElsewhereShown   = 5
)

// Elsewhere looks for skill-like files in the workspace ws outside every
// root of roots (a listing's Roots), for a listing that found no skill:
// SKILL.md files (any letter case) and .md files whose frontmatter has a
// name: or description: line. It returns one no-skills warning on the
// workspace that names them, the project roots read and the --root flags
// that would read them, or nothing. The search skips version-control and
// package folders and stops after 20,000 entries or 8 levels. lint reports
// it, and skillet list and skillet serve print it when they find no skill
// (docs/discovery.md#roots).
func Elsewhere(ws string, roots []catalog.Root) []skill.Diagnostic { return elsewhere(ws, roots) }

func elsewhere(ws string, roots []catalog.Root) []skill.Diagnostic {
	if ws == "" {
		return nil
	}
	var found []string
	seen := 0
	filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if seen++; seen > maxElsewhereEntries {
			return filepath.SkipAll
		}
		if d.IsDir() {
			if p == ws {
				return nil
			}
			if fsx.SkipDir(d.Name()) || depth(relTo(ws, p)) > maxElsewhereDepth || inRoots(p, roots) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !strings.EqualFold(filepath.Ext(d.Name()), ".md") || inRoots(p, roots) {
			return nil
		}
		if strings.EqualFold(d.Name(), catalog.SkillFile) || hasSkillFrontmatter(p) {
			found = append(found, p)
		}
		return nil
	})
	if len(found) == 0 {
		return nil
	}
	shown := make([]string, 0, maxElsewhereShown)
	for _, p := range found[:min(len(found), maxElsewhereShown)] {
		shown = append(shown, filepath.ToSlash(relTo(ws, p)))
	}
	list := strings.Join(shown, ", ")
	if n := len(found) - len(shown); n > 0 {
		list += fmt.Sprintf(" and %d more", n)
	}
	var read []string
	for _, r := range roots {
		if r.Scope == catalog.ScopeProject && !r.Plugins { // no place for a skill of its own
			read = append(read, filepath.ToSlash(relTo(ws, r.Path)))
		}
	}
	return []skill.Diagnostic{{Code: diagcode.NoSkills, Severity: severity(diagcode.NoSkills), Path: ws,
		Message: fmt.Sprintf("no skill found, but %s outside every root: %s (the project roots read are %s; a SKILL.md is read only inside a root; %s would read them)",
			outfmt.Count(len(found), "skill-like file"), list, strings.Join(read, ", "), rootFlags(ws, found))}}
}

// rootFlags are the --root flags that would read the skill-like files
// found (at most maxElsewhereShown): the folder that holds a SKILL.md's
// folder, or the folder of a NAME.md (the flat form). --root is relative
// to the current folder: the flags are relative to ws when it is the
// current folder, else absolute.
func rootFlags(ws string, found []string) string {
	cwd, _ := os.Getwd()
	var flags []string
	for _, p := range found {
		dir := filepath.Dir(p)
		if strings.EqualFold(filepath.Base(p), catalog.SkillFile) {
			dir = filepath.Dir(dir)
		}
		if fsx.Within(cwd, ws) && fsx.Within(ws, cwd) {
			dir = relTo(ws, dir)
		}
		f := "--root " + filepath.ToSlash(dir)
		if !slices.Contains(flags, f) {
			flags = append(flags, f)
		}
	}
	if len(flags) > maxElsewhereShown {
		flags = append(flags[:maxElsewhereShown], "...")
	}
	return strings.Join(flags, ", ")
}

func relTo(base, p string) string {
	if rel, err := filepath.Rel(base, p); err == nil {
		return rel
	}
	return p
}

func inRoots(p string, roots []catalog.Root) bool {
	for _, r := range roots {
		if fsx.Within(p, r.Path) {
			return true
		}
	}
	return false
}

// hasSkillFrontmatter reports whether the file starts with a --- line and
// its first lines hold a name: or description: key.
func hasSkillFrontmatter(p string) bool {
	data, _, err := fsx.ReadRegular(p, 256<<10)
	if err != nil {
		return false
	}
	data = data[:min(len(data), 4096)]
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !bytes.HasPrefix(data, []byte("---\n")) && !bytes.HasPrefix(data, []byte("---\r\n")) {
		return false
	}
	for _, line := range bytes.Split(data, []byte("\n"))[1:] {
		line = bytes.TrimRight(line, "\r")
		if string(line) == "---" {
			return false
		}
		if bytes.HasPrefix(line, []byte("name:")) || bytes.HasPrefix(line, []byte("description:")) {
			return true
		}
	}
	return false
}
