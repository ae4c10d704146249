package catalog

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/internal/outfmt"
	"github.com/skillet-go/skillet/internal/profile"
	"github.com/skillet-go/skillet/skill"
)

// The host engine: it applies a [profile.Profile] that is not Native to the disk
// and says what that host loads, what it shows of each skill, and why every
// other skill file under its roots is not loaded (docs/hosts.md).

// hostSearchDepth and hostSearchFolders bound the engine's own search below
// each root: deeper than any host reads, so that skills a host passes over
// can be reported.
const (
	hostSearchDepth   = 12
	hostSearchFolders = 5000
)

// hostVerdict is what a host does with one skill file: the verdict lint
// reads (catalogx.Verdict: Loaded, Name, Description, Hidden, Changes,
// Reason) and what the engine needs besides.
type hostVerdict struct {
	catalogx.Verdict
	// Path is the file's path as found; Root and Scope the root it was
	// found under.
	Path  string
	Root  string
	Scope Scope
	// Winner is the path of the copy that loads instead, when the file
	// lost a name clash.
	Winner string
	// Skill is the parsed skill with the host's name and description, when
	// loaded.
	Skill *skill.Skill

	alias string
	short string // the description's first line (Disclosure.FirstLines)
	// Any says the host picks one of several copies of this name, not
	// always the same one (Precedence.Duplicates "any").
	Any      bool
	flat     bool
	excluded bool // not a candidate at all (same file seen before)
}

// hostCand is one file the engine's search found.
type hostCand struct {
	root      *hostRoot
	path, dir string
	real      string
	depth     int    // folders between the root and the file (ROOT/NAME/SKILL.md: 1)
	skipped   string // the first entry on the path that the profile skips
	inSkill   string // the folder of an enclosing skill, if any
	viaLink   string // the first symlinked folder on the path, if any
	escapes   bool   // viaLink or the file leads outside the root's boundary
	fileLink  bool   // the skill file is itself a symlink
	fileCase  bool   // skill.md in another letter case
	flat      bool   // ROOT/NAME.md
	readErr   error
}

type hostRoot struct {
	Root
	label string // the root as the profile writes it
}

// hostRoots lists the roots of profile p for a working folder, in
// precedence order. m remembers what the file system said of each path
// (nil: a memo of this call's own).
func hostRoots(m *pathMemo, p *profile.Profile, cwd string, e env, noUser bool, cfg *Config) []*hostRoot {
	if m == nil {
		m = newPathMemo()
	}
	dirs := projectDirs(m, p, cwd, e.home)
	project, user, explicit := p.Roots.Project, p.Roots.User, p.Precedence.Order
	if cfg != nil && cfg.Directories != nil {
		project, explicit = cfg.Directories, nil
	}
	if cfg != nil && cfg.UserRoots != nil {
		user, explicit = cfg.UserRoots, nil
	}
	type entry struct {
		scope Scope
		label string
	}
	var order []entry
	if len(explicit) > 0 {
		for _, o := range explicit {
			scope, label, _ := strings.Cut(o, ":")
			order = append(order, entry{Scope(scope), label})
		}
	} else {
		var proj, usr []entry
		for _, d := range project {
			proj = append(proj, entry{ScopeProject, d})
		}
		for _, u := range user {
			usr = append(usr, entry{ScopeUser, u})
		}
		if p.Precedence.UserFirst {
			order = append(usr, proj...)
		} else {
			order = append(proj, usr...)
		}
	}
	var roots []*hostRoot
	seen := map[string]bool{}
	add := func(r *hostRoot) {
		if seen[r.Path] {
			return
		}
		seen[r.Path] = true
		fi, err := m.stat(r.Path)
		r.Exists = err == nil && fi.IsDir()
		roots = append(roots, r)
	}
	// Project roots of nearer folders come first (or last) as a block per
	// root name, so the order of names in the profile is kept within each
	// folder.
	for _, o := range order {
		switch o.scope {
		case ScopeProject:
			dirs := dirs
			if len(p.Roots.WalkUpRoots) > 0 && !slices.Contains(p.Roots.WalkUpRoots, o.label) {
				dirs = []string{filepath.Clean(cwd)}
			}
			for _, d := range dirs {
				pth := filepath.Join(d, filepath.FromSlash(o.label))
				add(&hostRoot{Root: Root{Path: pth, Scope: ScopeProject, boundary: m.realPath(d), Flat: p.Discovery.FlatIn(o.label), display: projectLabel(m, cwd, d, o.label)}, label: o.label})
			}
		case ScopeUser:
			if noUser {
				continue
			}
			for _, pth := range userRootPaths(e.expand(o.label, e.home)) {
				add(&hostRoot{Root: Root{Path: pth, Scope: ScopeUser, boundary: m.realPath(e.home), Flat: p.Discovery.FlatIn(o.label), display: o.label}, label: o.label})
			}
		}
	}
	return roots
}

// userRootPaths is a user root's folder, or, for a root written with a *
// (a folder of each installed extension: "~/.gemini/extensions/*/skills"),
// every folder it matches, by name.
func userRootPaths(pth string) []string {
	if !strings.Contains(pth, "*") {
		return []string{pth}
	}
	m, err := filepath.Glob(pth)
	if err != nil {
		return nil
	}
	return m
}

// projectLabel labels a project root of folder d (the working folder or a
// parent of it): "../../.claude/skills" for a root two folders up.
func projectLabel(m *pathMemo, cwd, d, label string) string {
	if d == filepath.Clean(cwd) {
		return label
	}
	rel, err := filepath.Rel(m.realPath(cwd), d) // d is a real parent (projectDirs)
	if err != nil {
		return filepath.ToSlash(filepath.Join(d, label))
	}
	return filepath.ToSlash(filepath.Join(rel, label))
}

// hostSearch finds every skill-like file below one root: SKILL.md in any
// letter case at any depth (bounded), and loose .md files directly in it.
type hostSearch struct {
	ctx     context.Context
	p       *profile.Profile
	root    *hostRoot
	folders int
	cands   []*hostCand
	onStack map[string]bool
	diags   []skill.Diagnostic
	share   *hostShare // nil: each folder read here
	paths   *pathMemo  // the stats and real paths (share's, or one listing's; nil: asked each time)
	// clean says the root's path and real path are clean, and so every
	// folder's below them: an entry's path is then the folder's, a
	// separator and its name (join), without filepath.Join's Clean, a
	// third of the search's CPU in lint --compat (pprof).
	clean bool
}

// join is filepath.Join(dir, name) for a name read from the listing of
// dir, a folder of the search (one path element, never "." or "..").
func (h *hostSearch) join(dir, name string) string {
	if !h.clean || dir == "" || os.IsPathSeparator(dir[len(dir)-1]) {
		return filepath.Join(dir, name)
	}
	return dir + string(filepath.Separator) + name
}

func (h *hostSearch) run() {
	if !h.root.Exists {
		return
	}
	real := h.paths.realPath(h.root.Path)
	h.clean = h.root.Path == filepath.Clean(h.root.Path) && real == filepath.Clean(real)
	h.onStack = map[string]bool{}
	h.dir(h.root.Path, real, 0, "", "", "", false)
}

// dir searches one folder at depth (the root is 0).
func (h *hostSearch) dir(dir, real string, depth int, skipped, inSkill, viaLink string, escapes bool) {
	if h.ctx.Err() != nil || depth > hostSearchDepth || h.folders >= hostSearchFolders || h.onStack[real] {
		return
	}
	h.folders++
	h.onStack[real] = true
	defer delete(h.onStack, real)
	entries, err := h.share.readDir(dir)
	if err != nil {
		return
	}
	var kids []string // the entries' paths, shared by the searches of dir (childPaths)
	if h.clean && dir != "" && !os.IsPathSeparator(dir[len(dir)-1]) {
		kids = h.share.childPaths(dir, len(entries))
	}
	if skillHere, regular := h.paths.skillFileAmong(dir, entries); skillHere != "" {
		p := h.join(dir, skillHere)
		c := &hostCand{root: h.root, path: p, dir: dir, depth: depth, skipped: skipped, inSkill: inSkill,
			viaLink: viaLink, escapes: escapes, fileCase: skillHere != SkillFile}
		h.skillFileReal(c, real, skillHere, regular)
		h.cands = append(h.cands, c)
		if inSkill == "" && (depth > 0 || h.p.Discovery.RootSkill) {
			inSkill = dir
		}
	}
	for i, e := range entries {
		name := e.Name
		if name == ".git" || strings.EqualFold(name, SkillFile) {
			continue
		}
		typ := e.Type
		if typ&fs.ModeSymlink == 0 && !typ.IsDir() && (!typ.IsRegular() || depth != 0 || !isFlatSkill(name)) {
			// A file that is neither a folder to go into nor a flat skill
			// here (most are a skill's bundled files): nothing below
			// would use its paths or its skip rule.
			continue
		}
		var p string
		if kids != nil {
			if kids[i] == "" {
				kids[i] = dir + string(filepath.Separator) + name
			}
			p = kids[i]
		} else {
			p = h.join(dir, name)
		}
		childReal := p
		if real != dir {
			childReal = h.join(real, name)
		}
		link, esc := viaLink, escapes
		if typ&fs.ModeSymlink != 0 {
			r, t, out, ok := h.followLink(p)
			if !ok {
				continue
			}
			childReal, typ = r, t
			if t.IsDir() && link == "" {
				link = p
			}
			esc = esc || out
		}
		sk := skipped
		if sk == "" && h.skips(name) {
			sk = name
		}
		switch {
		case typ.IsDir():
			h.dir(p, childReal, depth+1, sk, inSkill, link, esc)
		case typ.IsRegular() && depth == 0 && isFlatSkill(name):
			c := &hostCand{root: h.root, path: p, dir: dir, real: childReal, depth: 0, skipped: sk,
				viaLink: viaLink, escapes: esc, flat: true, fileLink: e.Type&fs.ModeSymlink != 0}
			h.cands = append(h.cands, c)
		}
	}
}

// skillFileReal sets the real path of c, the skill file named name in
// folder c.dir whose real path is real: regular says the folder's listing
// typed it as a regular file (what its lstat would say: no symlink), else
// an lstat tells; a symlinked file's real path is its target's (c.fileLink,
// c.escapes when that leaves the root's boundary, c.readErr when it cannot
// be resolved).
func (h *hostSearch) skillFileReal(c *hostCand, real, name string, regular bool) {
	if !regular {
		if fi, err := h.paths.lstat(c.path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			c.fileLink = true
			r, err := filepath.EvalSymlinks(c.path)
			if err != nil {
				c.readErr = err
				return
			}
			c.real = r
			if !within(r, h.root.boundary) {
				c.escapes = true
			}
			return
		}
	}
	c.real = c.path
	if real != c.dir {
		c.real = h.join(real, name)
	}
}

// followLink resolves the symlink p: its target's real path and type, and
// whether that leaves the root's boundary; ok is false when p's target
// cannot be stat'ed or resolved (the search passes it over).
func (h *hostSearch) followLink(p string) (real string, typ fs.FileMode, escapes, ok bool) {
	fi, err := h.paths.stat(p)
	if err != nil {
		return "", 0, false, false
	}
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", 0, false, false
	}
	return r, fi.Mode().Type(), !within(r, h.root.boundary), true
}

// skillFileAmong is the name of the skill file among a folder's entries:
// SKILL.md, else the first that is SKILL.md in another letter case and not
// a folder; "" when there is none. regular says the listing typed it as a
// regular file (the listing's type is lstat's, as os.ReadDir's), which is then neither a
// folder nor a symlink: only the other entries (a symlink, whose target
// may be a folder) are stat'ed, and lstat'ed by the search, where every
// skill file was (13% of the host searches' CPU in lint --compat, pprof
// of BenchmarkCompat/compat). m (nil: none) remembers the stats.
func (m *pathMemo) skillFileAmong(dir string, entries []catalogx.ListedEntry) (skillHere string, regular bool) {
	for _, e := range entries {
		if strings.EqualFold(e.Name, SkillFile) && (e.Name == SkillFile || skillHere == "") {
			if e.Type.IsRegular() {
				skillHere, regular = e.Name, true
				continue
			}
			fi, err := m.stat(filepath.Join(dir, e.Name))
			if err == nil && fi.IsDir() {
				continue
			}
			skillHere, regular = e.Name, false
		}
	}
	return skillHere, regular
}

// skipPatterns are the patterns of the entries the profile never searches
// under the root.
func (h *hostSearch) skipPatterns() []string {
	pats := h.p.Discovery.Skip
	if h.root != nil {
		if extra, ok := h.p.Discovery.RootSkip[h.root.label]; ok {
			pats = append(slices.Clone(pats), extra...)
		}
	}
	return pats
}

// skips reports whether the profile never searches an entry of this name.
func (h *hostSearch) skips(name string) bool {
	for _, pat := range h.skipPatterns() {
		if ok, _ := path.Match(pat, name); ok {
			return true
		}
	}
	return false
}

// discoveryReason says why profile p does not discover candidate c ("" when
// it does).
func discoveryReason(p *profile.Profile, c *hostCand) string {
	d := &p.Discovery
	switch {
	case c.skipped != "":
		return fmt.Sprintf("it skips entries named %q", c.skipped)
	case c.flat && !d.FlatIn(c.root.label):
		return "it reads no loose NAME.md files, only NAME/SKILL.md folders"
	case !c.flat && c.depth == 0 && !d.RootSkill:
		return fmt.Sprintf("it reads no %s directly in a skills folder, only NAME/%s", SkillFile, SkillFile)
	case c.inSkill != "" && !d.Nested:
		return fmt.Sprintf("it is inside the skill folder %s, whose bundled file it is", c.inSkill)
	case !c.flat && d.MaxDepth > 0 && c.depth > d.MaxDepth:
		if d.MaxDepth == 1 {
			rel, _ := filepath.Rel(c.root.Path, c.dir)
			rel = filepath.ToSlash(rel)
			return fmt.Sprintf("it reads only NAME/%s directly in %s, and this one is %s", SkillFile, c.root.label, rel+"/"+filepath.Base(c.path))
		}
		return fmt.Sprintf("it reads at most %d folders deep, and this file is %d deep", d.MaxDepth, c.depth)
	case c.fileCase && !d.AnyCase:
		return fmt.Sprintf("it reads only files named exactly %s, not %s", SkillFile, filepath.Base(c.path))
	case c.viaLink != "" && !p.Symlinks.Folders:
		return fmt.Sprintf("it does not follow the symlinked folder %s", c.viaLink)
	case c.fileLink && !p.Symlinks.Files:
		return fmt.Sprintf("the %s is itself a symlink, which it skips", filepath.Base(c.path))
	case c.escapes && p.Symlinks.InsideWorkspace:
		return "a symlink on its path leads outside the workspace"
	}
	return ""
}

// hostList applies the catalog's profile (not Native) and builds the
// listing: the skills the host loads, in precedence order, with the names
// and descriptions it shows, and a not-loaded diagnostic for every other
// skill file under its roots. Its steps: the roots (hostListRoots), the
// files found under them (hostCandidates), what the host does with each
// (judgeCandidates, then precedence, disclosure and the token share), and
// the listing of the verdicts (hostListing).
func (c *Catalog) hostList(ctx context.Context) (*Listing, []hostVerdict, error) {
	h, err := c.hostJudge(ctx, nil, nil)
	if err != nil {
		return nil, nil, err
	}
	return h.l, h.finish(), nil
}

// hostJudged is a host listing judged file by file, before name clashes,
// disclosure and the token share are settled (finish).
type hostJudged struct {
	c        *Catalog
	l        *Listing
	cands    []*hostCand
	diags    []skill.Diagnostic
	verdicts []hostVerdict
}

// hostJudge searches the roots of the catalog's profile (folders read
// through share, when not nil) and judges each candidate. With pending not
// nil, the files to read and parse are appended to it instead of read:
// the caller reads them (readPending) before finish.
func (c *Catalog) hostJudge(ctx context.Context, share *hostShare, pending *[]pendingRead) (*hostJudged, error) {
	p := c.profile
	l := &Listing{Workspace: c.workspace}
	m := share.memo()
	roots := c.hostListRoots(m, p)
	for _, r := range roots {
		l.Roots = append(l.Roots, r.Root)
	}
	cands, diags := hostCandidates(ctx, p, roots, share, m)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var memo *hostMemo
	if share == nil && pending == nil {
		memo = &c.hostMemo // a catalog's own listing, read again on each List
	}
	verdicts := judgeCandidates(p, cands, pending, memo)
	if memo != nil {
		memo.keep(cands)
	}
	return &hostJudged{c: c, l: l, cands: cands, diags: diags, verdicts: verdicts}, nil
}

// finish settles the verdicts (settle), fills the listing, and returns
// the verdicts.
func (h *hostJudged) finish() []hostVerdict {
	c := h.c
	h.settle()
	h.l.Diagnostics = c.hostListing(c.profile, h.l, h.verdicts, h.cands, append(c.startDiags(), h.diags...))
	return h.verdicts
}

// settle settles name clashes, disclosure and the token share: the
// verdicts are then final (hostListing changes none of them).
func (h *hostJudged) settle() []hostVerdict {
	p := h.c.profile
	applyPrecedence(p, h.verdicts)
	applyDisclosure(p, h.verdicts)
	applyFirstLines(p, h.verdicts)
	applyTokenShare(p, h.verdicts, h.c.env.home)
	return h.verdicts
}

// hostListRoots are the roots profile p reads for the catalog, in
// precedence order: its project roots (when the workspace exists) and
// user roots, then the catalog's extra paths.
func (c *Catalog) hostListRoots(m *pathMemo, p *profile.Profile) []*hostRoot {
	// Options' folders replace the configuration's, as without a host
	// preset (resolveRoots): the preset chooses how the host reads and shows
	// skills, the program which folders are read.
	cfg := c.cfg
	if len(c.opts.Directories) > 0 {
		cfg.Directories = c.opts.Directories
	}
	if c.opts.NoProject {
		cfg.Directories = []string{}
	}
	if len(c.opts.UserRoots) > 0 {
		cfg.UserRoots = c.opts.UserRoots
	}
	var roots []*hostRoot
	for _, r := range hostRoots(m, p, c.workspace, c.env, c.opts.NoUser, &cfg) {
		if c.wsExists || r.Scope == ScopeUser {
			roots = append(roots, r)
		}
	}
	for _, x := range c.extraPaths() {
		fi, err := m.stat(x)
		r := &hostRoot{Root: Root{Path: x, Scope: ScopeExtra, boundary: m.realPath(x), Exists: err == nil, display: x}, label: x}
		r.File = err == nil && !fi.IsDir()
		roots = append(roots, r)
	}
	return roots
}

// hostCandidates searches every root for skill files: in root order, and
// by path within a root (the order the engine takes them in). A root that
// is a file is its one candidate.
func hostCandidates(ctx context.Context, p *profile.Profile, roots []*hostRoot, share *hostShare, m *pathMemo) ([]*hostCand, []skill.Diagnostic) {
	var cands []*hostCand
	var diags []skill.Diagnostic
	for _, r := range roots {
		if r.File {
			cands = append(cands, &hostCand{root: r, path: r.Path, dir: filepath.Dir(r.Path), real: m.realPath(r.Path),
				depth: 1, flat: filepath.Base(r.Path) != SkillFile})
			continue
		}
		h := &hostSearch{ctx: ctx, p: p, root: r, share: share, paths: m}
		share.search(h)
		if p.Symlinks.ResolveRoot && r.Exists {
			resolveRootLink(r, h.cands)
		}
		sortCandidates(p.Discovery.Order, r.Path, h.cands)
		cands = append(cands, h.cands...)
		diags = append(diags, h.diags...)
	}
	return cands, diags
}

// sortCandidates puts the candidates of one root in the order the host
// takes them (Discovery.Order): by path, or folder by folder by name.
func sortCandidates(order, root string, cands []*hostCand) {
	if order != "name" {
		sort.SliceStable(cands, func(i, j int) bool { return cands[i].path < cands[j].path })
		return
	}
	parts := make(map[*hostCand][]string, len(cands))
	for _, c := range cands {
		rel, err := filepath.Rel(root, c.path)
		if err != nil {
			rel = c.path
		}
		parts[c] = strings.Split(filepath.ToSlash(rel), "/")
	}
	sort.SliceStable(cands, func(i, j int) bool { return slices.Compare(parts[cands[i]], parts[cands[j]]) < 0 })
}

// resolveRootLink rewrites the paths of the candidates under root r by
// r's target when r is itself a symlink (Symlinks.ResolveRoot).
func resolveRootLink(r *hostRoot, cands []*hostCand) {
	fi, err := os.Lstat(r.Path)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return
	}
	real := realPath(r.Path)
	for _, cd := range cands {
		if rel, err := filepath.Rel(r.Path, cd.path); err == nil {
			cd.path = filepath.Join(real, rel)
			cd.dir = filepath.Dir(cd.path)
		}
	}
}

// judgeCandidates is what profile p's host does with each candidate, in
// order, before name clashes are settled: whether it discovers the file,
// reads it (once, with Symlinks.SameFileOnce) and loads what it parses.
func judgeCandidates(p *profile.Profile, cands []*hostCand, pending *[]pendingRead, memo *hostMemo) []hostVerdict {
	verdicts := make([]hostVerdict, len(cands))
	var seenReal map[string]int // the real paths read, with Symlinks.SameFileOnce
	for i, cd := range cands {
		v := &verdicts[i]
		*v = hostVerdict{Path: cd.path, Root: cd.root.Path, Scope: cd.root.Scope, flat: cd.flat}
		if cd.root.Scope == ScopeExtra {
			// An extra root is skillet's: read it whatever the host's
			// layout says, with the host's parsing and naming rules.
			cd.skipped, cd.inSkill = "", ""
			if cd.depth == 0 && !cd.flat {
				cd.depth = 1
			}
		}
		if cd.root.Scope != ScopeExtra { // an extra root's candidates are all discovered
			if why := discoveryReason(p, cd); why != "" {
				v.Reason = why
				continue
			}
		}
		if cd.readErr != nil {
			v.Reason = "the file cannot be read: " + errText(cd.readErr)
			continue
		}
		if p.Symlinks.SameFileOnce && cd.real != "" {
			if j, ok := seenReal[cd.real]; ok {
				v.excluded = true
				v.Reason = fmt.Sprintf("it is the same file as %s, which it reads once", cands[j].path)
				continue
			}
			if seenReal == nil {
				seenReal = make(map[string]int, len(cands)-i)
			}
			seenReal[cd.real] = i
		}
		if pending != nil {
			*pending = append(*pending, pendingRead{p: p, v: v, path: cd.path, flat: cd.flat})
			continue
		}
		if memo != nil {
			memo.readVerdict(p, v, cd.path, cd.flat)
			continue
		}
		readVerdict(p, v, cd.path, cd.flat)
	}
	return verdicts
}

// readVerdict reads and parses the file of a discovered candidate as the
// host does, and fills v with the verdict.
func readVerdict(p *profile.Profile, v *hostVerdict, file string, flat bool) {
	data, err := hostRead(file, p.Parse.MaxSkillBytes)
	parseVerdict(p, v, file, flat, data, err, nil)
}

// parseVerdict fills v with the verdict on the file's bytes as the host
// read them (data, or the error of the read).
func parseVerdict(p *profile.Profile, v *hostVerdict, file string, flat bool, data []byte, err error, memo *yamlMemo) {
	if err != nil {
		v.Reason = "the file cannot be read: " + errText(err)
		return
	}
	setVerdict(v, hostParseMemo(p, data, file, memo.folder(file, flat), flat, memo))
}

// setVerdict fills v with the verdict of the host's parse res.
func setVerdict(v *hostVerdict, res hostParsed) {
	if res.reason != "" {
		v.Reason = res.reason
		return
	}
	// Clipped: the parse may be cached (hostMemo), and later appends must
	// not write into its slice.
	v.Loaded, v.Name, v.Description, v.Hidden, v.Changes, v.Skill = true, res.name, res.description, res.hidden, slices.Clip(res.changes), res.skill
	v.alias, v.short = res.alias, res.short
}

// hostListing fills l with the loaded skills in order (the first
// Disclosure.MaxSkills listed, or the user's maxSkills) and the candidates,
// and returns diags with a not-loaded diagnostic for every other file,
// the folders p does not read, and the cap's, sorted.
func (c *Catalog) hostListing(p *profile.Profile, l *Listing, verdicts []hostVerdict, cands []*hostCand, diags []skill.Diagnostic) []skill.Diagnostic {
	// The host's own cap on the catalog, unless the user set maxSkills
	// (skillet.yaml or Options): the user's setting is skillet's, and a
	// preset never turns it off.
	maxListed := p.Disclosure.MaxSkills
	if c.opts.MaxSkills > 0 || c.cfg.MaxSkills > 0 {
		maxListed = c.settings.MaxSkills
	}
	listed := 0
	lim := limit{max: maxListed}
	for i := range verdicts {
		v := &verdicts[i]
		cd := cands[i]
		if v.excluded {
			continue
		}
		cand := &candidateFile{Path: v.Path, Root: v.Root, Scope: string(v.Scope), Flat: cd.flat}
		l.candidates = append(l.candidates, cand)
		if !v.Loaded {
			diags = append(diags, notLoaded(p, v))
			continue
		}
		s := c.hostSkill(p, v, cd)
		diags = append(diags, c.ownDiags(v.Path, cd.dir, cd.flat)...)
		if !v.Hidden && (maxListed == 0 || listed < maxListed) {
			s.Listed = true
			listed++
		} else if !v.Hidden {
			lim.leave(v.Name)
		}
		cand.Skill = s
		l.Skills = append(l.Skills, s)
		if v.Any {
			diags = append(diags, skill.Diagnostic{Code: diagcode.NotLoaded, Severity: skill.SeverityWarning, Path: v.Path,
				Skill: v.Name, Message: fmt.Sprintf("%s loads one of the skills named %q, not always the same one; it may load another copy instead of this one", p.Name, v.Name)})
		}
	}
	if c.wsExists {
		diags = append(diags, c.unreadFolders(p)...)
	}
	lim.listed = listed
	diags = lim.truncated(diags, c.workspace)
	skill.SortDiagnostics(diags)
	return diags
}

// notLoaded is the diagnostic of a file the host does not load.
func notLoaded(p *profile.Profile, v *hostVerdict) skill.Diagnostic {
	d := skill.Diagnostic{Code: diagcode.NotLoaded, Severity: skill.SeverityWarning, Path: v.Path,
		Message: fmt.Sprintf("%s does not load this skill: %s", p.Name, v.Reason), Related: v.Winner}
	if v.Skill != nil {
		d.Skill = v.Skill.Name
	}
	return d
}

// hostSkill is the listing's skill of a loaded verdict, with its size and
// whether the host reads only part of it (Parse.MaxSkillBytes).
func (c *Catalog) hostSkill(p *profile.Profile, v *hostVerdict, cd *hostCand) *Skill {
	s := &Skill{Location: v.Path, BaseDir: cd.dir, Root: v.Root, Scope: v.Scope, Flat: cd.flat, Folder: cd.root.display,
		c: c, boundary: cd.root.boundary}
	s.setParsed(v.Skill)
	if cd.flat {
		s.BaseDir = filepath.Dir(v.Path)
	}
	if fi, err := os.Stat(v.Path); err == nil {
		s.Bytes = fi.Size()
		s.Truncated = p.Parse.MaxSkillBytes > 0 && fi.Size() > int64(p.Parse.MaxSkillBytes)
	}
	return s
}

// unreadFolders are not-loaded diagnostics for the project folders of the
// other common agents (the agents profile's) that hold skill files but that
// profile p does not read, one per folder.
func (c *Catalog) unreadFolders(p *profile.Profile) []skill.Diagnostic {
	def, ok := profile.Lookup(catalogx.DefaultPreset)
	if !ok {
		return nil
	}
	var diags []skill.Diagnostic
	for _, d := range def.Roots.Project {
		if slices.Contains(p.Roots.Project, d) {
			continue
		}
		dir := filepath.Join(c.workspace, filepath.FromSlash(d))
		folders := 0
		n := countSkillFiles(dir, 0, hostSearchDepth, &folders, hostSearchFolders)
		if def.Discovery.Flat {
			n += countFlatSkills(dir)
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() || n == 0 {
			continue
		}
		diags = append(diags, skill.Diagnostic{Code: diagcode.NotLoaded, Severity: skill.SeverityWarning, Path: dir,
			Message: fmt.Sprintf("%s does not read %s, which holds %s", p.Name, d, outfmt.Count(n, "skill file"))})
	}
	return diags
}

// countFlatSkills counts the loose NAME.md files directly in dir, the
// skills of the flat form (docs/discovery.md#shapes), as the walk of a root whose
// profile reads that form finds them.
func countFlatSkills(dir string) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		if e.Type().IsRegular() && isFlatSkill(e.Name()) {
			n++
		}
	}
	return n
}

// applyPrecedence settles name clashes among the loaded verdicts, taken in
// order.
func applyPrecedence(p *profile.Profile, vs []hostVerdict) {
	if p.Precedence.Duplicates == "all" {
		return
	}
	first := map[string]int{}
	for i := range vs {
		v := &vs[i]
		if !v.Loaded {
			continue
		}
		j, ok := first[v.Name]
		if !ok {
			first[v.Name] = i
			continue
		}
		v.Loaded = false
		v.Winner = vs[j].Path
		if p.Precedence.Duplicates == "any" {
			vs[j].Any = true
			v.Any = true
			v.Reason = fmt.Sprintf("the skill %q is also at %s, and it loads one of them, not always the same", v.Name, vs[j].Path)
		} else {
			v.Reason = fmt.Sprintf("the skill %q at %s takes precedence", v.Name, vs[j].Path)
		}
	}
}

// applyDisclosure shapes what the model is shown of the loaded skills:
// aliases "FOLDER (NAME)" (the first skill of a name only) and the
// catalog's budget.
func applyDisclosure(p *profile.Profile, vs []hostVerdict) {
	aliased := map[string]bool{}
	for i := range vs {
		v := &vs[i]
		if !v.Loaded || v.alias == "" || aliased[v.alias] {
			continue
		}
		aliased[v.alias] = true
		v.Changes = append(v.Changes, fmt.Sprintf("shown as %q", v.Name+" ("+v.alias+")"))
		v.Name = v.Name + " (" + v.alias + ")"
		if v.Skill != nil {
			cp := *v.Skill
			cp.Name = v.Name
			v.Skill = &cp
		}
	}
	if b := p.Disclosure.BudgetChars; b > 0 {
		applyBudget(&p.Disclosure, vs)
	}
}

// applyBudget fits the shown skills' "- NAME: DESCRIPTION" lines to
// Disclosure.BudgetChars: every name-only line is counted first, then the
// descriptions that still fit are kept in order, greedily; the others are
// emptied (listed by name only).
func applyBudget(d *profile.Disclosure, vs []hostVerdict) {
	left := d.BudgetChars
	for i := range vs {
		if v := &vs[i]; v.Loaded && !v.Hidden {
			left -= len("- ") + textLen(d.Units, v.Name) + 1 // textLen of "- "+v.Name, not made (TestTextLenOfJoin)
		}
	}
	for i := range vs {
		v := &vs[i]
		if !v.Loaded || v.Hidden || v.Description == "" {
			continue
		}
		if cost := len(": ") + textLen(d.Units, v.Description); cost <= left {
			left -= cost
			continue
		}
		v.Changes = append(v.Changes, fmt.Sprintf("listed by name only: the catalog's budget of %d %s has no room for its description", d.BudgetChars, unitName(d.Units)))
		v.Description = ""
		if v.Skill != nil {
			cp := *v.Skill
			cp.Description = ""
			v.Skill = &cp
		}
	}
}

// applyFirstLines cuts every description shown to its first line when the
// catalog, rendered as Disclosure.FirstLines says, is longer than its
// budget (Qwen Code 0.24.4: trimSkillEntriesTowardsBudget and
// renderAvailableSkillsBlock in the package's chunks/chunk-MNK4GIGD.js and
// chunk-A3E7JYX7.js; QwenLM/qwen-code packages/core/src/skills/).
func applyFirstLines(p *profile.Profile, vs []hostVerdict) {
	fl := p.Disclosure.FirstLines
	if fl.Chars == 0 {
		return
	}
	esc := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;")
	total := fl.BuiltinChars
	for i := range vs {
		v := &vs[i]
		if !v.Loaded || v.Hidden {
			continue
		}
		level := "user"
		if v.Scope == ScopeProject {
			level = "project"
		}
		entry := "<skill>\n<name>\n" + esc.Replace(v.Name) + "\n</name>\n<description>\n" + esc.Replace(v.Description) +
			" (" + level + ")\n</description>\n<location>\n" + level + "\n</location>\n</skill>"
		total += utf16Len(entry) + 1
	}
	if total <= fl.Chars {
		return
	}
	for i := range vs {
		v := &vs[i]
		if !v.Loaded || v.Description == v.short {
			continue
		}
		v.Changes = append(v.Changes, fmt.Sprintf("cut to its first line: the catalog is over %d characters", fl.Chars))
		v.Description = v.short
		if v.Skill != nil {
			cp := *v.Skill
			cp.Description = v.short
			v.Skill = &cp
		}
	}
}

// utf16Len is the length of s in UTF-16 code units, as JavaScript counts.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// hostReadLimit is the most a profile that reads a whole skill file
// (maxSkillBytes 0) is given: a larger file is not read (ErrTooLarge).
const hostReadLimit = 4 << 20

// hostRead reads a skill file as a host does, without blocking on a
// special file: its first max bytes, cut at a rune boundary (the listing
// marks a longer file Truncated), or with max 0 the whole file, which must
// be at most hostReadLimit bytes (else ErrTooLarge: never cut silently).
func hostRead(p string, max int) ([]byte, error) {
	data, _, err := hostReadStat(p, max)
	return data, err
}

// hostReadStat is hostRead, with the stat of the file opened, taken
// before it was read.
func hostReadStat(p string, max int) ([]byte, fs.FileInfo, error) {
	f, err := fsx.Open(p)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if max <= 0 {
		return fsx.ReadOpen(f, "", hostReadLimit)
	}
	data, fi, err := fsx.ReadHead(f, "", int64(max))
	if err != nil {
		return nil, nil, err
	}
	if fi.Size() > int64(max) {
		data = cutRune(data)
	}
	return data, fi, nil
}

// hostVerdicts applies profile p to the workspace and home of opts (the
// preset, configuration directories and user roots of opts are not used:
// the profile's own are) and returns what the host does with every skill
// file under its roots, in precedence order, and the catalog that listed
// them. lint reads it for its compatibility report (hostFiles). The
// verdicts are hostList's, settled without building its listing
// (hostListing changes no verdict): the listing's own diagnostics read and
// parsed every loaded file again, and the unread folders were searched, for
// a listing no caller saw (a sixth of TestProfilesMatchRecordings' CPU,
// pprof); TestHostVerdictsAreHostList holds the two together.
func hostVerdicts(ctx context.Context, p *profile.Profile, opts *Options) (*Catalog, []hostVerdict, error) {
	c, err := hostCatalog(ctx, p, opts)
	if err != nil {
		return nil, nil, err
	}
	h, err := c.hostJudge(ctx, nil, nil)
	if err != nil {
		return nil, nil, err
	}
	return c, notExcluded(h.settle()), nil
}

// hostCatalog is the catalog that applies profile p to the workspace and
// home of opts (hostVerdicts).
func hostCatalog(ctx context.Context, p *profile.Profile, opts *Options) (*Catalog, error) {
	o := Options{}
	if opts != nil {
		o = *opts
	}
	o.NoConfigFile, o.ConfigFile = true, ""
	o.Preset = p.Name
	c, err := New(ctx, &o)
	if err != nil {
		return nil, err
	}
	c.profile = p
	return c, nil
}

// notExcluded is vs without the copies the host reads once (excluded), in
// place.
func notExcluded(vs []hostVerdict) []hostVerdict {
	out := vs[:0]
	for _, v := range vs {
		if !v.excluded {
			out = append(out, v)
		}
	}
	return out
}

// listHost is List for a host profile: no cache (a preset is for one look
// at what another host would load).
func (c *Catalog) listHost(ctx context.Context) (*Listing, error) {
	l, _, err := c.hostList(ctx)
	if err != nil {
		return nil, err
	}
	c.snapMu.Lock()
	c.snap = l
	c.snapMu.Unlock()
	return l, nil
}

func init() {
	catalogx.Register(&catalogx.Hooks[Catalog, Options, Listing, Skill, File]{
		HostFiles:     hostFiles,
		HostFilesAll:  hostFilesAll,
		HostSearch:    hostSearchAll,
		HostFolders:   func(p *profile.Profile, c *Catalog) []string { return c.hostFolders(p) },
		Candidates:    func(l *Listing) []*candidateFile { return l.candidates },
		ReadIgnored:   func(c *Catalog) { c.ignored = true },
		OnParsed:      func(c *Catalog, fn func(catalogx.Parsed)) { c.onParsed = fn },
		OpenSkillFile: (*Skill).openSkillFile,
		OpenRoot:      (*Skill).openRoot,
		Sourced: func(s *Skill) (bool, bool) {
			return s.src != nil, s.src != nil && s.src.Skills != nil
		},
		ListFiles: func(ctx context.Context, s *Skill, limit int) (*fileList, error) {
			return s.listFiles(ctx, limit)
		},
		ParsedFile: (*Catalog).parsedFile,
		KeepBodies: func(o *Options) { o.bodies = true },
		UseIndex:   func(o *Options, dir string) { o.index = dir },
		WalkGC:     func(o *Options, percent int) { o.walkGC = percent },
		Each: func(ctx context.Context, c *Catalog, fn func(*Listing, *Skill) error) (*Listing, error) {
			return c.each(ctx, fn)
		},
		ListNamed: func(ctx context.Context, c *Catalog, name string, keep func(*skill.Diagnostic) bool) (*Listing, *catalogx.Names) {
			return c.listNamedOrNames(ctx, name, keep)
		},
		ListBrief: func(ctx context.Context, c *Catalog, keep func(*skill.Diagnostic) bool) (*Listing, []string) {
			return c.listBrief(ctx, keep)
		},
		ListNames:    func(ctx context.Context, c *Catalog) (*Listing, *catalogx.Names) { return c.listNames(ctx) },
		ListPrefixed: func(ctx context.Context, c *Catalog, prefix string) *Listing { return c.listPrefixed(ctx, prefix) },
		NewSkill:     newSkill,
		WalkedDirs:   (*Catalog).walkedDirs,
		ListEdited: func(ctx context.Context, c *Catalog, files []string) (*Listing, bool, error) {
			return c.listEdited(ctx, files)
		},
		ListTouched: func(ctx context.Context, c *Catalog, touched func(string) bool) (*Listing, error) {
			return c.listTouched(ctx, touched)
		},
	})
}

// hostVerdictFor is what the host of profile p would do with one skill
// file were it installed in one of the host's skills folders at the same
// place as below root (hostWhere's remedy says what would still keep it
// from loading there).
func hostVerdictFor(p *profile.Profile, file, root, boundary string) hostVerdict {
	v := hostVerdict{Path: file, Root: root}
	rel, err := filepath.Rel(root, file)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		rel = filepath.Base(file)
		root = filepath.Dir(file)
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	base := parts[len(parts)-1]
	cd := &hostCand{root: &hostRoot{Root: Root{Path: root, boundary: boundary}, label: "its skills folder"},
		path: file, dir: filepath.Dir(file), depth: len(parts) - 1, fileCase: base != SkillFile && strings.EqualFold(base, SkillFile)}
	cd.flat = len(parts) == 1 && !strings.EqualFold(base, SkillFile)
	if len(parts) == 1 && !cd.flat {
		// A skill folder linted on its own (an extra root that is the
		// skill): as installed, it is ROOT/NAME/SKILL.md.
		cd.depth = 1
	}
	h := &hostSearch{p: p}
	d := root
	for i, part := range parts[:len(parts)-1] {
		if cd.skipped == "" && h.skips(part) {
			cd.skipped = part
		}
		d = filepath.Join(d, part)
		if fi, err := os.Lstat(d); err == nil && fi.Mode()&fs.ModeSymlink != 0 && cd.viaLink == "" {
			cd.viaLink = d
		}
		if i < len(parts)-2 && cd.inSkill == "" {
			if _, err := os.Stat(filepath.Join(d, SkillFile)); err == nil {
				cd.inSkill = d
			}
		}
	}
	if fi, err := os.Lstat(file); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		cd.fileLink = true
	}
	if boundary != "" && !within(realPath(file), boundary) {
		cd.escapes = true
	}
	if why := discoveryReason(p, cd); why != "" {
		v.Reason = why
		return v
	}
	readVerdict(p, &v, file, cd.flat)
	return v
}
