// Package catalogx is what package catalog finds and does for its sibling
// packages beyond its public API (docs/ARCHITECTURE.md): package lint
// reads every skill file a listing read (Candidates), also those below an
// ignored entry (ReadIgnored), and what each host does with the skill files
// of the workspace (HostFiles, HostFolders); the MCP server opens a skill's SKILL.md and folder
// through the catalog's boundary checks (OpenSkillFile, OpenRoot) and
// lists its files with what was withheld (ListFiles). None of it is for a
// program that embeds skillet.
//
// Package catalog imports this package and fills in the hooks when it is
// initialized (Register); a package that has imported catalog takes them,
// typed with catalog's types, with Get.
package catalogx

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/skillet-go/skillet/internal/profile"
	"github.com/skillet-go/skillet/skill"
)

// Defaults of the catalog its sibling packages apply too
// (docs/discovery.md#limits, docs/disclosure.md).
const (
	// DefaultFileLimit is how many files catalog.Skill.Files lists when
	// no limit is given.
	DefaultFileLimit = 10_000
	// DefaultToolName is the load tool's name when the configuration
	// names none.
	DefaultToolName = "use_skill"
	// DefaultPreset is the host profile used when neither options nor
	// configuration name one: skillet's own.
	DefaultPreset = "agents"
)

// Verdict is what a host does with one skill file.
type Verdict struct {
	// Loaded says the host loads the skill; Name and Description are then
	// what it shows (Description after every cut), and Hidden says the
	// host keeps it from the model (disable-model-invocation).
	Loaded      bool
	Name        string
	Description string
	Hidden      bool
	// Changes say how what the host shows differs from the file as
	// written ("the description is cut at 1024 characters"), when loaded.
	Changes []string
	// Reason says why the host does not load it, when not loaded.
	Reason string
}

// Candidate is one skill file a listing read, and what came of it. S is
// catalog.Skill (this package cannot import catalog).
type Candidate[S any] struct {
	// Path is the file's absolute path as found (symlinks not resolved).
	Path string
	// Root and Scope are the root it was found under (Scope is a
	// catalog.Scope).
	Root  string
	Scope string
	// Flat says the file is a flat-form skill (ROOT/NAME.md).
	Flat bool
	// Ignored says the file was found under an entry whose name starts
	// with "_" or "." (ReadIgnored): parsed and reported, never loaded.
	Ignored bool
	// Skill is the parsed skill when the file parsed: loaded, lost to
	// another copy (shadowed, duplicate-name) or ignored. It is nil when
	// the file was rejected or could not be read. Only the skills in the
	// listing's Skills are loaded.
	Skill *S
}

// Hooks are catalog's functions for its sibling packages, typed with
// catalog's own types: C is catalog.Catalog, O catalog.Options, L
// catalog.Listing, S catalog.Skill, F catalog.File (type parameters, since
// catalog imports this package). Package catalog fills in every field when
// it is initialized (Register), so the compiler checks each function
// against the field it fills; a sibling takes the same instantiation with
// Get, and the compiler checks each call.
type Hooks[C, O, L, S, F any] struct {
	// HostFiles applies profile p to the workspace, home folder,
	// user-roots switch and extra paths of opts (its preset and
	// configuration file are not used) exactly as `skillet list --preset`
	// does. lint --compat and --target judge each file by it, so a verdict
	// says whether the host reads the folder a file sits in.
	HostFiles func(ctx context.Context, p *profile.Profile, opts *O) (*HostListing, error)
	// HostFilesAll is HostFiles for each profile of ps, in order, with
	// each folder listed and each skill file read once for all of them (a
	// file's bytes are let go once every profile that reads it parsed
	// it); each profile judges, parses and ranks with its own rules.
	// lint --compat and --target judge every host by it.
	HostFilesAll func(ctx context.Context, ps []*profile.Profile, opts *O) ([]*HostListing, error)
	// HostSearch is HostFilesAll in two steps: it searches the folders of
	// every profile of ps and returns the skill files they read, unread;
	// HostReads.Give hands it a file another reader read (lint's listing,
	// catalogx.Parsed), and HostReads.Finish reads the others and returns
	// what HostFilesAll returns. Each skill file is then read once for lint
	// and every host (docs/performance.md#lint).
	HostSearch func(ctx context.Context, ps []*profile.Profile, opts *O) (*HostReads, error)
	// HostFolders returns the project folders profile p reads when
	// started in the workspace of c, absolute, in the host's order: the
	// workspace's and those of the parents its walk-up reads. skillet new
	// writes where every --target reads.
	HostFolders func(p *profile.Profile, c *C) []string
	// Candidates returns every skill file the listing l read, in
	// discovery order (ignored files last): loaded, rejected, shadowed,
	// duplicates and, with ReadIgnored, ignored files. A file reached
	// twice through symlinks appears once.
	Candidates func(l *L) []*Candidate[S]
	// ReadIgnored makes c also read the skill files that discovery passes
	// over because an entry on their path starts with "_" or "."
	// (docs/discovery.md): they are parsed, reported and among the
	// Candidates with Ignored set, never loaded. Call it before c's first
	// List; lint does.
	ReadIgnored func(c *C)
	// OnParsed makes c call fn with every skill file its Lists read and
	// parse, as soon as it is parsed and on the goroutine that read it
	// (several at once: fn must be safe for concurrent use), before the
	// listing is complete: lint checks each body while the walk goes on
	// (docs/performance.md#lint). The listing then holds no bodies, even
	// with KeepBodies: fn has the bytes. Files a List takes from its cache
	// are not read again and fn is not called for them. Call it before c's
	// first List.
	OnParsed func(c *C, fn func(Parsed))
	// OpenSkillFile opens the skill file of s (listed by a catalog) for
	// reading, after checking that the file actually opened is inside its
	// root's boundary (docs/discovery.md#boundaries) and is a regular
	// file: a symlink swapped in since discovery is refused
	// (catalog.ErrOutside, catalog.ErrNotFile).
	OpenSkillFile func(s *S) (*os.File, error)
	// OpenRoot opens the folder of s as an os.Root, through which no path
	// and no symlink can lead out of it, after checking that the folder
	// actually opened is inside its root's boundary.
	OpenRoot func(s *S) (*os.Root, error)
	// Sourced reports whether s came from a catalog.Source with an FS
	// (sourced) or with Skills the program built (sourced and built),
	// rather than the local file system: OpenSkillFile and OpenRoot refuse
	// such a skill, whose files are read with its ReadFile and ListFiles.
	Sourced func(s *S) (sourced, built bool)
	// ListFiles lists the files of s as its Files method does, at most
	// limit of them (0: 10,000), and counts what it
	// withheld.
	ListFiles func(ctx context.Context, s *S, limit int) (*FileList[F], error)
	// ParsedFile returns the parse the last List of c made of the skill
	// file of s, with the diagnostics of parsing it, when fi (a stat of the
	// file the caller opened at s.Location) is the version that List read
	// (the same inode, device, size, modification and change time) and it
	// read the file whole; data is the file's bytes as the caller read
	// them, from which the body is cut when the listing kept none. ok is
	// false otherwise (a file changed or cut since, a skill from the index
	// or another source): the caller parses data itself. The MCP server's
	// snapshot takes the listing's parse this way instead of parsing each
	// SKILL.md again.
	ParsedFile func(c *C, s *S, fi fs.FileInfo, data []byte) (p *skill.Skill, diags []skill.Diagnostic, ok bool)
	// KeepBodies makes a catalog made with opts keep each skill's body in
	// its parsed skill, so a caller that reads every body (skillet lint)
	// reads each file once.
	KeepBodies func(opts *O)
	// UseIndex makes a catalog made with opts keep a persistent index of
	// its listing in the folder dir ("" for none), as skillet's one-skill
	// commands do (docs/performance.md#persistent-index).
	UseIndex func(opts *O, dir string)
	// WalkGC makes a catalog made with opts set the collector's GOGC to
	// percent (debug.SetGCPercent) while a narrowed read that found no
	// current index lists the local file system and writes the index
	// (ListNamed), and set it back after: a process that raised GOGC for
	// its warm reads (skillet show: 400) would otherwise let the walk's
	// heap grow to five times what it holds. 0 leaves GOGC alone.
	WalkGC func(opts *O, percent int)
	// Each lists c once, handing fn each skill as soon as no later skill
	// file can change it and keeping nothing afterwards (skillet list
	// --json at 10,000 skills).
	Each func(ctx context.Context, c *C, fn func(*L, *S) error) (*L, error)
	// ListNamed returns the listing of c narrowed to one name when the
	// persistent index answers, else nil (the caller lists then): the
	// skills of List whose name is name or, spaces trimmed, equals it in
	// any letter case, and the diagnostics of List that keep reports true
	// for, with List's workspace and roots; no other skill, so no search
	// and no nearest-name suggestion. It checks every stamp List checks
	// and holds one skill's records, not the listing's: skillet show NAME
	// at 100,000 skills (docs/performance.md#persistent-index). With no
	// current index, a catalog that may write one lists as Each does and
	// writes it meanwhile. When the listing, read either way, holds no
	// skill of the name (not spaces alone), names is its names (Names)
	// and l holds List's workspace, roots and the diagnostics keep
	// reports true for, and no skill: what the load tool's answer to an
	// unknown name reads.
	ListNamed func(ctx context.Context, c *C, name string, keep func(*skill.Diagnostic) bool) (l *L, names *Names)
	// ListBrief returns what the catalog block reads of c's listing when
	// the persistent index answers, or when there is no current index and
	// c may write one (a fresh catalog of the local file system alone: it
	// lists as Each does and writes the index meanwhile), else nil (the
	// caller lists then): a listing of List's workspace and roots whose
	// skills are those of List that are Listed or hidden, in order (a
	// hidden one holds its name alone), with the diagnostics of List that
	// keep reports true for; and the names of List's other skills, in
	// order. It checks every stamp List checks and holds a name a skill,
	// not the listing: skillet prompt at 100,000 skills
	// (docs/performance.md#a-narrowed-search).
	ListBrief func(ctx context.Context, c *C, keep func(*skill.Diagnostic) bool) (l *L, notListed []string)
	// ListNames returns the names of c's listing (Names) when the
	// persistent index answers, or when there is none and c may write one
	// (it lists as Each does and writes it meanwhile), with a listing of
	// List's workspace and roots, no skill and no diagnostic; else nil
	// (the caller lists then). What the load tool's definition reads:
	// skillet tool-schema at 100,000 skills
	// (docs/performance.md#persistent-index).
	ListNames func(ctx context.Context, c *C) (l *L, names *Names)
	// ListPrefixed returns the listing of c narrowed to the skills whose
	// name begins with prefix, as ListNamed reads it (the index without
	// its listing, or the walk that writes it; their frontmatter decoded,
	// no diagnostics), a listing with no skill when none does, or nil
	// when neither answers (the caller lists then): shell completion of a
	// skill's name at 100,000 skills.
	ListPrefixed func(ctx context.Context, c *C, prefix string) *L
	// NewSkill returns a skill for a SKILL.md parsed elsewhere, that no
	// catalog found and none can read: for tests of what encodes or
	// renders a skill with values no file would give.
	NewSkill func(p *skill.Skill) *S
	// WalkedDirs returns the folders the last List of c read to walk its
	// roots: the roots and grouping folders, as found (symlinks not
	// resolved), not the skill folders, not the folders past the walk's
	// depth or folder limits (docs/discovery.md#shapes), not those it
	// skips by name. ok is false when the last List walked nothing it
	// keeps (a host profile's listing, an answer from the persistent
	// index): the caller cannot tell then where the walk went. The MCP
	// server watches these folders.
	WalkedDirs func(c *C) (dirs []string, ok bool)
	// ListTouched lists c as List does, for a caller that watches the
	// folders WalkedDirs returned and the folders of the skill files
	// found, and so knows which folders may have changed since the last
	// List: touched(dir) reports whether one may have. A skill file of one
	// link in a folder it reports false for is not lstat'ed again (the
	// MCP server's reload after one edit).
	ListTouched func(ctx context.Context, c *C, touched func(dir string) bool) (*L, error)
	// ListEdited returns the last listing with the skill files among
	// files read again, without a walk: for a caller that knows, as
	// ListTouched's does, that since the last List nothing was created,
	// removed or renamed in a watched folder, every one of them watched
	// since before that List began, and only files were written. ok is
	// false when it cannot (a path it cannot place, a skill whose name or
	// diagnostics changed...): the caller then calls ListTouched.
	ListEdited func(ctx context.Context, c *C, files []string) (l *L, ok bool, err error)
}

// Names is what the load tool reads of a listing to define its name
// enum and to answer a name no skill has (its nearest names and the
// first hundred): the names of List's skills that are not hidden
// (disable-model-invocation), in List's order, and those of the hidden
// ones, in order, where a listing holds a catalog.Skill of about 220
// bytes for each (ListNames, ListNamed).
type Names struct {
	Visible, Hidden []string
}

// FileList is a skill's files as ListFiles finds them. F is catalog.File.
type FileList[F any] struct {
	// Files are the files listed, sorted by path (see catalog.Catalog.Files).
	Files []F
	// More says there were more than the limit.
	More bool
	// Withheld counts the entries (files and folders, a folder counting
	// once) left out as dotfiles, dot-folders or .skilletignore matches.
	Withheld int
	// Diagnostics are the problems of the skill folder's own
	// .skilletignore (ignore-pattern, ignore-too-large); a root's are in
	// the listing.
	Diagnostics []skill.Diagnostic
}

// registered is the *Hooks package catalog registered.
var registered any

// Register sets the hooks; package catalog calls it once, when it is
// initialized, with every field set.
func Register[C, O, L, S, F any](h *Hooks[C, O, L, S, F]) { registered = h }

// Get returns the hooks package catalog registered. A sibling calls it
// once, when it is initialized (after catalog, which it imports), with
// catalog's types: Get[catalog.Catalog, catalog.Options, catalog.Listing,
// catalog.Skill, catalog.File]. Other type arguments panic there, at the
// start of every program and test that links the sibling, never at a call.
func Get[C, O, L, S, F any]() *Hooks[C, O, L, S, F] {
	h, ok := registered.(*Hooks[C, O, L, S, F])
	if !ok {
		panic(fmt.Sprintf("catalogx.Get: asked for %T, catalog registered %T", h, registered))
	}
	return h
}

// HostFile is one skill file under a host's roots and what the host does
// with it, as `skillet list --preset HOST` decides.
type HostFile struct {
	Verdict
	// Path is the file as the host's listing found it; Root and Scope
	// (a catalog.Scope) the root it was found under.
	Path, Root, Scope string
}

// HostListing is what one host does with the skill files of a workspace,
// as `skillet list --preset HOST` decides it: the very listing, from the
// same working folder.
type HostListing struct {
	// Files are every skill file under the host's roots (those it reads
	// from the working folder, its user roots, and extra roots), loaded or
	// not, each once (a file reached twice through symlinks once).
	Files []HostFile
	// Where says why the host does not read the file, found under root,
	// that is not among Files (the folder it sits in is none the host
	// reads from this working folder), and what to do about it: move or
	// link it into a folder the host reads, or start the host elsewhere.
	Where func(file, root string) (reason, remedy string)
}

// HostReads are the skill files of a HostSearch, waiting for their bytes.
type HostReads struct {
	// Give hands the profiles that read the file at p.Path (as their
	// search found it) the listing's read of it: p.Data, the whole file
	// unless p.Truncated. A profile takes the bytes only when its own read
	// would have given the same (the whole file, within its size limit);
	// the others read the file in Finish. A profile whose YAML step would
	// parse the very bytes p.Data, for the same path and form, as the
	// listing did in lenient mode (p.Mode) takes p.Skill and p.Diags for
	// that parse instead of parsing again (they are read, not changed).
	// p.Data is not kept: what the profiles keep of it is copied out
	// before Give returns, and the caller may then write over it.
	// It is safe for concurrent use, and reports whether any profile took
	// the bytes.
	Give func(p *Parsed) bool
	// Finish reads the files no Give handed over, settles every profile's
	// verdicts and returns the listings, in the order of the profiles. It
	// is called once, after the last Give.
	Finish func() []*HostListing
	// Folder reports whether the searches found path (clean, absolute)
	// as an entry of a folder they listed, typed a folder and not a
	// symlink: what os.Lstat of it said then. lint's file keys take it
	// for their lstat of each folder (nil: none known).
	Folder func(path string) bool
	// Listed returns the entries of the folder at path (as the searches
	// joined it: the root's path, a separator and the names below it) as
	// the searches listed it, in the order the file system gave them,
	// each with its type (an entry whose type the file system did not
	// give lstat'ed, one that vanished meanwhile left out); false when
	// they did not list it, could not read it whole, or it was given
	// before (each listing is given once, then let go). lint's walk of
	// each skill folder takes it for its own read of the folder
	// (docs/ARCHITECTURE.md#second-paths). Safe for concurrent use; nil
	// when none is known.
	Listed func(path string) ([]ListedEntry, bool)
}

// ListedEntry is one entry of a folder HostReads.Listed gives: its name
// and its type (fs.FileMode's type bits, as os.DirEntry.Type).
type ListedEntry struct {
	Name string
	Type fs.FileMode
}

// FileKey identifies a skill file whatever path reached it: its folder
// with symlinks resolved, joined with its own name (a SKILL.md that is a
// symlink keeps its own name, so it stays apart from its target). It is
// the plain form lint's fileKeys (lint/compat.go) is held to by
// TestFileKeysAreFileKey, and the key lint's tests compare host verdicts
// by; no command calls it.
func FileKey(p string) string {
	dir, base := filepath.Split(p)
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		dir = r
	}
	return filepath.Join(dir, base)
}

// Parsed is one skill file as a listing's reader parsed it: Path, Dir and
// Flat are what the listing's catalog.Skill for it gets as Location,
// BaseDir and Flat, and Skill is what its Parsed method returns (without
// its Body). Data is the bytes read and parsed, of which the body is the
// part from Skill.BodyOffset on; they are the reader's and valid only
// during the call.
type Parsed struct {
	Path, Dir string
	Flat      bool
	Skill     *skill.Skill
	Data      []byte
	// Truncated says Data is the first part of a larger file (its size
	// over the listing's maxSkillBytes).
	Truncated bool
	// Diags are the findings of parsing Data into Skill, in mode Mode.
	Diags []skill.Diagnostic
	Mode  skill.Mode
}
