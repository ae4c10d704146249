package lint

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/internal/profile"
	"github.com/skillet-go/skillet/internal/spec"
	"github.com/skillet-go/skillet/skill"
)

// ScaffoldOptions describe the skill [Scaffold] writes (skillet new,
// Kestrel's "skills new").
type ScaffoldOptions struct {
	// Name is the skill's name; it is normalised to kebab-case.
	Name string
	// Description is required. Triggers, when given, is appended to it as
	// "Use when TRIGGERS.", so every host routes on it.
	Description string
	Triggers    string
	// WhenToUse, when given, is written as the when-to-use field, which
	// only some hosts read (Scaffolded.Notes names the others) and which
	// strict mode reports as an unknown field.
	WhenToUse string
	// License and AllowedTools are written as the specification's license
	// and allowed-tools fields when given (allowed-tools: tools separated
	// by spaces, as the specification writes them).
	License      string
	AllowedTools string
	// Flat writes the flat form ROOT/NAME.md instead of ROOT/NAME/SKILL.md.
	Flat bool
	// Targets are host profiles (catalog.ProfileNames) the skill ships to:
	// it is written into a project folder every one of them reads. Empty
	// means the catalog's preset when that is a host's, else none.
	Targets []string
}

// Scaffolded says what [Scaffold] wrote.
type Scaffolded struct {
	// Path is the absolute path of the file written.
	Path string
	// Name is the name used, and Asked the name given, when normalising
	// changed it ("" otherwise).
	Name, Asked string
	// Notes are what a person should know about the file written: hosts
	// that ignore when-to-use, a description the catalog cuts.
	Notes []string
}

// readsWhenToUse are the host profiles that read the when-to-use field
// (docs/hosts.md); skillet reads it too. Every other host ignores it.
var readsWhenToUse = map[string]bool{"kestrel": true}

// Errors of [Scaffold]; they are wrapped with details.
var (
	// ErrExists: a skill of that name, or the file or folder it would be
	// written to, already exists. Nothing is written.
	ErrExists = errors.New("already exists")
	// ErrInvalid: the name or description cannot be used as given.
	ErrInvalid = errors.New("invalid")
	// ErrNoRoot: there is no project directory to write into (the
	// workspace does not exist, or every configured directory escapes it).
	ErrNoRoot = errors.New("no project directory to write into")
)

// Scaffold writes a new skill into a project folder of c's workspace: one
// that every target reads (ScaffoldOptions.Targets, else a host preset),
// preferring a folder that exists and that the most recorded agents read
// (in a repository that has only .claude/skills, that one); with none, the
// first configured directory or the preset's first project folder, created
// if missing. A note says which hosts read the folder written to. The name is normalised to kebab-case (Scaffolded.Asked says when
// that changed it). It never overwrites: when a project skill of that name
// exists, or the target file or folder does, it returns ErrExists and writes
// nothing. Without WhenToUse, what it writes passes skillet lint, lint
// --strict, validate and every host --target with no finding, as long as
// the description fits maxDescriptionChars; a longer one, up to the
// specification's 1024 characters, is written with a note (ErrInvalid
// beyond).
func Scaffold(ctx context.Context, c *catalog.Catalog, opts *ScaffoldOptions) (*Scaffolded, error) {
	if opts == nil {
		opts = &ScaffoldOptions{}
	}
	name, err := scaffoldName(opts.Name)
	if err != nil {
		return nil, err
	}
	fields, err := scaffoldFields(opts)
	if err != nil {
		return nil, err
	}
	notes := scaffoldNotes(c, fields)
	rootPath, dir, path, err := scaffoldPlace(ctx, c, name, opts)
	if err != nil {
		return nil, err
	}
	src := ScaffoldSource(name, fields)
	_, diags := skill.Parse(src, &skill.Options{Path: path, Flat: opts.Flat, Mode: c.Settings().Mode,
		MaxDescriptionChars: c.Settings().MaxDescriptionChars})
	for _, d := range diags {
		if d.Code != diagcode.DescriptionLong {
			return nil, fmt.Errorf("%w: the scaffold would not load cleanly: %s", ErrInvalid, d.Message)
		}
	}
	if err := writeScaffold(rootPath, dir, path, opts.Flat, src); err != nil {
		return nil, err
	}
	notes = append(notes, readersNote(c, rootPath))
	out := &Scaffolded{Path: path, Name: name, Notes: notes}
	if name != opts.Name {
		out.Asked = opts.Name
	}
	return out, nil
}

// scaffoldName is the asked name normalised to kebab-case; ErrInvalid when
// nothing is left of it or it is longer than the specification allows.
func scaffoldName(asked string) (string, error) {
	name := skill.Normalize(asked)
	switch {
	case name == "":
		return "", fmt.Errorf("%w name %q: it has no letter or digit", ErrInvalid, asked)
	case !skill.ValidName(name):
		return "", fmt.Errorf("%w name %q: %d characters, over the specification's %d", ErrInvalid, name, utf8.RuneCountInString(name), spec.MaxNameChars)
	}
	return name, nil
}

// scaffoldFields are the frontmatter values of opts as written: each on
// one line, the triggers appended to the description as "Use when
// TRIGGERS."; ErrInvalid when there is no description, a value is not
// UTF-8 or the description is over the specification's length.
func scaffoldFields(opts *ScaffoldOptions) (*ScaffoldOptions, error) {
	desc := oneLine(opts.Description)
	when := strings.TrimSpace(opts.WhenToUse)
	if t := oneLine(opts.Triggers); t != "" && desc != "" {
		if !strings.HasSuffix(desc, ".") && !strings.HasSuffix(desc, "!") && !strings.HasSuffix(desc, "?") {
			desc += "."
		}
		desc += " Use when " + strings.TrimSuffix(t, ".") + "."
	}
	license, tools := oneLine(opts.License), oneLine(opts.AllowedTools)
	switch n := utf8.RuneCountInString(desc); {
	case desc == "":
		return nil, fmt.Errorf("%w description: a description is required", ErrInvalid)
	case !utf8.ValidString(desc) || !utf8.ValidString(when) || !utf8.ValidString(license) || !utf8.ValidString(tools):
		return nil, fmt.Errorf("%w description: not valid UTF-8", ErrInvalid)
	case n > spec.MaxDescriptionChars:
		return nil, fmt.Errorf("%w description: %d characters, over the specification's %d; shorten it and move detail into the body", ErrInvalid, n, spec.MaxDescriptionChars)
	}
	return &ScaffoldOptions{Description: desc, WhenToUse: when, License: license, AllowedTools: tools}, nil
}

// scaffoldNotes are the notes on fields before the skill is written: a
// description the catalog cuts, a when-to-use field most hosts ignore.
func scaffoldNotes(c *catalog.Catalog, fields *ScaffoldOptions) []string {
	var notes []string
	desc := fields.Description
	if max := c.Settings().MaxDescriptionChars; max > 0 && utf8.RuneCountInString(desc) > max {
		notes = append(notes, fmt.Sprintf("the description has %d characters; the catalog shows the first %d (maxDescriptionChars), and skillet lint reports description-long",
			utf8.RuneCountInString(desc), max))
	}
	if fields.WhenToUse != "" {
		var ignore []string
		for _, p := range profile.All() {
			if !p.Native && !readsWhenToUse[p.Name] {
				ignore = append(ignore, p.Title)
			}
		}
		notes = append(notes, "when-to-use is not in the specification: "+strings.Join(ignore, ", ")+
			" ignore it, and skillet lint --strict reports it as unknown-field; --triggers puts the same words into the description, which every host reads")
	}
	return notes
}

// scaffoldPlace chooses where skill name goes: the project folder root
// (scaffoldRoot), the skill's folder dir in it and the file path (root/
// name.md with Flat). ErrExists when a project skill of that name, the
// folder or the flat file already exists; ErrInvalid for Flat under a
// preset that does not read flat files.
func scaffoldPlace(ctx context.Context, c *catalog.Catalog, name string, opts *ScaffoldOptions) (root, dir, path string, err error) {
	l, err := c.List(ctx)
	if err != nil {
		return "", "", "", err
	}
	targets, err := scaffoldTargets(c, opts.Targets)
	if err != nil {
		return "", "", "", err
	}
	r, err := scaffoldRoot(c, l, targets)
	if err != nil {
		return "", "", "", err
	}
	if opts.Flat && !r.Flat {
		return "", "", "", fmt.Errorf("%w: the preset %s does not read flat-form files; leave out --flat", ErrInvalid, c.Settings().Preset)
	}
	for _, cd := range candidates(l) {
		if cd.Skill != nil && !cd.Ignored && cd.Scope == string(catalog.ScopeProject) && cd.Skill.Name == name {
			return "", "", "", fmt.Errorf("the skill %q %w at %s", name, ErrExists, cd.Path)
		}
	}
	dir, path = filepath.Join(r.Path, name), filepath.Join(r.Path, name, catalog.SkillFile)
	if opts.Flat {
		path = filepath.Join(r.Path, name+".md")
	}
	for _, p := range []string{dir, filepath.Join(r.Path, name+".md")} {
		if _, err := os.Lstat(p); err == nil {
			return "", "", "", fmt.Errorf("%s %w", p, ErrExists)
		}
	}
	return r.Path, dir, path, nil
}

// writeScaffold creates root if missing, then the skill's folder dir
// (unless flat) and the file path with src, neither of which may exist
// (ErrExists); a folder made for a file that could not be written is
// removed.
func writeScaffold(root, dir, path string, flat bool, src []byte) error {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return err
	}
	if !flat {
		if err := os.Mkdir(dir, 0o755); err != nil {
			if errors.Is(err, os.ErrExist) {
				return fmt.Errorf("%s %w", dir, ErrExists)
			}
			return err
		}
	}
	if err := writeNew(path, src); err != nil {
		if !flat {
			os.Remove(dir)
		}
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("%s %w", path, ErrExists)
		}
		return err
	}
	return nil
}

// writeNew creates path (it must not exist) with data.
func writeNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return err
	}
	return nil
}

// ScaffoldSource returns the SKILL.md that Scaffold writes for name (which
// must meet the specification's rule): frontmatter with name, description
// and, when given, when-to-use, license and allowed-tools, values quoted
// where YAML needs it, then a heading and a numbered list for the author to
// replace with the procedure. Only the fields of opts are used.
func ScaffoldSource(name string, opts *ScaffoldOptions) []byte {
	if opts == nil {
		opts = &ScaffoldOptions{}
	}
	var b strings.Builder
	b.WriteString("---\n")
	b.WriteString("name: " + yamlText(name) + "\n")
	b.WriteString("description: " + yamlText(opts.Description) + "\n")
	if opts.WhenToUse != "" {
		b.WriteString("when-to-use: " + yamlText(opts.WhenToUse) + "\n")
	}
	if opts.License != "" {
		b.WriteString("license: " + yamlText(opts.License) + "\n")
	}
	if opts.AllowedTools != "" {
		b.WriteString("allowed-tools: " + yamlText(opts.AllowedTools) + "\n")
	}
	b.WriteString("---\n\n")
	b.WriteString("# " + title(name) + "\n\n")
	if opts.WhenToUse != "" {
		b.WriteString("Use this skill when: " + oneLine(opts.WhenToUse) + "\n\n")
	}
	b.WriteString("## Steps\n\n")
	b.WriteString("1. Replace this list with the procedure, one action per step, in the order\n")
	b.WriteString("   the model should follow it.\n")
	b.WriteString("2. Say how to check that each step worked, and what to do when it did not.\n")
	b.WriteString("3. Put long reference material in files under references/ and say here\n")
	b.WriteString("   when to read each one.\n")
	return []byte(b.String())
}

func title(name string) string {
	s := strings.ReplaceAll(name, "-", " ")
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// yamlText writes s as a YAML scalar: plain when YAML reads that back as
// the same string, else double-quoted.
func yamlText(s string) string {
	if plainSafe(s) {
		return s
	}
	return strconv.Quote(s)
}

// plainSafe is deliberately narrow: one line, no surrounding blanks, no
// character that starts YAML syntax at the front, no ": " or " #" inside,
// no trailing ":", and not a number, bool or null.
func plainSafe(s string) bool {
	if s == "" || s != strings.TrimSpace(s) || strings.ContainsAny(s, "\n\r\t\"\\") {
		return false
	}
	if strings.ContainsRune("-?:,[]{}#&*!|>'%@`", rune(s[0])) {
		return false
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	if c := s[0]; c >= '0' && c <= '9' || c == '+' || c == '.' || c == '~' {
		return false
	}
	switch strings.ToLower(s) {
	case "true", "false", "null", "yes", "no", "on", "off":
		return false
	}
	return true
}

// scaffoldTargets are the host profiles named (ErrUnknownHost for another
// name), or the catalog's preset when it is a host's and none is named.
func scaffoldTargets(c *catalog.Catalog, names []string) ([]*profile.Profile, error) {
	if len(names) == 0 {
		if p, ok := profile.Lookup(c.Settings().Preset); ok && !p.Native {
			return []*profile.Profile{p}, nil
		}
		return nil, nil
	}
	var out []*profile.Profile
	for _, n := range names {
		p, ok := profile.Lookup(n)
		if !ok || p.Native {
			return nil, unknownHost(n)
		}
		out = append(out, p)
	}
	return out, nil
}

// scaffoldRoot chooses the folder Scaffold writes into, inside the
// workspace: among the catalog's project roots (the configured directories,
// else the preset's folders), those every target reads from the workspace
// (catx.HostFolders); with targets and no such root, the first folder
// they all read. Of those, the existing folder the most recorded agents
// read (docs/hosts.md: skills/ is read by none), else the first.
func scaffoldRoot(c *catalog.Catalog, l *catalog.Listing, targets []*profile.Profile) (*catalog.Root, error) {
	var roots []catalog.Root
	for _, r := range l.Roots {
		if r.Scope == catalog.ScopeProject && !r.File && fsx.Within(r.Path, l.Workspace) {
			roots = append(roots, r)
		}
	}
	if len(roots) == 0 && len(targets) == 0 {
		return nil, fmt.Errorf("%w in workspace %s", ErrNoRoot, l.Workspace)
	}
	if len(targets) > 0 {
		var common []string
		for i, t := range targets {
			var f []string
			for _, d := range catx.HostFolders(t, c) {
				if fsx.Within(d, l.Workspace) && (i == 0 || slices.Contains(common, d)) {
					f = append(f, d)
				}
			}
			common = f
		}
		if len(common) == 0 {
			var reads []string
			for _, t := range targets {
				reads = append(reads, fmt.Sprintf("%s reads %s", t.Name, strings.Join(t.Roots.Project, ", ")))
			}
			return nil, fmt.Errorf("%w: no project folder is read by every target (%s); write one skill per folder, or link one folder into the other", ErrInvalid, strings.Join(reads, "; "))
		}
		roots = slices.DeleteFunc(roots, func(r catalog.Root) bool { return !slices.Contains(common, r.Path) })
		if len(roots) == 0 {
			fi, err := os.Stat(common[0])
			roots = []catalog.Root{{Path: common[0], Scope: catalog.ScopeProject, Exists: err == nil && fi.IsDir()}}
		}
	}
	best, most := 0, 0
	for i, r := range roots {
		if !r.Exists {
			continue
		}
		n := 0
		for _, h := range readers(c, r.Path) {
			if p, _ := profile.Lookup(h); p.Checked == "recorded" {
				n++
			}
		}
		if n > most {
			best, most = i, n
		}
	}
	return &roots[best], nil
}

// readers are the host profiles that read folder dir when started in c's
// workspace.
func readers(c *catalog.Catalog, dir string) []string {
	var out []string
	for _, p := range hostProfiles() {
		if slices.Contains(catx.HostFolders(p, c), dir) {
			out = append(out, p.Name)
		}
	}
	return out
}

// readersNote says which hosts read the folder a skill was written to, and
// which do not.
func readersNote(c *catalog.Catalog, dir string) string {
	in := readers(c, dir)
	var out []string
	for _, p := range hostProfiles() {
		if !slices.Contains(in, p.Name) {
			out = append(out, p.Name)
		}
	}
	rel := fsx.Display(dir, c.Workspace())
	switch {
	case len(in) == 0:
		return fmt.Sprintf("%s is read by skillet only, by no host (lint --compat says more)", rel)
	case len(out) == 0:
		return fmt.Sprintf("%s is read by every host (%s)", rel, strings.Join(in, ", "))
	}
	return fmt.Sprintf("%s is read by %s; not by %s (skillet new --target HOST writes where HOST reads)", rel, strings.Join(in, ", "), strings.Join(out, ", "))
}
