package catalog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/internal/profile"
	"github.com/skillet-go/skillet/skill"
)

// Scope says where a root comes from; it orders precedence (docs/discovery.md#roots).
type Scope string

// Scopes, highest precedence first.
const (
	ScopeProject Scope = "project"
	ScopeUser    Scope = "user"
	ScopeExtra   Scope = "extra"
)

// Root is one place skills are discovered from.
type Root struct {
	// Path is the absolute, cleaned path as configured (symlinks not
	// resolved).
	Path string `json:"path"`
	// Scope is project, user or extra.
	Scope Scope `json:"scope"`
	// Exists reports whether Path existed when the roots were resolved.
	Exists bool `json:"exists"`
	// File says the root is a loose .md file (an extra path).
	File bool `json:"-"`
	// boundary is the folder (symlinks resolved) that everything found
	// under this root must stay inside (docs/discovery.md#boundaries): the workspace for project
	// roots, the home folder for user roots, the path itself for extra
	// paths. trustedPaths extend every boundary.
	boundary string
	// Flat says loose NAME.md files directly inside the root are skills.
	Flat bool `json:"-"`
	// Plugins says the root is a folder of plugins: only the plugin
	// folders directly inside it are read (a profile's Roots.Plugins;
	// docs/discovery.md#plugins).
	Plugins bool `json:"plugins,omitempty"`
	// display is the root as configured: ".claude/skills" for a project
	// root, "~/.claude/skills" for a user root, the path for an extra one.
	display string
}

// env abstracts the process environment for tests.
type env struct {
	home   string
	getenv func(string) string
}

// expand turns "~", "~/x" and "$XDG_CONFIG_HOME/x" into absolute paths;
// relative paths are joined to base.
func (e env) expand(p, base string) string {
	switch {
	case p == "~":
		p = e.home
	case strings.HasPrefix(p, "~/") || strings.HasPrefix(p, `~\`):
		p = filepath.Join(e.home, p[2:])
	case strings.HasPrefix(p, "$XDG_CONFIG_HOME"):
		xdg := e.getenv("XDG_CONFIG_HOME")
		if xdg == "" || !filepath.IsAbs(xdg) {
			xdg = filepath.Join(e.home, ".config")
		}
		p = filepath.Join(xdg, strings.TrimPrefix(p, "$XDG_CONFIG_HOME"))
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	return filepath.Clean(p)
}

// realPath resolves symlinks in p; when p does not exist it resolves the
// longest existing prefix, so boundaries compare like with like.
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	dir, base := filepath.Split(p)
	dir = filepath.Clean(dir)
	if dir == p || dir == "." || dir == "" {
		return p
	}
	return filepath.Join(realPath(dir), base)
}

// within reports whether p is dir or inside it (both absolute and clean).
func within(p, dir string) bool { return fsx.Within(p, dir) }

// projectDirs are the folders whose project roots profile p reads from the
// working folder cwd, highest precedence first: the working folder (as
// written), and the parents its Roots.WalkUp (in a git repository) or
// Roots.NoGit (in none) name. The parents are those of cwd's real path,
// symlinks resolved: git looks for the repository from getcwd(3), and so
// do the agents, whose working folder is getcwd's whatever $PWD says
// (Node's process.cwd() is libuv's uv_cwd, Rust's std::env::current_dir
// is getcwd; pi 0.73.1 package-manager.ts collectAncestorAgentsSkillDirs
// and Codex 0.171.0 core-skills/src/loader.rs find_project_root walk up
// from it; Claude Code resolves its working folder before looking in
// parents: github.com/anthropics/claude-code/issues/17732 and /44456).
// The git root is the nearest folder holding a .git that
// Roots.GitMarker accepts; home bounds the NoGit "home" walk. skillet's
// own default and every host preset read their roots through it
// (docs/discovery.md#roots, docs/hosts.md).
//
// m remembers what the file system said (nil: ask it every time).
func projectDirs(m *pathMemo, p *profile.Profile, cwd, home string) []string {
	chain := []string{filepath.Clean(cwd)} // cwd, its real parent, ..., "/"
	for d := m.realPath(chain[0]); filepath.Dir(d) != d; {
		d = filepath.Dir(d)
		chain = append(chain, d)
	}
	git := -1
	for i, d := range chain {
		if root, broken := gitRoot(m, p, d); root {
			git = i
			break
		} else if broken {
			break
		}
	}
	var dirs []string
	mode := p.Roots.WalkUp
	if git < 0 {
		mode = p.Roots.NoGit
	}
	switch mode {
	case "cwd":
		dirs = chain[:1]
	case "git-root":
		dirs = chain[:git+1]
	case "cwd+git-root":
		dirs = []string{chain[0]}
		if git > 0 {
			dirs = append(dirs, chain[git])
		}
	case "all":
		dirs = chain
	case "home":
		dirs = chain
		h := slices.Index(chain, filepath.Clean(home))
		if h < 0 { // a home path through a symlink: the chain is real
			h = slices.Index(chain, m.realPath(home))
		}
		if h > 0 {
			dirs = chain[:h]
		}
	}
	dirs = slices.Clone(dirs)
	if !p.Roots.NearestFirst {
		slices.Reverse(dirs)
	}
	return dirs
}

// gitRoot reports whether folder d holds a .git that marks a git root for
// profile p (Roots.GitMarker): a folder, or (unless GitMarker is "dir")
// any other entry, as the .git file of a linked worktree or a submodule;
// with "git" only a file whose gitdir exists, and broken says a .git file
// names none (git then finds no repository at all). m remembers what
// the file system said (nil: ask it every time).
func gitRoot(m *pathMemo, p *profile.Profile, d string) (root, broken bool) {
	dotgit := filepath.Join(d, ".git")
	if _, err := m.lstat(dotgit); err != nil {
		return false, false
	}
	switch p.Roots.GitMarker {
	case "dir", "git":
		fi, err := m.stat(dotgit)
		if err == nil && fi.IsDir() {
			return true, false
		}
		if p.Roots.GitMarker == "dir" {
			return false, false
		}
		ok := gitdirExists(dotgit)
		return ok, !ok
	}
	return true, false
}

// gitdirExists reports whether the .git file dotgit names a folder that
// exists ("gitdir: PATH", relative to the file's folder).
func gitdirExists(dotgit string) bool {
	data, err := os.ReadFile(dotgit)
	if err != nil {
		return false
	}
	rest, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return false
	}
	dir := strings.TrimSpace(rest)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(filepath.Dir(dotgit), dir)
	}
	fi, err := os.Stat(dir)
	return err == nil && fi.IsDir()
}

// resolveRoots builds the ordered root list from the preset, configuration
// and options, and the diagnostics of docs/discovery.md#boundaries for configured directories that
// leave the workspace.
func (c *Catalog) resolveRoots() ([]*Root, []skill.Diagnostic) {
	rl := &rootList{seen: map[string]bool{}, memo: newPathMemo()}
	if c.wsExists {
		c.projectRoots(rl)
	}
	if !c.opts.NoUser {
		c.userRoots(rl)
	}
	c.extraRoots(rl)
	return rl.roots, rl.diags
}

// rootList is the root list resolveRoots builds: the roots in order, each
// path once, and the diagnostics of the roots left out or missing.
type rootList struct {
	roots []*Root
	diags []skill.Diagnostic
	seen  map[string]bool
	memo  *pathMemo // what the file system said of each path, this resolution
}

// add appends r unless a root of its path is there already, noting
// whether it exists and is a file.
func (rl *rootList) add(r *Root) {
	if rl.seen[r.Path] {
		return
	}
	rl.seen[r.Path] = true
	fi, err := rl.memo.stat(r.Path)
	r.Exists = err == nil
	if err == nil && !fi.IsDir() {
		r.File = true
	}
	rl.roots = append(rl.roots, r)
}

// projectFolders returns the project roots (relative folders; the options'
// over the configuration's over the profile's, none with NoProject), the
// folders they are read in (the workspace, and with the profile's roots
// the parents its walk-up names: docs/discovery.md#roots), and how many of
// the roots at the end are the profile's plugin roots.
func (c *Catalog) projectFolders(m *pathMemo) (project, dirs []string, plugins int) {
	ws := c.workspace
	project = c.profile.Roots.Project
	dirs = []string{filepath.Clean(ws)}
	if c.cfg.Directories != nil {
		project = c.cfg.Directories // an empty list means no project roots
	} else {
		// A parent's roots are labelled by their path from the workspace
		// ("../.claude/skills") and bounded by that parent.
		dirs = projectDirs(m, c.profile, ws, c.env.home)
	}
	if len(c.opts.Directories) > 0 {
		project = c.opts.Directories
	}
	if c.opts.NoProject {
		project = nil
	}
	if c.cfg.Directories == nil && len(c.opts.Directories) == 0 && !c.opts.NoProject {
		project = append(slices.Clip(project), c.profile.Roots.Plugins...)
		plugins = len(c.profile.Roots.Plugins)
	}
	return project, dirs, plugins
}

// projectRoots adds the project roots of an existing workspace; a root
// that leaves its folder's boundary is an error instead (escapeDiag), and
// a parent's missing folder is left out.
func (c *Catalog) projectRoots(rl *rootList) {
	ws := c.workspace
	project, dirs, plugins := c.projectFolders(rl.memo)
	configured := c.cfg.Directories != nil || len(c.opts.Directories) > 0
	for i, d := range project {
		for _, dir := range dirs {
			p := c.env.expand(d, dir)
			boundary := rl.memo.realPath(dir) // resolved once a folder, by the memo
			in := within(p, dir)
			exists := in && rl.rootExists(p)
			if !in || (exists && outside(rl.memo.realPath(p), boundary, c.trusted)) {
				rl.diags = append(rl.diags, escapeDiag(configured, d, p, dir, boundary))
				continue
			}
			if dir != ws && !exists {
				continue // a parent's missing folder is no root worth listing
			}
			isPlugins := i >= len(project)-plugins
			rl.add(&Root{Path: p, Scope: ScopeProject, boundary: boundary, Flat: c.profile.Discovery.Flat && !isPlugins, Plugins: isPlugins, display: projectLabel(rl.memo, ws, dir, filepath.ToSlash(filepath.Clean(d)))})
		}
	}
}

// outside reports whether real (a real path) is outside boundary and no
// trusted path holds it.
func outside(real, boundary string, trusted func(string) bool) bool {
	return !within(real, boundary) && !trusted(real)
}

// rootExists reports whether root p exists, following a symlink: a
// dangling link is no root (the hosts stat a root through its link), and
// it gets a broken-link warning (docs/discovery.md#boundaries). One lstat
// unless p is a link.
func (rl *rootList) rootExists(p string) bool {
	fi, err := rl.memo.lstat(p)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return err == nil
	}
	if _, err = rl.memo.stat(p); errors.Is(err, fs.ErrNotExist) {
		target, _ := os.Readlink(p)
		rl.diags = append(rl.diags, skill.Diagnostic{
			Code: diagcode.BrokenLink, Severity: skill.SeverityWarning, Path: p,
			Message: fmt.Sprintf("the root is a symlink to %q, which does not exist; nothing is discovered there", target),
		})
	}
	return err == nil
}

// escapeDiag is the error for project root d (path p, read in folder dir,
// whose real path is boundary) that resolves outside dir: a configured
// directory (skillet.yaml's directories, Options.Directories) is
// directory-escape, a preset's own root path-escape, as a user root's is
// (docs/discovery.md#boundaries, docs/lint.md).
func escapeDiag(configured bool, d, p, dir, boundary string) skill.Diagnostic {
	if !configured {
		return skill.Diagnostic{
			Code: diagcode.PathEscape, Severity: skill.SeverityError, Path: p,
			Message: fmt.Sprintf("the root resolves to %s, outside its boundary %s; it is not scanned", realPath(p), boundary),
		}
	}
	return skill.Diagnostic{
		Code: diagcode.DirectoryEscape, Severity: skill.SeverityError, Path: p,
		Message: fmt.Sprintf("the configured directory %q resolves to %s, outside the workspace %s; it is not scanned", d, realPath(p), dir),
	}
}

// userRoots adds the user roots (the options' over the configuration's
// over the profile's), expanded from the home folder.
func (c *Catalog) userRoots(rl *rootList) {
	user := c.profile.Roots.User
	if c.cfg.UserRoots != nil {
		user = c.cfg.UserRoots
	}
	if len(c.opts.UserRoots) > 0 {
		user = c.opts.UserRoots
	}
	for _, u := range user {
		p := c.env.expand(u, c.env.home)
		// A user root configured outside the home folder (an absolute
		// userRoots entry, or $XDG_CONFIG_HOME elsewhere) is its own
		// boundary; the memo resolves the home folder once.
		var boundary string
		if within(p, c.env.home) {
			boundary = rl.memo.realPath(c.env.home)
		} else {
			boundary = rl.memo.realPath(p)
		}
		if !rl.seen[p] {
			rl.rootExists(p) // a dangling link's broken-link warning
		}
		rl.add(&Root{Path: p, Scope: ScopeUser, boundary: boundary, Flat: c.profile.Discovery.Flat, display: u})
	}
}

// extraRoots adds the extra paths, each its own boundary; a missing one is
// an unreadable warning, at its line of skillet.yaml when it comes from there.
func (c *Catalog) extraRoots(rl *rootList) {
	for i, p := range c.extraPaths() {
		r := &Root{Path: p, Scope: ScopeExtra, boundary: rl.memo.realPath(p), Flat: true, display: p}
		rl.add(r)
		if r.Exists {
			continue
		}
		// Preset roots often do not exist; an extra path was named on
		// purpose, so a missing one is most likely a typo.
		d := skill.Diagnostic{
			Code: diagcode.Unreadable, Severity: skill.SeverityWarning, Path: p,
			Message: "the extra path does not exist; nothing is discovered there",
		}
		if i < len(c.cfg.ExtraPaths) && i < len(c.cfg.extraAt) && c.cfg.Path != "" {
			// An entry of skillet.yaml: point at its line.
			d.Path, d.Line, d.Column = c.cfg.Path, c.cfg.extraAt[i][0], c.cfg.extraAt[i][1]
			d.Message = fmt.Sprintf("the extra path %q (%s) does not exist; nothing is discovered there", c.cfg.ExtraPaths[i], p)
		}
		rl.diags = append(rl.diags, d)
	}
}

// extraPaths are the configuration's extraPaths and the options', expanded.
func (c *Catalog) extraPaths() []string {
	var extra []string
	for _, x := range c.cfg.ExtraPaths {
		extra = append(extra, c.env.expand(x, c.workspace))
	}
	for _, x := range c.opts.ExtraPaths {
		extra = append(extra, c.env.expand(x, c.cwd))
	}
	return extra
}

func pathExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// trusted reports whether a resolved path lies in one of the trustedPaths.
func (c *Catalog) trusted(real string) bool {
	for _, t := range c.trustedReal {
		if within(real, t) {
			return true
		}
	}
	return false
}
