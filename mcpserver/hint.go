package mcpserver

import (
	"path/filepath"
	"strings"

	"github.com/skillet-go/skillet/catalog"
)

// A reloadHint is what file notifications said changed since the last
// reload: the paths they named (a file or folder created, written,
// removed or renamed). A nil hint is a full reload: every skill is looked
// at again (a stat per file). A skill the catalog lists unchanged (the
// same *catalog.Skill: same file, same parse, same place, same listed
// flag) whose folder no path touches is served from the last snapshot as
// it is; one a path touches is read again (snapSkill, which reads only
// the files whose stat changed).
type reloadHint struct {
	paths []string
	// settled reports whether every folder watched for the skill whose
	// folder is base (base and the folders below it) has been watched
	// since before the last reload began, so that paths holds every change
	// in them since that reload read them. A folder whose watch was set
	// later (during the last reload, after its walk read the folder) may
	// have changed unseen in between. nil: all are.
	settled func(base string) bool
	// watched reports whether the folder dir itself has been watched
	// since before the last reload began. nil: every folder has.
	watched func(dir string) bool
	// edits says that since the last reload only files were written (or
	// had their mode or times changed): nothing was created, removed or
	// renamed, and every watch was set before the last reload began (none
	// set, moved or dropped since). The catalog may then patch its last
	// listing (catalogx.ListEdited) and the snapshot its last
	// (buildEdited).
	edits bool
}

// touched reports whether the skill folder dir may have changed since the
// last reload's listing: it was not watched since before that reload
// began, or a changed path is dir, below it or above it. The catalog
// lstats the skill file only of such folders (catalogx.ListTouched).
func (h *reloadHint) touched(dir string) bool {
	return h.watched != nil && !h.watched(dir) || h.touchesDir(dir)
}

// keeps reports whether old, the last snapshot's skill of cs's name, can
// be served again as it is: the catalog lists it unchanged, its folders
// have been watched since before the last reload began (settled) and no
// changed path touches it.
func (h *reloadHint) keeps(old *served, cs *catalog.Skill) bool {
	if h == nil || old == nil || old.kept || old.cat != cs {
		return false
	}
	if h.settled != nil && !h.settled(cs.BaseDir) {
		return false // not watched long enough for its changes to be known
	}
	for _, p := range h.paths {
		if touches(p, cs) {
			return false
		}
	}
	return true
}

// touches reports whether a change at path p can change what the skill cs
// serves: p is its file, or for a directory-form skill its folder, inside
// it or a folder above it (a folder renamed or replaced by a link).
func touches(p string, cs *catalog.Skill) bool {
	if within(cs.Location, p) {
		return true
	}
	return !cs.Flat && (within(cs.BaseDir, p) || within(p, cs.BaseDir))
}

// within reports whether p is dir or below it.
func within(p, dir string) bool {
	return strings.HasPrefix(p, dir) && (len(p) == len(dir) || p[len(dir)] == filepath.Separator ||
		strings.HasSuffix(dir, string(filepath.Separator)))
}

// reserve takes the size of sv's files from the snapshot's bound, as
// reusing them file by file would (not from the server's memory: the
// bytes are held already); false (and budget untouched) when they no
// longer fit.
func (sv *served) reserve(budget *readBudget) bool {
	var n int64
	for _, f := range sv.files {
		n += f.size
	}
	if budget.left.Add(-n) < 0 {
		budget.left.Add(n)
		return false
	}
	return true
}
