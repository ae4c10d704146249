package catalog

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/skillet-go/skillet/skill"
)

// SkillFile is the file name that makes a folder a skill.
const SkillFile = "SKILL.md"

// candidate is a skill file found by the walk, not yet read.
type candidate struct {
	root     *Root
	path     string // absolute path as found
	dir      string // base directory
	flat     bool
	fileCase bool // named skill.md in another letter case
	ignored  bool // below an entry starting with "_" or "." (Options.Ignored)
}

// walker walks one root (D4.2, D4.4).
type walker struct {
	ctx      context.Context
	c        *Catalog
	root     *Root
	folders  int
	limited  bool
	onStack  map[string]bool
	cands    []candidate
	diags    []skill.Diagnostic
	stopWalk bool
	// ignored are the candidates found under ignored entries (ignored.go).
	ignored        []candidate
	ignoredFolders int
	ignoredLimited bool
}

// nonSkillFiles are loose Markdown files that are never flat-form skills.
var nonSkillFiles = map[string]bool{
	"readme.md": true, "license.md": true, "changelog.md": true, "contributing.md": true,
	"code_of_conduct.md": true, "security.md": true, "agents.md": true, "claude.md": true,
}

// ignored reports whether a folder entry is skipped by discovery: names
// starting with "." or "_" (004) and node_modules.
func ignored(name string) bool {
	return name == "" || name[0] == '.' || name[0] == '_' || name == "node_modules"
}

func (w *walker) diag(code skill.Code, path, format string, args ...any) {
	w.diags = append(w.diags, skill.Diagnostic{
		Code: code, Severity: code.Info().Severity, Path: path,
		Message: fmt.Sprintf(format, args...),
	})
}

func (w *walker) allowed(real string) bool {
	return within(real, w.root.Boundary) || w.c.trusted(real)
}

func (w *walker) walkRoot() {
	r := w.root
	if !r.Exists {
		return
	}
	real := realPath(r.Path)
	if !w.allowed(real) {
		w.diag(skill.CodePathEscape, r.Path, "the root resolves to %s, outside its boundary %s; it is not scanned", real, r.Boundary)
		return
	}
	if r.File {
		if strings.EqualFold(filepath.Ext(r.Path), ".md") {
			w.cands = append(w.cands, candidate{root: r, path: r.Path, dir: filepath.Dir(r.Path), flat: filepath.Base(r.Path) != SkillFile})
		} else {
			w.diag(skill.CodeUnreadable, r.Path, "the extra path is a file but not a .md file; it is not scanned")
		}
		return
	}
	w.onStack = map[string]bool{}
	w.visit(r.Path, real, 0)
}

// visit looks at one folder: a skill folder when it holds SKILL.md (or
// skill.md in another case), else a grouping folder to walk into.
func (w *walker) visit(dir, real string, depth int) {
	if w.stopWalk || w.ctx.Err() != nil {
		return
	}
	if w.onStack[real] {
		w.diag(skill.CodeSymlinkLoop, dir, "the folder leads back to %s, which is already being walked; skipped", real)
		return
	}
	if depth > w.c.settings.MaxDepth {
		w.limit(dir, fmt.Sprintf("it is deeper than %d levels below the root", w.c.settings.MaxDepth))
		return
	}
	file := filepath.Join(dir, SkillFile)
	if _, err := os.Lstat(file); err == nil {
		w.cands = append(w.cands, candidate{root: w.root, path: file, dir: dir})
		return
	} else if !errors.Is(err, fs.ErrNotExist) {
		if errors.Is(err, fs.ErrPermission) {
			w.diag(skill.CodeUnreadable, dir, "the folder cannot be searched: %s; skipped", errText(err))
			return
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		w.diag(skill.CodeUnreadable, dir, "the folder cannot be read: %s; skipped", errText(err))
		return
	}
	for _, e := range entries {
		if name := e.Name(); name != SkillFile && strings.EqualFold(name, SkillFile) && !e.IsDir() {
			w.cands = append(w.cands, candidate{root: w.root, path: filepath.Join(dir, name), dir: dir, fileCase: true})
			return
		}
	}
	w.folders++
	if w.folders > w.c.settings.MaxFolders {
		w.limit(dir, fmt.Sprintf("the root has more than %d folders", w.c.settings.MaxFolders))
		w.stopWalk = true
		return
	}
	w.onStack[real] = true
	before := len(w.cands)
	hasFile := w.entries(dir, real, depth, entries)
	delete(w.onStack, real)
	if depth > 0 && hasFile && len(w.cands) == before && !w.stopWalk {
		w.diag(skill.CodeFileMissing, dir, "the folder holds files but no %s, and no skill below it", SkillFile)
	}
}

// entries walks the children of a grouping folder (or root). It reports
// whether the folder holds at least one regular, non-ignored file.
func (w *walker) entries(dir, real string, depth int, entries []os.DirEntry) (hasFile bool) {
	for _, e := range entries {
		name := e.Name()
		if ignored(name) {
			if w.c.opts.Ignored {
				w.ignoredEntry(filepath.Join(dir, name), name, depth, e.Type())
			}
			continue
		}
		full := filepath.Join(dir, name)
		childReal := filepath.Join(real, name)
		typ := e.Type()
		if typ&fs.ModeSymlink != 0 {
			fi, err := os.Stat(full)
			if err != nil {
				w.linkError(full, err)
				continue
			}
			r, err := filepath.EvalSymlinks(full)
			if err != nil {
				w.linkError(full, err)
				continue
			}
			if !w.allowed(r) {
				w.diag(skill.CodePathEscape, full, "the symlink resolves to %s, outside the boundary %s; skipped", r, w.root.Boundary)
				continue
			}
			childReal = r
			typ = fi.Mode().Type()
		}
		switch {
		case typ.IsDir():
			w.visit(full, childReal, depth+1)
		case typ.IsRegular():
			hasFile = true
			if depth == 0 && w.root.Flat && isFlatSkill(name) {
				w.cands = append(w.cands, candidate{root: w.root, path: full, dir: dir, flat: true})
			}
		}
		if w.stopWalk {
			return hasFile
		}
	}
	return hasFile
}

func isFlatSkill(name string) bool {
	if !strings.EqualFold(filepath.Ext(name), ".md") || len(name) <= 3 {
		return false
	}
	lower := strings.ToLower(name)
	return !nonSkillFiles[lower] && lower != "skill.md"
}

func (w *walker) linkError(path string, err error) {
	switch {
	case errors.Is(err, syscall.ELOOP) || strings.Contains(err.Error(), "too many links"):
		w.diag(skill.CodeSymlinkLoop, path, "the symlink is part of a loop; skipped")
	case errors.Is(err, fs.ErrNotExist):
		target, _ := os.Readlink(path)
		w.diag(skill.CodeBrokenLink, path, "the symlink points to %q, which does not exist; skipped", target)
	default:
		w.diag(skill.CodeUnreadable, path, "the symlink cannot be followed: %s; skipped", errText(err))
	}
}

func (w *walker) limit(dir, why string) {
	if w.limited {
		return
	}
	w.limited = true
	w.diag(skill.CodeWalkLimit, dir, "the walk of %s stopped early: %s (%s and what follows it were not searched)", w.root.Path, why, dir)
}
