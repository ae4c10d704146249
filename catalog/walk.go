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
	"unsafe"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/internal/ignore"
	"github.com/skillet-go/skillet/skill"
)

// SkillFile is the file name that makes a folder a skill.
const SkillFile = "SKILL.md"

// candidate is a skill file found by the walk, not yet read: 80 bytes.
// On a tree where skills wait for the walk's end (docs/performance.md,
// "Handing out during the walk"), every candidate is held until then, so
// what is the same for many is not kept in each: the folder is the path's
// (dir), and the root, the plugin and the open root are the walker's
// (via).
type candidate struct {
	// via holds what the candidates of one walker in one plugin share:
	// the root, the plugin and the open root; never nil.
	via   *candVia
	path  string // absolute path as found; the base directory is its folder (dir)
	stamp stamp  // from the walk's lstat; zero when unknown (symlinks)
	// relOff is where the path below the open root begins in path (0
	// when the root is not open or the path is not below it): rel.
	relOff   int32
	flat     bool
	fileCase bool // named skill.md in another letter case
	ignored  bool // below an entry starting with "_" or "." (Catalog.ignored)
	// throughLink says the walk reached the file through a folder symlink
	// below the root (alias -> real): the path is not the file's own.
	throughLink bool
	// single says the walk's lstat found a regular file of one link
	// (st_nlink 1) reached through no symlink, root included: a change to
	// it shows in its folder's file notifications (listTouched).
	single bool
}

// candVia is what the candidates a walker finds in one plugin's skills
// folder (or outside any) share.
type candVia struct {
	root *Root
	// plugin is the name of the plugin whose skills folder the file is
	// in, "" when none (docs/discovery.md#plugins).
	plugin string
	// rootFD is the root held open by the List, for readBeneath (rel).
	rootFD rootDir
}

// onlyRoot is the candVia of a candidate of root r in no plugin, with no
// open root to read it beneath.
func onlyRoot(r *Root) *candVia { return &candVia{root: r, rootFD: -1} }

// rootVia is onlyRoot(w.root), made once for each root: the candidates
// the walker makes before addRef gives them its via, and its ignored ones.
func (w *walker) rootVia() *candVia {
	if w.onlyVia == nil || w.onlyVia.root != w.root {
		w.onlyVia = onlyRoot(w.root)
	}
	return w.onlyVia
}

// root is the root the candidate was found in.
func (c *candidate) root() *Root { return c.via.root }

// dir is the candidate's base directory: the folder of its path. Every
// path the walk finds is clean and a file's name joined to its folder's,
// so this is the folder it was found in (TestCandidateDirIsThePaths).
func (c *candidate) dir() string { return filepath.Dir(c.path) }

// plugin is the name of the plugin whose skills folder the file is in, ""
// when none.
func (c *candidate) plugin() string {
	if c.via == nil {
		return ""
	}
	return c.via.plugin
}

// rootFD is the root held open for readBeneath, or -1 when there is none
// or the path is not below it (rel is nil).
func (c *candidate) rootFD() rootDir {
	if c.via == nil || c.relOff == 0 {
		return -1
	}
	return c.via.rootFD
}

// rel returns the path below the open root, NUL-terminated, for
// readBeneath; nil when either is unknown. It is the end of path, whose
// bytes are followed by a NUL in memory (addRef): a candidate takes 120
// bytes where a slice of its own made it 144.
func (c *candidate) rel() []byte {
	if c.relOff == 0 {
		return nil
	}
	p := unsafe.StringData(c.path)
	return unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(p), c.relOff)), len(c.path)-int(c.relOff)+1)
}

// linked reports whether the candidate's path may not be the file's own:
// it was reached through a folder symlink, or it may be a symlink itself
// (or is not known to be a regular file: not stamped by the walk's lstat).
func (c *candidate) linked() bool { return c.throughLink || c.stamp == (stamp{}) }

// pathRef is a path with its NUL-terminated bytes prebuilt, so the warm
// walk can stat it without allocating.
type pathRef struct {
	path string
	z    []byte
}

func newRef(p string) pathRef {
	z := make([]byte, len(p)+1)
	copy(z, p)
	return pathRef{path: p, z: z}
}

// newChild returns the entry name of folder dir. Its path is built in
// one allocation: dir/name and a NUL or, for a folder or a symlink (which
// may be a skill folder), dir/name/SKILL.md and a NUL, whose first bytes
// are the entry's own path. dir must be clean and name a plain entry name,
// so the paths are what filepath.Join gives.
func newChild(dir, name string, typ fs.FileMode, withSkill bool) child {
	sep := len(dir) > 0 && !os.IsPathSeparator(dir[len(dir)-1])
	n := len(dir) + len(name)
	if sep {
		n++
	}
	size := n + 1
	if withSkill {
		size += 1 + len(SkillFile)
	}
	b := make([]byte, 0, size)
	b = append(b, dir...)
	if sep {
		b = append(b, filepath.Separator)
	}
	b = append(b, name...)
	if withSkill {
		b = append(b, filepath.Separator)
		b = append(b, SkillFile...)
	}
	b = append(b, 0)
	return child{p: &b[0], n: int32(n), nameOff: int32(n - len(name)), typ: typ, withSkill: withSkill}
}

// child is one entry of a folder as the walk needs it: 24 bytes and its
// path (newChild), where it was 136 bytes and two paths, then 40 with the
// path as a slice. The walk holds one for every entry of the folder it is
// in: 1.6 MB less for a folder of 100,000 (TestChildSize).
type child struct {
	// p is the first byte of the entry's path, dir/name, and a NUL, or
	// when withSkill dir/name/SKILL.md and a NUL (newChild): b. Its bytes
	// are never written again, so the strings made of them can share them.
	p         *byte
	n         int32       // len(dir/name)
	nameOff   int32       // where the entry's name begins in the path
	typ       fs.FileMode // type bits from the directory entry
	withSkill bool        // the path goes on to /SKILL.md (a folder or a symlink)
}

// b is the entry's path bytes with their NUL (child.p).
func (c *child) b() []byte {
	n := int(c.n) + 1
	if c.withSkill {
		n += 1 + len(SkillFile)
	}
	return unsafe.Slice(c.p, n)
}

// path is dir/name.
func (c *child) path() string { return unsafe.String(c.p, int(c.n)) }

// name is the entry's name.
func (c *child) name() string {
	return unsafe.String((*byte)(unsafe.Add(unsafe.Pointer(c.p), c.nameOff)), int(c.n-c.nameOff))
}

// ref is dir/name, with its NUL-terminated bytes when the path ends there
// (a file), else without them (a folder: readDir makes them when it reads
// it).
func (c *child) ref() pathRef {
	if !c.withSkill {
		return pathRef{path: c.path(), z: c.b()}
	}
	return pathRef{path: c.path()}
}

// fileRef is ref with its NUL-terminated bytes, made for a folder or a
// symlink.
func (c *child) fileRef() pathRef {
	if r := c.ref(); r.z != nil {
		return r
	}
	return newRef(c.path())
}

// skill is dir/name/SKILL.md with its NUL-terminated bytes.
func (c *child) skill() pathRef {
	if !c.withSkill {
		return newRef(filepath.Join(c.path(), SkillFile))
	}
	b := c.b()
	return pathRef{path: unsafe.String(c.p, len(b)-1), z: b}
}

// dirState is what a folder held when it was last read. A warm List reuses
// it while the folder's stamp is unchanged, so it reads no folder again.
type dirState struct {
	stamp    stamp
	z        []byte // the folder's path, NUL-terminated
	children []child
	// ignored are the entries discovery skips by name, kept only with
	// Catalog.ignored (ignored.go).
	ignored []child
	// plugin says the folder holds .claude-plugin: it may be a plugin
	// (docs/discovery.md#plugins).
	plugin bool
	err    error
}

// walker walks one root (docs/discovery.md#shapes, docs/discovery.md#boundaries).
type walker struct {
	ctx context.Context
	c   *Catalog
	s   *listScratch // the listing's
	// touched is the List's (diskList.touched): nil but for a List told
	// what changed (listTouched).
	touched  func(dir string) bool
	root     *Root
	rootFD   rootDir  // root held open for readBeneath, or -1
	onlyVia  *candVia // rootVia's
	via      *candVia // the last candidate's (addRef)
	at       dirAt    // the folder being walked, held open (noDir when not)
	folders  int
	limited  bool
	onStack  map[string]bool
	cands    []candidate
	diags    []skill.Diagnostic
	stopWalk bool
	// links counts the folder symlinks on the way from the root to the
	// folder being visited.
	links int
	// rootLinked says the root's own path is not its symlink-free one.
	rootLinked bool
	// pl, when set, is handed every candidate as it is found (instead of
	// cands), so reading can start while the walk goes on.
	pl *pipeline
	// found counts the candidates added.
	found int
	// withhold, when set, are the patterns of the root's .skilletignore,
	// applied to each candidate as it is found (Each) rather than to all
	// of the root's once its walk has ended (withholdSkills).
	withhold *ignore.Matcher
	// ignored are the candidates found under ignored entries (ignored.go).
	ignored        []candidate
	ignoredFolders int
	ignoredLimited bool
	// plugin is the name of the plugin whose skills folder is being
	// walked ("" outside one): the candidates found get it.
	plugin string
}

// walkVisit, when set, is called with each folder's path as the walk
// comes to it: tests set it to act while the walk is in a folder with no
// skill file found since the last (eachLockstep sees only those).
var walkVisit func(dir string)

// errNoStamp is a folder not stamped (a one-shot listing).
var errNoStamp = errors.New("not stamped")

// nonSkillFiles are loose Markdown files that are never flat-form skills.
var nonSkillFiles = map[string]bool{
	"readme.md": true, "license.md": true, "changelog.md": true, "contributing.md": true,
	"code_of_conduct.md": true, "security.md": true, "agents.md": true, "claude.md": true,
}

// ignored reports whether a folder entry is skipped by discovery: names
// starting with "." or "_" (Kestrel) and node_modules.
func ignored(name string) bool {
	return name == "" || name[0] == '.' || name[0] == '_' || name == "node_modules"
}

// add records a candidate (or hands it to pl).
func (w *walker) add(c candidate) {
	w.addRef(c, nil)
}

// addRef records a candidate whose path has the NUL-terminated bytes z, so
// it can be read below the open root.
func (w *walker) addRef(c candidate, z []byte) {
	c.relOff = 0
	if rel := w.rel(c.path, z); rel != nil && string(z[:len(c.path)]) == c.path {
		// The path is z's bytes, which a NUL follows (candidate.rel).
		c.path = unsafe.String(&z[0], len(c.path))
		c.relOff = int32(len(c.path) - len(rel) + 1)
	}
	c.throughLink = c.throughLink || w.links > 0
	if r := c.root(); w.via == nil || w.via.root != r || w.via.plugin != w.plugin || w.via.rootFD != w.rootFD {
		w.via = &candVia{root: r, plugin: w.plugin, rootFD: w.rootFD}
	}
	c.via = w.via
	if w.withhold != nil && withheldBy(w.root, w.withhold, &c) {
		c.ignored = true
	}
	w.found++
	if w.pl != nil {
		w.pl.push(c)
		return
	}
	w.cands = append(w.cands, c)
}

// rel returns path below the open root, NUL-terminated (from z, path's
// NUL-terminated bytes), or nil when the root is not open or path is not
// below it.
func (w *walker) rel(path string, z []byte) []byte {
	if root := w.root.Path; w.rootFD >= 0 && len(z) == len(path)+1 && len(path) > len(root)+1 &&
		path[len(root)] == '/' && path[:len(root)] == root {
		return z[len(root)+1:]
	}
	return nil
}

func (w *walker) diag(code skill.Code, path, format string, args ...any) {
	w.diags = append(w.diags, skill.Diagnostic{
		Code: code, Severity: code.Info().Severity, Path: path,
		Message: fmt.Sprintf(format, args...),
	})
}

func (w *walker) allowed(real string) bool {
	return within(real, w.root.boundary) || w.c.trusted(real)
}

// openRoot opens w's root (O_PATH) for the reads beneath it, when it is a
// folder that exists, and returns fds with the descriptor added; the
// caller closes every descriptor in fds once the files are read.
func (w *walker) openRoot(fds []rootDir) []rootDir {
	if !w.root.Exists || w.root.File {
		return fds
	}
	w.rootFD = openRootDir(w.root.Path, w.allowed)
	return append(fds, w.rootFD)
}

func (w *walker) walkRoot() {
	r := w.root
	if !r.Exists {
		return
	}
	real := realPath(r.Path)
	w.rootLinked = real != r.Path
	if !w.allowed(real) {
		w.diag(diagcode.PathEscape, r.Path, "the root resolves to %s, outside its boundary %s; it is not scanned", real, r.boundary)
		return
	}
	if r.File {
		if strings.EqualFold(filepath.Ext(r.Path), ".md") {
			w.add(candidate{via: onlyRoot(r), path: r.Path, flat: filepath.Base(r.Path) != SkillFile})
		} else {
			w.diag(diagcode.Unreadable, r.Path, "the extra path is a file but not a .md file; it is not scanned")
		}
		return
	}
	if w.s.onStack == nil {
		w.s.onStack = map[string]bool{}
	}
	w.onStack = w.s.onStack
	clear(w.onStack)
	w.visit(newRef(r.Path), newRef(filepath.Join(r.Path, SkillFile)), "", real, 0)
}

// visit looks at one folder: a skill folder when it holds SKILL.md (or
// skill.md in another case), else a grouping folder to walk into. The
// folder's symlink-free path is linkReal when it is a root or was reached
// through a symlink, else its name below parentReal, its parent's
// (realBelow).
func (w *walker) visit(dir, skillFile pathRef, parentReal, linkReal string, depth int) {
	if walkVisit != nil {
		walkVisit(dir.path)
	}
	if w.stopWalk || w.ctx.Err() != nil {
		return
	}
	if depth > w.c.settings.MaxDepth {
		w.limit(dir.path, fmt.Sprintf("it is deeper than %d levels below the root", w.c.settings.MaxDepth))
		return
	}
	if depth > 0 && linkReal != "" {
		w.links++
		defer func() { w.links-- }()
	}
	if w.root.Plugins && depth == 1 && !pathExists(filepath.Join(dir.path, pluginManifest)) {
		return // a folder of a plugins root that is no plugin (docs/discovery.md#plugins)
	}
	// A skill folder is one whose SKILL.md the walk can lstat.
	if w.statSkill(dir, skillFile) {
		return
	}
	ds, open := w.readDir(dir)
	// The folder stays open while its entries are walked, so the paths
	// below it are looked up from it.
	defer open.close()
	if ds.err != nil {
		w.diag(diagcode.Unreadable, dir.path, "the folder cannot be read: %s; skipped", errText(ds.err))
		return
	}
	if e := caseVariant(ds.children); e != nil {
		ref := e.fileRef()
		w.addRef(candidate{via: w.rootVia(), path: ref.path, fileCase: true}, ref.z)
		return
	}
	w.folders++
	if w.folders > w.c.settings.MaxFolders {
		w.limit(dir.path, fmt.Sprintf("the root has more than %d folders", w.c.settings.MaxFolders))
		w.stopWalk = true
		return
	}
	r := linkReal
	if r == "" {
		r = realBelow(parentReal, dir.path)
	}
	if w.onStack[r] {
		w.diag(diagcode.SymlinkLoop, dir.path, "the folder leads back to %s, which is already being walked; skipped", r)
		return
	}
	w.onStack[r] = true
	before := w.found
	parent := w.at
	w.at = open
	var hasFile bool
	if ds.plugin && w.plugin == "" && w.c.profile.Names.Plugin {
		hasFile = w.pluginEntries(dir.path, r, depth, ds.children)
	} else {
		hasFile = w.entries(dir.path, r, depth, ds.children)
	}
	w.at = parent
	for i := range ds.ignored {
		e := &ds.ignored[i]
		w.ignoredEntry(e.path(), e.name(), depth, e.typ)
	}
	delete(w.onStack, r)
	if depth > 0 && hasFile && w.found == before && !w.stopWalk {
		w.diag(diagcode.FileMissing, dir.path, "the folder holds files but no %s, and no skill below it", SkillFile)
	}
}

// caseVariant returns the entry that is the folder's skill file when it
// has no SKILL.md: skill.md, which the reference validator also reads
// (internal/skillsref.FindSkillFile), else the first file named SKILL.md
// in another letter case; nil when there is none.
func caseVariant(children []child) *child {
	var other *child
	for i := range children {
		e := &children[i]
		name := e.name()
		if name == SkillFile || !strings.EqualFold(name, SkillFile) || e.typ.IsDir() {
			continue
		}
		if name == "skill.md" {
			return e
		}
		if other == nil {
			other = e
		}
	}
	return other
}

// statSkill lstats dir's SKILL.md and adds it as a candidate, or reports a
// folder that cannot be searched; it reports whether it did either.
// A file the List may take at its last stamp (untouched) is not lstat'ed.
func (w *walker) statSkill(dir, skillFile pathRef) bool {
	if st, ok := w.untouched(dir, skillFile); ok {
		return w.addStat(dir, skillFile, st, 0, true, nil)
	}
	st, mode, links, err := lstatLinksAt(w.at, skillFile)
	return w.addStat(dir, skillFile, st, mode, links == 1, err)
}

// addStat is statSkill with the lstat made; single says it found one link.
func (w *walker) addStat(dir, skillFile pathRef, st stamp, mode fs.FileMode, single bool, err error) bool {
	switch {
	case err == nil:
		c := candidate{via: w.rootVia(), path: skillFile.path}
		if mode.IsRegular() {
			c.stamp = st
			c.single = single && w.links == 0 && !w.rootLinked
		}
		w.addRef(c, skillFile.z)
		return true
	case errors.Is(err, fs.ErrPermission):
		w.diag(diagcode.Unreadable, dir.path, "the folder cannot be searched: %s; skipped", errText(err))
		return true
	}
	return false
}

// readDir returns the folder's entries, from the previous List when the
// folder's stamp is unchanged, and the folder held open when it was read
// now (noDir otherwise); the caller closes it. dir is looked up below the
// folder being walked (w.at).
func (w *walker) readDir(dir pathRef) (*dirState, dirAt) {
	c, s, at := w.c, w.s, w.at
	old := c.dirs[dir.path]
	if dir.z == nil {
		// A folder's child.ref: its NUL-terminated bytes are made once
		// and kept with the folder's state.
		if old != nil && old.z != nil {
			dir.z = old.z
		} else {
			dir = newRef(dir.path)
		}
	}
	// A one-shot listing keeps no folder state, so it needs no stamp.
	var st stamp
	var err error = errNoStamp
	if !s.oneShot || s.stream != nil {
		st, _, err = statAt(at, dir)
	}
	if err == nil {
		if old != nil && old.stamp == st && old.err == nil && !s.oneShot {
			s.nextDirs[dir.path] = old
			return old, noDir
		}
	}
	ds := &dirState{stamp: st, z: dir.z}
	open, err := s.eachEntry(at, dir, func(n int) { ds.children = make([]child, 0, n) }, func(name string, typ fs.FileMode) {
		// name is only valid during the call: what is kept is copied.
		if name == pluginFolder {
			ds.plugin = true
		}
		if ignored(name) {
			if c.ignored {
				ds.ignored = append(ds.ignored, newChild(dir.path, name, typ, false))
			}
			return
		}
		ds.children = append(ds.children, newChild(dir.path, name, typ, typ.IsDir() || typ&fs.ModeSymlink != 0))
	})
	if s.stream != nil {
		s.stream.dir(dir.path, ds.stamp, err)
	}
	if err != nil {
		ds.children, ds.ignored = nil, nil
		ds.err = err
		return ds, noDir
	}
	if !s.oneShot {
		s.nextDirs[dir.path] = ds
	}
	return ds, open
}

// readDirEntries is eachEntry by os.ReadDir: it calls size with the number
// of entries, then add for each in name order. While the process is out of
// descriptors it tries again for a moment (fsx.OpenRetry).
func readDirEntries(dir string, size func(int), add func(name string, typ fs.FileMode)) error {
	entries, err := fsx.OpenRetry(func() ([]os.DirEntry, error) { return os.ReadDir(dir) })
	if err != nil {
		return err
	}
	size(len(entries))
	for _, e := range entries {
		add(e.Name(), e.Type())
	}
	return nil
}

// entries walks the children of a grouping folder (or root). It reports
// whether the folder holds at least one regular, non-ignored file.
func (w *walker) entries(dir, real string, depth int, children []child) (hasFile bool) {
	for i := range children {
		e := &children[i]
		typ := e.typ
		path := e.path()
		linkReal := ""
		if typ&fs.ModeSymlink != 0 {
			fi, err := os.Stat(path)
			if err != nil {
				w.linkError(path, err)
				continue
			}
			// Only a link that could be a skill (a folder, or a flat-form
			// file directly in a root) must stay inside the boundary; a
			// link to any other file is never opened.
			if !fi.IsDir() {
				if fi.Mode().IsRegular() {
					hasFile = true
				}
				if !(depth == 0 && w.root.Flat && isFlatSkill(e.name())) {
					continue
				}
			}
			r, err := filepath.EvalSymlinks(path)
			if err != nil {
				w.linkError(path, err)
				continue
			}
			if !w.allowed(r) {
				w.diag(diagcode.PathEscape, path, "the symlink resolves to %s, outside the boundary %s; skipped", r, w.root.boundary)
				continue
			}
			linkReal = r
			typ = fi.Mode().Type()
		}
		switch {
		case typ.IsDir():
			w.visit(e.ref(), e.skill(), real, linkReal, depth+1)
		case typ.IsRegular():
			hasFile = true
			if depth == 0 && w.root.Flat && isFlatSkill(e.name()) {
				ref := e.fileRef()
				c := candidate{via: w.rootVia(), path: ref.path, flat: true}
				if linkReal == "" {
					if st, mode, err := lstatRef(ref); err == nil && mode.IsRegular() {
						c.stamp = st
					}
				}
				w.addRef(c, ref.z)
			}
		}
		if w.stopWalk {
			return hasFile
		}
	}
	return hasFile
}

// realBelow returns the symlink-free path of folder path, whose parent's
// is parentReal: path itself when that is its parent's path (nothing
// above it is a symlink), else its name joined to parentReal. It is asked
// only of the folders the walk goes into, not of every entry, so a
// folder's entries keep no such path of their own.
func realBelow(parentReal, path string) string {
	if parentReal == filepath.Dir(path) {
		return path
	}
	return filepath.Join(parentReal, filepath.Base(path))
}

func isFlatSkill(name string) bool {
	if !strings.EqualFold(filepath.Ext(name), ".md") || len(name) <= 3 {
		return false
	}
	lower := strings.ToLower(name)
	return !nonSkillFiles[lower] && lower != "skill.md"
}

func (w *walker) linkError(path string, err error) {
	w.s.unfollow(path, err)
	switch {
	case errors.Is(err, syscall.ELOOP) || strings.Contains(err.Error(), "too many links"):
		w.diag(diagcode.SymlinkLoop, path, "the symlink is part of a loop; skipped")
	case errors.Is(err, fs.ErrNotExist):
		target, _ := os.Readlink(path)
		w.diag(diagcode.BrokenLink, path, "the symlink points to %q, which does not exist; skipped", target)
	default:
		w.diag(diagcode.Unreadable, path, "the symlink cannot be followed: %s; skipped", errText(err))
	}
}

func (w *walker) limit(dir, why string) {
	if w.limited {
		return
	}
	w.limited = true
	w.diag(diagcode.WalkLimit, dir, "the walk of %s stopped early: %s (%s and what follows it were not searched)", w.root.Path, why, dir)
}

// untouched returns the stamp the last List's lstat gave dir's skill file
// when that List may be taken at its word without an lstat now: the List
// is told what changed (walker.touched, listTouched) and that nothing
// touched dir, the file was then a regular file of one link reached
// through no symlink (candidate.single: an edit through another hard link
// or a link's other end raises no notification in dir), and it is not
// reached through a symlink now. ok is false when the file is to be
// lstat'ed.
func (w *walker) untouched(dir, skillFile pathRef) (st stamp, ok bool) {
	if w.touched == nil || w.links > 0 || w.rootLinked {
		return stamp{}, false
	}
	e := w.c.cache[skillFile.path]
	if e == nil || e.trust == (stamp{}) || w.touched(dir.path) {
		return stamp{}, false
	}
	return e.trust, true
}
