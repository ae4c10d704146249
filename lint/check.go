package lint

import (
	"slices"
	"sync"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/skill"
)

// lintCheck is one of the checks lint adds to what the runtime reports while
// it loads skills, in the manner of a go/analysis Analyzer: a name, its
// documentation, the codes it reports (registered in skill.Codes), and the
// function that checks one loaded skill file alone. [Run] runs the checks
// of the list checks, each once per skill file, through their pass (runFindings):
// adding a check is adding a value to that list.
type lintCheck struct {
	Name  string
	Doc   string
	Codes []skill.Code
	Run   func(s *catalog.Skill) []skill.Diagnostic

	// requires are checks whose work this one reads from the pass (as
	// go/analysis's Requires): the runner runs them first on the same
	// file (checkOrder), whatever their place in checks.
	requires []*lintCheck
	// run checks the file of p.s and sets its findings in f (f.add).
	run func(p *pass, f *findings)
	// always says the check runs whatever rules are chosen, because a
	// processor reads what it finds (the inline ignores, which
	// processSelect applies to the other checks' findings).
	always bool
}

// runs reports whether c runs under the rules of sel: always, or when
// one of its codes is reported (nil sel: every code is). A check whose
// findings would all be dropped by processSelect is not run: they are
// dropped before the inline ignores see them, so nothing else changes
// (TestUnreportedChecksDoNotRun).
func (c *lintCheck) runs(sel *selection) bool {
	return c.always || sel == nil || allChecksRun || slices.ContainsFunc(c.Codes, sel.reported)
}

// allChecksRun, set only by tests, makes every check run whatever the
// rules chosen, as before checks were left out.
var allChecksRun bool

// pass is what the checks of one skill file share (go/analysis's Pass):
// the subject, and what the bundle walk saw of the skill folder, which
// the body check's letter-case lookups start from instead of reading the
// folder again.
type pass struct {
	s    *subject
	view folderView
	sel  *selection // the rules chosen; nil: every code is reported
}

// reports reports whether the findings of code are reported in p's run.
func (p *pass) reports(code skill.Code) bool { return p.sel == nil || p.sel.reported(code) }

// checkBundleRule, checkIgnoresRule and checkBodyRule are lint's checks, named so that one
// can require the other.
var (
	checkBundleRule = &lintCheck{Name: "bundle", Doc: "files and folders in the skill folder that are symlinks to somewhere outside it",
		Codes: []skill.Code{diagcode.BundledSymlink},
		run:   func(p *pass, f *findings) { f.add(checkBundle(p.s, &p.view)) }}
	checkIgnoresRule = &lintCheck{Name: "ignores", Doc: "the frontmatter's # skillet: ignore[CODE,...] comments, which the select processor applies and reports when they suppress nothing",
		Codes:  []skill.Code{diagcode.SuppressionUnused},
		run:    func(p *pass, f *findings) { f.ignores = inlineIgnores(p.s.frontmatter()) },
		always: true}
	checkBodyRule = &lintCheck{Name: "body", Doc: "the body's length, and the relative files it refers to that do not exist or leave the skill folder",
		Codes:    []skill.Code{diagcode.BodyTooLong, diagcode.BrokenReference},
		requires: []*lintCheck{checkBundleRule},
		run:      func(p *pass, f *findings) { checkBodyInto(f, p.s, &p.view, p.reports(diagcode.BrokenReference)) }}
)

// checks are lint's own checks, run on every skill file that parses
// (drafts and hidden files included); their findings come in this order.
var checks = []*lintCheck{checkBodyRule, checkBundleRule, checkIgnoresRule}

func init() {
	// A check's Run is its run alone, on a pass of its own (with nothing
	// in the folder view, the body check reads the folder itself).
	for _, c := range checks {
		c.Run = func(s *catalog.Skill) []skill.Diagnostic {
			sub := about(s)
			if sub == nil {
				return nil
			}
			f := findings{path: sub.location, skill: sub.name}
			c.run(&pass{s: sub}, &f)
			return f.appendTo(nil)
		}
	}
	checkOrder = runOrder(checks)
}

// checkOrder is checks in the order they run: each after those it
// requires.
var checkOrder []int

// runOrder returns the indexes of list in an order that puts every
// check after the checks it requires (each once), else the list's order.
func runOrder(list []*lintCheck) []int {
	var order []int
	done := make([]bool, len(list))
	var visit func(i int)
	visit = func(i int) {
		if done[i] {
			return
		}
		done[i] = true
		for _, r := range list[i].requires {
			if j := slices.Index(list, r); j >= 0 {
				visit(j)
			}
		}
		order = append(order, i)
	}
	for i := range list {
		visit(i)
	}
	return order
}

// subject is what the checks read of one skill file: the fields of its
// catalog.Skill (about), or what the listing's reader parsed, before the
// listing made a catalog.Skill of it (catalogx.Parsed), and its body.
type subject struct {
	location, baseDir, name string
	flat                    bool
	parsed                  *skill.Skill
	body                    string
	// head is the file's bytes up to the body, when the listing's reader
	// gave them (nil: frontmatter reads the file).
	head []byte
	// listed is the host searches' listings of folders, which the walk of
	// the skill folder reads instead of the folders (nil: none).
	listed *listedDirs
}

// frontmatter returns the bytes of the file up to its body: head, or
// what the file holds there now (nil when it cannot be read).
func (s *subject) frontmatter() []byte {
	if s.head != nil || s.parsed == nil || s.parsed.BodyOffset <= 0 {
		return s.head
	}
	return readHead(s.location, s.parsed.BodyOffset)
}

// readHead returns the first n bytes of the file at path, read without
// blocking (fsx.Open), or nil when it cannot be read or is shorter.
func readHead(path string, n int) []byte {
	f, err := fsx.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, _, err := fsx.ReadHead(f, path, int64(n))
	if err != nil || len(data) < n {
		return nil
	}
	return data[:n]
}

// maxHeadRead bounds what unparsedFrontmatter reads of a file.
const maxHeadRead = 4 << 20

// isOf reports whether s is the subject of sk (about(sk), bodies aside),
// without making that subject.
func (s *subject) isOf(sk *catalog.Skill) bool {
	return s.location == sk.Location && s.baseDir == sk.BaseDir && s.name == sk.Name && s.flat == sk.Flat && s.parsed == sk.Parsed()
}

// about is the subject of s (nil for nil).
func about(s *catalog.Skill) *subject {
	if s == nil {
		return nil
	}
	sub := &subject{location: s.Location, baseDir: s.BaseDir, name: s.Name, flat: s.Flat, parsed: s.Parsed()}
	if sub.parsed != nil {
		sub.body = sub.parsed.Body
	}
	return sub
}

// runFindings runs the checks of checks on s, each once, in checkOrder,
// on one pass (the skill folder is read once: the bundle walk keeps the
// names of the folder's top level, in the file system's order, and the
// body check's lookups start from them), and returns their findings in
// the order of checks. Under the rules of sel (nil: all), a check none
// of whose codes is reported is not run (lintCheck.runs); the body
// check then reads the folder itself when a reference needs it.
// TestRunChecks holds it to the checks run one by one.
func runFindings(s *subject, sel *selection) *findings {
	sc := runScratches.Get().(*runScratch)
	defer sc.put()
	sc.p = pass{s: s, sel: sel, view: folderView{spareTop: sc.p.view.spareTop, spareSeen: sc.p.view.spareSeen}}
	per := sc.each[:0]
	if len(checks) > len(sc.each) {
		per = make([]findings, 0, len(checks))
	}
	per = per[:len(checks)]
	for _, i := range checkOrder {
		per[i] = findings{path: s.location, skill: s.name}
		if checks[i].runs(sel) {
			checks[i].run(&sc.p, &per[i])
		}
	}
	f := &findings{path: s.location, skill: s.name}
	for i := range per {
		f.merge(&per[i])
	}
	return f
}

// runScratch is the memory of one runFindings, reused from file to file:
// the pass and each check's findings, whose slices f takes over (merge)
// and which nothing reads after it returns, and the room of the pass's
// folder view (folderView.spareTop, spareSeen, which reset keeps), which
// nothing keeps either: the body check reads the view only while it runs.
type runScratch struct {
	p    pass
	each [4]findings // one per check, in checks' order
}

var runScratches = sync.Pool{New: func() any { return new(runScratch) }}

func (sc *runScratch) put() {
	sc.reset()
	runScratches.Put(sc)
}

// reset clears sc for the next skill file, keeping the folder view's room.
func (sc *runScratch) reset() {
	v := &sc.p.view
	top, seen := v.top, v.seen
	if top == nil {
		top = v.spareTop
	}
	if seen == nil {
		seen = v.spareSeen
	}
	// Cleared, so that the names of the walk's arena are not kept; a rare
	// large folder's room is let go.
	clear(top)
	clear(seen)
	if cap(top) > 1<<10 {
		top = nil
	}
	*sc = runScratch{}
	sc.p.view.spareTop, sc.p.view.spareSeen = top[:0], seen[:0]
}

// findings are the findings of lint's checks of one skill file, kept small
// until the report is put together (a tree's broken references are most
// of its findings, each 24 bytes here instead of a skill.Diagnostic's
// 136): first those of the body check, all about the file itself, as
// positions, messages and codes with the path and skill they share, then
// the rest (the bundle check's, about other paths, and the body check's
// when a position does not fit) in full.
type findings struct {
	path, skill string
	file        []fileFinding
	rest        []skill.Diagnostic
	ignores     []inlineIgnore // the file's inline ignores (checkIgnoresRule)
}

// fileFinding is one of findings.file: a broken-reference, or a
// body-too-long when long is set, at line and col.
type fileFinding struct {
	line, col int32
	long      bool
	msg       string
}

// compact sets f's body findings to diags (all about f.path and f.skill),
// in f.file when every one fits, else in full in f.rest.
func (f *findings) compact(diags []skill.Diagnostic) {
	broken, long := severity(diagcode.BrokenReference), severity(diagcode.BodyTooLong)
	fits := func(d *skill.Diagnostic) bool {
		return d.Path == f.path && d.Skill == f.skill && d.Related == "" && d.Fixes == nil &&
			int(int32(d.Line)) == d.Line && int(int32(d.Column)) == d.Column &&
			(d.Code == diagcode.BrokenReference && d.Severity == broken || d.Code == diagcode.BodyTooLong && d.Severity == long)
	}
	for i := range diags {
		if !fits(&diags[i]) {
			f.rest = slices.Clone(diags)
			return
		}
	}
	f.file = make([]fileFinding, len(diags))
	for i := range diags {
		d := &diags[i]
		f.file[i] = fileFinding{line: int32(d.Line), col: int32(d.Column), long: d.Code == diagcode.BodyTooLong, msg: d.Message}
	}
}

// add sets diags, findings of one check, in f: compact (f.file) when f
// holds nothing yet and they fit, else in full after what f holds.
func (f *findings) add(diags []skill.Diagnostic) {
	switch {
	case len(diags) == 0:
	case f.len() == 0:
		f.compact(diags)
	default:
		f.rest = append(f.rest, diags...)
	}
}

// merge appends o's findings to f's, in order: f takes o as it is when
// f holds nothing, else o's findings in full after its own.
func (f *findings) merge(o *findings) {
	f.ignores = append(f.ignores, o.ignores...)
	switch {
	case o.len() == 0:
	case f.len() == 0:
		f.file, f.rest = o.file, o.rest
	default:
		f.rest = o.appendTo(f.rest)
	}
}

// len is how many findings f holds (0 for nil).
func (f *findings) len() int {
	if f == nil {
		return 0
	}
	return len(f.file) + len(f.rest)
}

// appendFile appends f's findings about the file itself (f.file) to out,
// in full.
func (f *findings) appendFile(out []skill.Diagnostic) []skill.Diagnostic {
	if len(f.file) == 0 {
		return out
	}
	broken, long := severity(diagcode.BrokenReference), severity(diagcode.BodyTooLong)
	for i := range f.file {
		e := &f.file[i]
		d := skill.Diagnostic{Code: diagcode.BrokenReference, Severity: broken, Path: f.path,
			Line: int(e.line), Column: int(e.col), Message: e.msg, Skill: f.skill}
		if e.long {
			d.Code, d.Severity = diagcode.BodyTooLong, long
		}
		out = append(out, d)
	}
	return out
}

// appendTo appends all of f's findings to out, in full and in order (nil
// for none).
func (f *findings) appendTo(out []skill.Diagnostic) []skill.Diagnostic {
	if f.len() == 0 {
		return out
	}
	return append(f.appendFile(out), f.rest...)
}
