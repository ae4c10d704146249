package catalog

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
)

// maxEditedPaths is how many changed paths listEdited takes; past it, the
// caller lists as before (listTouched).
const maxEditedPaths = 16

// maxUntrusted is how many skill files listEdited stats again because
// notifications may not cover them; past it, it does not patch.
const maxUntrusted = 256

// lastWalk is what listEdited needs of the last List that walked the
// roots: its listing, its candidates (in discovery order) and their
// entries, index-aligned. cands and entries are the List's scratch, valid
// until the next List walks (which drops lastWalk first). untrusted are
// the candidates whose skill file a List told what changed stats again
// anyway (walker.untouched): not found a regular file of one link by the
// walk's lstat (a file named skill.md in another letter case, which the
// walk does not lstat, or one of several hard links), or not read.
type lastWalk struct {
	l         *Listing
	cands     []candidate
	entries   []*entry
	untrusted []int
}

// keepWalk records the List that just walked into d.l, for listEdited, as
// the catalog's last walk (Catalog.last); c.mu is held. It costs one pass
// over the candidates, without a lookup. A List that reached a skill
// file through a symlink (a folder or root one: notifications are set on
// where it led then, and a link outside the watched folders may lead
// elsewhere now) is not kept, nor one of a catalog that keeps bodies or
// reports parses (lint).
func (d *diskList) keepWalk() {
	c, cands, entries := d.c, d.cands, d.entries
	if d.linked || c.onParsed != nil || c.opts.bodies || len(cands) != len(entries) {
		return
	}
	w := &lastWalk{l: d.l, cands: cands, entries: entries}
	for i, e := range entries {
		if cands[i].throughLink {
			return
		}
		if e == nil || e.trust == (stamp{}) {
			if len(w.untrusted) == maxUntrusted {
				return
			}
			w.untrusted = append(w.untrusted, i)
		}
	}
	c.last = w
}

// unchanged reports whether the untrusted skill files that are not among
// idx are as the last List read them: the stamp of the file (through a
// symlink, when it is one) is its entry's, as readAll's check of a
// changed file (Catalog.cached) finds with the walk's lstat.
func (w *lastWalk) unchanged(idx []int) bool {
	for _, i := range w.untrusted {
		e := w.entries[i]
		if slices.Contains(idx, i) {
			continue
		}
		if e == nil || e.readErr != nil {
			return false
		}
		path := w.cands[i].path
		st, mode, _, err := lstatLinksAt(noDir, newRef(path))
		if err == nil && !mode.IsRegular() {
			st, err = statStamp(path)
		}
		if err != nil || st != e.stamp {
			return false
		}
	}
	return true
}

// listEdited returns the last listing with the skill files among files
// read again, without a walk, a stat of any other file or precedence
// decided anew; ok is false (and nothing changed) when it cannot, and the
// caller then lists as listTouched does. It is for a caller that knows
// (from file notifications of the folders WalkedDirs named and of every
// skill folder, each watched since before the last List began) that
// since the last List nothing was created, removed or renamed and only
// the files named were written (or had their mode or times changed). It
// can then when every path is inside the folder of a directory-form skill
// of the last listing (its skill file, or a file the catalog does not
// read: no dotfile, nothing in a dot-folder, not a skill file by another
// letter case), every other skill file was then a regular file of one
// link reached through no symlink (so the notifications cover it), and
// each skill file named still is, with the same inode, and parses to a
// skill of the same name, visibility and diagnostics as before, no other
// skill file having that name: then the walk, precedence, clashes,
// maxSkills and the diagnostics are the last List's, and only that
// skill's entry changes. The listing returned is the one List would
// return (TestListEditedIsList). The persistent index is written by the
// next List that walks; one left stale is never read, its stamps no
// longer matching.
func (c *Catalog) listEdited(ctx context.Context, files []string) (l *Listing, ok bool, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, false, err
	}
	w := c.last
	if w == nil || c.merged || !c.profile.Native || len(files) == 0 || len(files) > maxEditedPaths {
		return nil, false, nil
	}
	idx, ok := w.edited(files)
	if !ok || !w.unchanged(idx) {
		return nil, false, nil
	}
	next := make([]*entry, len(idx))
	for k, i := range idx {
		if next[k], ok = c.reread(w, i); !ok {
			return nil, false, nil
		}
	}
	return c.patch(w, idx, next), true, nil
}

// edited returns the candidates whose skill files are among files, each
// once, and false when a path is anything else than a skill file of a
// directory-form candidate or a file the catalog does not read inside
// such a candidate's folder (see listEdited).
func (w *lastWalk) edited(files []string) ([]int, bool) {
	var idx []int
	for _, p := range files {
		i := w.holder(p)
		if i == noHolder && w.outside(p) {
			continue
		}
		if i < 0 {
			return nil, false
		}
		cand := &w.cands[i]
		if p == cand.path {
			if !slices.Contains(idx, i) {
				idx = append(idx, i)
			}
			continue
		}
		if !unreadIn(p, cand.dir()) {
			return nil, false
		}
	}
	return idx, true
}

// Besides a candidate's index, holder returns noHolder or notPatched.
const (
	noHolder   = -1
	notPatched = -2
)

// holder returns the candidate whose folder holds p most closely: a
// directory-form, not ignored candidate whose skill file is p or whose
// folder p is strictly inside; noHolder when there is none, notPatched
// when p is the skill file of another kind of candidate or any
// candidate's folder. One pass over the candidates, comparing prefixes.
func (w *lastWalk) holder(p string) int {
	best, bestLen := noHolder, 0
	for i := range w.cands {
		c := &w.cands[i]
		dir := c.dir()
		if dir == p || c.path == p && (c.flat || c.ignored) {
			return notPatched // a folder's mode or times: the walk reads folders
		}
		if c.flat || c.ignored || len(p) <= len(dir) || !strings.HasPrefix(p, dir) || p[len(dir)] != filepath.Separator {
			continue
		}
		if best == noHolder || len(dir) > bestLen {
			best, bestLen = i, len(dir)
		}
	}
	return best
}

// unreadIn reports whether p, strictly inside the skill folder dir, is a
// file the catalog never reads: nothing on its way from dir starts with
// "." (dotfiles, .skilletignore, .claude-plugin/plugin.json) or "_"
// (ignored entries), and it is not named skill.md in any letter case nor
// as a configuration file (skillet.yaml).
func unreadIn(p, dir string) bool {
	rest := p[len(dir)+1:]
	for part := range strings.SplitSeq(rest, string(filepath.Separator)) {
		if part == "" || part[0] == '.' || part[0] == '_' {
			return false
		}
	}
	base := filepath.Base(p)
	return !strings.EqualFold(base, SkillFile) && !slices.Contains(configFileNames, base)
}

// outside reports whether p, a file in no candidate's folder, is one the
// catalog never reads: below a root of the listing (not a root that is a
// file), with nothing on its way from the root starting with "." or "_"
// (dotfiles, .skilletignore, .claude-plugin, ignored entries), not named
// skill.md in any letter case nor as a configuration file, and not a
// flat-form skill file of a root that has them (a write to an existing
// file changes no folder the walk reads).
// Every root p is below (roots may nest) must agree.
func (w *lastWalk) outside(p string) bool {
	below := false
	for _, r := range w.l.Roots {
		if r.File || !r.Exists || len(p) <= len(r.Path)+1 || !strings.HasPrefix(p, r.Path) || p[len(r.Path)] != filepath.Separator {
			continue
		}
		if !unreadIn(p, r.Path) || r.Flat && filepath.Dir(p) == r.Path && isFlatSkill(filepath.Base(p)) {
			return false
		}
		below = true
	}
	return below
}

// reread lstats candidate i's skill file and reads it again when its
// stamp changed; ok is false when listEdited cannot take the result: the
// file is gone, no longer a regular file of one link, another inode, not
// read, or its skill no longer the same to precedence (name, visibility,
// diagnostics, a clash by name).
func (c *Catalog) reread(w *lastWalk, i int) (*entry, bool) {
	cand := w.cands[i]
	old := w.entries[i]
	st, mode, links, err := lstatLinksAt(noDir, newRef(cand.path))
	if err != nil || !mode.IsRegular() || links != 1 || st.ino != old.stamp.ino || st.dev != old.stamp.dev {
		return nil, false
	}
	if st == old.stamp {
		return old, true
	}
	cand.stamp, cand.single, cand.relOff = st, true, 0
	e := c.readOne(cand)
	if e.readErr != nil || e.skill == nil || old.skill == nil || old.listed == nil || e.truncated || old.truncated ||
		e.stamp.ino != st.ino || !reflect.DeepEqual(e.diags, old.diags) {
		return nil, false
	}
	s := &Skill{Location: cand.path, BaseDir: cand.dir(), Root: cand.root().Path, Scope: cand.root().Scope,
		Folder: cand.root().display, Flat: cand.flat, Bytes: e.size, c: c, boundary: cand.root().boundary, Plugin: cand.plugin()}
	s.setParsed(e.skill)
	s.Name = listedName(s.Plugin, s.Name)
	was := old.listed
	if s.Name != was.Name || s.OwnName() != was.OwnName() || s.Hidden() != was.Hidden() || !w.alone(i, was) {
		return nil, false
	}
	s.Listed = was.Listed
	e.listed = s
	if e.stamp == st {
		e.trust = st
	}
	return e, true
}

// alone reports whether the loaded skill s, of candidate i, is the last
// listing's and no other skill file parsed to its name (no clash, no
// shadow, no copy of it elsewhere).
func (w *lastWalk) alone(i int, s *Skill) bool {
	if !slices.Contains(w.l.Skills, s) {
		return false
	}
	for _, cd := range w.l.candidates {
		if cd.Skill != nil && cd.Skill != s && cd.Skill.Name == s.Name {
			return false
		}
	}
	return true
}

// patch returns the last listing with the skill of each candidate idx[k]
// replaced by next[k]'s, and makes it the catalog's: its cache, lastWalk
// and latest listing. Unchanged entries leave the listing as it was.
func (c *Catalog) patch(w *lastWalk, idx []int, next []*entry) *Listing {
	l := *w.l
	l.Roots = slices.Clone(w.l.Roots)
	l.Diagnostics = slices.Clip(w.l.Diagnostics)
	copied := false
	for k, i := range idx {
		old, e := w.entries[i], next[k]
		if e == old {
			continue
		}
		if !copied {
			l.Skills, l.candidates, copied = slices.Clone(w.l.Skills), slices.Clone(w.l.candidates), true
		}
		l.Skills[slices.Index(l.Skills, old.listed)] = e.listed
		for j, cd := range l.candidates {
			if cd.Skill == old.listed {
				cp := *cd
				cp.Skill = e.listed
				l.candidates[j] = &cp
			}
		}
		w.entries[i] = e
		w.cands[i].stamp = e.stamp
		if e.trust == (stamp{}) && !slices.Contains(w.untrusted, i) {
			w.untrusted = append(w.untrusted, i) // changed again while read
		}
		c.cache[w.cands[i].path] = e
	}
	w.l = &l
	c.snapMu.Lock()
	c.snap = &l
	c.snapMu.Unlock()
	return &l
}
