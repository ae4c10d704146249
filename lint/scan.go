package lint

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// scanReferencesTo finds the references of a plain Markdown body without
// building a tree: paragraphs, ATX headings, fenced code blocks at the
// margin, and lists of one level whose items are one paragraph (lazy
// continuation lines included), with inline links and images of the form
// [text](destination) and code spans on one line. That is how most skill
// bodies are written. For these shapes it returns what goldmark's tree gives
// (parseReferences: the same references, positions and block context);
// anything else (indentation, block quotes, HTML, thematic breaks, setext
// headings, tabs and control characters, backslashes, link reference
// definitions, nested brackets, link titles, Unicode space around a
// destination, code spans over several lines,
// ...) makes it decline (ok false), and the body goes to goldmark.
// FuzzScanReferences and TestScanReferences hold it to goldmark. The
// references are appended to buf[:0] (reused memory), with the block
// contexts from slab when it is not nil.
func scanReferencesTo(buf []foundRef, slab *ctxSlab, body []byte, examples bool) (refs []foundRef, ok bool) {
	s := scanner{body: body, examples: examples, refs: buf[:0], slab: slab}
	if !s.run() {
		return nil, false
	}
	return s.refs, true
}

type scanner struct {
	body     []byte
	examples bool
	refs     []foundRef
	slab     *ctxSlab
	// The position of the last reference: its offset, line and the
	// offset its line starts at (references come in body order).
	posOff, posLine, posStart int

	// The open paragraph (start of its first line's text, end of its
	// last line) or none (para false); inItem says it is a list item's.
	para           bool
	paraStart, end int
	inItem         bool
	// marks says a line of the open paragraph holds a backtick or a
	// bracket: without one it holds no reference, and inline is not run.
	marks bool
	// The open list: its marker ('-', '*', '+', '.' or ')'), or 0, and
	// its intro (the block before it).
	list      byte
	listIntro sblock
	// last is the last top-level block closed (none when it had no
	// lines or was a list): the intro of a list that follows.
	last sblock
	// The block inline is in, its intro and its context (nil until a
	// reference needs it).
	blk, intro sblock
	ctx        *blockCtx
	// targets remembers what relativeTarget made of each destination:
	// a body often links one file many times.
	// A body names few destinations: the first ones are looked up in a
	// list (no hashing), the rest in the map.
	targetList [maxTargetList]target
	nTargets   int
	targets    map[string]target
}

type target struct {
	dest string
	path string
	ok   bool
}

// maxTargetList is how many destinations target keeps in its list.
const maxTargetList = 8

// target is relativeTarget(unescape(dest)), once per destination.
func (s *scanner) target(dest []byte) (string, bool) {
	for i := range s.nTargets {
		if t := &s.targetList[i]; t.dest == string(dest) {
			return t.path, t.ok
		}
	}
	if t, seen := s.targets[string(dest)]; seen {
		return t.path, t.ok
	}
	d := string(dest)
	p, ok := relativeTarget(unescape(d))
	if s.nTargets < maxTargetList {
		s.targetList[s.nTargets] = target{d, p, ok}
		s.nTargets++
		return p, ok
	}
	if s.targets == nil {
		s.targets = make(map[string]target)
	}
	s.targets[d] = target{d, p, ok}
	return p, ok
}

// sblock is a block the scanner closed, body[start:end]: a paragraph or
// heading (its lines end with their "\n", the last trimmed), or the
// content of a fenced code block. The zero sblock is none.
type sblock struct{ start, end int }

// Line kinds.
const (
	kBlank = iota
	kPara
	kHeading
	kFence
	kItem
	kDecline
)

// run reads the body line by line (lineScan, classify) and hands each
// line to the step of its kind; it returns false when a line declines
// (the body goes to goldmark).
func (s *scanner) run() bool {
	b := s.body
	for pos := 0; pos < len(b); {
		eol, next, clean, marks := lineScan(b, pos)
		line := b[pos:eol]
		kind, info := classify(line)
		switch kind {
		case kDecline:
			return false
		case kBlank:
			if !s.closePara() {
				return false
			}
			pos = next
			continue
		}
		if !clean {
			return false
		}
		ok := true
		switch kind {
		case kPara:
			s.paraLine(pos, eol, marks)
		case kHeading:
			ok = s.heading(line, pos, marks)
		case kFence:
			if !s.closePara() {
				return false
			}
			s.closeList()
			pos, s.last = fence(b, next, line[0], info)
			continue
		case kItem:
			ok = s.item(line, pos, eol, info, marks)
		}
		if !ok {
			return false
		}
		pos = next
	}
	if !s.closePara() {
		return false
	}
	s.closeList()
	return true
}

// paraLine takes a paragraph line, body[pos:eol]: it continues the open
// paragraph (a continuation line, lazy in a list item) or opens one,
// ending a list the line is at the margin after.
func (s *scanner) paraLine(pos, eol int, marks bool) {
	if s.para {
		s.end = eol
		s.marks = s.marks || marks
		return
	}
	if s.list != 0 {
		s.closeList() // a line at the margin after a blank line ends the list
	}
	s.para, s.paraStart, s.end, s.inItem, s.marks = true, pos, eol, false, marks
}

// heading takes an ATX heading line at pos: it ends the open paragraph
// and list, and finds the references of its text. False: declined.
func (s *scanner) heading(line []byte, pos int, marks bool) bool {
	if !s.closePara() {
		return false
	}
	s.closeList()
	start, stop, ok := headingText(line)
	if !ok {
		return false
	}
	s.last = sblock{}
	if stop > start {
		s.last = sblock{pos + start, pos + stop}
		if marks && !s.inline(s.last, sblock{}) {
			return false
		}
	}
	return true
}

// item takes a list item's line, body[pos:eol], whose text starts at
// info: the next item of the open list, or the first of a new one (after
// a paragraph only a bullet or "1."). False: declined (another marker
// while a list is open, or a numbered line that would continue a
// paragraph).
func (s *scanner) item(line []byte, pos, eol, info int, marks bool) bool {
	marker := line[info-2] // '-', '*', '+', or the '.' or ')' after a number
	switch {
	case s.list != 0 && s.list == marker:
		// The next item of the open list.
	case s.list != 0:
		return false // another marker: a new list, not taken here
	case s.para:
		// A list interrupting a paragraph: bullets, and ordered
		// lists only from 1; otherwise the line would continue it,
		// which is not taken here.
		if !bullet(marker) && !startsAtOne(line) {
			return false
		}
		fallthrough
	default:
		if !s.closePara() {
			return false
		}
		s.list, s.listIntro = marker, s.last
	}
	if !s.closePara() {
		return false
	}
	s.para, s.paraStart, s.end, s.inItem, s.marks = true, pos+info, eol, true, marks
	return true
}

func bullet(c byte) bool { return c == '-' || c == '*' || c == '+' }

// startsAtOne reports whether an ordered item's number is 1 ("1.", "01)").
func startsAtOne(line []byte) bool {
	i := 0
	for i < len(line) && line[i] == '0' {
		i++
	}
	return i < len(line) && line[i] == '1' && i+1 < len(line) && (line[i+1] == '.' || line[i+1] == ')')
}

// closePara ends the open paragraph: its lines are its line spans (the
// last trimmed of trailing white space), and its references are found.
func (s *scanner) closePara() bool {
	if !s.para {
		return true
	}
	s.para = false
	b := s.body
	end := s.end
	for end > s.paraStart && gmSpace(b[end-1]) {
		end--
	}
	blk, intro := sblock{s.paraStart, end}, sblock{}
	if s.inItem {
		intro = s.listIntro
	} else {
		s.last = blk
	}
	return !s.marks || s.inline(blk, intro)
}

func (s *scanner) closeList() {
	if s.list != 0 {
		s.list, s.listIntro, s.last = 0, sblock{}, sblock{}
	}
}

// gmSpace is goldmark's white space (util.IsSpace, its spaceTable):
// space, tab, line feed and carriage return, not vertical tab or form
// feed, so that a line of spaces and a vertical tab is not blank to it
// and continues a paragraph.
func gmSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// lineScan reads the line that starts at pos in b once, eight bytes at a
// time: it returns what lineEnd returns, whether the line is free of what
// the scanner leaves to goldmark (clean: control characters, tabs and
// carriage returns included, "<", "\" and "]:"), and, when it is,
// whether it holds a backtick or a bracket (marks), which inline stops at.
// TestSWAR holds it to lineEnd, lineChars and a byte loop.
func lineScan(b []byte, pos int) (eol, next int, clean, marks bool) {
	i := pos
	for {
		for ; i+8 <= len(b); i += 8 {
			if m := lineScanWord(binary.LittleEndian.Uint64(b[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3 // the first byte it may stop at
				break
			}
		}
		if i+8 > len(b) {
			for i < len(b) && !lineStop[b[i]] && b[i] != '`' && b[i] != '[' {
				i++
			}
			if i >= len(b) {
				return len(b), len(b), true, marks
			}
		}
		switch c := b[i]; {
		case c == '\n':
			return i, i + 1, true, marks
		case c == '`' || c == '[':
			marks = true
		case lineStop[c] && (c != ']' || i+1 < len(b) && b[i+1] == ':'):
			eol, next = lineEnd(b, i)
			return eol, next, false, false
		}
		i++ // a mark, a "]" that is no "]:", or a byte the word test flagged after the first
	}
}

// lineStop marks the bytes a clean line (lineScan) is free of, "]" for "]:".
var lineStop = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t[0x7f], t['<'], t['\\'], t[']'] = true, true, true, true
	return t
}()

// classify says what a line outside code blocks starts. For kItem, info
// is the offset of the item's text; for kFence, the fence's length.
func classify(line []byte) (kind, info int) {
	if len(line) == 0 {
		return kBlank, 0
	}
	switch c := line[0]; {
	case c == ' ' || c == '\t':
		for _, c := range line {
			if !gmSpace(c) {
				return kDecline, 0 // indented: code block or continuation
			}
		}
		return kBlank, 0
	case c == '#':
		return classifyHash(line), 0
	case c == '`' || c == '~':
		return classifyFence(line)
	case c == '>' || c == '<' || c == '=':
		return kDecline, 0
	case c == '-' || c == '*' || c == '+' || c == '_':
		return classifyBullet(line)
	case c >= '0' && c <= '9':
		return classifyNumber(line)
	}
	return kPara, 0
}

// classifyHash is classify of a line that starts with '#': an ATX
// heading, a paragraph (seven #s or more, or no space after them), or
// declined (a tab after them).
func classifyHash(line []byte) int {
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	if n > 6 {
		return kPara
	}
	if n == len(line) || line[n] == ' ' {
		return kHeading
	}
	if line[n] == '\t' {
		return kDecline
	}
	return kPara
}

// classifyFence is classify of a line that starts with '`' or '~': a
// fence of three or more (info its length), a paragraph, or declined (a
// backtick run followed by a backtick: a code span).
func classifyFence(line []byte) (kind, info int) {
	c, n := line[0], 0
	for n < len(line) && line[n] == c {
		n++
	}
	if n < 3 {
		return kPara, 0
	}
	if c == '`' && bytes.IndexByte(line[n:], '`') >= 0 {
		return kDecline, 0 // not a fence: a paragraph with a code span
	}
	return kFence, n
}

// classifyBullet is classify of a line that starts with '-', '*', '+' or
// '_': an item whose text starts at 2, a paragraph, or declined (a rule,
// a setext underline, a tab, an empty item, an item that is no plain
// paragraph).
func classifyBullet(line []byte) (kind, info int) {
	c := line[0]
	if onlyRule(line) {
		return kDecline, 0 // thematic break or setext underline
	}
	if c != '_' && len(line) >= 2 && line[1] == '\t' {
		return kDecline, 0
	}
	if c != '_' && len(line) >= 2 && line[1] == ' ' {
		if len(line) < 3 || line[2] == ' ' || line[2] == '\t' || !plainStart(line[2:]) {
			return kDecline, 0
		}
		return kItem, 2
	}
	if c != '_' && len(line) == 1 {
		return kDecline, 0 // an empty item
	}
	return kPara, 0
}

// classifyNumber is classify of a line that starts with a digit: an
// ordered item ("1. ", at most nine digits) whose text starts at info, a
// paragraph, or declined (an empty item, a tab, an item that is no plain
// paragraph).
func classifyNumber(line []byte) (kind, info int) {
	n := 0
	for n < len(line) && line[n] >= '0' && line[n] <= '9' {
		n++
	}
	if n > 9 || n >= len(line) || line[n] != '.' && line[n] != ')' {
		return kPara, 0
	}
	m := n + 1
	if m == len(line) {
		return kDecline, 0 // an empty item
	}
	if line[m] != ' ' {
		if line[m] == '\t' {
			return kDecline, 0
		}
		return kPara, 0
	}
	if m+1 >= len(line) || line[m+1] == ' ' || line[m+1] == '\t' || !plainStart(line[m+1:]) {
		return kDecline, 0
	}
	return kItem, m + 1
}

// plainStart reports whether an item's text starts a paragraph (and not a
// heading, fence, quote, nested list, rule or HTML).
func plainStart(text []byte) bool {
	k, _ := classify(text)
	return k == kPara
}

// onlyRule reports whether a line holds only "-", "*", "_", "=" and white
// space: a thematic break, a setext underline, or a list of them.
func onlyRule(line []byte) bool {
	for _, c := range line {
		if c != '-' && c != '*' && c != '_' && c != '=' && !gmSpace(c) {
			return false
		}
	}
	return true
}

// headingText returns the text of an ATX heading line as goldmark's
// lines hold it (after the opening #s and spaces, before trailing spaces);
// a closing sequence of #s is declined.
func headingText(line []byte) (start, stop int, ok bool) {
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	start = n
	for start < len(line) && line[start] == ' ' {
		start++
	}
	stop = len(line)
	for stop > start && gmSpace(line[stop-1]) {
		stop--
	}
	if stop > start && line[stop-1] == '#' {
		return 0, 0, false
	}
	return start, stop, true
}

// fence skips a fenced code block whose content starts at pos, opened by n
// fence characters c, and returns where the body goes on and the block's
// content (none when it is empty). An unclosed fence runs to the end.
func fence(b []byte, pos int, c byte, n int) (int, sblock) {
	content := sblock{pos, pos}
	for pos < len(b) {
		eol, next := lineEnd(b, pos)
		line := b[pos:eol]
		i := 0
		for i < len(line) && line[i] == ' ' {
			i++
		}
		if i < 4 {
			j := i
			for j < len(line) && line[j] == c {
				j++
			}
			if j-i >= n && blankBytes(line[j:]) {
				pos = next
				break
			}
		}
		content.end = next
		pos = next
	}
	if content.end == content.start {
		content = sblock{}
	}
	return pos, content
}

func blankBytes(b []byte) bool {
	for _, c := range b {
		if !gmSpace(c) {
			return false
		}
	}
	return true
}

// inline finds the links, images and code spans of the inline text of
// blk (a paragraph or heading); intro is the block before the list blk is
// an item of, if any.
func (s *scanner) inline(blk, intro sblock) bool {
	b := s.body
	s.blk, s.intro, s.ctx = blk, intro, nil
	stop := blk.end
	for i := blk.start; i < stop; {
		i = nextTick(b, i, stop)
		if i == stop {
			break
		}
		if b[i] == '`' {
			n := 1
			for i+n < stop && b[i+n] == '`' {
				n++
			}
			j := closingRun(b[i+n:stop], n)
			if j < 0 {
				i += n // no closing run: literal backticks
				continue
			}
			j += i + n
			if bytes.IndexByte(b[i+n:j], '\n') >= 0 {
				return false // a code span over several lines
			}
			s.codeText(i+n, j)
			i = j + n
			continue
		}
		next, d, k, ok := s.link(i, stop)
		if !ok {
			return false
		}
		if k > d {
			if (b[d] >= utf8.RuneSelf || b[k-1] >= utf8.RuneSelf) && len(bytes.TrimSpace(b[d:k])) != k-d {
				return false // Unicode space around the destination: appendLink trims it and then places the link by its text
			}
			if target, ok := s.target(b[d:k]); ok {
				s.add(foundRef{bodyRef: bodyRef{Target: target}, ctx: s.blockCtx(), off: d})
			}
		}
		i = next
	}
	return true
}

// codeText adds the paths of the code span text body[start:stop], as
// appendCodeText does.
func (s *scanner) codeText(start, stop int) {
	seg := s.body[start:stop]
	for i := 0; i < len(seg); {
		var j int
		i, j = spaceToken(seg, i)
		if j > i && bytes.Contains(seg[i:j], []byte("/")) {
			tok, lead := trimToken(string(seg[i:j]))
			if target, ok := codePath(tok); ok {
				s.add(foundRef{bodyRef: bodyRef{Target: target, Code: true}, ctx: s.blockCtx(), off: start + i + lead})
			}
		}
		i = j
	}
}

// blockCtx returns the block context of the block inline is in, made for
// its first reference.
func (s *scanner) blockCtx() *blockCtx {
	if s.ctx == nil {
		s.ctx = s.slab.get()
		s.ctx.blk, s.ctx.intro, s.ctx.spans = s.blk, s.intro, true
	}
	return s.ctx
}

// ctxSlab hands out block contexts from chunks reused from one body to the
// next (a body has a context per block with a reference; a new one each
// was a fifth of what lint allocated). A nil slab allocates each.
type ctxSlab struct {
	chunks [][]blockCtx
	n      int // handed out since the last reset
}

const ctxChunk = 64

// get returns a zero block context, valid until the next reset.
func (s *ctxSlab) get() *blockCtx {
	if s == nil {
		return &blockCtx{}
	}
	k, i := s.n/ctxChunk, s.n%ctxChunk
	if k == len(s.chunks) {
		s.chunks = append(s.chunks, make([]blockCtx, ctxChunk))
	}
	s.n++
	c := &s.chunks[k][i]
	*c = blockCtx{}
	return c
}

// reset takes every context back (and lets go of what they point to).
func (s *ctxSlab) reset() {
	for k := 0; k*ctxChunk < s.n; k++ {
		clear(s.chunks[k][:min(ctxChunk, s.n-k*ctxChunk)])
	}
	s.n = 0
}

// add appends r with its position and, when examples are asked for, its
// Example flag.
func (s *scanner) add(r foundRef) {
	b := s.body
	if r.off < s.posOff {
		s.posOff, s.posLine, s.posStart = 0, 0, 0
	}
	if nl := bytes.Count(b[s.posOff:r.off], []byte("\n")); nl > 0 {
		s.posLine += nl
		s.posStart = s.posOff + bytes.LastIndexByte(b[s.posOff:r.off], '\n') + 1
	}
	s.posOff = r.off
	r.Line, r.Column = s.posLine+1, utf8.RuneCount(b[s.posStart:r.off])+1
	r.Example = s.examples && (exampleContext(b, &r) || placeholderPath(r.Target))
	s.refs = append(s.refs, r)
}

// closingRun returns the offset in t of the first run of exactly n
// backticks, or -1.
func closingRun(t []byte, n int) int {
	for i := 0; i < len(t); {
		if t[i] != '`' {
			i++
			continue
		}
		j := i
		for j < len(t) && t[j] == '`' {
			j++
		}
		if j-i == n {
			return i
		}
		i = j
	}
	return -1
}

// link reads a bracket at b[i]: "[text](dest)" is a link (or an image
// when "!" comes before it; the destination is b[d:k], empty for none)
// and "[text]" not followed by "(" is literal text (there are no reference
// definitions); anything else is declined. text is one line of at most 500
// bytes with no brackets or backticks and not only spaces; dest has no
// spaces, parentheses, quotes or "&".
func (s *scanner) link(i, stop int) (next, d, k int, ok bool) {
	b := s.body
	j := i + 1
	blank := true
	for ; j < stop && b[j] != ']'; j++ {
		switch b[j] {
		case '[', '`', '\n':
			return 0, 0, 0, false
		case ' ':
		default:
			blank = false
		}
	}
	if j >= stop || j-i > 500 {
		return 0, 0, 0, false
	}
	if j+1 >= stop || b[j+1] != '(' {
		return j + 1, 0, 0, true // literal
	}
	if blank {
		return 0, 0, 0, false // no text: goldmark places such a link differently
	}
	d = j + 2
	k = d
	for ; k < stop && b[k] != ')'; k++ {
		switch ch := b[k]; {
		case gmSpace(ch), ch == '(', ch == '"', ch == '\'', ch == '&', ch == '`', ch == '[', ch == ']':
			return 0, 0, 0, false
		}
	}
	if k >= stop || k-d > 2000 {
		return 0, 0, 0, false
	}
	return k + 1, d, k, true
}

// lineEnd returns where the line that starts at pos in b ends (its "\n",
// or len(b)) and where the next one starts.
func lineEnd(b []byte, pos int) (eol, next int) {
	if i := bytes.IndexByte(b[pos:], '\n'); i >= 0 {
		return pos + i, pos + i + 1
	}
	return len(b), len(b)
}

// spaceToken returns the bounds of the run of non-space bytes in seg that
// starts at or after i (empty at len(seg) when only spaces are left).
func spaceToken(seg []byte, i int) (start, end int) {
	for i < len(seg) && isSpace(seg[i]) {
		i++
	}
	j := i
	for j < len(seg) && !isSpace(seg[j]) {
		j++
	}
	return i, j
}
