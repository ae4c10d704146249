package lint

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/skillet-go/skillet/agent"
	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/internal/pool"
	"github.com/skillet-go/skillet/internal/profile"
	"github.com/skillet-go/skillet/internal/suggest"
	"github.com/skillet-go/skillet/skill"
)

// Options configure [Run]. A nil *Options lints the current folder as the
// runtime would discover it.
type Options struct {
	// Catalog configures discovery exactly as for the runtime: workspace,
	// configuration file, preset, extra roots, strict mode and limits. A
	// nil Catalog is the zero catalog.Options. Run always reads ignored
	// files too, so files under entries starting with "_" or "." are checked.
	Catalog *catalog.Options
	// Targets limits the report to these files, folders or skill names.
	// A file or folder that no root covers is linted as an extra root
	// (as with --root); a name is the folder of the loaded skill of that
	// name. Empty means the whole workspace.
	Targets []string
	// Compat fills Report.Compat (the compatibility report).
	Compat bool
	// Hosts are host profiles (catalog.ProfileNames) the skills are meant
	// for: every skill file in scope that one of them would not load is
	// a not-loaded error (lint --target). An unknown name is an error
	// wrapping [ErrUnknownHost].
	Hosts []string
	// Rules choose the rules reported and their levels, with the lint:
	// section of the configuration file (lint --select, --extend-select,
	// --ignore); nil is the configuration's choice, or the rules on by
	// default. An unknown code is an error wrapping [ErrUnknownCode].
	Rules *Rules
}

// ErrUnknownHost is returned by [Run] for an Options.Hosts name that is no
// host profile; the message suggests the nearest name.
var ErrUnknownHost = errors.New("unknown host")

// ErrTarget is returned by [Run] for a target that is neither an existing
// path nor the name of a skill; the error wraps it with the target.
var ErrTarget = errors.New("no such file, folder or skill")

// Report is the result of a lint run.
type Report struct {
	// Workspace is the absolute workspace path.
	Workspace string
	// Settings are the effective settings of the catalog that was linted.
	Settings catalog.Settings
	// Files are the skill files checked and every other path with a
	// finding (a folder, the workspace), sorted by path.
	Files []*File
	// Diagnostics are all findings, sorted by path, line, column and code.
	Diagnostics []skill.Diagnostic
	// Compat is the compatibility report, when Options.Compat was set: one
	// entry per skill file that parses (ignored files excepted), sorted
	// by path.
	Compat []*Compat
	// Counts sums the report up.
	Counts Counts
}

// File is one path of the report with its findings.
type File struct {
	// Path is absolute.
	Path string
	// Name is the skill's name, "" when the path is not a skill file or
	// the file did not parse far enough to have one.
	Name string
	// Skill says the path is a skill file that was read (Counts.Files);
	// Loaded that it loads (Counts.Skills); Ignored that it sits under an
	// entry starting with "_" (a draft) or "." (hidden), so it is checked
	// but never loaded; Flat that it is a flat-form NAME.md.
	Skill, Loaded, Ignored, Flat bool
	// Diagnostics are the findings about this path, sorted: the part of
	// Report.Diagnostics about it (the same elements, not a copy).
	Diagnostics []skill.Diagnostic

	// What Fix needs: the bytes read for the suggested fixes, their
	// version, the file they came from and the suggestions.
	src         []byte
	version     *fsx.Version
	target      string
	suggestions []suggestion
	readErr     error
}

// Counts sums a report up: skill files checked, skills that load, and
// findings by level (docs/output.md's "counts").
type Counts struct {
	Files    int `json:"files"`
	Skills   int `json:"skills"`
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
}

// HasErrors reports whether the report holds at least one error: the
// condition for skillet lint's exit code 1.
func (r *Report) HasErrors() bool { return r.Counts.Errors > 0 }

// Run lints the skills of a workspace (docs/lint.md). It discovers them with
// package catalog, so every discovery finding (walk, symlinks, boundaries,
// precedence, limits) and every parse finding is the runtime's own, and adds
// the checks only lint makes: body-too-long, broken-reference, and the
// compatibility report. Ignored files (skill files under entries starting
// with "_" or ".", which the runtime skips: drafts and hidden folders) are
// read, parsed and checked the same way, but never loaded, so they take no
// part in duplicate-name, shadowed or catalog-truncated.
//
// A configuration file that cannot be used becomes a config-invalid error
// in the report, with nothing else checked. The error is non-nil when ctx
// is done, for an unknown preset, and for a target that does not exist
// (wrapping [ErrTarget]).
func Run(ctx context.Context, opts *Options) (*Report, error) {
	if opts == nil {
		opts = &Options{}
	}
	copts := catalog.Options{}
	if opts.Catalog != nil {
		copts = *opts.Catalog
	}
	catx.KeepBodies(&copts) // the body checks read every body: read each file once
	hosts, err := lookupHosts(opts.Hosts)
	if err != nil {
		return nil, err
	}
	c, sel, cr, err := openCatalog(ctx, &copts, opts.Rules)
	if cr != nil || err != nil {
		return cr, err
	}
	// Without targets every skill file is checked: the checks run as the
	// listing reads each file (early), not after the whole listing. (A
	// host preset's listing reads no bodies: its files are checked after.)
	// --compat and --target take each file's bytes from that read too
	// (sharedReads): the host profiles' searches are made first. With
	// targets outside the workspace, the checks and the shared reads are
	// those of the second listing (listScope), whose scope is known.
	var ec *earlyChecks
	sr := newSharedReads(opts.Compat, len(hosts) > 0)
	p, ok := profile.Lookup(c.Settings().Preset)
	native := ok && p.Native
	if native && len(opts.Targets) == 0 {
		if err := sr.search(ctx, &copts, nil); err != nil {
			return nil, err
		}
		ec = startEarly(c, sel, sr, nil)
	}
	c, l, scope, err := listScope(ctx, c, &copts, opts.Targets, func(c *catalog.Catalog, scope []string) error {
		if !native {
			return nil
		}
		if err := sr.search(ctx, &copts, scope); err != nil {
			return err
		}
		ec = startEarly(c, sel, sr, scope)
		return nil
	})
	if err != nil {
		return nil, err
	}
	st := &state{r: &Report{Workspace: l.Workspace, Settings: c.Settings()}, opts: opts, files: map[string]*File{},
		cands: candidates(l), scope: scope, sel: sel}
	st.compact = st.r.Settings.Mode != skill.Strict && scope == nil
	st.collect(l, st.checkFiles(l, ec))
	// --compat and --target judge each file where it is, by each host's
	// own listing of this workspace, over every file some host reads.
	var views []*hostView
	var judged []compatFile
	if opts.Compat || len(hosts) > 0 {
		keys := newFileKeys(sr.folders())
		if views, err = hostViews(ctx, &copts, hostProfiles(), keys, sr); err != nil {
			return nil, err
		}
		judged = compatFiles(st.cands, views, scope, keys)
	}
	st.parts = append(st.parts, workspaceFindings(c, l, st.cands, targetViews(views, hosts), judged, len(opts.Targets) > 0, st.parts[0]))
	for _, p := range processors {
		p.process(st)
	}
	if opts.Compat {
		st.r.Compat = compatReport(judged, views, st.r.Settings.MaxSkillBytes, sr)
	}
	return st.r, nil
}

// lookupHosts returns the profiles of the hosts named by --target, in
// order; an unknown name, or skillet's own, is an error (unknownHost).
func lookupHosts(names []string) ([]*profile.Profile, error) {
	var hosts []*profile.Profile
	for _, h := range names {
		p, ok := profile.Lookup(h)
		if !ok || p.Native {
			return nil, unknownHost(h)
		}
		hosts = append(hosts, p)
	}
	return hosts, nil
}

// openCatalog opens the workspace's catalog with copts, set to read every
// skill file (ignored ones included), and the rules chosen by rules and
// the configuration file's lint section. A configuration file that cannot
// be used is the report cr (configReport), with no error.
func openCatalog(ctx context.Context, copts *catalog.Options, rules *Rules) (c *catalog.Catalog, sel *selection, cr *Report, err error) {
	c, err = catalog.New(ctx, copts)
	if err == nil {
		sel, err = newSelection(rules, c.Config().Lint, c.Config().Path)
	}
	if err != nil {
		var ce *catalog.ConfigError
		if errors.As(err, &ce) {
			return nil, nil, configReport(ce), nil
		}
		return nil, nil, nil, err
	}
	catx.ReadIgnored(c) // every skill file: ignored ones are linted too
	return c, sel, nil, nil
}

// listScope lists c and returns the listing with the targets' paths
// (scope; nil for none). Targets outside the workspace's roots are added
// to copts.ExtraPaths, and the workspace listed again by a new catalog,
// which it returns; prepare is called with it and the scope before it
// lists.
func listScope(ctx context.Context, c *catalog.Catalog, copts *catalog.Options, targets []string,
	prepare func(c *catalog.Catalog, scope []string) error) (*catalog.Catalog, *catalog.Listing, []string, error) {
	l, err := c.List(ctx)
	if err != nil || len(targets) == 0 {
		return c, l, nil, err
	}
	scope, extra, err := resolveTargets(targets, l)
	if err != nil || len(extra) == 0 {
		return c, l, scope, err
	}
	copts.ExtraPaths = append(slices.Clone(copts.ExtraPaths), extra...)
	if c, err = catalog.New(ctx, copts); err != nil {
		return nil, nil, nil, err
	}
	catx.ReadIgnored(c)
	if err = prepare(c, scope); err != nil {
		return nil, nil, nil, err
	}
	if l, err = c.List(ctx); err != nil {
		return nil, nil, nil, err
	}
	return c, l, scope, nil
}

// targetViews is the views of the hosts of --target (hosts), in views'
// order.
func targetViews(views []*hostView, hosts []*profile.Profile) []*hostView {
	var targets []*hostView
	for _, hv := range views {
		if slices.Contains(hosts, hv.p) {
			targets = append(targets, hv)
		}
	}
	return targets
}

// state is a lint run after the listing: what the checks found and what
// the processors make of it, until the report.
type state struct {
	r     *Report
	opts  *Options
	files map[string]*File // by path: every skill file read, and any other path with a finding
	cands []*candidate
	scope []string // the targets' paths; nil for the whole workspace
	// The findings are kept in parts until they are sorted into diags:
	// the listing's, each candidate's (in candidate order), then the
	// workspace's, in this order, as one slice of them all would be. With
	// compact set the candidates' stay in their small form (found, between
	// parts[0] and the last part) unless a processor goes through every
	// finding (strict mode, a scope).
	parts   [][]skill.Diagnostic
	found   []*findings
	compact bool
	diags   []skill.Diagnostic // sorted, from the sort processor on
	sel     *selection         // the rules chosen
	ignores []*fileIgnores     // the skill files' inline ignores, in candidate order
}

// checkFiles runs lint's checks (checks) on every candidate in scope, on
// a bounded pool (they parse Markdown and stat bundled files), or takes
// what they found as the listing read the file (ec); the result is in
// candidate order, so the report does not depend on scheduling.
func (st *state) checkFiles(l *catalog.Listing, ec *earlyChecks) []*findings {
	cands := st.cands
	out := make([]*findings, len(cands))
	var todo []int // the candidates the checks run on
	shared := make(map[*catalog.Skill]int, len(cands))
	for _, cd := range cands {
		if cd.Skill != nil {
			shared[cd.Skill]++
		}
	}
	for i, cd := range cands {
		if cd.Skill != nil && !mayReport(cd.Path, st.scope) {
			if shared[cd.Skill] == 1 {
				cd.Skill.Parsed().Body = ""
			}
			continue // lint PATH: a sibling's findings would all be dropped by the scope
		}
		if r := ec.result(cd.Skill); r != nil {
			out[i] = r.found
			continue
		}
		if cd.Skill != nil {
			todo = append(todo, i)
		}
	}
	pool.Each(context.Background(), len(todo), pool.Disk, func(k int) {
		cd := cands[todo[k]]
		if onChecks != nil {
			onChecks(cd.Path, false)
		}
		out[todo[k]] = runFindings(ec.subjectOf(cd.Skill), st.sel)
		// Nothing after the checks reads the body (fixes read the file
		// again, the budget and compatibility reports read the
		// frontmatter), and this catalog is Run's own: let it go now
		// rather than hold every body until the report (unless another
		// candidate shares the skill).
		if shared[cd.Skill] == 1 {
			cd.Skill.Parsed().Body = ""
		}
	})
	return out
}

// collect makes the report's files of the candidates and puts the
// listing's findings and the checks' (found, in candidate order) in parts.
func (st *state) collect(l *catalog.Listing, found []*findings) {
	loaded := make(map[*catalog.Skill]bool, len(l.Skills))
	for _, s := range l.Skills {
		loaded[s] = true
	}
	st.parts = make([][]skill.Diagnostic, 0, len(st.cands)+2)
	st.parts = append(st.parts, slices.Clone(l.Diagnostics))
	for i, cd := range st.cands {
		f := &File{Path: cd.Path, Skill: true, Ignored: cd.Ignored, Flat: cd.Flat}
		st.files[cd.Path] = f
		if cd.Skill == nil {
			// Not parsed (strict mode refuses more): its inline ignores
			// still hold for the findings about it.
			if ig := inlineIgnores(unparsedFrontmatter(cd.Path)); len(ig) > 0 {
				st.ignores = append(st.ignores, &fileIgnores{path: cd.Path, dir: filepath.Dir(cd.Path), flat: cd.Flat, unparsed: true, entries: ig})
			}
			continue
		}
		f.Name = cd.Skill.Name
		f.Loaded = !cd.Ignored && loaded[cd.Skill]
		if fd := found[i]; fd != nil && len(fd.ignores) > 0 {
			st.ignores = append(st.ignores, &fileIgnores{path: cd.Path, dir: filepath.Dir(cd.Path), skill: cd.Skill.Name, flat: cd.Flat, entries: fd.ignores})
		}
		switch fd := found[i]; {
		case fd.len() == 0:
		case st.compact:
			st.found = append(st.found, fd)
		default:
			st.parts = append(st.parts, fd.appendTo(nil))
		}
	}
	// (lint's checks report no name-mismatch: the candidates' findings
	// hold none.)
	for k := range st.parts {
		st.parts[k] = dropIgnoredNameMismatch(st.parts[k], st.files)
	}
}

// workspaceFindings are the findings about the workspace as a whole,
// after the listing's (listed): no-skills when no skill file was found
// (without targets, and when no host's folder holds one that --compat or
// --target judge), not-loaded for each skill a --target host would not
// load where it is, and what the catalog's character budget shortened.
func workspaceFindings(c *catalog.Catalog, l *catalog.Listing, cands []*candidate, hosts []*hostView, judged []compatFile, targets bool, listed []skill.Diagnostic) []skill.Diagnostic {
	var diags []skill.Diagnostic
	if len(cands) == 0 && len(judged) == 0 && !targets && !slices.ContainsFunc(listed, func(d skill.Diagnostic) bool {
		return d.Code == diagcode.SkillsSkipped || d.Code == diagcode.WorkspaceMissing
	}) {
		diags = append(diags, elsewhere(l.Workspace, l.Roots)...)
	}
	for i := range judged {
		cf := &judged[i]
		for _, hv := range hosts {
			h := hv.verdict(cf)
			if h.Verdict != verdictNotLoaded {
				if cf.cd != nil {
					if d, ok := descriptionCut(hv.p, cf.cd); ok {
						diags = append(diags, d)
					}
				}
				continue
			}
			msg := fmt.Sprintf("%s does not load this skill (--target %s): %s", hv.p.Name, hv.p.Name, h.Reason)
			if h.Remedy != "" {
				msg += "; " + h.Remedy
			}
			d := skill.Diagnostic{Code: diagcode.NotLoaded, Severity: skill.SeverityError, Path: cf.path, Message: msg}
			if cf.cd != nil && cf.cd.Skill != nil {
				d.Skill = cf.cd.Skill.Name
			}
			diags = append(diags, d)
		}
	}
	// The catalog's character budget (catalogBudgetChars, docs/disclosure.md#catalog-block): render the
	// block as an agent would and report what it shortened or left out.
	if set := c.Settings(); set.CatalogBudgetChars > 0 {
		b, err := agent.RenderListing(l, &agent.BlockOptions{
			ToolName: set.ToolName, MaxDescriptionChars: set.MaxDescriptionChars, BudgetChars: set.CatalogBudgetChars,
		})
		if err == nil {
			if d, ok := b.Diagnostic(l.Workspace); ok {
				diags = append(diags, d)
			}
		}
	}
	return diags
}

// processor is one step of a lint run after the checks, in the manner of
// golangci-lint's Processor: it reads and changes the run's findings (the
// parts, then the sorted diags) and files. Run applies processors in
// order; adding a step is adding a value there.
type processor struct {
	name    string
	process func(st *state)
}

// processors are the steps after the checks, in the order Run applies them.
var processors = []processor{
	{"strict", func(st *state) {
		if st.r.Settings.Mode == skill.Strict {
			st.parts = [][]skill.Diagnostic{strictFindings(slices.Concat(st.parts...), st.cands)}
		}
	}},
	{"scope", processScope},
	{"sort", func(st *state) {
		if st.compact {
			st.diags = sortPieces(slices.Concat(pieces(st.parts[:1]), foundPieces(st.found), pieces(st.parts[1:])))
		} else {
			st.diags = sortFindings(st.parts)
		}
		st.parts, st.found = nil, nil
	}},
	{"dedupe", func(st *state) { st.diags = dedupeSorted(st.diags) }},
	{"select", processSelect},
	{"severity", processSeverity},
	{"fixes", func(st *state) { attachFixes(st.diags, st.files, st.r.Settings.MaxDescriptionChars) }},
	{"counts", processCounts},
}

// processScope keeps, with targets, the findings about paths in scope (or
// related to one) and the files in scope.
func processScope(st *state) {
	if st.scope == nil {
		return
	}
	for k := range st.parts {
		st.parts[k] = slices.DeleteFunc(st.parts[k], func(d skill.Diagnostic) bool {
			return !inScope(d.Path, st.scope) && !(d.Related != "" && inScope(d.Related, st.scope))
		})
	}
	for p := range st.files {
		if !inScope(p, st.scope) {
			delete(st.files, p)
		}
	}
}

// processCounts puts the sorted findings in the report, each file's as
// its part of them, and counts files, skills and findings by level.
func processCounts(st *state) {
	r, diags, files := st.r, st.diags, st.files
	r.Diagnostics = diags
	// Sorted by path, each file's findings are one run of diags: its
	// Diagnostics are that part of r.Diagnostics, not a copy.
	for i := 0; i < len(diags); {
		j := i + 1
		for j < len(diags) && diags[j].Path == diags[i].Path {
			j++
		}
		f := files[diags[i].Path]
		if f == nil {
			f = &File{Path: diags[i].Path}
			files[diags[i].Path] = f
		}
		for _, d := range diags[i:j] {
			if f.Name == "" && f.Skill {
				f.Name = d.Skill
			}
			switch d.Severity {
			case skill.SeverityError:
				r.Counts.Errors++
			case skill.SeverityWarning:
				r.Counts.Warnings++
			}
		}
		f.Diagnostics = diags[i:j:j]
		i = j
	}
	for _, f := range files {
		r.Files = append(r.Files, f)
		if f.Skill {
			r.Counts.Files++
		}
		if f.Loaded {
			r.Counts.Skills++
		}
	}
	slices.SortFunc(r.Files, func(a, b *File) int { return strings.Compare(a.Path, b.Path) })
}

// hostNames are the names of the host profiles a target may name.
// unknownHost is the ErrUnknownHost error for name, naming the nearest
// host when one is close (lint --target, new --target).
func unknownHost(name string) error {
	hint := ""
	if s := profile.Suggest(name); s != "" && s != catalogx.DefaultPreset {
		hint = fmt.Sprintf("; did you mean %q?", s)
	}
	return fmt.Errorf("%w %q%s (known: %s)", ErrUnknownHost, name, hint, strings.Join(hostNames(), ", "))
}

func hostNames() []string {
	var out []string
	for _, p := range profile.All() {
		if !p.Native {
			out = append(out, p.Name)
		}
	}
	return out
}

func configReport(ce *catalog.ConfigError) *Report {
	var diags []skill.Diagnostic
	for _, x := range append([]*catalog.ConfigError{ce}, ce.More...) {
		diags = append(diags, skill.Diagnostic{Code: diagcode.ConfigInvalid, Severity: skill.SeverityError,
			Path: x.Path, Line: x.Line, Column: x.Column, Message: x.Message})
	}
	return &Report{
		Workspace:   filepath.Dir(ce.Path),
		Files:       []*File{{Path: ce.Path, Diagnostics: diags}},
		Diagnostics: diags,
		Counts:      Counts{Errors: len(diags)},
	}
}

// resolveTargets turns targets into absolute paths. Existing paths that no
// root covers are returned in extra too (to become extra roots); names of
// skills become their folders (or flat files).
func resolveTargets(targets []string, l *catalog.Listing) (scope, extra []string, err error) {
	for _, t := range targets {
		abs, aerr := filepath.Abs(t)
		fi, serr := os.Stat(abs)
		if aerr != nil || serr != nil {
			if p := skillByName(l, t); p != "" {
				scope = append(scope, p)
				continue
			}
			// A word that is no path is most likely a misspelt skill name.
			var names []string
			for _, sk := range l.Skills {
				names = append(names, sk.Name)
			}
			if near := suggest.Nearest(t, names); near != "" && !strings.ContainsAny(t, `/\`) {
				return nil, nil, fmt.Errorf("%w: %s; did you mean the skill %s?", ErrTarget, t, near)
			}
			return nil, nil, fmt.Errorf("%w: %s", ErrTarget, t)
		}
		abs = filepath.Clean(abs)
		scope = append(scope, abs)
		if covered(abs, l.Roots) {
			continue
		}
		if !fi.IsDir() && strings.EqualFold(filepath.Base(abs), catalog.SkillFile) {
			// A skill file names its folder, so the folder is the root
			// and the file keeps its directory form.
			extra = append(extra, filepath.Dir(abs))
			continue
		}
		extra = append(extra, abs)
	}
	return scope, extra, nil
}

func skillByName(l *catalog.Listing, name string) string {
	for _, s := range l.Skills {
		if s.Name == name {
			if s.Flat {
				return s.Location
			}
			return s.BaseDir
		}
	}
	return ""
}

// covered reports whether p lies in one of the roots that exist.
func covered(p string, roots []catalog.Root) bool {
	real := evalOrSelf(p)
	for _, r := range roots {
		if r.Exists && (fsx.Within(p, r.Path) || fsx.Within(real, evalOrSelf(r.Path))) {
			return true
		}
	}
	return false
}

func evalOrSelf(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// onChecks, set only by tests, is called with the path of each skill file
// whose checks run (from the pool's goroutines, or with early set from the
// listing's readers).
var onChecks func(path string, early bool)

// mayReport says whether the checks of the skill file at path can report
// a finding that the scope keeps: they report at the file itself or below
// its folder (bundled files), so a skill outside every target, whose folder
// holds none, is not checked at all. A nil scope keeps everything.
func mayReport(path string, scope []string) bool {
	if scope == nil || inScope(path, scope) {
		return true
	}
	dir := filepath.Dir(path)
	for _, s := range scope {
		if fsx.Within(s, dir) {
			return true
		}
	}
	return false
}

func inScope(p string, scope []string) bool {
	for _, s := range scope {
		if fsx.Within(p, s) {
			return true
		}
	}
	return false
}

// dropIgnoredNameMismatch removes name-mismatch from ignored files whose
// name is their folder's (or file's) without the leading "_" or ".": a
// draft matches once it is published under that name.
func dropIgnoredNameMismatch(diags []skill.Diagnostic, files map[string]*File) []skill.Diagnostic {
	drop := func(d *skill.Diagnostic) bool {
		if d.Code != diagcode.NameMismatch || d.Skill == "" {
			return false
		}
		f := files[d.Path]
		if f == nil || !f.Ignored {
			return false
		}
		return strings.TrimLeft(skill.DefaultName(d.Path, f.Flat), "_.") == d.Skill
	}
	// Most parts hold no name-mismatch (lint's checks never report one):
	// they are left as they are, without a copy of each finding.
	i := 0
	for i < len(diags) && !drop(&diags[i]) {
		i++
	}
	if i == len(diags) {
		return diags
	}
	return slices.DeleteFunc(diags, func(d skill.Diagnostic) bool { return drop(&d) })
}

// sortFindings returns the findings of parts, taken in order as one slice,
// in the order of skill.SortDiagnostics (by path, line, column, code and
// message; stable), in a new slice (sortPieces of the parts).
// TestSortFindings holds it to skill.SortDiagnostics.
func sortFindings(parts [][]skill.Diagnostic) []skill.Diagnostic {
	return sortPieces(pieces(parts))
}

// piece is a part of the findings sortPieces sorts: a slice of them, or
// (f set) the findings of one skill file's checks.
type piece struct {
	d []skill.Diagnostic
	f *findings
}

func pieces(parts [][]skill.Diagnostic) []piece {
	out := make([]piece, len(parts))
	for i, p := range parts {
		out[i] = piece{d: p}
	}
	return out
}

func foundPieces(found []*findings) []piece {
	out := make([]piece, len(found))
	for i, f := range found {
		out[i] = piece{f: f}
	}
	return out
}

// sortPieces is sortFindings of the pieces' findings, taken in order
// (those of a piece's findings as appendTo gives them). The findings of
// one path mostly come together (a skill's checks report them in a run,
// in line order), so it sorts the runs of one path by path rather than
// every finding: same-path runs keep their order, and each path's findings
// are then sorted by the rest of the key, which the runs of a skill's
// checks already are. A skill file's findings are written out in full only
// into the result. With many findings, the paths are copied and sorted on
// a goroutine a processor, each into its own part of the result.
func sortPieces(ps []piece) []skill.Diagnostic {
	n := 0
	for _, p := range ps {
		n += len(p.d) + p.f.len()
	}
	if n == 0 {
		for _, p := range ps {
			if p.d != nil {
				return p.d[:0]
			}
		}
		return nil
	}
	runs := pathRuns(ps)
	slices.SortFunc(runs, func(a, b findingRun) int {
		if c := strings.Compare(a.path, b.path); c != 0 {
			return c
		}
		return a.i - b.i
	})
	out := make([]skill.Diagnostic, n)
	workers := pool.Size(n, pool.CPU)
	if n < parallelSortMin || workers < 2 {
		fillRuns(out, runs, 0, len(runs), 0)
		return out
	}
	shares := shareRuns(runs, n, workers)
	pool.Each(context.Background(), len(shares), pool.CPU, func(i int) {
		fillRuns(out, runs, shares[i].from, shares[i].stop, shares[i].at)
	})
	return out
}

// findingRun is findings of one path: d, or (f set) f's file findings
// (n of them); i is its place among the runs, which ties keep (the runs
// come nearly sorted, which pattern-defeating quicksort takes in one
// pass).
type findingRun struct {
	path string
	d    []skill.Diagnostic
	f    *findings
	n, i int
}

// pathRuns cuts the pieces' findings, in order, into runs of one path.
func pathRuns(ps []piece) []findingRun {
	var runs []findingRun
	addRuns := func(diags []skill.Diagnostic) {
		for i := 0; i < len(diags); {
			j := i + 1
			for j < len(diags) && diags[j].Path == diags[i].Path {
				j++
			}
			runs = append(runs, findingRun{path: diags[i].Path, d: diags[i:j], n: j - i, i: len(runs)})
			i = j
		}
	}
	for _, p := range ps {
		if p.f == nil {
			addRuns(p.d)
			continue
		}
		if len(p.f.file) > 0 {
			runs = append(runs, findingRun{path: p.f.path, f: p.f, n: len(p.f.file), i: len(runs)})
		}
		addRuns(p.f.rest)
	}
	return runs
}

// fillRuns copies the runs of whole paths runs[k:stop] (sorted by path)
// to out from at on and sorts each path's findings.
func fillRuns(out []skill.Diagnostic, runs []findingRun, k, stop, at int) {
	for k < stop {
		from, p := at, runs[k].path
		for ; k < stop && runs[k].path == p; k++ {
			if f := runs[k].f; f != nil {
				at += len(f.appendFile(out[at:at]))
			} else {
				at += copy(out[at:], runs[k].d)
			}
		}
		if group := out[from:at]; !sortedFindings(group) {
			slices.SortStableFunc(group, skill.CompareDiagnostics)
		}
	}
}

// runShare is the runs[from:stop] one goroutine of sortPieces fills in,
// from out[at] on.
type runShare struct{ from, stop, at int }

// shareRuns cuts runs (n findings, sorted by path) into at most workers
// shares of about equal findings, at path changes.
func shareRuns(runs []findingRun, n, workers int) []runShare {
	var shares []runShare
	k, at := 0, 0
	for w := workers; w > 0 && k < len(runs); w-- {
		stop, end := k, at
		for stop < len(runs) && (w == 1 || end-at < (n-at)/w || stop > 0 && runs[stop].path == runs[stop-1].path) {
			end += runs[stop].n
			stop++
		}
		shares = append(shares, runShare{k, stop, at})
		k, at = stop, end
	}
	return shares
}

// parallelSortMin is how many findings sortFindings needs to share the
// work among goroutines (a variable, so that tests try both ways).
var parallelSortMin = 1 << 14

// sortedFindings reports whether diags, all of one path, are in
// skill.CompareDiagnostics order. A finding on a later line or column
// than the one before it is taken without the full comparison, which
// copies both findings.
func sortedFindings(diags []skill.Diagnostic) bool {
	for i := 1; i < len(diags); i++ {
		a, b := &diags[i-1], &diags[i]
		if a.Path == b.Path && (a.Line < b.Line || a.Line == b.Line && a.Column < b.Column) {
			continue
		}
		if skill.CompareDiagnostics(*a, *b) > 0 {
			return false
		}
	}
	return true
}

// dedupeSorted removes the repeats of a finding (same code, level, path,
// position, message, skill and related path) from diags sorted by
// skill.SortDiagnostics, keeping the first. Repeats sort next to each
// other, among the findings of the same path, position, code and message,
// and the sort is stable: the result is what removing the repeats before
// sorting would give. Until the first repeat each finding stays where it
// is: a report without repeats is not copied onto itself (136 bytes and
// their write barriers a finding; BenchmarkAfterChecks).
func dedupeSorted(diags []skill.Diagnostic) []skill.Diagnostic {
	sameSort := func(a, b *skill.Diagnostic) bool {
		return a.Path == b.Path && a.Line == b.Line && a.Column == b.Column && a.Code == b.Code && a.Message == b.Message
	}
	out := diags[:0]
	run := 0 // where the run of findings that sort the same starts in out
	for i := range diags {
		d := &diags[i]
		if len(out) > 0 && !sameSort(&out[len(out)-1], d) {
			run = len(out)
		}
		if slices.ContainsFunc(out[run:], func(o skill.Diagnostic) bool {
			return o.Severity == d.Severity && o.Skill == d.Skill && o.Related == d.Related
		}) {
			continue
		}
		if len(out) == i {
			out = out[:i+1] // nothing dropped yet: d is in its place, not copied onto itself
		} else {
			out = append(out, *d)
		}
	}
	clear(diags[len(out):])
	return out
}

// earlyChecks are the findings of lint's checks run on each skill file as
// soon as the listing's readers parsed it (catx.OnParsed): the checks
// of one file run on the goroutine that read it, while the walk goes on
// and the other readers read, and its body is let go right after, so the
// listing never holds every body at once (docs/performance.md#lint).
type earlyChecks struct {
	mu  sync.Mutex
	res map[*skill.Skill]*earlyResult
}

// earlyResult is what the checks of one file found, and the subject they
// checked.
type earlyResult struct {
	subject
	found *findings
}

// earlyMismatch, set only by tests, makes every early result count as
// made for another file, so that the checks run again after the listing.
var earlyMismatch bool

// startEarly has the checks (under the rules of sel) run on each skill
// file c's listing parses that the report may cover (scope, nil for all;
// mayReport), as its reader parses it, and hands the file to sr.
func startEarly(c *catalog.Catalog, sel *selection, sr *sharedReads, scope []string) *earlyChecks {
	ec := &earlyChecks{res: map[*skill.Skill]*earlyResult{}}
	listed := sr.listedDirs()
	catx.OnParsed(c, func(p catalogx.Parsed) {
		sr.parsed(&p)
		if scope != nil && !mayReport(p.Path, scope) {
			return // checkFiles passes over it
		}
		// The checks read the body in the reader's bytes, and the findings
		// keep nothing of it (TestChecksKeepNoBody); the listing holds no
		// bodies (nothing after the checks reads them: fixes read the
		// file again, the budget and compatibility reports read the
		// frontmatter).
		r := &earlyResult{subject: subject{location: p.Path, baseDir: p.Dir, name: p.Skill.Name, flat: p.Flat, parsed: p.Skill,
			body: bodyView(p.Data, p.Skill.BodyOffset), head: p.Data[:min(max(p.Skill.BodyOffset, 0), len(p.Data))],
			listed: listed}}
		if onChecks != nil {
			onChecks(p.Path, true)
		}
		r.found = runFindings(&r.subject, sel)
		r.body, r.head = "", nil
		ec.mu.Lock()
		ec.res[p.Skill] = r
		ec.mu.Unlock()
	})
	return ec
}

// result returns the early findings of s, nil when its checks did not run
// early or ran on another subject than s (the catalog makes s from what
// it read, so that does not happen; subjectOf then reads the body again).
func (ec *earlyChecks) result(s *catalog.Skill) *earlyResult {
	if ec == nil || s == nil {
		return nil
	}
	r := ec.res[s.Parsed()]
	if r == nil || earlyMismatch || !r.isOf(s) {
		return nil
	}
	return r
}

// subjectOf is the subject the checks of s read after the listing: s's
// fields and body, which the listing holds without early checks and
// which is read from disk again with them.
func (ec *earlyChecks) subjectOf(s *catalog.Skill) *subject {
	sub := about(s)
	if ec == nil {
		return sub
	}
	if body, err := s.Content(); err == nil {
		sub.body = body
	}
	// else the file is gone or unreadable now: check what is left (the
	// bundled files).
	return sub
}
