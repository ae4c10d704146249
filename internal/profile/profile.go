// Package profile holds the host profiles: one JSON file per host under
// profiles/, the types they decode into, and the lookups by name. Package
// catalog applies a profile to the disk (--preset) and package lint reads
// every profile for its host compatibility report; a program that embeds
// skillet names a profile by its preset name only (catalog.Options.Preset,
// catalog.ProfileNames). See docs/hosts.md for what each field means.
package profile

import (
	"embed"
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/skillet-go/skillet/internal/suggest"
)

// Profile is everything that decides what one host (an agent, or a skills
// system) loads from disk and what its model sees of each skill: roots, the
// walk up from the working folder, discovery depth, skipped entries,
// symlinks, precedence, names, what is dropped, loaded with a fallback or
// cut, and disclosure. Profiles are data: one JSON file per host, embedded
// from internal/profile/profiles. The page docs/hosts.md is generated from them.
//
// `--preset NAME` applies the profile NAME: the catalog then lists what
// that host loads, with the names and descriptions it shows. The default
// profile, agents, is skillet's own (Native): it reads every common
// agent's folders with skillet's own rules (docs/discovery.md).
type Profile struct {
	// Name is the preset's name (claude, codex, ...).
	Name string `json:"name"`
	// Title says which host this is.
	Title string `json:"title"`
	// Version is the host version the profile was checked on, or "" when
	// it was written from the host's documentation only. Checked says how:
	// "recorded" (against recordings of the real agent), "documentation",
	// or "specification" (a system described by its own text).
	Version string `json:"version"`
	Checked string `json:"checked"`
	// Native says the catalog reads this profile's roots with skillet's
	// own rules (the agents default); the other fields below then only
	// document those rules.
	Native bool `json:"native,omitempty"`

	Roots      Roots      `json:"roots"`
	Discovery  Discovery  `json:"discovery"`
	Symlinks   Symlinks   `json:"symlinks"`
	Precedence Precedence `json:"precedence"`
	Names      Naming     `json:"names"`
	Parse      Parse      `json:"parse"`
	Disclosure Disclosure `json:"disclosure"`
	// Notes are facts about the host that no rule above holds.
	Notes []string `json:"notes,omitempty"`
	// Sources say where rules come from: the host's code (repository,
	// path, commit) or the recordings that show them.
	Sources []Source `json:"sources,omitempty"`
	// Gaps are recorded workspaces where the host does something the
	// rules above do not reproduce yet, each with what it does. The
	// comparison with the recordings reports them and fails once one of
	// them agrees (the gap is then closed and must be removed).
	Gaps []Gap `json:"gaps,omitempty"`
}

// Source is where one rule (a field path such as "disclosure.share", or
// "*" for every rule not named otherwise) comes from: From names the
// host's code as "OWNER/REPO PATH@COMMIT" and what was read there, or the
// recordings that show it.
type Source struct {
	Rule string `json:"rule"`
	From string `json:"from"`
}

// Gap is one recorded workspace a profile does not reproduce.
type Gap struct {
	Workspace string `json:"workspace"`
	What      string `json:"what"`
}

// Roots are where a host looks.
type Roots struct {
	// Project folders, relative to each project folder searched (the
	// working folder, and its parents as WalkUp says), in the host's
	// order of precedence.
	Project []string `json:"project"`
	// User folders: "~/..." is the home folder, "$XDG_CONFIG_HOME/..."
	// the configuration folder (default ~/.config); a * stands for any
	// folder name ("~/.gemini/extensions/*/skills": every extension's).
	User []string `json:"user"`
	// WalkUp says which project folders are searched when the working
	// folder is inside a git repository: "cwd" (the working folder only),
	// "git-root" (the working folder and every parent up to the git root),
	// "cwd+git-root" (the working folder and the git root, nothing between)
	// or "all" (every parent up to the file system root).
	WalkUp string `json:"walkUp"`
	// NoGit is the same choice when no parent holds a .git: "cwd", "all",
	// or "home" (every parent below the home folder, whose own folders
	// are the user roots; every parent up to the file system root when
	// the working folder is not below the home folder).
	NoGit string `json:"noGit"`
	// GitMarker is what marks a git root for WalkUp: "" or "any" (a .git
	// folder, or a .git file as a linked worktree or a submodule has),
	// "dir" (a .git folder only; a .git file does not stop the walk) or
	// "git" (as git finds the repository: a .git folder, or a .git file
	// whose "gitdir:" folder exists; a .git file naming none met first
	// means no repository, and NoGit applies).
	GitMarker string `json:"gitMarker,omitempty"`
	// WalkUpRoots, when set, are the only project roots searched in the
	// parent folders WalkUp names; the others are read in the working
	// folder only.
	WalkUpRoots []string `json:"walkUpRoots,omitempty"`
	// Plugins are project folders holding plugins, as a marketplace
	// repository keeps them ("plugins": plugins/NAME/.claude-plugin/plugin.json):
	// of such a folder only the plugin folders are read, each as
	// Names.Plugin says (docs/discovery.md#plugins).
	Plugins []string `json:"plugins,omitempty"`
	// NearestFirst says a nearer project folder takes precedence over a
	// parent; false: the parent (the git root) first.
	NearestFirst bool `json:"nearestFirst"`
}

// Discovery is how a root is searched.
type Discovery struct {
	// MaxDepth is how many folders below the root a SKILL.md may sit:
	// 1 reads only ROOT/NAME/SKILL.md, 0 means no limit.
	MaxDepth int `json:"maxDepth"`
	// RootSkill says a SKILL.md directly in the root is a skill too.
	RootSkill bool `json:"rootSkill,omitempty"`
	// Nested says a SKILL.md inside another skill's folder is a skill of
	// its own (false: it is a bundled file of the outer skill).
	Nested bool `json:"nested"`
	// Skip are entry names never searched, as path.Match patterns
	// (".*", "_*", "node_modules").
	Skip []string `json:"skip"`
	// RootSkip adds skipped patterns for some roots only, keyed by the
	// root as Roots writes it (a host that searches its own folders
	// without dot entries but another agent's with them).
	RootSkip map[string][]string `json:"rootSkip,omitempty"`
	// AnyCase says skill.md in another letter case is read as SKILL.md.
	AnyCase bool `json:"anyCase"`
	// Flat says a loose NAME.md directly in a root is a skill.
	Flat bool `json:"flat"`
	// FlatRoots, when set, are the only roots (as Roots writes
	// them) where Flat applies.
	FlatRoots []string `json:"flatRoots,omitempty"`
	// Order is the order of the files found under one root: "" (by path,
	// as strings: "x-y/SKILL.md" before "x/SKILL.md") or "name" (folder
	// by folder, by name: "x/" before "x-y/"), which decides which copy of
	// a clashing name wins.
	Order string `json:"order,omitempty"`
	// MaxFolders bounds the folders read per root; 0 means no limit.
	MaxFolders int `json:"maxFolders,omitempty"`
}

// FlatIn says whether a loose NAME.md directly in the root label (as Roots
// writes it) is a skill: Flat, limited to FlatRoots when those are set.
func (d *Discovery) FlatIn(label string) bool {
	return d.Flat && (len(d.FlatRoots) == 0 || slices.Contains(d.FlatRoots, label))
}

// Symlinks is how a host treats symlinks.
type Symlinks struct {
	// Folders says a symlinked folder is followed (wherever it leads,
	// unless InsideWorkspace).
	Folders bool `json:"folders"`
	// Files says a SKILL.md that is itself a symlink is read.
	Files bool `json:"files"`
	// InsideWorkspace says a link is followed only when its target stays
	// inside the workspace (project roots) or the home folder (user roots).
	InsideWorkspace bool `json:"insideWorkspace,omitempty"`
	// ResolveRoot says a root that is itself a symlink is reported by its
	// target: skills under it carry the resolved path.
	ResolveRoot bool `json:"resolveRoot,omitempty"`
	// SameFileOnce says one file reached through two paths loads once.
	SameFileOnce bool `json:"sameFileOnce"`
}

// Precedence says which copy wins when two skills share a name.
type Precedence struct {
	// UserFirst says user roots take precedence over project roots.
	UserFirst bool `json:"userFirst"`
	// Order, when set, is the precedence of every root, highest first,
	// written "project:PATH" or "user:PATH" with PATH as in Roots;
	// it replaces UserFirst for hosts that interleave the two scopes.
	Order []string `json:"order,omitempty"`
	// Duplicates is what happens to skills of one name, taken in order of
	// precedence (roots in order, then sorted paths within a root):
	// "first" (the first one loads), "all" (every copy loads) or "any"
	// (one loads, not always the same one between runs).
	Duplicates string `json:"duplicates"`
}

// Naming is how a host names a skill.
type Naming struct {
	// Source is where the shown name comes from: "field" (the name field,
	// as written; the folder when there is none, unless Required) or
	// "folder" (always the folder name).
	Source string `json:"source"`
	// Required drops a skill without a name field.
	Required bool `json:"required,omitempty"`
	// Normalize is "" (the name as written, case kept), "kebab" (rewritten
	// to kebab-case), "path-chars" (the characters :\/<>*?"| become -) or
	// "spaces" (each run of white space becomes -).
	Normalize string `json:"normalize,omitempty"`
	// MaxChars drops a skill whose name is longer (0: no limit).
	MaxChars int `json:"maxChars,omitempty"`
	// Pattern, when set, drops a skill whose name does not match this
	// regular expression (after Normalize).
	Pattern string `json:"pattern,omitempty"`
	// Alias says that when the name field differs from the folder, the
	// host shows "FOLDER (NAME)": for the first skill of that name only,
	// and only for a name without white space (with Source "folder").
	Alias bool `json:"alias,omitempty"`
	// MatchFolder drops a skill whose name differs from its folder.
	MatchFolder bool `json:"matchFolder,omitempty"`
	// EmptyName is what a name field that is empty does: "" (the folder
	// names the skill, as when there is none), "drop" (the file is not
	// loaded) or "keep" (the skill is listed with the empty name, as
	// OpenCode does: it checks only that the name is a string).
	EmptyName string `json:"emptyName,omitempty"`
	// AliasRefuses are characters that keep a name from being shown as
	// an alias (Alias): a name holding one shows the folder alone. White
	// space always does.
	AliasRefuses string `json:"aliasRefuses,omitempty"`
	// Plugin says a folder holding .claude-plugin/plugin.json met by the
	// walk is a plugin: only its skills folder is read, and each skill
	// there is named PLUGIN:NAME, PLUGIN being plugin.json's "name" (the
	// plugin folder's name when it has none). Claude Code documents it:
	// https://code.claude.com/docs/en/plugins ("/plugin-name:hello"),
	// https://code.claude.com/docs/en/plugins-reference (skills/ in the
	// plugin root).
	Plugin bool `json:"plugin,omitempty"`
}

// Parse is how a host reads a SKILL.md.
type Parse struct {
	// BOM is what a UTF-8 byte order mark does: "strip" (ignored) or
	// "drop" (the file is not loaded).
	BOM string `json:"bom"`
	// NoFrontmatter is what a file without --- frontmatter does: "drop",
	// or "load" (name from the folder, description as Description says).
	NoFrontmatter string `json:"noFrontmatter"`
	// YAML is how the frontmatter is read: "strict" (YAML as written),
	// "repair" (YAML, a value that breaks it, such as an unquoted ": ", is
	// repaired as skillet does) or "subset" (only key: value lines,
	// optionally quoted, are read; it never fails).
	YAML string `json:"yaml"`
	// BrokenYAML is what a frontmatter that reader cannot read does:
	// "drop" (the file is not loaded), "lines" (a line-based reader takes
	// name: and description:, indented continuation lines joined),
	// "single-lines" (the same, each value on its own line only),
	// "key-lines" (Qwen Code's reader: every line holding a ':' at any
	// indentation is KEY: VALUE, the last winning; VALUE is trimmed and read
	// as true, false, null, a number or a string, double quotes removed; a
	// key with an empty value followed by indented lines takes them as a
	// list or map),
	// "last-lines" (name: and description: lines at any indentation, the
	// last of each winning, values trimmed with their quotes kept, the
	// indented lines after description: joined to it with spaces; a
	// frontmatter without both lines is dropped) or
	// "empty" (the skill loads with no metadata: the folder's name, the
	// description as Description says).
	BrokenYAML string `json:"brokenYAML,omitempty"`
	// Description is what a missing or empty description does: "drop",
	// "empty" (loaded with an empty description), "body" (the first prose
	// line of the body) or "first-line" (the first non-blank line of the
	// body, a heading included, its # marks removed) or "body-text" (the
	// body's lines without headings, joined by spaces).
	Description string `json:"description"`
	// EmptyDescription, when "load", loads a skill whose description key
	// is present but empty, with an empty description, whatever
	// Description says of a missing one.
	EmptyDescription string `json:"emptyDescription,omitempty"`
	// MaxDescriptionChars and LongDescription: a longer description is
	// "drop"ped, "cut" (to MaxDescriptionChars characters, Suffix included
	// at its end), or "keep" (loaded whole).
	MaxDescriptionChars int    `json:"maxDescriptionChars,omitempty"`
	LongDescription     string `json:"longDescription,omitempty"`
	Suffix              string `json:"suffix,omitempty"`
	// MaxSkillBytes is how much of a file is read (0: all of it).
	MaxSkillBytes int `json:"maxSkillBytes,omitempty"`
	// FenceAnywhere says the frontmatter ends at the first "---" after the
	// opening fence even inside a line (a description holding "---" is
	// cut there); false: only a line that is exactly --- closes it.
	FenceAnywhere bool `json:"fenceAnywhere,omitempty"`
	// KeepSpace says the description is shown exactly as the YAML value,
	// a final line break of a block scalar included; false: trimmed.
	KeepSpace bool `json:"keepSpace,omitempty"`
	// OneLine says a description's line breaks and runs of white space
	// are shown as single spaces.
	OneLine bool `json:"oneLine,omitempty"`
	// DuplicateKeys is what a frontmatter with a key given twice does:
	// "" (the first value is read, as skillet does), "last" (the last
	// value is read), "drop" (the file is not loaded: the host's YAML
	// library refuses it) or "broken" (the YAML library refuses it and
	// BrokenYAML says what happens).
	DuplicateKeys string `json:"duplicateKeys,omitempty"`
	// NonString is what a name or description that YAML reads as another
	// type (a number, a boolean, a list, a map, or null: a key with no
	// value) does: "" (its text is used, or it counts as missing),
	// "drop" (the file is not loaded: the host checks both are strings)
	// "broken" (the frontmatter is read as one YAML cannot read:
	// BrokenYAML) or "js-string" (its text as JavaScript's String() gives
	// it: a number in its shortest form, a list's items joined by commas;
	// a map, which Qwen Code's String() throws on, drops the file; null
	// counts as missing).
	NonString string `json:"nonString,omitempty"`
	// Tabs is what a frontmatter line indented with a tab does (YAML
	// allows no tab in indentation): "" (as skillet reads it: its repair
	// may read the line, else BrokenYAML applies), "spaces" (the host's YAML reader takes each
	// leading tab as an indentation space) or "drop" (the host's YAML
	// reader refuses the file).
	Tabs string `json:"tabs,omitempty"`
	// LineEnds is which line ends the host reads: "" (LF, CRLF and a
	// lone CR) or "lf" (LF and CRLF: a file whose lines end in a lone CR
	// is one line, so it has no frontmatter).
	LineEnds string `json:"lineEnds,omitempty"`
	// EmptyBody drops a skill whose body is empty.
	EmptyBody string `json:"emptyBody,omitempty"`
	// FinalBreak is what becomes of the frontmatter's last line break:
	// "" (kept, as YAML reads the lines) or "drop" (the host reads the
	// text between the fences without it, so a block scalar that is the
	// last value, as a description, loses one final line break).
	FinalBreak string `json:"finalBreak,omitempty"`
	// FallbackChars, when set, cuts a description taken from the body
	// (Description "body", "first-line", "body-text") that is longer:
	// to FallbackChars characters, FallbackSuffix included at its end.
	FallbackChars  int    `json:"fallbackChars,omitempty"`
	FallbackSuffix string `json:"fallbackSuffix,omitempty"`
	// WhenToUse, when set, is the separator the host puts between the
	// description and a when_to_use field's text, which it appends
	// (Claude Code: " - "); "": the field is not shown.
	WhenToUse string `json:"whenToUse,omitempty"`
	// StringFields are fields other than name and description whose value
	// must be a string when given: the host does not load a file where one
	// is another type (Copilot CLI: argument-hint: [query], a YAML list,
	// "must be a string").
	StringFields []string `json:"stringFields,omitempty"`
	// FieldTypes are fields whose value, when given and not null, must be
	// of a type: "string" or "list"; the host does not load a file where
	// one is another type (Qwen Code: model a string, allowedTools and
	// paths lists).
	FieldTypes map[string]string `json:"fieldTypes,omitempty"`
	// MergeKeys is what a "<<" key does: "" (it is a key like any other:
	// YAML 1.2, as skillet reads it) or "apply" (the mapping it names gives
	// name and description where the frontmatter has none: js-yaml).
	MergeKeys string `json:"mergeKeys,omitempty"`
	// Fences is which lines open and close the frontmatter: "" (a ---
	// line, trailing blanks allowed), "exact" (a line that is exactly
	// ---: Qwen Code), "closing-prefix" (opened by exactly ---, closed by
	// the first line starting with ---: Gemini CLI) or "prefix" (both
	// lines only start with ---: pi).
	Fences string `json:"fences,omitempty"`
}

// Disclosure is what the host's model sees.
type Disclosure struct {
	// HidesDisabled says disable-model-invocation: true keeps the skill
	// out of what the model is shown.
	HidesDisabled bool `json:"hidesDisabled"`
	// Paths is what a paths field (a list of globs relative to the
	// project) does: "" (nothing) or "conditional" (an entry that is
	// absolute or holds a .. segment drops the file; a list with an entry
	// that is not blank keeps the skill out of the catalog until a file it
	// matches is read, so a listing shows it hidden: Qwen Code).
	Paths string `json:"paths,omitempty"`
	// DisabledWhen is which values of disable-model-invocation hide the
	// skill: "" (true, yes, on or 1, as skillet reads it), "true" (the
	// boolean true or the string "true") or "boolean" (the boolean true
	// only; a quoted "true" is a string).
	DisabledWhen string `json:"disabledWhen,omitempty"`
	// FirstLines, when set, is a catalog budget that cuts every
	// description to its first line once the catalog is too long.
	FirstLines FirstLines `json:"firstLines,omitzero"`
	// CatalogChars is the most of each description the catalog shows the
	// model, counted in Units (0: not cut); a longer one is cut so that
	// it ends with CatalogSuffix within CatalogChars.
	CatalogChars  int    `json:"catalogChars,omitempty"`
	CatalogSuffix string `json:"catalogSuffix,omitempty"`
	// EscapeAngles says < and > in a description reach the model as &lt;
	// and &gt;.
	EscapeAngles bool `json:"escapeAngles,omitempty"`
	// BudgetChars bounds the catalog, counted in Units: skills are listed
	// as "- NAME: DESCRIPTION" lines in order (each with its line break),
	// every skill's name-only line "- NAME" counted first; then each
	// description, in order, whose ": DESCRIPTION" still fits in what is
	// left is shown, and a skill whose description does not fit is listed
	// by name only, while a later, shorter one may still fit (0: no
	// budget).
	BudgetChars int `json:"budgetChars,omitempty"`
	// Units is how CatalogChars and BudgetChars count text: "" (code
	// points) or "utf16" (UTF-16 code units, as a JavaScript string's
	// length: a character beyond U+FFFF counts 2).
	Units string `json:"units,omitempty"`
	// Location is what the host gives as a skill's location: "file" (the
	// SKILL.md, default) or "folder" (the skill's folder).
	Location string `json:"location,omitempty"`
	// MaxSkills bounds the skills listed (0: no bound).
	MaxSkills int `json:"maxSkills,omitempty"`
	// Budget describes the catalog's size budget in words ("" for none).
	Budget string `json:"budget,omitempty"`
	// Share, when set, is a catalog budget counted in tokens that every
	// description shares (Codex): see TokenShare.
	Share TokenShare `json:"share,omitzero"`
}

// FirstLines is Qwen Code's catalog budget: the catalog is one entry per
// skill, "<skill>\n<name>\nNAME\n</name>\n<description>\nDESCRIPTION
// (LEVEL)\n</description>\n<location>\nLEVEL\n</location>\n</skill>"
// (NAME and DESCRIPTION XML-escaped, LEVEL "project" or "user"), joined by
// line breaks and counted in UTF-16 code units with the host's own
// skills. When that is longer than Chars, each description is cut to its
// first line, trimmed, without the when_to_use text.
type FirstLines struct {
	// Chars is the catalog's length beyond which descriptions are cut.
	Chars int `json:"chars"`
	// BuiltinChars is the length of the host's own skills' entries, each
	// with its line break.
	BuiltinChars int `json:"builtinChars"`
}

// TokenShare is a catalog budget in tokens of four bytes (a text of B
// bytes costs ceil(B/4)). The catalog is one line per skill,
// "- NAME: DESCRIPTION (file: rN/PATH)" (PATH relative to the skill's
// root, rN that root's number in a table of roots), in order: the host's
// own skills, then project skills, then user skills, each by name then
// path. The lines' cost (each with its line break) is held within Tokens
// less the table's cost: when the whole lines fit they are shown whole;
// else, when the lines with no description fit, the space left is shared
// out one character at a time, skill after skill in order, each taking a
// character while its cost fits (descriptions are cut, without a suffix,
// to about the same length); else every description is dropped and the
// skills whose line no longer fits are left out.
type TokenShare struct {
	// Tokens is the whole budget.
	Tokens int `json:"tokens"`
	// TableBytes is the fixed part of the table's cost in bytes; every
	// root adds its line "- `rN` = `ROOT`" and a line break.
	TableBytes int `json:"tableBytes"`
	// BuiltinRoot is where the host's own skills lie ("~/..."); Builtins
	// are those skills, with the length of each description in
	// characters (all ASCII), which the budget counts first.
	BuiltinRoot string         `json:"builtinRoot,omitempty"`
	Builtins    []BuiltinSkill `json:"builtins,omitempty"`
}

// BuiltinSkill is a skill a host ships itself: its name and the length of
// its description in characters.
type BuiltinSkill struct {
	Name  string `json:"name"`
	Chars int    `json:"chars"`
}

//go:embed profiles/*.json
var profileFiles embed.FS

// profileOrder is the order of Names: the default first, then the
// agents, then the systems described by their own documents.
var profileOrder = []string{"agents", "claude", "codex", "opencode", "gemini", "copilot", "qwen", "pi", "amp", "kilo", "brute", "kestrel"}

// profileNames lists the embedded profiles by file name (a profile's name
// is its file's name without ".json"), in profileOrder. Listing them reads
// no file, so the --preset help text and a lookup of one profile do not
// decode the others.
var profileNames = sync.OnceValue(func() []string {
	entries, err := profileFiles.ReadDir("profiles")
	if err != nil {
		panic(err)
	}
	var out []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".json"); ok {
			out = append(out, name)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int {
		ia, ib := slices.Index(profileOrder, a), slices.Index(profileOrder, b)
		if ia < 0 {
			ia = len(profileOrder)
		}
		if ib < 0 {
			ib = len(profileOrder)
		}
		if ia != ib {
			return ia - ib
		}
		return strings.Compare(a, b)
	})
	return out
})

// named returns the profile of the given file name, or nil. The profiles
// are profiles/*.json as Go values (profiles_gen.go, generated and checked
// by TestGenerated), so looking one up decodes nothing: decoding the
// agents profile with encoding/json at every start cost about a twentieth
// of a plain list's CPU (docs/performance.md#start-up).
func named(name string) *Profile {
	for _, p := range generated {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// profiles is every profile, in profileOrder.
var profiles = sync.OnceValue(func() []*Profile {
	var out []*Profile
	for _, name := range profileNames() {
		out = append(out, named(name))
	}
	return out
})

// Decode decodes one profile file, refusing unknown keys and values
// outside each field's set. The binary never decodes one: the generator
// (gen_test.go) checks each file with it before writing profiles_gen.go,
// and catalog's tests check the profiles they build.
func Decode(data []byte) (*Profile, error) {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	var p Profile
	if err := dec.Decode(&p); err != nil {
		return nil, err
	}
	check := func(field, v string, allowed ...string) error {
		if !slices.Contains(allowed, v) {
			return fmt.Errorf("%s is %q; want one of %s", field, v, strings.Join(allowed, ", "))
		}
		return nil
	}
	for _, err := range []error{
		check("checked", p.Checked, "recorded", "documentation", "specification"),
		check("roots.walkUp", p.Roots.WalkUp, "cwd", "git-root", "cwd+git-root", "all"),
		check("roots.noGit", p.Roots.NoGit, "cwd", "all", "home"),
		check("roots.gitMarker", p.Roots.GitMarker, "", "any", "dir", "git"),
		check("precedence.duplicates", p.Precedence.Duplicates, "first", "all", "any"),
		check("names.source", p.Names.Source, "field", "folder"),
		check("names.normalize", p.Names.Normalize, "", "kebab", "path-chars", "spaces"),
		check("parse.bom", p.Parse.BOM, "strip", "drop"),
		check("parse.noFrontmatter", p.Parse.NoFrontmatter, "drop", "load"),
		check("parse.yaml", p.Parse.YAML, "strict", "repair", "subset"),
		check("parse.brokenYAML", p.Parse.BrokenYAML, "", "drop", "lines", "single-lines", "last-lines", "key-lines", "empty"),
		check("parse.fences", p.Parse.Fences, "", "exact", "closing-prefix", "prefix"),
		check("parse.mergeKeys", p.Parse.MergeKeys, "", "apply"),
		check("disclosure.disabledWhen", p.Disclosure.DisabledWhen, "", "true", "boolean"),
		check("parse.description", p.Parse.Description, "drop", "empty", "body", "first-line", "body-text"),
		check("parse.emptyDescription", p.Parse.EmptyDescription, "", "load"),
		check("disclosure.location", p.Disclosure.Location, "", "file", "folder"),
		check("parse.longDescription", p.Parse.LongDescription, "", "drop", "cut", "keep"),
		check("parse.emptyBody", p.Parse.EmptyBody, "", "load", "drop"),
		check("parse.duplicateKeys", p.Parse.DuplicateKeys, "", "last", "drop", "broken"),
		check("disclosure.units", p.Disclosure.Units, "", "utf16"),
		check("names.emptyName", p.Names.EmptyName, "", "drop", "keep"),
		check("parse.finalBreak", p.Parse.FinalBreak, "", "drop"),
		check("disclosure.paths", p.Disclosure.Paths, "", "conditional"),
		check("discovery.order", p.Discovery.Order, "", "name"),
		check("parse.lineEnds", p.Parse.LineEnds, "", "lf"),
		check("parse.tabs", p.Parse.Tabs, "", "spaces", "drop"),
		check("parse.nonString", p.Parse.NonString, "", "drop", "broken", "js-string"),
	} {
		if err != nil {
			return nil, err
		}
	}
	for k, t := range p.Parse.FieldTypes {
		if t != "string" && t != "list" {
			return nil, fmt.Errorf("parse.fieldTypes %q: %q is not string or list", k, t)
		}
	}
	for _, pat := range p.Discovery.Skip {
		if _, err := path.Match(pat, ""); err != nil {
			return nil, fmt.Errorf("discovery.skip %q: %w", pat, err)
		}
	}
	for root, pats := range p.Discovery.RootSkip {
		if !slices.Contains(p.Roots.Project, root) && !slices.Contains(p.Roots.User, root) {
			return nil, fmt.Errorf("discovery.rootSkip names %q, which is not a root of the profile", root)
		}
		for _, pat := range pats {
			if _, err := path.Match(pat, ""); err != nil {
				return nil, fmt.Errorf("discovery.rootSkip %q: %w", pat, err)
			}
		}
	}
	if p.Names.Pattern != "" {
		if _, err := Pattern(p.Names.Pattern); err != nil {
			return nil, fmt.Errorf("names.pattern: %w", err)
		}
	}
	if p.Name == "" || p.Title == "" {
		return nil, fmt.Errorf("name and title are required")
	}
	return &p, nil
}

// All returns every host profile, the default first. The profiles are
// shared: do not modify them.
func All() []*Profile { return profiles() }

// Lookup returns the profile of the given name (case-insensitive).
func Lookup(name string) (*Profile, bool) {
	if p := named(name); p != nil {
		return p, true
	}
	for _, p := range generated {
		if strings.EqualFold(p.Name, name) {
			return p, true
		}
	}
	return nil, false
}

// Names returns the names of every profile, the default first.
func Names() []string { return slices.Clone(profileNames()) }

// Suggest returns the profile name nearest to name, or "" when none is
// near.
func Suggest(name string) string { return suggest.Nearest(name, profileNames()) }

// patterns caches the compiled names.pattern of each profile.
var patterns sync.Map // string -> *regexp.Regexp

// Pattern compiles a profile's names.pattern once.
func Pattern(p string) (*regexp.Regexp, error) {
	if re, ok := patterns.Load(p); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, err
	}
	patterns.Store(p, re)
	return re, nil
}
