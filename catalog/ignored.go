package catalog

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/skill"
)

// ignoredEntry looks at an entry the walk ignores because its name starts
// with "_" or "." (Catalog.ignored). A folder is searched like a grouping
// folder, and the skill files found at or below it are collected in
// w.ignored; a loose .md file directly in a flat root is a flat-form skill
// file. Symlinks are followed only inside the root's boundary; links that
// are broken, loop or leave it are passed over silently, as discovery
// never looks here. The search is bounded by the walk's depth and folder
// limits (walk-limit).
func (w *walker) ignoredEntry(path, name string, depth int, typ fs.FileMode) {
	if w.ctx.Err() != nil || fsx.SkipDir(name) {
		return
	}
	if typ&fs.ModeSymlink != 0 {
		fi, err := os.Stat(path)
		if err != nil {
			return
		}
		real, err := filepath.EvalSymlinks(path)
		if err != nil || !w.allowed(real) {
			return
		}
		typ = fi.Mode().Type()
	}
	switch {
	case typ.IsDir():
		w.ignoredDir(path, depth+1)
	case typ.IsRegular() && depth == 0 && w.root.Flat && isFlatSkill(name):
		w.ignored = append(w.ignored, candidate{via: w.rootVia(), path: path, flat: true, ignored: true})
	}
}

func (w *walker) ignoredDir(dir string, depth int) {
	if depth > w.c.settings.MaxDepth || w.ignoredFolders >= w.c.settings.MaxFolders {
		if !w.ignoredLimited {
			w.ignoredLimited = true
			w.diags = append(w.diags, skill.Diagnostic{
				Code: diagcode.WalkLimit, Severity: skill.SeverityWarning, Path: dir,
				Message: fmt.Sprintf("the search of ignored entries in %s stopped at the depth or folder limit; %s and what follows it were not checked", w.root.Path, dir),
			})
		}
		return
	}
	w.ignoredFolders++
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	variant := ""
	for _, e := range entries {
		name := e.Name()
		if name == SkillFile {
			w.ignored = append(w.ignored, candidate{via: w.rootVia(), path: filepath.Join(dir, name), ignored: true})
			return
		}
		if variant == "" && strings.EqualFold(name, SkillFile) && !e.IsDir() {
			variant = name
		}
	}
	if variant != "" {
		w.ignored = append(w.ignored, candidate{via: w.rootVia(), path: filepath.Join(dir, variant), fileCase: true, ignored: true})
		return
	}
	for _, e := range entries {
		w.ignoredEntry(filepath.Join(dir, e.Name()), e.Name(), depth, e.Type())
	}
}
