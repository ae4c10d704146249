package lint

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/internal/ignore"
	"github.com/skillet-go/skillet/internal/profile"
	"github.com/skillet-go/skillet/internal/suggest"
	"github.com/skillet-go/skillet/skill"
)

// Rules choose which rules (diagnostic codes) [Run] reports and at which
// level (docs/lint.md#choosing-rules), as ruff's and golangci-lint's rule
// selection does. Each entry is a code, a prefix of codes that ends
// where a "-" follows ("name" is name-invalid, name-mismatch, name-missing
// and name-normalized), or "all". An entry that is none of these makes
// Run fail with an error wrapping [ErrUnknownCode] (from Options.Rules) or
// report a config-invalid error at its line and column (from skillet.yaml).
//
// Options.Rules are the command line's (--select, --extend-select,
// --ignore) and are taken with the lint: section of skillet.yaml: Select
// replaces the file's select, the other fields add to the file's, and a
// Severity given here wins over the file's for the same entry.
type Rules struct {
	// Select are the rules reported; empty means the rules on by default
	// (every code but those whose CodeInfo.OptIn is set).
	Select []string
	// ExtendSelect are rules reported besides Select (opt-in ones, say).
	ExtendSelect []string
	// Ignore are rules not reported, whatever selects them.
	Ignore []string
	// Severity sets the level (error, warning or note) of the findings of
	// a rule; a code's own entry wins over a prefix's.
	Severity map[string]skill.Severity
	// PerPathIgnores are rules not reported for paths a pattern matches,
	// by pattern: relative to the workspace, in .gitignore syntax (a
	// folder's pattern covers what is below it).
	PerPathIgnores map[string][]string
}

// ErrUnknownCode is returned by [Run] for an entry of Options.Rules that
// is no code, prefix of codes or "all"; the message suggests the nearest
// code.
var ErrUnknownCode = errors.New("unknown rule")

var _ = skill.Register(skill.CodeInfo{Code: diagcode.SuppressionUnused, Severity: skill.SeverityWarning,
	Summary: "a # skillet: ignore[...] comment in the frontmatter suppresses nothing, or names no code",
	Remedy:  "remove the code from the comment (or the comment), or correct the code's spelling",
	Source:  "docs/lint.md#choosing-rules",
	Help: "A comment \"# skillet: ignore[CODE,...]\" in a skill's frontmatter keeps skillet lint from reporting those codes (or prefixes) for that skill, " +
		"with or without --strict. This finding says that one of its entries matched no finding of the run, so the comment no longer does anything, " +
		"or that the entry is no code (the message names the nearest one). Without --strict an entry for a rule that --strict raises to an error " +
		"(an unknown-field, say) is not reported as unused: it may be there for --strict runs."})

// matchRule returns the codes of known that the entry e selects: the code
// itself, the codes that start with e and a "-", or every code for "all";
// nil when e selects none.
func matchRule(e string, known []skill.CodeInfo) []skill.Code {
	var out []skill.Code
	for _, ci := range known {
		c := string(ci.Code)
		if e == "all" || c == e || strings.HasPrefix(c, e+"-") || strings.HasSuffix(e, "-") && strings.HasPrefix(c, e) {
			out = append(out, ci.Code)
		}
	}
	return out
}

// unknownRule is the message for an entry that selects no code: the
// entry and the nearest code, or prefix of codes ("description" for
// "descripton"), or "all" ("ALL").
func unknownRule(e string, known []skill.CodeInfo) string {
	names := make([]string, 0, 2*len(known)+1)
	for _, ci := range known {
		names = append(names, string(ci.Code))
	}
	for _, ci := range known {
		c := string(ci.Code)
		for i := strings.IndexByte(c, '-'); i > 0; {
			if p := c[:i]; !slices.Contains(names, p) {
				names = append(names, p)
			}
			j := strings.IndexByte(c[i+1:], '-')
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	names = append(names, "all")
	msg := fmt.Sprintf("%q is no diagnostic code", e)
	if near := suggest.Nearest(e, names); near != "" {
		msg += fmt.Sprintf("; did you mean %s?", near)
	}
	return msg + " (skillet lint --list-rules lists them)"
}

// CheckRule returns nil when e is a code, a prefix of codes or "all" (as
// [Rules] takes them), else an error wrapping [ErrUnknownCode] that
// suggests the nearest code.
func CheckRule(e string) error {
	known := skill.Codes()
	if len(matchRule(e, known)) > 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrUnknownCode, unknownRule(e, known))
}

// selection is the choice of rules of one run: the codes reported, their
// levels, and the per-path ignores.
type selection struct {
	on       map[skill.Code]bool
	level    map[skill.Code]skill.Severity
	paths    []pathIgnore
	selected bool // a select was given: a code not in on is off
}

// reported reports whether the findings of code are reported.
func (sel *selection) reported(code skill.Code) bool {
	if on, ok := sel.on[code]; ok {
		return on
	}
	return !sel.selected
}

type pathIgnore struct {
	m     *ignore.Matcher
	codes map[skill.Code]bool
}

// newSelection makes the selection of the command line's rules (opts,
// may be nil) and the configuration file's (cfg, may be nil). Unknown
// entries of opts are an error wrapping ErrUnknownCode; those of the file
// come back as a *catalog.ConfigError with each one's line and column.
func newSelection(opts *Rules, cfg *catalog.LintConfig, configPath string) (*selection, error) {
	if opts == nil {
		opts = &Rules{}
	}
	if cfg == nil {
		cfg = &catalog.LintConfig{}
	}
	sb := &selectionBuilder{known: skill.Codes(), configPath: configPath}
	sel := &selection{on: map[skill.Code]bool{}, level: map[skill.Code]skill.Severity{}}
	selected := sb.fileCodes(cfg.Select)
	if len(opts.Select) > 0 {
		selected = sb.flagCodes(opts.Select)
	}
	if len(opts.Select) == 0 && len(cfg.Select) == 0 {
		for _, ci := range sb.known {
			sel.on[ci.Code] = !ci.OptIn
		}
	}
	set := func(on bool, groups ...[][]skill.Code) {
		for _, group := range groups {
			for _, codes := range group {
				for _, c := range codes {
					sel.on[c] = on
				}
			}
		}
	}
	set(true, selected, sb.fileCodes(cfg.ExtendSelect), sb.flagCodes(opts.ExtendSelect))
	set(false, sb.fileCodes(cfg.Ignore), sb.flagCodes(opts.Ignore))
	sel.selected = len(opts.Select) > 0 || len(cfg.Select) > 0
	sb.levels(sel, opts, cfg)
	// Per-path ignores: the file's, then the command line's.
	for _, pi := range cfg.PerPathIgnores {
		sel.paths = append(sel.paths, newPathIgnore(pi.Path.Value, sb.fileCodes(pi.Codes)))
	}
	for _, pattern := range slices.Sorted(maps.Keys(opts.PerPathIgnores)) {
		sel.paths = append(sel.paths, newPathIgnore(pattern, sb.flagCodes(opts.PerPathIgnores[pattern])))
	}
	if len(sb.bad) > 0 {
		first := sb.bad[0]
		first.More = sb.bad[1:]
		return nil, first
	}
	if sb.flagErr != nil {
		return nil, sb.flagErr
	}
	return sel, nil
}

// selectionBuilder resolves the entries of one newSelection, gathering
// the configuration file's unknown entries (bad) and the command line's
// first (flagErr).
type selectionBuilder struct {
	known      []skill.CodeInfo
	configPath string
	bad        []*catalog.ConfigError
	flagErr    error
}

// fileCodes resolves entries of the configuration file, one list of
// codes each; an unknown one is recorded in bad at its line and column.
func (sb *selectionBuilder) fileCodes(vs []catalog.ConfigValue) [][]skill.Code {
	var out [][]skill.Code
	for _, v := range vs {
		m := matchRule(v.Value, sb.known)
		if m == nil {
			sb.bad = append(sb.bad, &catalog.ConfigError{Path: sb.configPath, Line: v.Line, Column: v.Column, Message: "lint: " + unknownRule(v.Value, sb.known)})
		}
		out = append(out, m)
	}
	return out
}

// flagCodes resolves entries of Options.Rules; the first unknown one is
// flagErr.
func (sb *selectionBuilder) flagCodes(es []string) [][]skill.Code {
	var out [][]skill.Code
	for _, e := range es {
		m := matchRule(e, sb.known)
		if m == nil && sb.flagErr == nil {
			sb.flagErr = fmt.Errorf("%w: %s", ErrUnknownCode, unknownRule(e, sb.known))
		}
		out = append(out, m)
	}
	return out
}

// levels sets sel.level: the file's entries, then the command line's;
// within each, prefixes before codes, so that a code's own entry wins.
func (sb *selectionBuilder) levels(sel *selection, opts *Rules, cfg *catalog.LintConfig) {
	type levelEntry struct {
		e     string
		level skill.Severity
		at    *catalog.ConfigValue
	}
	var levels []levelEntry
	for _, s := range cfg.Severity {
		levels = append(levels, levelEntry{s.Code.Value, skill.Severity(s.Level.Value), &s.Level})
		sb.fileCodes([]catalog.ConfigValue{s.Code})
	}
	for _, e := range slices.Sorted(maps.Keys(opts.Severity)) {
		levels = append(levels, levelEntry{e, opts.Severity[e], nil})
		sb.flagCodes([]string{e})
	}
	for _, exact := range []bool{false, true} {
		for _, le := range levels {
			m := matchRule(le.e, sb.known)
			if (len(m) == 1 && string(m[0]) == le.e) != exact {
				continue
			}
			switch le.level {
			case skill.SeverityError, skill.SeverityWarning, skill.SeverityNote:
			default:
				if le.at != nil {
					sb.bad = append(sb.bad, &catalog.ConfigError{Path: sb.configPath, Line: le.at.Line, Column: le.at.Column,
						Message: fmt.Sprintf("lint.severity.%s must be error, warning or note, not %q", le.e, le.level)})
				} else if sb.flagErr == nil {
					sb.flagErr = fmt.Errorf("%w: level %q of %s (error, warning or note)", ErrUnknownCode, le.level, le.e)
				}
				continue
			}
			for _, c := range m {
				sel.level[c] = le.level
			}
		}
	}
}

// newPathIgnore is a per-path ignore of codes where pattern matches.
func newPathIgnore(pattern string, codes [][]skill.Code) pathIgnore {
	m, _ := ignore.Parse([]byte(pattern))
	pi := pathIgnore{m: m, codes: map[skill.Code]bool{}}
	for _, cs := range codes {
		for _, c := range cs {
			pi.codes[c] = true
		}
	}
	return pi
}

// ignoredAt reports whether a per-path ignore covers code at path (made
// relative to the workspace ws).
func (sel *selection) ignoredAt(code skill.Code, path, ws string) bool {
	if len(sel.paths) == 0 {
		return false
	}
	rel, err := filepath.Rel(ws, path)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return false
	}
	rel = filepath.ToSlash(rel)
	for _, pi := range sel.paths {
		if pi.codes[code] && pi.m.Excluded(rel, false) {
			return true
		}
	}
	return false
}

// inlineIgnore is one entry of a skill's "# skillet: ignore[...]"
// frontmatter comment: the code or prefix, where it is, and the codes it
// selects (none for an unknown entry).
type inlineIgnore struct {
	entry        string
	line, column int
	codes        []skill.Code
}

// inlineIgnores reads the "# skillet: ignore[CODE,...]" comments of a
// frontmatter (head: the file's bytes up to the body). A comment takes a
// line of its own or ends a line; entries are codes or prefixes, split
// at commas. Lines are 1-based from the file's start; columns count bytes.
func inlineIgnores(head []byte) []inlineIgnore {
	if !bytes.Contains(head, []byte("skillet:")) {
		return nil
	}
	var out []inlineIgnore
	var known []skill.CodeInfo
	line := 0
	for len(head) > 0 {
		line++
		text := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			text, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		s := string(text)
		at := strings.Index(s, "skillet:")
		if at < 0 {
			continue
		}
		hash := strings.LastIndexByte(s[:at], '#')
		if hash < 0 || strings.TrimSpace(s[hash+1:at]) != "" || hash > 0 && s[hash-1] != ' ' && s[hash-1] != '\t' {
			continue
		}
		rest := strings.TrimLeft(s[at+len("skillet:"):], " \t")
		if !strings.HasPrefix(rest, "ignore[") {
			continue
		}
		open := len(s) - len(rest) + len("ignore[")
		end := strings.IndexByte(s[open:], ']')
		if end < 0 {
			continue
		}
		if known == nil {
			known = skill.Codes()
		}
		col := open
		for _, part := range strings.Split(s[open:open+end], ",") {
			e := strings.TrimSpace(part)
			if e != "" {
				lead := len(part) - len(strings.TrimLeftFunc(part, unicode.IsSpace)) // as TrimSpace trims
				out = append(out, inlineIgnore{entry: e, line: line, column: col + lead + 1, codes: matchRule(e, known)})
			}
			col += len(part) + 1
		}
	}
	return out
}

// unparsedFrontmatter returns the frontmatter of a skill file the
// listing could not parse: from its first line, when that is "---", to
// the next "---" line (or the end); nil when there is none or the file
// cannot be read.
func unparsedFrontmatter(path string) []byte {
	data, err := fsx.ReadFile(path, maxHeadRead)
	if err != nil {
		return nil
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !bytes.HasPrefix(data, []byte("---")) {
		return nil
	}
	for i := bytes.IndexByte(data, '\n'); i >= 0 && i+1 < len(data); {
		rest := data[i+1:]
		if bytes.HasPrefix(rest, []byte("---")) {
			return data[:i+1]
		}
		j := bytes.IndexByte(rest, '\n')
		if j < 0 {
			break
		}
		i += j + 1
	}
	return data
}

// fileIgnores are the inline ignores of one skill file, with which of
// them suppressed something.
type fileIgnores struct {
	path, dir, skill string
	flat             bool
	// unparsed: the file was refused (strict mode refuses more), so only
	// the specification's checks ran on it, not the body's or the folder's.
	unparsed bool
	entries  []inlineIgnore
	used     []bool
}

// covers reports whether d is about fi's skill: its file, or (folder
// form) a path in its folder reported for the same skill.
func (fi *fileIgnores) covers(d *skill.Diagnostic) bool {
	return d.Path == fi.path || !fi.flat && d.Skill == fi.skill && fsx.Within(d.Path, fi.dir)
}

// dropKey is what processSelect's verdict on a finding depends on: its
// code, path and skill.
type dropKey struct {
	code        skill.Code
	path, skill string
}

// ignoreIndex holds a run's inline ignores (fileIgnores), found for a
// finding by its path (byPath) or, for a folder-form ignore, by its skill
// in candidate order (bySkill: those that may cover a finding of that
// skill about a path no ignore is about).
type ignoreIndex struct {
	byPath  map[string]*fileIgnores
	bySkill map[string][]*fileIgnores
}

// newIgnoreIndex indexes ignores and clears each one's used marks.
func newIgnoreIndex(ignores []*fileIgnores) *ignoreIndex {
	in := &ignoreIndex{byPath: map[string]*fileIgnores{}, bySkill: map[string][]*fileIgnores{}}
	for _, fi := range ignores {
		fi.used = make([]bool, len(fi.entries))
		in.byPath[fi.path] = fi
		if !fi.flat && fi.skill != "" {
			in.bySkill[fi.skill] = append(in.bySkill[fi.skill], fi)
		}
	}
	return in
}

// suppresses reports whether an inline ignore covering d names d's code,
// marking each entry that does used.
func (in *ignoreIndex) suppresses(d *skill.Diagnostic) bool {
	fi := in.byPath[d.Path]
	if fi == nil && d.Skill != "" {
		// The first that covers d (no ignore is about d.Path).
		for _, x := range in.bySkill[d.Skill] {
			if x.covers(d) {
				fi = x
				break
			}
		}
	}
	if fi == nil || !fi.covers(d) {
		return false
	}
	hit := false
	for i, e := range fi.entries {
		if slices.Contains(e.codes, d.Code) {
			fi.used[i], hit = true, true
		}
	}
	return hit
}

// processSelect drops the findings of rules that are not selected, those
// a per-path ignore covers and those a skill's inline ignore covers, and
// reports each inline entry that suppressed nothing (suppression-unused).
func processSelect(st *state) {
	sel, ws := st.sel, st.r.Workspace
	inline := newIgnoreIndex(st.ignores)
	// Whether a finding goes depends on its code, path and skill alone,
	// and marking an inline ignore used twice is marking it once: a
	// finding like the one before (a file's broken references come in
	// runs) gets its answer (dropKey).
	var last dropKey
	lastDrop, primed := false, false
	st.diags = slices.DeleteFunc(st.diags, func(d skill.Diagnostic) bool {
		k := dropKey{d.Code, d.Path, d.Skill}
		if primed && k == last {
			return lastDrop
		}
		drop := d.Code != diagcode.ConfigInvalid && (!sel.reported(d.Code) || sel.ignoredAt(d.Code, d.Path, ws) || inline.suppresses(&d))
		last, lastDrop, primed = k, drop, true
		return drop
	})
	if !sel.reported(diagcode.SuppressionUnused) {
		return
	}
	if unused := unusedIgnores(st); len(unused) > 0 {
		st.diags = sortFindings([][]skill.Diagnostic{st.diags, unused})
	}
}

// unusedIgnores returns a suppression-unused finding for each inline
// ignore entry of st that suppressed nothing (processSelect marked the
// used ones), unless the entry may hold in another run: a specification
// rule's outside strict mode, or a rule that never ran on a refused file.
func unusedIgnores(st *state) []skill.Diagnostic {
	sel, ws := st.sel, st.r.Workspace
	strict := st.r.Settings.Mode == skill.Strict
	var unused []skill.Diagnostic
	for _, fi := range st.ignores {
		for i, e := range fi.entries {
			if fi.used[i] || st.files[fi.path] == nil || sel.ignoredAt(diagcode.SuppressionUnused, fi.path, ws) {
				continue
			}
			msg := ""
			switch {
			case e.codes == nil:
				msg = "skillet: ignore[" + e.entry + "]: " + unknownRule(e.entry, skill.Codes())
			case !strict && slices.ContainsFunc(e.codes, func(c skill.Code) bool { return c.Info().Spec }):
				continue // may be there for --strict runs
			case !slices.ContainsFunc(e.codes, func(c skill.Code) bool { return sel.reported(c) }):
				msg = fmt.Sprintf("skillet: ignore[%s] suppresses nothing: the rule is not selected", e.entry)
			case fi.unparsed && !slices.ContainsFunc(e.codes, func(c skill.Code) bool { return c.Info().Spec }):
				continue // its rule never ran on a refused file: it may hold once the file parses
			default:
				msg = fmt.Sprintf("skillet: ignore[%s] suppresses nothing: no finding of that rule here", e.entry)
			}
			unused = append(unused, skill.Diagnostic{Code: diagcode.SuppressionUnused, Severity: severity(diagcode.SuppressionUnused),
				Path: fi.path, Line: e.line, Column: e.column, Message: msg, Skill: fi.skill})
		}
	}
	return unused
}

// processSeverity sets the level of the findings of each rule the
// selection gives one.
func processSeverity(st *state) {
	if len(st.sel.level) == 0 {
		return
	}
	for i := range st.diags {
		if l, ok := st.sel.level[st.diags[i].Code]; ok {
			st.diags[i].Severity = l
		}
	}
}

// hostCutAt is where host p cuts a description before its model sees it,
// in characters: its catalog's limit, or its parser's when it cuts a long
// description rather than dropping the skill; 0 for no cut.
func hostCutAt(p *profile.Profile) int {
	at := 0
	if p.Parse.LongDescription == "cut" && p.Parse.MaxDescriptionChars > 0 {
		at = p.Parse.MaxDescriptionChars - utf8.RuneCountInString(p.Parse.Suffix)
	}
	if c := p.Disclosure.CatalogChars; c > 0 && (at == 0 || c < at) {
		at = c
	}
	return at
}

// whenClause finds a clause that says when to use a skill ("Use when",
// "Use PROACTIVELY", "Triggers on", "Invoke when", ...), in any letter case.
var whenClause = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(use (this skill )?(when|proactively|for|if|whenever)|triggers? (on|when)|invoke (when|for)|activate (when|for)|when (the )?user)\b`)
})

// descriptionCut is the description-cut finding of a skill host p loads
// but whose description it cuts (hostCutAt): how much is lost, and the
// "Use when" clause when it falls in the lost part.
func descriptionCut(p *profile.Profile, cd *candidate) (skill.Diagnostic, bool) {
	at := hostCutAt(p)
	if cd.Skill == nil || at == 0 {
		return skill.Diagnostic{}, false
	}
	desc := []rune(cd.Skill.Description)
	if len(desc) <= at {
		return skill.Diagnostic{}, false
	}
	lost := string(desc[at:])
	msg := fmt.Sprintf("%s shows the model the first %d of the description's %d characters (--target %s)", p.Name, at, len(desc), p.Name)
	if loc := whenClause().FindStringIndex(lost); loc != nil {
		quote := []rune(lost[loc[0]:])
		if len(quote) > 60 {
			quote = append(quote[:60], '…')
		}
		msg += fmt.Sprintf(", and what it says of when to use the skill is lost: %q", string(quote))
	} else if whenClause().MatchString(string(desc[:at])) {
		msg += "; what it says of when to use the skill is kept"
	}
	return skill.Diagnostic{Code: diagcode.DescriptionCut, Severity: severity(diagcode.DescriptionCut), Path: cd.Path,
		Message: msg, Skill: cd.Skill.Name}, true
}
