package lint

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/skill"
)

// CodeBundledSymlink: a file or folder inside a skill folder is a symlink
// to somewhere outside it, which the load tool refuses to read.
const CodeBundledSymlink skill.Code = "bundled-symlink"

var _ = skill.Register(skill.CodeInfo{Code: CodeBundledSymlink, Severity: skill.SeverityWarning,
	Summary: "a bundled file is a symlink to a target outside the skill folder; the load tool refuses to read it",
	Remedy:  "copy the target into the skill folder instead of linking to it",
	Source:  "docs/disclosure.md#load-tool, docs/discovery.md#boundaries",
	Help: "A file or folder inside the skill folder is a symbolic link whose target lies outside the folder. The load tool, skillet serve and hosts that check paths " +
		"read only files inside the skill folder, so the model is refused this file when the skill tells it to read it. " +
		"Copy the file into the skill folder (or build it there), or point the link at a file inside the folder."})

// Bounds of the walk of one skill folder for bundled symlinks.
const (
	maxBundleEntries = 4096
	maxBundleDepth   = 8
)

// checkBundle walks the folder of s (not for flat files, whose folder is a
// root shared by many) and reports every symlink that resolves outside it.
// Broken links are left to the load tool's own message; version-control
// and package folders are not searched.
func checkBundle(s *catalog.Skill) []skill.Diagnostic {
	if s == nil || s.Flat || s.BaseDir == "" {
		return nil
	}
	// The folder's real path is looked up only when there is a link to
	// compare with it (most folders hold none).
	base, baseErr := "", error(nil)
	var diags []skill.Diagnostic
	seen := 0
	filepath.WalkDir(s.BaseDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if seen++; seen > maxBundleEntries {
			return filepath.SkipAll
		}
		rel, _ := filepath.Rel(s.BaseDir, path)
		if d.IsDir() {
			if path != s.BaseDir && (fsx.SkipDir(d.Name()) || depth(rel) >= maxBundleDepth) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink == 0 || rel == filepath.Base(s.Location) {
			return nil // the skill file itself is read as the skill, through its link
		}
		if base == "" {
			if base, baseErr = filepath.EvalSymlinks(s.BaseDir); baseErr != nil {
				return filepath.SkipAll
			}
		}
		target, err := filepath.EvalSymlinks(path)
		if err != nil || fsx.Within(target, base) {
			return nil
		}
		link, _ := os.Readlink(path)
		diags = append(diags, skill.Diagnostic{
			Code: CodeBundledSymlink, Severity: severity(CodeBundledSymlink), Path: path, Skill: s.Name,
			Message: fmt.Sprintf("%s is a symlink to %s, outside the skill folder; the load tool refuses to read it", filepath.ToSlash(rel), link),
		})
		return nil
	})
	if baseErr != nil {
		return nil
	}
	return diags
}

func depth(rel string) int {
	n := 1
	for _, c := range rel {
		if c == filepath.Separator {
			n++
		}
	}
	return n
}
