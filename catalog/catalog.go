package catalog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/internal/profile"
	"github.com/skillet-go/skillet/skill"
)

// Options configure [New]. A nil *Options means the zero value: the current
// folder as workspace, its configuration file if any, the default preset.
// Every setting skillet.yaml takes (docs/discovery.md#configuration) has a
// field here; a non-zero field overrides the file's value, with the same
// defaults and the same validation (an invalid value is a *ConfigError
// whose Path is "Options").
type Options struct {
	// Workspace is the project folder; "" means the current folder.
	Workspace string
	// ConfigFile is an explicit configuration file. When "", New reads
	// skillet.yaml or .skillet.yaml from the workspace if present.
	ConfigFile string
	// NoConfigFile skips looking for a configuration file.
	NoConfigFile bool
	// Preset chooses the host whose layout and loading rules the catalog
	// emulates: the name of a host profile (see [ProfileNames] and
	// docs/hosts.md). It sets the default roots, which Directories,
	// UserRoots and NoProject replace as without a preset; it never turns
	// off skillet's own features (when-to-use, MaxSkills, the stamp
	// cache, skillet's diagnostics), and a host rule that changes what is
	// loaded says so in its diagnostic, naming the host (docs/hosts.md).
	Preset string
	// Directories replace the preset's project roots: folders relative to
	// the workspace, highest precedence first, each kept inside it
	// (directory-escape). NoProject scans no project root at all.
	Directories []string
	NoProject   bool
	// UserRoots replace the preset's user roots ("~" is expanded);
	// NoUser skips the user roots.
	UserRoots []string
	NoUser    bool
	// ExtraPaths are extra roots (folders or loose .md files) appended
	// after the configuration's extraPaths; relative paths are relative to
	// the current folder.
	ExtraPaths []string
	// TrustedPaths are folders that symlinks may lead into from any root,
	// added to the configuration's.
	TrustedPaths []string
	// Sources are where skills come from besides the roots above, in
	// precedence order; nil means the local file system alone. See
	// [Source].
	Sources []Source
	// Enable, when not nil, lists the only skills the catalog loads, by
	// name; Disable lists skills it leaves out (docs/discovery.md#enable).
	// Both add to the configuration's enable and disable lists.
	Enable  []string
	Disable []string
	// Strict forces strict mode (docs/format.md#names) whatever the configuration says.
	Strict bool
	// MaxSkillBytes, MaxSkills, MaxDescriptionChars and
	// CatalogBudgetChars override the configuration when positive
	// (defaults: 64,000 bytes, 100 skills, 240 characters, no budget;
	// docs/discovery.md#limits).
	MaxSkillBytes       int
	MaxSkills           int
	MaxDescriptionChars int
	CatalogBudgetChars  int
	// ToolName overrides the load tool's name (1-64 letters, digits, _
	// and -; default use_skill).
	ToolName string
	// MaxDepth bounds how deep below a root the walk goes (default 6);
	// MaxFolders bounds how many grouping folders it reads per root
	// (default 2000). docs/discovery.md#shapes.
	MaxDepth   int
	MaxFolders int

	// bodies makes List keep each skill's body (up to maxSkillBytes) in
	// the parsed skill, for a caller that reads every body anyway
	// (skillet lint, through catalogx): each file is then read once.
	// Without it the body is read on demand (Load, Content) and the
	// listing holds none.
	bodies bool
	// index is a folder where the catalog keeps a persistent index of its
	// listing between processes ("" for none; skillet's one-skill commands
	// use a folder under os.UserCacheDir, through catalogx). The first
	// List of a catalog answers from the index, at the cost of one stat
	// per folder and skill file it covers, when none of them changed;
	// otherwise it walks as usual and writes a new index. The index is
	// keyed by workspace, settings, options and the running binary, and
	// never trusted when it cannot be decoded
	// (docs/performance.md#persistent-index).
	index string
	// walkGC, when above 0, is GOGC while listNamedQ walks and writes the
	// index (catalogx.Hooks.WalkGC); it is not part of the index's key.
	walkGC int
	// home replaces the home folder (tests); "" means os.UserHomeDir.
	home string
	// getenv replaces os.Getenv (tests); it is asked for XDG_CONFIG_HOME.
	getenv func(string) string
}

// Settings are the effective settings of a catalog after the configuration
// file and the options are merged.
type Settings struct {
	Workspace           string
	ConfigFile          string
	Preset              string
	Mode                skill.Mode
	MaxSkillBytes       int
	MaxSkills           int
	MaxDescriptionChars int
	CatalogBudgetChars  int
	ToolName            string
	MaxDepth            int
	MaxFolders          int
}

// Catalog discovers skills under its roots and keeps them cached by path,
// size and modification time (docs/discovery.md#caching): List re-reads only what changed, so it
// is cheap to call on every turn. A Catalog is safe for concurrent use.
type Catalog struct {
	opts Options
	// ignored makes List also read the skill files that discovery passes
	// over because an entry on their path starts with "_" or "."
	// (docs/discovery.md). They are parsed and their diagnostics reported,
	// and they are among the listing's candidates with Ignored set, but
	// they are never loaded, listed or compared with other skills (no
	// shadowed, no duplicate-name). Version-control stores (.git, .hg,
	// .svn), node_modules, __pycache__ and .venv are not searched. lint
	// sets it (catalogx.Hooks.ReadIgnored).
	ignored bool
	// lockstep, when set, is this catalog's eachLockstep, in place of the
	// package's (its fn may be nil: no lockstep): tests that run at once
	// (t.Parallel) each set their own catalog's.
	lockstep *lockstepHook
	// onParsed, when set, is called with every skill file List reads and
	// parses (not those it takes from its cache), on the goroutine that
	// read it, as soon as it is parsed, with the bytes read: lint checks
	// each body then (catalogx.Hooks.OnParsed). The listing then holds no
	// bodies, whatever Options.bodies says.
	onParsed    func(catalogx.Parsed)
	cfg         Config
	cfgDiags    []skill.Diagnostic
	settings    Settings
	profile     *profile.Profile
	env         env
	cwd         string
	workspace   string
	wsExists    bool
	trustedReal []string

	// hostMemo caches a host preset listing's verdicts and skillet's own
	// diagnostics of the files it loaded.
	hostMemo hostMemo

	mu sync.Mutex // serialises List; guards what follows
	// cache holds the entry of every skill file of the last List by path;
	// dirs holds the folders read.
	cache map[string]*entry
	dirs  map[string]*dirState
	// last is what listEdited patches: the last List that walked, nil
	// when the last List did not (or is under way).
	last *lastWalk
	// spare is the last List's scratch memory, which the next List works
	// in (newDiskList), so that a warm List does not allocate per skill.
	spare *listScratch

	snapMu sync.RWMutex
	snap   *Listing

	idx *indexState // the persistent index (index.go), guarded by mu

	// merged says List goes through listAll (merge.go): the catalog has
	// Sources or an enable or disable list. mergeMu serialises listAll.
	merged          bool
	sources         []*source
	enable, disable []string
	mergeMu         sync.Mutex
}

// Errors returned by the catalog's lookups and file reads; they are wrapped
// with details, so test them with errors.Is.
var (
	// ErrNotFound: no loaded skill has the name.
	ErrNotFound = errors.New("skill not found")
	// ErrFileNotFound: the skill has no such bundled file.
	ErrFileNotFound = errors.New("file not found in the skill folder")
	// ErrOutside: the path leaves the skill folder (.., an absolute path,
	// or a symlink to a file outside).
	ErrOutside = errors.New("path is outside the skill folder")
	// ErrNotFile: the path names a folder or a special file.
	ErrNotFile = fsx.ErrNotRegular
	// ErrTooLarge: the file is over the size limit of the read.
	ErrTooLarge = fsx.ErrTooLarge
)

// New makes a catalog. It reads the configuration file (a *ConfigError when
// it is unusable) and resolves settings; discovery happens on List. An
// unknown preset name is an error too.
func New(ctx context.Context, opts *Options) (*Catalog, error) {
	if opts == nil {
		opts = &Options{}
	}
	c := &Catalog{opts: *opts, cache: map[string]*entry{}}
	c.resolveEnv()
	cfgPath, err := c.readConfig()
	if err != nil {
		return nil, err
	}
	p, err := c.resolvePreset()
	if err != nil {
		return nil, err
	}
	// The configuration file's parser checks its own tool_name.
	if opts.ToolName != "" && !validToolName(opts.ToolName) {
		return nil, &ConfigError{Path: "Options", Message: fmt.Sprintf("ToolName %q: want 1-64 characters of letters, digits, _ and -", opts.ToolName)}
	}
	if err := c.resolveSources(); err != nil {
		return nil, err
	}
	c.settings = c.resolveSettings(cfgPath, p)
	c.resolveTrusted()
	return c, nil
}

// resolveEnv sets the catalog's current folder, home, environment and
// workspace (absolute, variables and "~" expanded) from its options, and
// whether the workspace is a folder.
func (c *Catalog) resolveEnv() {
	opts := &c.opts
	cwd, err := os.Getwd()
	if err != nil {
		cwd = "."
	}
	c.cwd = cwd
	c.env.home = opts.home
	if c.env.home == "" {
		c.env.home, _ = os.UserHomeDir()
	}
	if c.env.home == "" {
		c.env.home = "/"
	}
	c.env.home = filepath.Clean(c.env.home)
	c.env.getenv = opts.getenv
	if c.env.getenv == nil {
		c.env.getenv = os.Getenv
	}
	ws := opts.Workspace
	if ws == "" {
		ws = cwd
	}
	c.workspace = c.env.expand(ws, cwd)
	fi, err := os.Stat(c.workspace)
	c.wsExists = err == nil && fi.IsDir()
}

// readConfig finds the configuration file (Options.ConfigFile, or
// skillet.yaml in the workspace unless NoConfigFile) and reads it into
// c.cfg and c.cfgDiags. It returns the file's path, "" when there is none,
// and loadConfig's error (a *ConfigError) when the file is unusable.
func (c *Catalog) readConfig() (string, error) {
	cfgPath := c.opts.ConfigFile
	if cfgPath != "" {
		cfgPath = c.env.expand(cfgPath, c.cwd)
	} else if !c.opts.NoConfigFile && c.wsExists {
		cfgPath = findConfig(c.workspace)
	}
	if cfgPath == "" {
		return "", nil
	}
	cfg, diags, err := loadConfig(cfgPath)
	if err != nil {
		return "", err
	}
	c.cfg = *cfg
	c.cfgDiags = diags
	return cfgPath, nil
}

// resolvePreset looks up the preset the options name, else the
// configuration's, else the default, and sets c.profile; an unknown name
// is unknownPreset's error.
func (c *Catalog) resolvePreset() (*profile.Profile, error) {
	presetName := c.cfg.Preset
	if c.opts.Preset != "" {
		presetName = c.opts.Preset
	}
	if presetName == "" {
		presetName = catalogx.DefaultPreset
	}
	p, ok := profile.Lookup(presetName)
	if !ok {
		return nil, unknownPreset(presetName)
	}
	c.profile = p
	return p, nil
}

// resolveSources sets the sources and the enable and disable lists (the
// configuration's, then the options'), and whether List goes through
// listAll (merged).
func (c *Catalog) resolveSources() error {
	var err error
	if c.sources, err = newSources(c.opts.Sources); err != nil {
		return err
	}
	if c.cfg.Enable != nil || c.opts.Enable != nil {
		c.enable = append(append([]string{}, c.cfg.Enable...), c.opts.Enable...)
	}
	c.disable = append(append([]string(nil), c.cfg.Disable...), c.opts.Disable...)
	c.merged = c.sources != nil || c.enable != nil || len(c.disable) > 0
	return nil
}

// resolveSettings returns the effective settings: each a non-zero option,
// else the configuration's value, else the default.
func (c *Catalog) resolveSettings(cfgPath string, p *profile.Profile) Settings {
	opts := &c.opts
	mode, _ := skill.ParseMode(c.cfg.Mode)
	if opts.Strict {
		mode = skill.Strict
	}
	s := Settings{
		Workspace:           c.workspace,
		ConfigFile:          cfgPath,
		Preset:              p.Name,
		Mode:                mode,
		MaxSkillBytes:       pick(opts.MaxSkillBytes, c.cfg.MaxSkillBytes, defaultMaxSkillBytes),
		MaxSkills:           pick(opts.MaxSkills, c.cfg.MaxSkills, defaultMaxSkills),
		MaxDescriptionChars: pick(opts.MaxDescriptionChars, c.cfg.MaxDescriptionChars, skill.DefaultMaxDescriptionChars),
		CatalogBudgetChars:  pick(opts.CatalogBudgetChars, c.cfg.CatalogBudgetChars),
		ToolName:            c.cfg.ToolName,
		MaxDepth:            pick(opts.MaxDepth, 0, defaultMaxDepth),
		MaxFolders:          pick(opts.MaxFolders, 0, defaultMaxFolders),
	}
	if opts.ToolName != "" {
		s.ToolName = opts.ToolName
	}
	if s.ToolName == "" {
		s.ToolName = catalogx.DefaultToolName
	}
	return s
}

// resolveTrusted sets the real paths of the trusted folders: the
// configuration's relative to the workspace, the options' relative to the
// current folder.
func (c *Catalog) resolveTrusted() {
	for _, t := range c.cfg.TrustedPaths {
		c.trustedReal = append(c.trustedReal, realPath(c.env.expand(t, c.workspace)))
	}
	for _, t := range c.opts.TrustedPaths {
		c.trustedReal = append(c.trustedReal, realPath(c.env.expand(t, c.cwd)))
	}
}

func pick(vals ...int) int {
	for _, v := range vals {
		if v > 0 {
			return v
		}
	}
	return 0
}

// Settings returns the effective settings.
func (c *Catalog) Settings() Settings { return c.settings }

// Config returns the configuration file's values (zero when there is none).
func (c *Catalog) Config() Config { return c.cfg }

// Workspace returns the absolute workspace path.
func (c *Catalog) Workspace() string { return c.workspace }

// Skill is one loaded skill: its parsed frontmatter and where it was found.
// The body is not held (docs/performance.md); read it with Content or [Catalog.Load].
type Skill struct {
	// Name, Description and WhenToUse are the frontmatter's (the name as
	// normalized, see docs/format.md#names); Parsed has every other field.
	Name        string
	Description string
	WhenToUse   string
	// Location is the absolute path of the SKILL.md (or flat NAME.md) as
	// found, through any symlinks.
	Location string
	// BaseDir is the skill folder: the directory relative paths in the
	// skill resolve against (for a flat file, the folder holding it).
	BaseDir string
	// Root is the root the skill was found under, and Scope its scope.
	Root  string
	Scope Scope
	// Folder is that root as configured, the label listings show:
	// ".claude/skills" (project), "~/.claude/skills" (user), or the path
	// of an extra root.
	Folder string
	// Flat says the skill is a loose NAME.md file (Kestrel).
	Flat bool
	// Plugin is the name of the plugin the skill belongs to, "" when
	// none; Name is then "PLUGIN:NAME" while Parsed().Name stays the
	// frontmatter's (docs/discovery.md#plugins).
	Plugin string
	// Bytes is the file's size on disk.
	Bytes int64
	// Truncated says the file is larger than maxSkillBytes and only that
	// many bytes were read (too-large).
	Truncated bool
	// Listed says the skill is in the catalog: not hidden and within
	// maxSkills. Unlisted skills stay loadable by name.
	Listed bool

	parsed   *skill.Skill // the frontmatter; its Body is "" (Load reads it)
	lazy     *lazyParsed  // instead of parsed, for a skill read from the index
	c        *Catalog
	boundary string  // the root's boundary (docs/discovery.md#boundaries), symlinks resolved
	src      *source // the Source of a skill not found on the local file system
}

// Parsed returns the skill's SKILL.md as parsed when it was listed: every
// frontmatter field, the repairs and the position of the body. Its Body is
// empty for a skill found on disk or in an fs.FS, since a listing holds no
// bodies ([Catalog.Load] reads one), except in skillet lint's catalogs,
// which keep them; for a skill the program built (Source.Skills) it is
// the Body given. The result is shared; do not modify it.
func (s *Skill) Parsed() *skill.Skill {
	if l := s.lazy; l != nil {
		return l.get()
	}
	return s.parsed
}

// Hidden reports whether the skill opted out of the catalog
// (disable-model-invocation: true); it stays loadable by name.
func (s *Skill) Hidden() bool {
	if l := s.lazy; l != nil {
		return l.hidden
	}
	return s.parsed != nil && s.parsed.Hidden()
}

// newSkill returns a skill for a SKILL.md parsed elsewhere, that no
// Catalog found (catalogx.Hooks.NewSkill: the CLI's tests of its encoders).
// Programs give their own skills to a catalog as a Source.
func newSkill(p *skill.Skill) *Skill {
	s := &Skill{}
	s.setParsed(p)
	return s
}

// setParsed sets the parsed frontmatter and the fields taken from it.
func (s *Skill) setParsed(p *skill.Skill) {
	s.parsed = p
	if p != nil {
		s.Name, s.Description, s.WhenToUse = p.Name, p.Description, p.WhenToUse
	}
}

// allowed reports whether a resolved path lies inside the skill's root
// boundary or a trusted path.
func (s *Skill) allowed(real string) bool {
	if s.c == nil {
		return false
	}
	return within(real, s.boundary) || s.c.trusted(real)
}

// openSkillFile opens the skill's SKILL.md (or flat NAME.md) for reading,
// without blocking, and checks that the file actually opened lies inside
// the root's boundary (docs/discovery.md#boundaries): on Linux the kernel is asked which file the
// descriptor refers to, so a symlink swapped in after discovery is caught
// (ErrOutside). The file must be regular (ErrNotFile).
func (s *Skill) openSkillFile() (*os.File, error) {
	if s.c == nil {
		return nil, fmt.Errorf("%w: %q was not loaded by a Catalog", ErrNotFound, s.Name)
	}
	if s.src != nil {
		return nil, fmt.Errorf("%w: %s is not on the local file system", ErrNotFile, s.Location)
	}
	f, err := openFollow(s.Location)
	if err != nil {
		return nil, err
	}
	if err := checkOpened(f, s.allowed); err != nil {
		f.Close()
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, notFileError(fi.Mode())
	}
	return f, nil
}

// openRoot opens the skill folder as an os.Root, through which no path and
// no symlink can lead out of it, after checking that the folder actually
// opened lies inside the root's boundary (docs/discovery.md#boundaries), so a skill folder swapped
// for a symlink after discovery is refused (ErrOutside).
func (s *Skill) openRoot() (*os.Root, error) {
	if s.c == nil {
		return nil, fmt.Errorf("%w: %q was not loaded by a Catalog", ErrNotFound, s.Name)
	}
	if s.src != nil {
		return nil, fmt.Errorf("%w: %s is not on the local file system", ErrNotFile, s.BaseDir)
	}
	root, err := os.OpenRoot(s.BaseDir)
	if err != nil {
		return nil, err
	}
	dir, err := root.Open(".")
	if err != nil {
		root.Close()
		return nil, err
	}
	err = checkOpened(dir, s.allowed)
	dir.Close()
	if err != nil {
		root.Close()
		return nil, err
	}
	return root, nil
}

// Load reads the skill's body from disk now (up to maxSkillBytes), without
// listing the catalog again: for a caller that has just listed. A Skill that
// did not come from a Catalog cannot be loaded (ErrNotFound).
func (s *Skill) Load() (*Loaded, error) {
	if s.c == nil {
		return nil, fmt.Errorf("%w: %q was not loaded by a Catalog", ErrNotFound, s.Name)
	}
	return s.c.load(s)
}

// Content returns the skill's body, read from disk now (up to maxSkillBytes).
// A Skill that did not come from a Catalog has no content to read.
func (s *Skill) Content() (string, error) {
	if s.c == nil {
		return "", fmt.Errorf("%w: %q was not loaded by a Catalog", ErrNotFound, s.Name)
	}
	l, err := s.c.load(s)
	if err != nil {
		return "", err
	}
	return l.Body, nil
}

// Listing is the result of one discovery: the roots, the loaded skills in
// precedence order (roots in order, then paths sorted; hidden skills
// included), and every diagnostic, sorted by path, line and column.
type Listing struct {
	Workspace   string             `json:"workspace"`
	Roots       []Root             `json:"roots"`
	Skills      []*Skill           `json:"-"`
	Diagnostics []skill.Diagnostic `json:"diagnostics"`
	// candidates are every skill file the listing read, in discovery
	// order (ignored files last): loaded, rejected, shadowed, duplicates
	// and, with Catalog.ignored, ignored files. A file reached twice
	// through symlinks appears once. lint reads them
	// (catalogx.Hooks.Candidates).
	candidates []*candidateFile
	// search is the search section of a listing read from the
	// persistent index (searchindex.go), nil for a listing a walk made.
	search *searchIndex
}

// candidateFile is one skill file a listing read, and what came of it.
type candidateFile = catalogx.Candidate[Skill]

// Get returns the loaded skill of the given name from the latest listing
// (listing first if there is none yet). Hidden and unlisted skills are
// found too. The error wraps ErrNotFound.
func (c *Catalog) Get(ctx context.Context, name string) (*Skill, error) {
	l, err := c.current(ctx)
	if err != nil {
		return nil, err
	}
	for _, s := range l.Skills {
		if s.Name == name {
			return s, nil
		}
	}
	return nil, fmt.Errorf("%w: %q", ErrNotFound, name)
}

// current returns the latest listing, running List when there is none.
func (c *Catalog) current(ctx context.Context) (*Listing, error) {
	c.snapMu.RLock()
	l := c.snap
	c.snapMu.RUnlock()
	if l != nil {
		return l, nil
	}
	return c.List(ctx)
}

// Loaded is a skill's body as loaded for the model (stage 2).
type Loaded struct {
	Skill *Skill
	// Body is the Markdown after the frontmatter.
	Body string
	// Truncated says the file was cut at maxSkillBytes.
	Truncated bool
	// Bytes is how many bytes of the file were read.
	Bytes int
}

// Load lists the catalog (cheap when nothing changed), finds the skill and
// reads its body from disk. The error wraps ErrNotFound for an unknown name.
func (c *Catalog) Load(ctx context.Context, name string) (*Loaded, error) {
	l, err := c.List(ctx)
	if err != nil {
		return nil, err
	}
	for _, s := range l.Skills {
		if s.Name == name {
			return c.load(s)
		}
	}
	return nil, fmt.Errorf("%w: %q", ErrNotFound, name)
}

func (c *Catalog) load(s *Skill) (*Loaded, error) {
	if s.src != nil {
		return s.loadSource()
	}
	rf, err := readSkillFile(s.Location, c.settings.MaxSkillBytes, s.allowed)
	if err != nil {
		return nil, fmt.Errorf("reading skill %q: %w", s.Name, err)
	}
	defer rf.release()
	parsed, _ := parseSkill(rf.data, &skill.Options{
		Path: s.Location, Flat: s.Flat, Mode: c.settings.Mode,
		MaxDescriptionChars: c.settings.MaxDescriptionChars, Truncated: rf.truncated,
	}, s.BaseDir)
	if parsed == nil {
		return nil, fmt.Errorf("skill %q no longer parses: run skillet lint %s", s.Name, s.Location)
	}
	return &Loaded{Skill: s, Body: parsed.Body, Truncated: rf.truncated, Bytes: len(rf.data)}, nil
}
