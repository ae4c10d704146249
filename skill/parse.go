package skill

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/spec"
	"github.com/skillet-go/skillet/internal/swar"
	"github.com/skillet-go/skillet/internal/yamlx"
)

var bom = []byte{0xEF, 0xBB, 0xBF}

// Parse reads one SKILL.md (or flat-form NAME.md) from src.
//
// Parse is pure: bytes in, value and diagnostics out; it reads no file and
// never panics. It follows docs/format.md: an optional UTF-8 BOM, LF, CRLF or
// mixed line endings, a --- fence on the first line and the next line that is
// exactly --- (trailing blanks allowed) closing it. The frontmatter is decoded
// as YAML; in lenient mode a broken plain scalar is re-quoted and decoding
// retried (parse-recovered) before the file is rejected (parse-error).
//
// The returned *Skill is nil when the file is rejected: the diagnostics then
// hold at least one error. Diagnostic paths are opts.Path.
func Parse(src []byte, opts *Options) (*Skill, []Diagnostic) {
	if opts == nil {
		opts = &Options{}
	}
	if bytes.IndexByte(src, '\n') < 0 && bytes.IndexByte(src, '\r') >= 0 {
		// Old Mac line endings (CR only): read each CR as a line break.
		src = bytes.ReplaceAll(src, []byte("\r"), []byte("\n"))
	}
	p := &parser{src: src, opts: *opts}
	s := p.parse()
	// Findings made before the name was read (parse-recovered,
	// unknown-field, ...) are about the same skill.
	for i := range p.diags {
		if p.diags[i].Skill == "" {
			p.diags[i].Skill = p.name
		}
	}
	if p.fast != nil {
		p.fast.release() // nothing in s points into it
	}
	if s != nil && hasErrors(p.diags) && !opts.KeepRejected {
		s = nil
	}
	return s, p.diags
}

type parser struct {
	src   []byte
	opts  Options  // a copy, so the caller's Options stay on its stack
	fast  *fastBuf // the fast frontmatter reader's memory, while parsing
	diags []Diagnostic
	name  string // skill name once known, for diagnostics
}

// report adds a diagnostic with the code's default severity, raised to an
// error in strict mode when the rule is the specification's.
func (p *parser) report(code Code, line, col int, format string, args ...any) {
	p.reportText(code, line, col, fmt.Sprintf(format, args...))
}

// reportText is report with the message written already.
func (p *parser) reportText(code Code, line, col int, msg string) {
	info := code.Info()
	sev := info.Severity
	if sev == "" {
		sev = SeverityWarning
	}
	if p.opts.Mode == Strict && info.Spec {
		sev = SeverityError
	}
	p.add(code, sev, line, col, msg)
}

func (p *parser) reportSeverity(code Code, sev Severity, line, col int, format string, args ...any) {
	p.add(code, sev, line, col, fmt.Sprintf(format, args...))
}

func (p *parser) add(code Code, sev Severity, line, col int, msg string) {
	p.diags = append(p.diags, Diagnostic{
		Code:     code,
		Severity: sev,
		Path:     p.opts.Path,
		Line:     line,
		Column:   col,
		Message:  msg,
		Skill:    p.name,
	})
}

// fence locates the parts of a file.
type fence struct {
	start     int // offset of the content after the BOM
	fmStart   int // offset of the frontmatter text (after the opening fence line)
	fmEnd     int // offset of the closing fence line
	bodyStart int // offset after the closing fence line
	fmLine    int // file line of the first frontmatter line
	bodyLine  int // file line after the closing fence
	found     bool
	closed    bool
	blankLead int // blank lines before the opening fence
	// commentLead counts the lines of HTML comments (a licence header, a
	// linter directive) before the opening fence.
	commentLead int
	// dots says a "..." line closed the frontmatter (closeKeyBlock).
	dots bool
}

// nextLine returns the line starting at i without its line ending, and the
// offset of the next line.
func nextLine(b []byte, i int) ([]byte, int) {
	j := bytes.IndexByte(b[i:], '\n')
	if j < 0 {
		line := b[i:]
		return bytes.TrimSuffix(line, []byte("\r")), len(b)
	}
	line := b[i : i+j]
	return bytes.TrimSuffix(line, []byte("\r")), i + j + 1
}

func isFenceLine(line []byte) bool {
	return string(bytes.TrimRight(line, " \t")) == "---"
}

func isBlank(line []byte) bool {
	return len(bytes.TrimSpace(line)) == 0
}

func splitFences(src []byte) fence {
	f := fence{}
	if bytes.HasPrefix(src, bom) {
		f.start = 3
	}
	i, lineNo := f.start, 1
	// Blank lines and HTML comments before the opening fence are
	// tolerated (and reported).
	inComment := false
	for i < len(src) {
		line, next := nextLine(src, i)
		switch {
		case inComment:
			inComment = !bytes.Contains(line, []byte("-->"))
			f.commentLead++
		case isBlank(line):
			f.blankLead++
		case bytes.HasPrefix(bytes.TrimSpace(line), []byte("<!--")):
			rest := bytes.TrimSpace(line)[4:]
			end := bytes.Index(rest, []byte("-->"))
			if end >= 0 && len(bytes.TrimSpace(rest[end+3:])) > 0 {
				goto done // text after the comment: the file opens with it
			}
			inComment = end < 0
			f.commentLead++
		default:
			goto done
		}
		if next >= len(src) {
			break
		}
		i, lineNo = next, lineNo+1
	}
done:
	line, next := nextLine(src, i)
	if inComment || !isFenceLine(line) {
		f.blankLead, f.commentLead = 0, 0
		f.bodyStart, f.bodyLine = f.start, 1
		return f
	}
	f.found = true
	f.fmStart, f.fmLine = next, lineNo+1
	i, lineNo = next, lineNo+1
	for i < len(src) {
		line, next := nextLine(src, i)
		if isFenceLine(line) {
			f.closed = true
			f.fmEnd = i
			f.bodyStart, f.bodyLine = next, lineNo+1
			return f
		}
		i, lineNo = next, lineNo+1
	}
	f.fmEnd = len(src)
	f.bodyStart, f.bodyLine = len(src), lineNo
	return f
}

// closeKeyBlock closes a frontmatter that has no closing fence when its
// lines, up to the first blank line, are a clean block of keys: top-level
// "key: value" lines naming at least one known field, with their indented
// continuation lines and list items, that decode as a YAML mapping without
// repair, followed by a body. The body then starts after that block. It
// reports whether it closed f.
func closeKeyBlock(src []byte, f *fence) bool {
	i, lineNo := f.fmStart, f.fmLine
	end, endLine := -1, 0
	bodyAt, bodyLine := -1, 0
	known := false
	for i < len(src) {
		line, next := nextLine(src, i)
		if isBlank(line) {
			break
		}
		if end >= 0 && string(bytes.TrimRight(line, " \t")) == "..." {
			// YAML's document end marker, which some authors close
			// frontmatter with.
			bodyAt, bodyLine = next, lineNo+1
			f.dots = true
			break
		}
		switch m := unfencedKey().FindSubmatch(line); {
		case m != nil:
			known = known || knownField(string(m[1]))
		case end >= 0 && (line[0] == ' ' || line[0] == '\t' || bytes.HasPrefix(line, []byte("- "))):
		default:
			return false
		}
		i, lineNo = next, lineNo+1
		end, endLine = i, lineNo
	}
	if bodyAt < 0 {
		bodyAt, bodyLine = end, endLine
	}
	if end < 0 || !known || !f.dots && len(bytes.TrimSpace(src[end:])) == 0 {
		// Keys and nothing after them may be a file still being written:
		// it is not read until it is closed.
		f.dots = false
		return false
	}
	text := src[f.fmStart:end]
	if bytes.IndexByte(text, '\r') >= 0 {
		text = bytes.ReplaceAll(text, []byte("\r"), nil)
	}
	root, err := yamlx.Parse(text)
	if err != nil || root == nil || root.Kind != yamlx.MappingNode {
		f.dots = false
		return false
	}
	f.closed = true
	f.fmEnd, f.bodyStart, f.bodyLine = end, bodyAt, bodyLine
	return true
}

// keyFollows reports whether the first line of b that is not blank is a
// "key: value" line: more frontmatter, not Markdown.
func keyFollows(b []byte) bool {
	for i := 0; i < len(b); {
		line, next := nextLine(b, i)
		if !isBlank(line) {
			return unfencedKey().Match(bytes.TrimLeft(line, " \t"))
		}
		i = next
	}
	return false
}

// parse reads p.src into a Skill in its steps (each below), or returns
// nil, with the diagnostics that say why, when the file cannot be a skill.
func (p *parser) parse() *Skill {
	src := p.src
	if !p.checkEncoding() {
		return nil
	}
	f := splitFences(src)
	s := &Skill{HasFrontmatter: f.found}
	dirName := p.defaultName()

	var fm *frontmatter
	if f.found {
		var ok bool
		if fm, ok = p.readFrontmatter(&f); !ok {
			return nil
		}
		s.Frontmatter = fm.all
		if s.Frontmatter == nil {
			s.Frontmatter = Map{}
		}
		s.Recovered = len(fm.repairs) > 0
		s.Repairs = fm.repairs
	} else if p.opts.Mode == Strict {
		p.report(diagcode.NoFrontmatter, 1, 1, "the file has no frontmatter: it must start with a --- line")
		return nil
	}
	body, trimmed := p.setBody(s, &f)

	// Name.
	if fm != nil {
		p.applyFields(s, fm)
	}
	if !p.resolveName(s, fm, dirName) && !p.opts.KeepRejected {
		return nil
	}
	if !p.resolveDescription(s, fm, &f, body) {
		return nil
	}
	p.reportValueComments(fm, func(key string) string {
		if key == "description" {
			return s.Description
		}
		return s.WhenToUse
	})
	p.checkLengths(s, fm)
	if f.found && len(trimmed) == 0 {
		// The specification requires no body: a skill can be its
		// description and bundled files, in strict mode too (the
		// reference validator accepts it).
		p.report(diagcode.EmptyBody, f.bodyLine-1, 1, "the frontmatter is not followed by any instructions; the skill loads with its description only")
	}
	return s
}

// checkEncoding reports whether p.src is UTF-8 text, and reports the first
// byte that is not.
func (p *parser) checkEncoding() bool {
	src := p.src
	off, ok := firstInvalid(src)
	if ok {
		return true
	}
	line, col := position(src, off)
	if src[off] == 0 {
		p.report(diagcode.InvalidEncoding, line, col, "the file holds a NUL byte: it is binary, not UTF-8 text")
	} else {
		p.report(diagcode.InvalidEncoding, line, col, "the file is not valid UTF-8 (byte 0x%02X at offset %d)", src[off], off)
	}
	return false
}

// readFrontmatter decodes the frontmatter f found, after what came before
// its opening fence and a missing closing fence are recovered from (in
// lenient mode) or refused; it may move f's end to the end of the block of
// keys. false when the file cannot be read as a skill.
func (p *parser) readFrontmatter(f *fence) (*frontmatter, bool) {
	src := p.src
	if !p.checkLead(f) || !p.checkClosed(f) {
		return nil, false
	}
	before := len(p.diags)
	fm, ok := p.decodeFrontmatter(src[f.fmStart:f.fmEnd], f.fmLine)
	if !ok && p.opts.Mode == Lenient {
		// The --- that seemed to close the frontmatter may be a rule in a
		// body the author never fenced off: read the block of keys before
		// the first blank line instead, when it is clean.
		g := *f
		if closeKeyBlock(src, &g) && g.fmEnd < f.fmEnd && !keyFollows(src[g.fmEnd:f.fmEnd]) {
			fenceLine := f.fmLine + bytes.Count(src[f.fmStart:f.fmEnd], []byte("\n"))
			p.diags = p.diags[:before]
			*f = g
			p.report(diagcode.ParseRecovered, f.fmLine-1, 1, "the frontmatter opened on line %d is not closed after its block of keys (the next --- line, on line %d, comes after Markdown); it was read up to line %d (add a --- line after it)", f.fmLine-1, fenceLine, f.bodyLine-1)
			fm, ok = p.decodeFrontmatter(src[f.fmStart:f.fmEnd], f.fmLine)
		}
	}
	return fm, ok
}

// checkLead reports an HTML comment or blank lines before the opening
// fence: skipped in lenient mode, refused in strict mode (false).
func (p *parser) checkLead(f *fence) bool {
	switch {
	case f.commentLead > 0:
		if p.opts.Mode == Strict {
			p.reportSeverity(diagcode.NoFrontmatter, SeverityError, 1, 1, "the file must start with the --- fence; an HTML comment comes first")
			return false
		}
		p.report(diagcode.ParseRecovered, 1, 1, "the HTML comment before the opening --- fence was skipped (%d line(s)); hosts that need the fence on the first line do not read this frontmatter", f.commentLead+f.blankLead)
	case f.blankLead > 0:
		if p.opts.Mode == Strict {
			p.reportSeverity(diagcode.NoFrontmatter, SeverityError, 1, 1, "the file must start with the --- fence; %d blank line(s) come first", f.blankLead)
			return false
		}
		p.report(diagcode.ParseRecovered, 1, 1, "%d blank line(s) before the opening --- fence were skipped", f.blankLead)
	}
	return true
}

// checkClosed handles a frontmatter never closed by a --- line: in
// lenient mode it is read up to the end of its block of keys (or a "..."
// line) when that can be found; otherwise it is a parse error (false).
func (p *parser) checkClosed(f *fence) bool {
	if f.closed {
		return true
	}
	if p.opts.Mode == Strict || p.opts.Truncated || !closeKeyBlock(p.src, f) {
		msg := "the frontmatter opened on line %d is never closed by a --- line"
		if p.opts.Truncated {
			msg += " (the file was cut at maxSkillBytes before its closing fence)"
		}
		p.report(diagcode.ParseError, f.fmLine-1, 1, msg, f.fmLine-1)
		return false
	}
	if f.dots {
		p.report(diagcode.ParseRecovered, f.bodyLine-1, 1, "the frontmatter opened on line %d is closed by \"...\" (YAML's document end) rather than a --- line; write --- instead", f.fmLine-1)
	} else {
		p.report(diagcode.ParseRecovered, f.fmLine-1, 1, "the frontmatter opened on line %d is never closed by a --- line; it was read up to line %d, the end of its block of keys (add a --- line after it)", f.fmLine-1, f.bodyLine-1)
	}
	return true
}

// setBody sets s's body fields from where f says the body starts (the
// whole file without frontmatter), past blank lines, and returns the body
// and the body without trailing space.
func (p *parser) setBody(s *Skill, f *fence) (body, trimmed []byte) {
	src := p.src
	bodyOff, bodyLine := f.bodyStart, f.bodyLine
	for bodyOff < len(src) {
		line, next := nextLine(src, bodyOff)
		if !isBlank(line) {
			break
		}
		bodyOff, bodyLine = next, bodyLine+1
	}
	body = src[bodyOff:]
	if !f.found {
		// The body of a file without frontmatter is the whole file.
		bodyOff, bodyLine = f.start, 1
		body = src[f.start:]
	}
	s.BodyOffset, s.BodyLine = bodyOff, bodyLine
	trimmed = bytes.TrimRight(body, " \t\r\n")
	s.BodyLines = countLines(trimmed)
	if !p.opts.SkipBody {
		s.Body = normalizeNewlines(trimmed)
	}
	return body, trimmed
}

// resolveDescription infers a description from the body when the
// frontmatter has none, and reports where it came from; false when there
// is none to infer and the skill is not kept.
func (p *parser) resolveDescription(s *Skill, fm *frontmatter, f *fence, body []byte) bool {
	if s.Description != "" {
		if !f.found {
			p.report(diagcode.NoFrontmatter, 1, 1, "no frontmatter")
		}
		return true
	}
	inferred := firstProseLine(body, !f.found)
	switch {
	case inferred == "":
		p.reportSeverity(diagcode.NoDescription, SeverityError, descLine(fm, *f), 1, "no description: the frontmatter has none and the body has no prose line to use")
		if !p.opts.KeepRejected {
			return false
		}
	case !f.found:
		p.report(diagcode.NoFrontmatter, 1, 1, "no frontmatter: name %q comes from the %s and the description from the first prose line", s.Name, p.nameSource())
	default:
		p.report(diagcode.NoDescription, descLine(fm, *f), 1, "no description in the frontmatter: the catalog uses the first prose line of the body")
	}
	s.Description = inferred
	return true
}

// checkLengths reports a description over the specification's limit or
// the catalog's cut, and a compatibility over the specification's limit.
func (p *parser) checkLengths(s *Skill, fm *frontmatter) {
	n := swar.RuneCount(s.Description)
	dl, dc := 0, 0
	if fm != nil && fm.descKey != nil {
		dl, dc = fm.descKey.line, fm.descKey.col
	}
	maxDesc := p.opts.MaxDescriptionChars
	if maxDesc == 0 {
		maxDesc = DefaultMaxDescriptionChars
	}
	switch {
	case n > spec.MaxDescriptionChars:
		msg := fmt.Sprintf("the description is %d characters, over the specification's %d", n, spec.MaxDescriptionChars)
		if maxDesc > 0 && n > maxDesc {
			msg += fmt.Sprintf("; the catalog cuts it at %d", maxDesc)
		}
		p.report(diagcode.DescriptionTooLong, dl, dc, "%s", msg)
	case maxDesc > 0 && n > maxDesc:
		// Many published descriptions are this long: the message is
		// built without fmt (the text of "the description is %d
		// characters; the catalog cuts it at %d").
		var b [80]byte
		m := append(b[:0], "the description is "...)
		m = strconv.AppendInt(m, int64(n), 10)
		m = append(m, " characters; the catalog cuts it at "...)
		m = strconv.AppendInt(m, int64(maxDesc), 10)
		p.reportText(diagcode.DescriptionLong, dl, dc, string(m))
	}
	if n := swar.RuneCount(s.Compatibility); n > spec.MaxCompatibilityChars {
		l, c := 0, 0
		if fm != nil && fm.compatKey != nil {
			l, c = fm.compatKey.line, fm.compatKey.col
		}
		p.report(diagcode.CompatibilityTooLong, l, c, "compatibility is %d characters, over the specification's %d", n, spec.MaxCompatibilityChars)
	}
}

// descLine is the line to blame for a missing description: the opening
// fence, or line 1.
func descLine(fm *frontmatter, f fence) int {
	if f.found {
		return f.fmLine - 1
	}
	return 1
}

// defaultName is the name the path gives ([DefaultName]).
func (p *parser) defaultName() string { return DefaultName(p.opts.Path, p.opts.Flat) }

func (p *parser) nameSource() string {
	if p.opts.Flat {
		return "file name"
	}
	return "folder name"
}

func firstInvalid(b []byte) (int, bool) {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		if j, ok := firstInvalidUTF8(b[:i]); !ok {
			return j, false
		}
		return i, false
	}
	return firstInvalidUTF8(b)
}

func firstInvalidUTF8(b []byte) (int, bool) {
	if utf8.Valid(b) {
		return 0, true
	}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i, false
		}
		i += size
	}
	return 0, true
}

// position converts a byte offset into a 1-based line and character column.
func position(b []byte, off int) (line, col int) {
	if off > len(b) {
		off = len(b)
	}
	line = 1 + bytes.Count(b[:off], []byte("\n"))
	start := bytes.LastIndexByte(b[:off], '\n') + 1
	prefix := b[start:off]
	if line == 1 {
		prefix = bytes.TrimPrefix(prefix, bom)
	}
	return line, utf8.RuneCount(prefix) + 1
}

func countLines(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	return bytes.Count(b, []byte("\n")) + 1
}

func normalizeNewlines(b []byte) string {
	if bytes.IndexByte(b, '\r') < 0 {
		return string(b)
	}
	s := strings.ReplaceAll(string(b), "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

// firstProseLine returns the first line of Markdown prose in body: not a
// heading (ATX or setext), a code fence or docstring quote (three double or
// single quotes) and what it encloses, a table row, rule, HTML comment or
// tag, a line of images or badges, or a link definition; list and quote
// markers are removed, and proseLine skips metadata, labels, taglines and
// code and reduces emphasis to its text. When
// unfenced is set (the file has no --- fence), a leading block of
// "key: value" lines that names a frontmatter field is the author's
// frontmatter written without its fences and is skipped too. When the body
// has no prose it falls back to the first heading's text.
func firstProseLine(body []byte, unfenced bool) string {
	lines := proseLines(body)
	from := 0
	if unfenced {
		from = skipUnfencedKeys(lines)
	}
	var hidden hiddenBlocks
	heading := ""
	skipped := "" // the first line proseLine passed over
	for k := from; k < len(lines); k++ {
		line := hidden.visible(strings.TrimSpace(lines[k]))
		if line == "" {
			continue
		}
		switch {
		case strings.HasPrefix(line, "#"):
			if heading == "" {
				heading = strings.TrimSpace(strings.Trim(line, "# \t"))
			}
			continue
		case k+1 < len(lines) && isSetextUnderline(strings.TrimSpace(lines[k+1])) && !isRule(line) && !strings.Contains(line, "|") && stripMarkers(line) == line:
			// "Title" over "=====" or "-----" is a heading.
			if heading == "" {
				heading = line
			}
			k++
			continue
		case strings.HasPrefix(line, "|"), isTableRow(line, lines, k), isRule(line),
			strings.HasPrefix(line, "<") && strings.HasSuffix(line, ">"),
			strings.HasPrefix(line, "[") && strings.Contains(line, "]:"),
			onlyImages(line), isQuoteMark(line):
			continue
		}
		line = stripMarkers(line)
		if line == "" || onlyImages(line) || isQuoteMark(line) {
			continue
		}
		if text, ok := proseLine(line, nextNonBlank(lines, k)); ok {
			return text
		}
		if skipped == "" {
			skipped = plainText(line)
		}
	}
	if heading == "" {
		// Only lines proseLine passes over: the first of them rather
		// than no description at all.
		return skipped
	}
	return plainText(heading)
}

// proseLines are the first maxProseLines lines of body, without their line
// endings.
func proseLines(body []byte) []string {
	var lines []string
	for i := 0; i < len(body) && len(lines) < maxProseLines; {
		raw, next := nextLine(body, i)
		i = next
		lines = append(lines, string(raw))
	}
	return lines
}

// hiddenBlocks follows, line by line, the code fence (or docstring quote)
// or HTML comment a body is in, whose text is no prose.
type hiddenBlocks struct {
	fenceMark string // the marker that closes the open block; "" outside one
	inComment bool
}

// visible returns what of the trimmed line is outside fenced blocks and
// HTML comments ("" for nothing), and notes a block or comment it opens or
// closes.
func (h *hiddenBlocks) visible(line string) string {
	if h.fenceMark != "" {
		if closesFence(line, h.fenceMark) {
			h.fenceMark = ""
		}
		return ""
	}
	if h.inComment {
		_, after, ok := strings.Cut(line, "-->")
		if !ok {
			return ""
		}
		h.inComment = false
		line = strings.TrimSpace(after)
	}
	if strings.HasPrefix(line, "<!--") {
		_, after, ok := strings.Cut(line[4:], "-->")
		if !ok {
			h.inComment = true
			return ""
		}
		line = strings.TrimSpace(after)
	}
	if line == "" {
		return ""
	}
	if m := openFence(line); m != "" {
		h.fenceMark = m
		return ""
	}
	return line
}

// nextNonBlank returns the first non-blank line after lines[k], trimmed
// ("" when there is none).
func nextNonBlank(lines []string, k int) string {
	for _, l := range lines[min(k+1, len(lines)):] {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

// maxProseLines bounds the lines searched for a description.
const maxProseLines = 4096

// skipUnfencedKeys returns the index of the first line after a leading
// block of "key: value" lines (with their indented continuation lines, and
// a --- line before or after it), or 0 when the file does not open with
// such a block. The block must name a known frontmatter field, so that a
// prose line such as "Note: read this first" is not taken for one.
func skipUnfencedKeys(lines []string) int {
	k := 0
	for k < len(lines) && strings.TrimSpace(lines[k]) == "" {
		k++
	}
	if k < len(lines) && isRule(strings.TrimSpace(lines[k])) {
		k++
	}
	known, keys := false, 0
	for k < len(lines) {
		line := lines[k]
		if strings.TrimSpace(line) == "" {
			break
		}
		if m := unfencedKey().FindStringSubmatch(line); m != nil {
			keys++
			known = known || knownField(m[1])
			k++
			continue
		}
		if keys > 0 && (line[0] == ' ' || line[0] == '\t') {
			k++ // a continuation line, a nested key or a list item
			continue
		}
		break
	}
	if !known {
		return 0
	}
	if k < len(lines) && isRule(strings.TrimSpace(lines[k])) {
		k++
	}
	return k
}

// unfencedKey matches a top-level "key: value" (or "key:") line.
var unfencedKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_-]*):(?:[ \t]|$)`) })

// Docstring quotes: a line opening with one starts a block that a line
// ending with the same quote closes.
const (
	dquote3 = `"""`
	squote3 = `'''`
)

// isQuoteMark reports whether line is only quote marks (a docstring quote
// left on its own).
func isQuoteMark(line string) bool {
	return strings.Trim(line, `"'`+"`") == ""
}

// openFence returns the marker that closes the block line opens: a code
// fence (three or more backticks or tildes) or a docstring quote, or ""
// when line opens none.
func openFence(line string) string {
	for _, q := range []string{dquote3, squote3} {
		if strings.HasPrefix(line, q) {
			if strings.Contains(line[3:], q) {
				return "" // """one line""" closes on its own line
			}
			return q
		}
	}
	if len(line) < 3 || line[0] != '`' && line[0] != '~' {
		return ""
	}
	n := 0
	for n < len(line) && line[n] == line[0] {
		n++
	}
	if n < 3 || line[0] == '`' && strings.Contains(line[n:], "`") {
		return "" // ``` followed by a backtick is inline code, not a fence
	}
	return line[:n]
}

// closesFence reports whether line closes the block opened by mark: the
// same fence character at least as many times and nothing else, or a line
// ending with the same docstring quote.
func closesFence(line, mark string) bool {
	if mark == dquote3 || mark == squote3 {
		return strings.HasSuffix(line, mark)
	}
	return len(line) >= len(mark) && strings.Trim(line, mark[:1]) == ""
}

// isSetextUnderline reports whether line underlines a setext heading.
func isSetextUnderline(line string) bool {
	if line == "" {
		return false
	}
	c := line[0]
	return (c == '=' || c == '-') && strings.Trim(line, string(c)) == ""
}

// isTableRow reports whether lines[k] is a row of a pipe table written
// without outer pipes: it holds a "|", and it or a line next to it is a
// delimiter row ("--- | ---").
func isTableRow(line string, lines []string, k int) bool {
	if !strings.Contains(line, "|") {
		return false
	}
	if isDelimiterRow(line) {
		return true
	}
	for _, j := range []int{k - 1, k + 1} {
		if j >= 0 && j < len(lines) && isDelimiterRow(strings.TrimSpace(lines[j])) {
			return true
		}
	}
	return false
}

func isDelimiterRow(line string) bool {
	return strings.Contains(line, "|") && strings.Contains(line, "-") && strings.Trim(line, "|-: \t") == ""
}

// onlyImages reports whether line is nothing but images and linked images
// (a row of badges), which say nothing a description could use.
func onlyImages(line string) bool {
	rest := strings.TrimSpace(line)
	if rest == "" {
		return false
	}
	for rest != "" {
		var ok bool
		if rest, ok = cutImage(rest); !ok {
			return false
		}
		rest = strings.TrimSpace(rest)
	}
	return true
}

// cutImage removes one leading "![alt](src)" or "[![alt](src)](href)"
// from s and reports whether it found one.
func cutImage(s string) (string, bool) {
	linked := strings.HasPrefix(s, "[![")
	if linked {
		s = s[1:]
	}
	if !strings.HasPrefix(s, "![") {
		return s, false
	}
	i := strings.Index(s, "](")
	if i < 0 {
		return s, false
	}
	j := strings.IndexByte(s[i:], ')')
	if j < 0 {
		return s, false
	}
	s = s[i+j+1:]
	if linked {
		if !strings.HasPrefix(s, "](") {
			return s, false
		}
		j := strings.IndexByte(s, ')')
		if j < 0 {
			return s, false
		}
		s = s[j+1:]
	}
	return s, true
}

func isRule(line string) bool {
	if len(line) < 3 {
		return false
	}
	c := line[0]
	if c != '-' && c != '*' && c != '_' && c != '=' {
		return false
	}
	for i := 0; i < len(line); i++ {
		if line[i] != c && line[i] != ' ' {
			return false
		}
	}
	return true
}

func stripMarkers(line string) string {
	for {
		switch {
		case strings.HasPrefix(line, "> "), line == ">":
			line = strings.TrimSpace(line[1:])
		case strings.HasPrefix(line, "- "), strings.HasPrefix(line, "* "), strings.HasPrefix(line, "+ "):
			line = strings.TrimSpace(line[2:])
		default:
			// "1. text"
			j := 0
			for j < len(line) && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j > 0 && j+1 < len(line) && (line[j] == '.' || line[j] == ')') && line[j+1] == ' ' {
				line = strings.TrimSpace(line[j+2:])
				continue
			}
			return line
		}
	}
}

// errBudget is returned when expanding YAML aliases exceeds the budget.
var errBudget = errors.New("the frontmatter is too complex (excessive aliasing)")
