package lint

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"math/bits"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/spec"
	"github.com/skillet-go/skillet/internal/swar"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"github.com/skillet-go/skillet/skill"
)

// checkBodyInto runs the checks that need a skill's body, body-too-long
// and broken-reference, and sets their findings in f (f.add). The body is
// the one the listing read (Run lists with catx.KeepBodies), so each
// file is read once, and it is what the runtime's loader gives a model. A
// body that cannot hold a reference (mayReference) is not read further; a
// plain one is read by the scanner of scan.go, and only the rest by
// goldmark (docs/performance.md#lint). view, when not nil, is what the
// bundle walk saw of the skill folder. Without refs (broken-reference is
// not reported) the body is not read for references.
func checkBodyInto(f *findings, s *subject, view *folderView, wantRefs bool) {
	// The references and findings are gathered in memory reused from one
	// skill to the next; f gets them in a slice of the right size.
	sc := bodyScratches.Get().(*bodyScratch)
	defer sc.put()
	f.path, f.skill = s.location, s.name
	if diags := checkBodyTo(sc, s, view, wantRefs); len(diags) > 0 {
		f.add(diags)
	}
}

// bodyScratch is the reusable memory of checkBodyInto.
type bodyScratch struct {
	refs  []foundRef
	diags []skill.Diagnostic
	ctxs  ctxSlab
	// How many of refs and diags the last body used: put clears those
	// (the rest is clear already), not the whole capacity.
	nrefs, ndiags int
	// The verdicts of the last body's targets (refCheck.vs) and their
	// index by target (refCheck.seen), cleared by put.
	verdicts []refVerdict
	seen     map[refKey]int
}

var bodyScratches = sync.Pool{New: func() any { return new(bodyScratch) }}

func (sc *bodyScratch) put() {
	if cap(sc.refs) > 1<<12 || cap(sc.diags) > 1<<12 || sc.ctxs.n > 1<<12 || cap(sc.verdicts) > 1<<12 {
		return // a rare large body: let its memory go
	}
	clear(sc.verdicts)
	sc.verdicts = sc.verdicts[:0]
	if len(sc.seen) > 256 {
		sc.seen = nil // clear would go over all its room for each body to come
	} else {
		clear(sc.seen)
	}
	clear(sc.refs[:sc.nrefs])
	clear(sc.diags[:sc.ndiags])
	sc.nrefs, sc.ndiags = 0, 0
	sc.ctxs.reset()
	bodyScratches.Put(sc)
}

func checkBodyTo(sc *bodyScratch, s *subject, view *folderView, wantRefs bool) []skill.Diagnostic {
	diags := sc.diags[:0]
	defer func() { sc.diags, sc.ndiags = diags[:0], len(diags) }()
	if s.parsed.BodyLines > spec.MaxBodyLines {
		diags = append(diags, skill.Diagnostic{
			Code: diagcode.BodyTooLong, Severity: severity(diagcode.BodyTooLong),
			Path: s.location, Line: s.parsed.BodyLine + spec.MaxBodyLines, Column: 1, Skill: s.name,
			Message: fmt.Sprintf("the body is %d lines, over the %d the specification recommends; move detail into files under references/ and link them",
				s.parsed.BodyLines, spec.MaxBodyLines),
		})
	}
	body := s.body
	if !wantRefs || body == "" || !goldmarkOnly && !mayReference(body) {
		return diags
	}
	// The scanner and the checks only read the body: they see the
	// string's bytes without a copy. goldmark gets a copy of its own.
	b := unsafe.Slice(unsafe.StringData(body), len(body))
	refs := referencesTo(sc.refs, &sc.ctxs, b, false)
	sc.refs, sc.nrefs = refs[:0], len(refs) // the memory to reuse next time (cleared by put)
	if len(refs) == 0 {
		return diags
	}
	if sc.seen == nil {
		sc.seen = make(map[refKey]int)
	}
	rc := refCheck{s: s, view: view, seen: sc.seen, vs: sc.verdicts[:0]}
	defer func() { sc.verdicts = rc.vs }() // put clears them
	if view != nil {
		rc.top = view.top
	}
	// Only when the folder could not be opened are no references
	// reported, as before.
	if rc.top == nil && !rc.openRoot() {
		return diags
	}
	defer rc.close()
	before := len(diags)
	sev := severity(diagcode.BrokenReference)
	for i := range refs {
		ref := &refs[i]
		// The cheap tests first: a placeholder path, then the file system,
		// and only for a reference that is broken the sentence around it
		// (exampleContext) and, for the message, a letter-case variant.
		v, ok := rc.verdict(ref)
		if !ok {
			return diags[:before]
		}
		if v.ok || exampleContext(b, ref) {
			continue
		}
		diags = append(diags, skill.Diagnostic{
			Code: diagcode.BrokenReference, Severity: sev,
			Path: s.location, Line: s.parsed.BodyLine + ref.Line - 1, Column: ref.Column, Skill: s.name,
			Message: rc.message(v, ref),
		})
	}
	return diags
}

// refCheck checks the references of one skill's body. The folder is
// opened as an os.Root only when a target needs the file system: with
// the top level's names at hand (top), a target whose first element no
// name there matches, even in letter case, is missing without a look
// (absentAt). A body often names one file many times: what the file
// system says about a target, and the message for it, are found once per
// skill (find: its verdict in vs, whose targets are compared one by one
// while there are at most smallVerdicts, and then looked up in seen, the
// index of each; both are memory a body check reuses from the last,
// bodyScratch).
type refCheck struct {
	s    *subject
	view *folderView
	top  []string
	root *os.Root
	dirs map[string][]string // caseVariant's folder listings, read once per skill
	seen map[refKey]int
	vs   []refVerdict
}

type refKey struct {
	target string
	code   bool
}

// smallVerdicts is how many targets a body's verdicts are compared with
// one by one before they are indexed in a map (refCheck.find): most
// bodies name one to three files (a generated body names
// references/guide.md about eleven times), and comparing a few targets
// costs less than hashing each reference's.
const smallVerdicts = 8

// find returns the index in rc.vs of k's verdict, false when there is none.
func (rc *refCheck) find(k refKey) (int, bool) {
	if len(rc.vs) > smallVerdicts {
		i, ok := rc.seen[k]
		return i, ok
	}
	for i := range rc.vs {
		if rc.vs[i].key == k {
			return i, true
		}
	}
	return 0, false
}

// keep appends v, the verdict of k, to rc.vs, indexing every verdict in
// rc.seen once there are more than smallVerdicts.
func (rc *refCheck) keep(k refKey, v refVerdict) {
	v.key = k
	rc.vs = append(rc.vs, v)
	switch n := len(rc.vs); {
	case n == smallVerdicts+1:
		for i := range rc.vs {
			rc.seen[rc.vs[i].key] = i
		}
	case n > smallVerdicts+1:
		rc.seen[k] = n - 1
	}
}

// refVerdict is what a skill's folder says about one reference target.
type refVerdict struct {
	key     refKey // the target and whether a code span named it
	ok      bool   // a placeholder, or the file is there
	problem string // what checkReference says
	missing bool
	absent  bool   // missing, and no letter-case variant of its first element
	message string // the finding's message, once the reference is reported
}

func (rc *refCheck) openRoot() bool {
	if rc.root == nil {
		root, err := os.OpenRoot(rc.s.baseDir)
		if err != nil {
			return false
		}
		rc.root = root
	}
	return true
}

func (rc *refCheck) close() {
	if rc.root != nil {
		rc.root.Close()
	}
}

// verdict returns what the folder says about ref's target; false when the
// folder is needed and cannot be opened. The verdict is an element of
// rc.vs: valid until the next call.
func (rc *refCheck) verdict(ref *foundRef) (*refVerdict, bool) {
	k := refKey{ref.Target, ref.Code}
	if i, ok := rc.find(k); ok {
		return &rc.vs[i], true
	}
	var v refVerdict
	if placeholderPath(ref.Target) {
		v.ok = true // plainly an example, not a file of this skill
	} else if clean := path.Clean(strings.ReplaceAll(ref.Target, `\`, "/")); ref.Code && path.Ext(clean) == "" && !strings.HasPrefix(clean, "../") && clean != ".." {
		// A code span without an extension names a folder or a command
		// as often as a file ("scripts under `scripts/azd`" in the
		// user's project): not checked.
		v.ok = true
	} else if rc.top != nil && absentAt(rc.top, clean) && (!ref.Code || path.Ext(clean) != "") {
		// What checkReference would say, and caseVariant finds no variant
		// of the first element.
		v.problem, v.missing, v.absent = "does not exist in the skill folder", true, true
	} else if rc.view.exists(clean) {
		v.ok = true // the walk saw it: the stat of checkReference finds it
	} else {
		if !rc.openRoot() {
			return nil, false
		}
		v.problem, v.missing = checkReference(rc.root, rc.s.baseDir, ref.Target, ref.Code)
		v.ok = v.problem == ""
	}
	rc.keep(k, v)
	return &rc.vs[len(rc.vs)-1], true
}

// message is the finding's message for a broken reference, made once per
// target.
func (rc *refCheck) message(v *refVerdict, ref *foundRef) string {
	if v.message != "" {
		return v.message
	}
	problem := v.problem
	if v.missing && !v.absent {
		if rc.dirs == nil && rc.top != nil {
			rc.dirs = map[string][]string{".": rc.top} // the walk's names of the top level
		}
		if other := caseVariant(rc.root, path.Clean(strings.ReplaceAll(ref.Target, `\`, "/")), &rc.dirs); other != "" {
			problem = fmt.Sprintf("does not exist in the skill folder (%s does: letter case matters)", other)
		}
	}
	kind := "links to"
	if ref.Code {
		kind = "names"
	}
	// fmt.Sprintf("the body %s %q, which %s", kind, ref.Target, problem)
	// in one allocation (strconv.AppendQuote is %q of a string); the
	// bytes are not written after.
	b := make([]byte, 0, len("the body  , which ")+len(kind)+len(ref.Target)+2+len(problem)+8)
	b = append(append(append(b, "the body "...), kind...), ' ')
	b = append(append(strconv.AppendQuote(b, ref.Target), ", which "...), problem...)
	v.message = unsafe.String(unsafe.SliceData(b), len(b))
	return v.message
}

// bodyView is the body skill.Parse gives a file (Skill.Body) from the
// bytes src it parsed and the body's offset in them (Skill.BodyOffset,
// which it sets with Options.SkipBody too): src from off on, trailing
// spaces, tabs and line breaks removed, "\r\n" and "\r" turned into "\n".
// Without a carriage return it is src's own bytes, not a copy: the result
// is valid only as long as src is (the listing's reader's, during
// catx.OnParsed). TestBodyView and FuzzBodyView hold it to
// skill.Parse.
func bodyView(src []byte, off int) string {
	b := bytes.TrimRight(src[min(max(off, 0), len(src)):], " \t\r\n")
	if len(b) == 0 {
		return ""
	}
	if bytes.IndexByte(b, '\r') < 0 {
		return unsafe.String(&b[0], len(b))
	}
	s := strings.ReplaceAll(string(b), "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

func severity(code skill.Code) skill.Severity {
	if sev := code.Info().Severity; sev != "" {
		return sev
	}
	return skill.SeverityWarning
}

// bodyRef is a relative path a skill body refers to: the destination of
// a Markdown link or image, or a path in a code span that starts with one
// of the specification's folders (scripts/, references/, assets/).
type bodyRef struct {
	// Target is the path as written, with backslash escapes removed.
	Target string
	// Line and Column are 1-based positions in the body (Column counts
	// characters); they point at the target when it can be found in the
	// text, else at the start of the link text.
	Line, Column int
	// Code says the reference is a path in a code span, not a link.
	Code bool
	// Example says the path is plainly an example rather than a file of
	// the skill: its sentence says "e.g.", "for example", "for instance",
	// "such as" or "Example:", it is an item of a list introduced by such
	// a sentence, its paragraph or item holds a template placeholder
	// ("[Description]"), or it has a placeholder segment (path/to/,
	// your-..., example/, foo/bar, filename.md). broken-reference skips it.
	Example bool
}

// mayReference reports whether a body can hold a Reference, so that
// bodies that cannot skip the Markdown parser: a link or image needs "](",
// a reference-style link a definition with "]:", and a code span path one
// of the bundleDirs. It reads the body once, eight bytes at a time, and
// stops only at a ']' or a '/' (refWord), where it looks at the byte after
// or the name before; about half the published bodies hold no marker and
// are read to the end. TestMayReference and FuzzMayReference hold it to
// listReferences (goldmark), TestMayReferenceOnePass and FuzzMayReferenceOnePass
// to the five substring searches it replaces (BenchmarkMayReference).
func mayReference(body string) bool {
	i := 0
	for ; i+16 <= len(body); i += 16 {
		m0, m1 := refWord(swar.Load(body, i)), refWord(swar.Load(body, i+8))
		if m0|m1 == 0 {
			continue
		}
		if refMarks(body, i, m0) || refMarks(body, i+8, m1) {
			return true
		}
	}
	if i+8 <= len(body) {
		if refMarks(body, i, refWord(swar.Load(body, i))) {
			return true
		}
		i += 8
	}
	for ; i < len(body); i++ {
		if (body[i] == ']' || body[i] == '/') && refMarkAt(body, i) {
			return true
		}
	}
	return false
}

// refWord is nonzero when a byte of x is ']' or '/'. Unlike swar.Zero's
// lowest byte only, every flagged byte may be a false one (a borrow), so
// refMarkAt looks at each.
func refWord(x uint64) uint64 {
	return swar.Zero(x^(swar.Ones*']')) | swar.Zero(x^(swar.Ones*'/'))
}

// refMarks reports whether a byte flagged in m, the refWord of body's
// eight bytes at i, is a marker (refMarkAt).
func refMarks(body string, i int, m uint64) bool {
	for ; m != 0; m &= m - 1 {
		if refMarkAt(body, i+bits.TrailingZeros64(m)>>3) {
			return true
		}
	}
	return false
}

// refMarkAt reports whether the byte of body at i ends or starts a marker
// of mayReference: "](", "]:", or a '/' that ends one of bundleDirs.
func refMarkAt(body string, i int) bool {
	switch body[i] {
	case ']':
		return i+1 < len(body) && (body[i+1] == '(' || body[i+1] == ':')
	case '/':
		if i == 0 || body[i-1] != 's' {
			return false // every one of bundleDirs ends in "s/"
		}
		for _, d := range bundleDirs {
			if i+1 >= len(d) && body[i+1-len(d):i+1] == d {
				return true
			}
		}
	}
	return false
}

// bundleDirs are the folders the specification names for bundled files
// (spec: optional directories); a code span path must start with one of
// them to count as a reference, so commands and paths of the user's project
// in backticks are left alone.
var bundleDirs = []string{"scripts/", "references/", "assets/"}

// foundRef is a Reference with what exampleContext needs to decide Example
// later: its offset in the body and the text around it, either as the
// node goldmark found it in (ctx is then derived on first use) or as the
// block context the scanner of scan.go built.
type foundRef struct {
	bodyRef
	node ast.Node
	ctx  *blockCtx
	off  int
	// blocks, shared by the references of one goldmark parse, holds the
	// context of each block that has one, so that the references of a
	// block share it (and exampleContext's memory of it): built once per
	// reference, a block naming a file thousands of times was read and
	// matched once per reference.
	blocks map[ast.Node]*blockCtx
}

// bspan is a part of the body, [start, stop) in bytes.
type bspan struct{ start, stop int }

// blockCtx is the text exampleContext reads around a reference: the lines
// of the innermost block holding it (a paragraph, a list item's text, a
// heading), and for each list around that block, from the innermost out,
// the lines of the block just before the list when it has lines (the
// sentence that may introduce the list).
type blockCtx struct {
	lines  []bspan
	intros [][]bspan
	// The scanner's blocks are one stretch of the body each: it sets blk
	// (and intro, when there is one) instead, and spans says so; lines
	// and intros are then the lines of those stretches (linesOf).
	blk, intro sblock
	spans      bool

	// exampleContext's memory for the block: its text, and whether every
	// reference in it is an example (1), or only those whose sentence
	// says so (-1); 0 until the first reference asks.
	text       textOf
	verdict    int8
	mayExample bool // mayExample(text.text)
	// The last sentence exampleContext matched, as offsets in text, and
	// whether it reads as an example: the references of one sentence
	// share it (a long sentence naming a file thousands of times was
	// scanned and matched once per reference).
	sentStart, sentEnd int
	sentExample        bool
}

// context returns the reference's block context.
func (r *foundRef) context() *blockCtx {
	if r.ctx == nil {
		if r.blocks == nil {
			r.ctx = astContext(r.node)
			return r.ctx
		}
		block := blockOf(r.node)
		if r.ctx = r.blocks[block]; r.ctx == nil {
			r.ctx = astContext(r.node)
			r.blocks[block] = r.ctx
		}
	}
	return r.ctx
}

// blockOf is the block that holds node n, or nil.
func blockOf(n ast.Node) ast.Node {
	for n != nil && n.Type() != ast.TypeBlock {
		n = n.Parent()
	}
	return n
}

// astContext is the block context of node n in goldmark's tree.
func astContext(n ast.Node) *blockCtx {
	c := &blockCtx{}
	block := blockOf(n)
	if block == nil {
		return c
	}
	c.lines = segmentSpans(block.Lines())
	for p := block; p != nil; p = p.Parent() {
		if _, ok := p.(*ast.List); !ok {
			continue
		}
		if prev := p.PreviousSibling(); prev != nil && prev.Type() == ast.TypeBlock && prev.Lines().Len() > 0 {
			c.intros = append(c.intros, segmentSpans(prev.Lines()))
		}
	}
	return c
}

func segmentSpans(lines *text.Segments) []bspan {
	out := make([]bspan, lines.Len())
	for i := range out {
		seg := lines.At(i)
		out[i] = bspan{seg.Start, seg.Stop}
	}
	return out
}

// goldmarkOnly, set only by tests, makes every body go to goldmark: no
// mayReference shortcut and no scanner (scan.go).
var goldmarkOnly bool

// referencesTo finds the references of body; with examples false it leaves
// Example unset (false) for the caller to decide with exampleContext and
// placeholderPath only where it matters. The scanner of scan.go handles the
// plain bodies most skills have; it declines anything else, which goldmark
// parses. The scanner's results go to buf's memory and its block contexts
// to slab's (when not nil).
func referencesTo(buf []foundRef, slab *ctxSlab, body []byte, examples bool) []foundRef {
	if !goldmarkOnly {
		if refs, ok := scanReferencesTo(buf, slab, body, examples); ok {
			return refs
		}
	}
	return parseReferences(bytes.Clone(body), examples)
}

// newMarkdownParser returns goldmark's default parser, as
// goldmark.DefaultParser builds it (CommonMark, no extensions): what
// goldmark.New().Parser() returned, without linking goldmark's own package
// and its HTML renderer, whose package initialisation (a default converter,
// the renderer's tables: 33 KB in 124 allocations, GODEBUG=inittrace=1)
// ran at every start of every command, and without building a renderer
// for every body parsed (docs/performance.md#start-up-6-december-1830-utc).
func newMarkdownParser() parser.Parser {
	return parser.NewParser(parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...))
}

// parseReferences finds the references of body with goldmark.
func parseReferences(body []byte, examples bool) []foundRef {
	doc := newMarkdownParser().Parse(text.NewReader(body))
	var refs []foundRef
	lines := lineStarts(body)
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.HTMLBlock:
			return ast.WalkSkipChildren, nil
		case *ast.Link:
			refs = appendLink(refs, body, lines, n, n.Destination, examples)
			return ast.WalkContinue, nil
		case *ast.Image:
			refs = appendLink(refs, body, lines, n, n.Destination, examples)
			return ast.WalkContinue, nil
		case *ast.CodeSpan:
			if !insideLink(n) {
				refs = appendCodeSpan(refs, body, lines, n, examples)
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	if len(refs) > 1 {
		blocks := make(map[ast.Node]*blockCtx)
		for i := range refs {
			refs[i].blocks = blocks
		}
	}
	return refs
}

func appendLink(refs []foundRef, body []byte, lines []int, n ast.Node, dest []byte, examples bool) []foundRef {
	raw := strings.TrimSpace(string(dest))
	target, ok := relativeTarget(unescape(raw))
	if !ok {
		return refs
	}
	off := textStart(n)
	if off < 0 {
		return refs
	}
	// Point at the destination when it follows the link text (inline
	// links); reference links point at the opening bracket of their text.
	end := min(len(body), off+4096)
	if p := bytes.Index(body[off:end], []byte("]("+raw)); p >= 0 {
		off += p + 2
	} else if p := bytes.Index(body[off:end], []byte("](<"+raw)); p >= 0 {
		off += p + 3
	} else {
		if off > 0 && body[off-1] == '[' {
			off--
		}
		if off > 0 && body[off-1] == '!' {
			off--
		}
	}
	return appendRef(refs, body, lines, foundRef{bodyRef: bodyRef{Target: target}, node: n, off: off}, examples)
}

// appendRef appends r with its position (from r.off) and, when examples is
// set, its Example flag.
func appendRef(refs []foundRef, body []byte, lines []int, r foundRef, examples bool) []foundRef {
	r.Line, r.Column = position(body, lines, r.off)
	r.Example = examples && (exampleContext(body, &r) || placeholderPath(r.Target))
	return append(refs, r)
}

func appendCodeSpan(refs []foundRef, body []byte, lines []int, n *ast.CodeSpan, examples bool) []foundRef {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		t, ok := c.(*ast.Text)
		if !ok {
			continue
		}
		refs = appendCodeText(refs, body, lines, t.Segment.Start, t.Segment.Stop, foundRef{node: n}, examples)
	}
	return refs
}

// appendCodeText appends the paths of the code span text body[start:stop]
// (space-separated tokens, see codePath); proto carries the node or the
// block context each reference gets.
func appendCodeText(refs []foundRef, body []byte, lines []int, start, stop int, proto foundRef, examples bool) []foundRef {
	seg := body[start:stop]
	for i := 0; i < len(seg); {
		var j int
		i, j = spaceToken(seg, i)
		if j > i {
			tok, lead := trimToken(string(seg[i:j]))
			if target, ok := codePath(tok); ok {
				r := proto
				r.Target, r.Code, r.off = target, true, start+i+lead
				refs = appendRef(refs, body, lines, r, examples)
			}
		}
		i = j
	}
	return refs
}

// exampleMarker matches the words that make a sentence an example.
var exampleMarker = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\be\.\s?g\.|\bfor (?:example|instance)\b|\bsuch as\b|\bexamples?\W{0,3}:`)
})

// introMarker matches a sentence that introduces a list of examples: one
// that opens with "Example" or "For example", or ends with "such as:",
// "e.g.:" or "for example:".
var introMarker = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^\W{0,3}(?:for )?examples?\b|(?:such as|e\.\s?g\.|for (?:example|instance))\W{0,3}:?\s*$`)
})

// templateMarker matches a bracketed placeholder that is not a link, such
// as "[Description]" or "[Component name]": the block is a template to
// fill in, and its paths are the template's.
var templateMarker = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[[A-Z][A-Za-z0-9 ,/._-]*\](?:[^(\[:]|$)`) })

// exampleContext reports whether reference r sits in a sentence that says
// it is an example, or in an item of a list that such a sentence
// introduces.
func exampleContext(body []byte, r *foundRef) bool {
	c := r.context()
	if c.lines == nil && c.intros == nil && !c.spans {
		return false
	}
	if c.verdict == 0 {
		// What holds for every reference of the block: a template
		// placeholder in it, or a list introduced as examples.
		var intro bool
		if c.spans {
			c.text = textOf{text: body[c.blk.start:c.blk.end], base: c.blk.start}
			intro = c.intro != (sblock{}) && introducing(body[c.intro.start:c.intro.end])
		} else {
			c.text = blockText(body, c.lines)
			intro = introduced(body, c.intros)
		}
		c.verdict = -1
		if mayTemplate(c.text.text) && templateMarker().Match(c.text.text) || intro {
			c.verdict = 1
		}
		c.mayExample = mayExample(c.text.text)
	}
	if c.verdict > 0 || !c.mayExample {
		return c.verdict > 0
	}
	at := c.text.index(r.off)
	if at >= 0 && at >= c.sentStart && at < c.sentEnd {
		return c.sentExample
	}
	start, end := sentenceSpan(c.text, at)
	example := exampleMarker().Match(c.text.text[start:end])
	if at >= 0 {
		c.sentStart, c.sentEnd, c.sentExample = start, end, example
	}
	return example
}

// introduced reports whether one of the intros (the blocks before the
// lists around a reference) introduces a list of examples.
func introduced(body []byte, intros [][]bspan) bool {
	for _, intro := range intros {
		if introducing(blockText(body, intro).text) {
			return true
		}
	}
	return false
}

// introducing reports whether the text of a block before a list
// introduces a list of examples.
func introducing(pt []byte) bool {
	if !mayExample(pt) {
		return false
	}
	t := string(pt)
	return introMarker().MatchString(t) || introMarker().MatchString(lastSentence(t))
}

// mayTemplate reports whether templateMarker can match text: it needs a
// "[" followed by a capital letter.
func mayTemplate(text []byte) bool {
	for i := 0; ; {
		j := bytes.IndexByte(text[i:], '[')
		if j < 0 {
			return false
		}
		i += j + 1
		if i < len(text) && text[i] >= 'A' && text[i] <= 'Z' {
			return true
		}
	}
}

// mayExample reports whether exampleMarker or introMarker can match text
// (or a sentence of it): each of their alternatives holds "example", "for
// instance", "such as" or "e.g." (with at most one space after "e."), which
// text must hold in some letter case. A text with non-ASCII bytes is always
// handed to the expressions, since (?i) folds letters such as U+017F (long
// s) that ASCII lowering does not. It reads eight bytes at a time and
// stops only where a pair of bytes that each marker word holds starts
// ("xa" of "example", "e." of "e.g.", "uc" of "such", "ns" of "instance",
// in either case: exampleWord), which are rare in prose, and at non-ASCII
// bytes; it compares letters only there (exampleAt). TestMayExampleWords
// and FuzzMayExample hold it to comparing at every byte
// (mayExampleEveryByte); BenchmarkMayExample measures both.
func mayExample(text []byte) bool {
	p := 0
	for ; p+9 <= len(text); p += 8 {
		for m := exampleWord(binary.LittleEndian.Uint64(text[p:]), binary.LittleEndian.Uint64(text[p+1:])); m != 0; m &= m - 1 {
			if exampleAt(text, p+bits.TrailingZeros64(m)>>3) {
				return true
			}
		}
	}
	for ; p < len(text); p++ {
		if exampleAt(text, p) {
			return true
		}
	}
	return false
}

// exampleWord flags (sets the high bit of) each byte of x, eight bytes of
// a text, that is non-ASCII or starts one of mayExample's pairs with the
// byte after it; y is the eight bytes from one further on. It flags those
// bytes and no other (byteIs has no borrow between bytes). A letter's two
// cases differ only in bit 5, which the lowered words set (and no other
// byte becomes one of the pairs' letters so).
func exampleWord(x, y uint64) uint64 {
	lx, ly := x|swar.Ones*0x20, y|swar.Ones*0x20
	return x&swar.Highs |
		byteIs(lx, 'x')&byteIs(ly, 'a') | byteIs(lx, 'e')&byteIs(y, '.') |
		byteIs(lx, 'u')&byteIs(ly, 'c') | byteIs(lx, 'n')&byteIs(ly, 's')
}

// byteIs flags each byte of w that is c, and only those: the low seven
// bits of each byte of w^c plus 0x7f carry into its high bit unless they
// are all 0, and never into the next byte.
func byteIs(w uint64, c byte) uint64 {
	const low7 = swar.Ones * 0x7f
	v := w ^ swar.Ones*uint64(c)
	return ^((v&low7 + low7) | v) & swar.Highs
}

// exampleAt reports whether the byte of text at i is non-ASCII or starts
// one of mayExample's marker words' pairs where text holds that word.
func exampleAt(text []byte, i int) bool {
	switch c := text[i]; lowerASCII(c) {
	case 'x':
		return hasLower(text, i-1, "example")
	case 'e':
		k := i + 2 // after "e."
		return hasLower(text, i, "e.") && k < len(text) &&
			(lowerASCII(text[k]) == 'g' || (isSpace(text[k]) || text[k] == '\f') && k+1 < len(text) && lowerASCII(text[k+1]) == 'g')
	case 'u':
		return hasLower(text, i-1, "such as")
	case 'n':
		return hasLower(text, i-5, "for instance")
	default:
		return c >= 0x80
	}
}

// hasLower reports whether text holds word (lower case ASCII) at i, its
// letters in either case.
func hasLower(text []byte, i int, word string) bool {
	if i < 0 || i+len(word) > len(text) {
		return false
	}
	for k := 0; k < len(word); k++ {
		if lowerASCII(text[i+k]) != word[k] {
			return false
		}
	}
	return true
}

// lowerASCII lowers an ASCII capital letter.
func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// textOf is a block's source text and where its bytes come from in the
// body: the spans it was cut from, in order (empty spans left out), or,
// with spans nil, one stretch of the body starting at base.
type textOf struct {
	text  []byte
	spans []bspan
	base  int
}

// blockText joins the lines of a block. Lines that follow each other in
// the body (a paragraph's usually do) are one slice of it, not a copy.
func blockText(body []byte, lines []bspan) textOf {
	var t textOf
	contiguous, n, last := true, 0, bspan{}
	for _, seg := range lines {
		seg.stop = min(seg.stop, len(body))
		if seg.stop <= seg.start {
			continue
		}
		if n > 0 && last.stop != seg.start {
			contiguous = false
		}
		if n == 0 {
			t.base = seg.start
		}
		n, last = n+1, seg
	}
	if n == 0 || contiguous {
		if n > 0 {
			t.text = body[t.base:last.stop:last.stop]
		}
		return t
	}
	for _, seg := range lines {
		seg.stop = min(seg.stop, len(body))
		if seg.stop > seg.start {
			t.spans = append(t.spans, seg)
			t.text = append(t.text, body[seg.start:seg.stop]...)
		}
	}
	return t
}

// index returns the index in t.text of the first byte that comes from body
// offset off or later, or -1.
func (t textOf) index(off int) int {
	if t.spans == nil {
		switch {
		case len(t.text) == 0:
			return -1
		case off <= t.base:
			return 0
		case off < t.base+len(t.text):
			return off - t.base
		}
		return -1
	}
	n := 0
	for _, seg := range t.spans {
		switch {
		case off <= seg.start:
			return n
		case off < seg.stop:
			return n + off - seg.start
		}
		n += seg.stop - seg.start
	}
	return -1
}

// sentenceSpan is the sentence of t that holds the offset at of t.text
// (t.index) as offsets [start, end) in t.text: the text between the
// sentence ends (". ", "! ", "? " before a capital, a line break between
// list-like lines) around it, abbreviations such as "e.g." ending none;
// all of t.text when at < 0. Every
// offset of [start, end) has that same sentence.
func sentenceSpan(t textOf, at int) (start, end int) {
	if at < 0 {
		return 0, len(t.text)
	}
	start, end = 0, len(t.text)
	for i := at - 1; i > 0; i-- {
		if sentenceEnd(t.text, i) {
			start = i + 1
			break
		}
	}
	for i := at; i < len(t.text)-1; i++ {
		if sentenceEnd(t.text, i) {
			end = i + 1
			break
		}
	}
	return start, end
}

// sentenceEnd reports whether a sentence ends at text[i]: a ".", "!" or
// "?" followed by white space and a capital letter or a digit.
func sentenceEnd(text []byte, i int) bool {
	if c := text[i]; c != '.' && c != '!' && c != '?' {
		return false
	}
	j := i + 1
	if j >= len(text) || !isSpace(text[j]) {
		return false
	}
	for j < len(text) && isSpace(text[j]) {
		j++
	}
	return j < len(text) && (text[j] >= 'A' && text[j] <= 'Z' || text[j] >= '0' && text[j] <= '9')
}

// lastSentence returns the last sentence of t.
func lastSentence(t string) string {
	b := []byte(strings.TrimSpace(t))
	for i := len(b) - 2; i > 0; i-- {
		if sentenceEnd(b, i) {
			return string(b[i+1:])
		}
	}
	return string(b)
}

// placeholderSegments are path elements that mark a path as a pattern to
// fill in; placeholderStems are file names that do.
var (
	placeholderSegments = map[string]bool{"example": true, "foo": true, "bar": true, "baz": true, "xxx": true, "placeholder": true}
	placeholderStems    = map[string]bool{"filename": true, "file-name": true, "file_name": true, "foo": true, "bar": true, "baz": true, "xxx": true, "placeholder": true, "your-file": true}
)

// placeholderPath reports whether a path is plainly a placeholder:
// path/to/..., an element starting with "your-", "your_" or "my-", or a
// placeholder element or file name (example/, foo/bar, filename.md,
// NAME.md).
func placeholderPath(p string) bool {
	p = strings.ReplaceAll(p, `\`, "/")
	if strings.Contains("/"+strings.ToLower(p), "/path/to/") {
		return true
	}
	els := strings.Split(strings.Trim(p, "/"), "/")
	for i, el := range els {
		low := strings.ToLower(el)
		if strings.HasPrefix(low, "your-") || strings.HasPrefix(low, "your_") || strings.HasPrefix(low, "my-") || low == "yourname" {
			return true
		}
		if i < len(els)-1 && placeholderSegments[low] {
			return true
		}
		if i == len(els)-1 {
			stem := strings.TrimSuffix(el, path.Ext(el))
			if placeholderStems[strings.ToLower(stem)] || placeholderSegments[strings.ToLower(stem)] && path.Ext(el) == "" {
				return true
			}
			if stem == strings.ToUpper(stem) && strings.ContainsAny(stem, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") &&
				(strings.Contains(stem, "NAME") || strings.Contains(stem, "FILE") || strings.Contains(stem, "XXX")) {
				return true
			}
		}
	}
	return false
}

// insideLink reports whether n is part of a link's text, whose destination
// is checked already.
func insideLink(n ast.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		if _, ok := p.(*ast.Link); ok {
			return true
		}
	}
	return false
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// trimToken strips quotes and punctuation around a token and an option
// prefix (--file=); it returns the token and how many bytes were cut from
// its start.
func trimToken(tok string) (string, int) {
	lead := 0
	if i := strings.LastIndexByte(tok, '='); i >= 0 {
		lead, tok = i+1, tok[i+1:]
	}
	t := strings.TrimLeft(tok, "\"'(")
	lead += len(tok) - len(t)
	return strings.TrimRight(t, "\"'),;:"), lead
}

// codePath accepts a code span token as a reference when it is a relative
// path into one of the bundle folders.
func codePath(tok string) (string, bool) {
	// "scripts/run.sh:12" or "file.py:12:5" names a line of a file.
	for {
		i := strings.LastIndexByte(tok, ':')
		if i < 0 || i == len(tok)-1 || strings.Trim(tok[i+1:], "0123456789") != "" {
			break
		}
		tok = tok[:i]
	}
	p := strings.TrimPrefix(tok, "./")
	ok := false
	for _, d := range bundleDirs {
		// The folder alone ("assets/") names the convention, not a file.
		if strings.HasPrefix(p, d) && len(p) > len(d) {
			ok = true
		}
	}
	if !ok {
		return "", false
	}
	return relativeTarget(tok)
}

// placeholderChars mark a path as a pattern or a placeholder rather than
// a file.
const placeholderChars = "<>{}$*|[]`"

// relativeTarget returns the file part of a link destination when it is a
// relative path worth checking.
func relativeTarget(dest string) (string, bool) {
	dest = strings.TrimSpace(dest)
	if dest == "" || dest[0] == '#' || dest[0] == '/' || dest[0] == '\\' || dest[0] == '~' || hasScheme(dest) {
		return "", false
	}
	if strings.ContainsAny(dest, placeholderChars) || strings.Contains(dest, "...") || strings.Contains(dest, "…") {
		return "", false
	}
	if i := strings.IndexAny(dest, "?#"); i >= 0 {
		dest = dest[:i]
	}
	if u, err := url.PathUnescape(dest); err == nil {
		dest = u
	}
	if dest == "" || dest == "." || dest == "./" {
		return "", false
	}
	return dest, true
}

// hasScheme reports whether s starts with a URI scheme ("https:", "mailto:")
// or a Windows drive ("C:").
func hasScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}

// unescape removes CommonMark backslash escapes of ASCII punctuation.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", s[i+1]) >= 0 {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// checkReference says what is wrong with a reference, or "" when the file
// exists in the skill folder (dir), or beside it for a path that starts
// with "..". The check goes through os.Root, as the
// runtime's bundled-file reads do, so a path that climbs out with ".." or
// through a symlink is reported too. A code-span path without an extension
// may name a Markdown file without its ".md".
// missing says the file does not exist (the caller may then look for a
// letter-case variant with caseVariant for its message).
func checkReference(root *os.Root, dir, target string, code bool) (problem string, missing bool) {
	p := strings.ReplaceAll(target, `\`, "/")
	clean := path.Clean(p)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		// A file of a sibling skill of the same collection (a plugin
		// installs them together) is there for the model to read.
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(clean))); err == nil {
			return "", false
		}
		return "leaves the skill folder and does not exist there", true
	}
	_, err := root.Stat(clean)
	switch {
	case err == nil:
		return "", false
	case errors.Is(err, fs.ErrNotExist):
		if code && path.Ext(clean) == "" {
			if _, err := root.Stat(clean + ".md"); err == nil {
				return "", false
			}
		}
		return "does not exist in the skill folder", true
	case strings.Contains(err.Error(), "escapes"):
		return "resolves outside the skill folder through a symlink", false
	}
	return "", false
}

// absentAt reports whether no entry of a folder whose names are names can
// be the first element of the clean relative path p, whatever the file
// system's letter-case rules: no name equals it under Unicode simple case
// folding. It answers only for ASCII (a file system that folds case may
// also normalize other names), and never for "." or "..".
func absentAt(names []string, p string) bool {
	first, _, _ := strings.Cut(p, "/")
	if first == "" || first == "." || first == ".." || !isASCII(first) {
		return false
	}
	for _, n := range names {
		if !isASCII(n) || strings.EqualFold(n, first) {
			return false
		}
	}
	return true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// caseVariant finds a file whose path differs from p only in letter case,
// element by element, or returns "". The names of each folder it reads are
// kept in *dirs (created when nil; nil names for a folder that does not
// open), so the broken references of one skill read each folder once.
func caseVariant(root *os.Root, p string, dirs *map[string][]string) string {
	if *dirs == nil {
		*dirs = make(map[string][]string)
	}
	dir := "."
	for _, el := range strings.Split(p, "/") {
		names, seen := (*dirs)[dir]
		if !seen {
			if f, err := root.Open(dir); err == nil {
				names, err = f.Readdirnames(-1)
				f.Close()
				if err != nil {
					names = nil
				}
			}
			(*dirs)[dir] = names
		}
		if names == nil {
			return ""
		}
		match := ""
		for _, n := range names {
			if n == el {
				match = n
				break
			}
			if match == "" && strings.EqualFold(n, el) {
				match = n
			}
		}
		if match == "" {
			return ""
		}
		dir = path.Join(dir, match)
	}
	if dir == p {
		return ""
	}
	return dir
}

// textStart returns the offset of a link's first text, or of its parent
// block, or -1.
func textStart(n ast.Node) int {
	found := -1
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			found = t.Segment.Start
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	if found >= 0 {
		return found
	}
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Type() == ast.TypeBlock && p.Lines().Len() > 0 {
			return p.Lines().At(0).Start
		}
	}
	return -1
}

func lineStarts(b []byte) []int {
	starts := []int{0}
	for i, c := range b {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// position converts a byte offset into a 1-based line and character column.
func position(b []byte, starts []int, off int) (int, int) {
	off = min(max(off, 0), len(b))
	lo, hi := 0, len(starts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if starts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo + 1, utf8.RuneCount(b[starts[lo]:off]) + 1
}
