package skillsref

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/skillet-go/skillet/internal/yamlx"
)

// The reference validator reads the frontmatter with strictyaml, a
// restricted YAML reader built on ruamel.yaml: every scalar is a string,
// and flow collections ([a, b], {k: v}), anchors, tags and duplicate keys
// are errors. This file gives the same verdict and the same error text
// (strictyaml's "While scanning ... Found ..." and ruamel's scanner and
// parser messages, each position followed by the line and a caret) on top
// of skillet's YAML 1.2 parser.

// kv is one entry of a mapping, in document order.
type kv struct {
	key string
	val any // string, []any or []kv
	// line and col are where the key is in the frontmatter text, 1-based
	// (0 when not from a parse).
	line, col int
}

// mark is a position in the frontmatter text: 0-based line and column,
// counted in characters, as ruamel counts them.
type mark struct{ line, col int }

// yamlError is a ruamel/strictyaml error: an optional context with its
// mark, a problem with its mark.
type yamlError struct {
	context  string
	cmark    *mark
	problem  string
	pmark    *mark
	readerCh rune // a character the reader refuses (the reference crashes)
}

// breaks are the characters ruamel ends a line at.
func isBreak(r rune) bool {
	return r == '\n' || r == '\x85' || r == '\u2028' || r == '\u2029' || r == '\r'
}

// lines splits text where ruamel counts a new line.
// The lines are cut from one slice of the text's runes, made as long as
// the text's bytes (a rune is at least a byte, so it never grows: each
// line grown rune by rune was 3.6% of lint --compat's CPU, and counting
// the runes first a pass of its own, 1% more); an empty line is nil, as
// it was, and none can grow into the next.
func splitLines(text string) [][]rune {
	all := make([]rune, 0, len(text))
	out := make([][]rune, 0, strings.Count(text, "\n")+1)
	start := 0
	for _, r := range text {
		if isBreak(r) {
			out = append(out, lineOf(all, start))
			start = len(all)
			continue
		}
		all = append(all, r)
	}
	return append(out, lineOf(all, start))
}

// lineOf is the line of all from start to its end, nil when empty.
func lineOf(all []rune, start int) []rune {
	if start == len(all) {
		return nil
	}
	return all[start:len(all):len(all)]
}

// format renders the error as str() of the Python exception does.
func (e *yamlError) format(lines [][]rune) string {
	var parts []string
	if e.context != "" {
		parts = append(parts, e.context)
	}
	if e.cmark != nil && (e.problem == "" || e.pmark == nil || *e.cmark != *e.pmark) {
		parts = append(parts, markText(lines, *e.cmark))
	}
	if e.problem != "" {
		parts = append(parts, e.problem)
	}
	if e.pmark != nil {
		parts = append(parts, markText(lines, *e.pmark))
	}
	return strings.Join(parts, "\n")
}

// markText is a position as ruamel prints it: where, the line (cut to
// about 75 characters around the position, with " ... "), and a caret.
func markText(lines [][]rune, m mark) string {
	var line []rune
	if m.line < len(lines) {
		line = lines[m.line]
	}
	ptr := max(0, min(m.col, len(line)))
	const half = 75.0/2 - 1
	head, start := "", ptr
	for start > 0 {
		start--
		if float64(ptr-start) > half {
			head = " ... "
			start += 5
			break
		}
	}
	tail, end := "", ptr
	for end < len(line) {
		end++
		if float64(end-ptr) > half {
			tail = " ... "
			end -= 5
			break
		}
	}
	return fmt.Sprintf("  in \"<unicode string>\", line %d, column %d:\n    %s%s%s\n%s^ (line: %d)",
		m.line+1, m.col+1, head, string(line[start:end]), tail,
		strings.Repeat(" ", 4+ptr-start+len(head)), m.line+1)
}

// printable is the set of characters ruamel's reader accepts.
func printable(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0x7e || r == 0x85 ||
		r >= 0xa0 && r <= 0xd7ff || r >= 0xe000 && r <= 0xfffd || r >= 0x10000 && r <= 0x10ffff
}

// loadStrict reads text as strictyaml.load(text).data does. The result
// is a []kv for a mapping, a []any for a sequence, and text itself for
// anything else (strictyaml returns a document that is not a collection
// as its source).
func loadStrict(text string) (any, *yamlError) {
	lines := splitLines(text)
	for i, line := range lines {
		for j, r := range line {
			if !printable(r) {
				return nil, &yamlError{readerCh: r, pmark: &mark{i, j}}
			}
		}
	}
	if e := scanTabs(lines); e != nil {
		// A tab where ruamel only skips spaces; an earlier disallowed token
		// wins, so keep it only if the tree has none before it.
		n, release, err := parse(text)
		if err == nil {
			te := firstToken(n, lines)
			release()
			if te != nil && before(*te.cmark, *e.pmark) {
				return nil, te
			}
		} else if se, ok := err.(*yamlx.SyntaxError); ok && se.Line > 0 && before(mark{se.Line - 1, se.Column - 1}, *e.pmark) {
			return nil, syntaxError(se, lines)
		}
		return nil, e
	}
	n, release, err := parse(text)
	if err != nil {
		if se, ok := err.(*yamlx.SyntaxError); ok {
			return nil, syntaxError(se, lines)
		}
		return nil, &yamlError{problem: err.Error()}
	}
	defer release()
	if n == nil {
		return text, nil
	}
	if e := firstToken(n, lines); e != nil {
		return nil, e
	}
	if e := duplicateKey(n); e != nil {
		return nil, e
	}
	switch n.Kind {
	case yamlx.MappingNode, yamlx.SequenceNode:
		return convert(n), nil
	}
	return text, nil
}

// lineSeps stand in for U+2028 and U+2029 while skillet's parser reads
// the text: ruamel keeps them in a scalar, as a line break, where skillet's
// parser would refuse them. U+0085 continues a plain scalar for ruamel,
// folded into a space.
var (
	toParser   = strings.NewReplacer("\u0085", " ", "\u2028", "\ufdd0", "\u2029", "\ufdd1")
	fromParser = strings.NewReplacer("\ufdd0", "\u2028", "\ufdd1", "\u2029")
)

// toParserText is toParser.Replace(s), and fromParserText
// fromParser.Replace(s): s itself when it holds no first byte of the
// strings they replace (U+0085 is C2 85, U+2028 and U+2029 E2 80 A8 and
// A9, U+FDD0 and U+FDD1 EF B7 90 and 91), as nearly every text does. A
// strings.Replacer of strings longer than a byte copies s twice even when
// nothing matches: the copies of every key and value were a tenth of the
// validator's allocated bytes in lint --compat (pprof of
// BenchmarkCompat/compat). FuzzReplaceRare holds them to Replace.
func toParserText(s string) string {
	if strings.IndexByte(s, 0xC2) < 0 && strings.IndexByte(s, 0xE2) < 0 {
		return s
	}
	return toParser.Replace(s)
}

// fromParserText is fromParser.Replace(s): s itself when it holds no EF,
// the first byte of U+FDD0 and U+FDD1 (toParserText).
func fromParserText(s string) string {
	if strings.IndexByte(s, 0xEF) < 0 {
		return s
	}
	return fromParser.Replace(s)
}

// parse returns the tree of text and a function to call once the tree is
// no longer read. The common frontmatter shapes are built by skillet's
// fast reader (yamlx.FastTree), the tree the library builds for them, where
// the library took three quarters of the validator's CPU in lint --compat
// (pprof of BenchmarkCompat/compat); the fast reader declines every text
// holding U+0085, U+2028 or U+2029, so the text it reads is the text with
// them replaced. FuzzStrictFast holds the two ways to the same verdict.
func parse(text string) (*yamlx.Node, func(), error) {
	if n, release, ok := yamlx.FastTree([]byte(text)); ok {
		return n, release, nil
	}
	n, err := yamlx.Parse([]byte(toParserText(text)))
	return n, func() {}, err
}

func before(a, b mark) bool { return a.line < b.line || a.line == b.line && a.col < b.col }

// scanTabs finds the first tab ruamel refuses: one between tokens or
// inside a plain scalar (its scanner skips only spaces there). Tabs inside
// quoted scalars, block scalars and comments are text.
func scanTabs(lines [][]rune) *yamlError {
	quote := rune(0) // the open quoted scalar's quote
	block := -1      // the indentation a block scalar's lines exceed, or -1
	blockStart := false
	for i, line := range lines {
		indent := 0
		for indent < len(line) && line[indent] == ' ' {
			indent++
		}
		if block >= 0 {
			if indent == len(line) || indent > block || blockStart && indent > block {
				blockStart = false
				continue
			}
			block = -1
		}
		tokenStart := true // at a place where a scalar may begin
		for j := 0; j < len(line); j++ {
			r := line[j]
			if quote != 0 {
				switch {
				case quote == '"' && r == '\\':
					j++
				case r == quote && quote == '\'' && j+1 < len(line) && line[j+1] == '\'':
					j++
				case r == quote:
					quote = 0
					tokenStart = false
				}
				continue
			}
			switch {
			case r == '\t':
				return &yamlError{context: "while scanning for the next token", cmark: &mark{i, j},
					problem: "found character '\\t' that cannot start any token", pmark: &mark{i, j}}
			case r == ' ':
				if j+1 < len(line) && line[j+1] == '#' {
					j = len(line)
				}
				continue
			case r == '#' && j == indent:
				j = len(line)
				continue
			case tokenStart && (r == '"' || r == '\''):
				quote = r
				continue
			case tokenStart && (r == '|' || r == '>'):
				block, blockStart = indent, true
				j = len(line)
				continue
			case (r == ':' || r == '-' || r == '?') && (j+1 == len(line) || line[j+1] == ' '):
				tokenStart = true
				continue
			}
			tokenStart = false
		}
	}
	return nil
}

// syntaxError turns a parse error of skillet's YAML parser into ruamel's.
func syntaxError(se *yamlx.SyntaxError, lines [][]rune) *yamlError {
	if se.Line <= 0 {
		return &yamlError{problem: se.Message}
	}
	pm := &mark{se.Line - 1, max(se.Column-1, 0)}
	var cm *mark
	if se.ContextLine > 0 {
		cm = &mark{se.ContextLine - 1, max(se.ContextColumn-1, 0)}
	}
	problem := se.Problem
	if problem == "" {
		problem = se.Message
	}
	switch {
	case strings.HasPrefix(problem, "mapping values are not allowed"):
		return &yamlError{problem: "mapping values are not allowed here", pmark: pm}
	case problem == "found character that cannot start any token":
		return &yamlError{context: se.Context, cmark: pm, problem: fmt.Sprintf("found character %s that cannot start any token", pyStr(string(charAt(lines, *pm)))), pmark: pm}
	case problem == "did not find expected node content":
		return &yamlError{context: se.Context, cmark: cm, problem: "expected the node content, but found " + pyStr(tokenID(lines, *pm)), pmark: pm}
	}
	return &yamlError{context: se.Context, cmark: cm, problem: problem, pmark: pm}
}

func charAt(lines [][]rune, m mark) rune {
	if m.line < len(lines) && m.col < len(lines[m.line]) {
		return lines[m.line][m.col]
	}
	return 0
}

// tokenID names the token ruamel's parser finds at m, as its messages do.
func tokenID(lines [][]rune, m mark) string {
	if m.line >= len(lines) || m.col >= len(lines[m.line]) {
		return "<stream end>"
	}
	rest := string(lines[m.line][m.col:])
	switch rest[0] {
	case '-':
		if len(rest) == 1 || rest[1] == ' ' {
			return "-"
		}
	case '?':
		return "?"
	case ':':
		return ":"
	}
	if i := strings.Index(rest, ":"); i > 0 && (i+1 == len(rest) || rest[i+1] == ' ') {
		return "?"
	}
	return "<scalar>"
}

// firstToken returns strictyaml's error for the first flow collection,
// anchor or tag of the tree, in document order.
func firstToken(n *yamlx.Node, lines [][]rune) *yamlError {
	var found *yamlError
	var at mark
	var walk func(n *yamlx.Node)
	walk = func(n *yamlx.Node) {
		if n == nil {
			return
		}
		start := mark{n.Line - 1, n.Column - 1}
		var e *yamlError
		switch {
		case n.Anchor != "":
			end := mark{start.line, start.col + 1 + utf8.RuneCountInString(n.Anchor)}
			e = &yamlError{context: "While scanning", cmark: &start, problem: "Found confusing disallowed anchor token (surround with ' and ' to make text appear literally)", pmark: &end}
		case n.Style&yamlx.TaggedStyle != 0:
			end := mark{start.line, start.col + tagLen(lines, start)}
			e = &yamlError{context: "While scanning", cmark: &end, problem: "Found disallowed tag tokens (do not specify types in markup)", pmark: &start}
		case n.Style&yamlx.FlowStyle != 0 && (n.Kind == yamlx.MappingNode || n.Kind == yamlx.SequenceNode):
			end := mark{start.line, start.col + 1}
			e = &yamlError{context: "While scanning", cmark: &start, problem: "Found ugly disallowed JSONesque flow mapping (surround with ' and ' to make text appear literally)", pmark: &end}
		}
		if e != nil {
			if found == nil || before(start, at) {
				found, at = e, start
			}
			return
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return found
}

func tagLen(lines [][]rune, m mark) int {
	n := 0
	if m.line < len(lines) {
		for _, r := range lines[m.line][min(m.col, len(lines[m.line])):] {
			if r == ' ' || r == '\t' {
				break
			}
			n++
		}
	}
	return n
}

// duplicateKey returns strictyaml's error for the first key that repeats
// one before it in its mapping, checking each mapping before the ones
// nested in it, as the constructor does.
func duplicateKey(root *yamlx.Node) *yamlError {
	queue := []*yamlx.Node{root}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if n.Kind == yamlx.MappingNode {
			seen := map[string]bool{}
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if seen[k.Value] {
					start := mark{k.Line - 1, k.Column - 1}
					width := utf8.RuneCountInString(k.Value)
					if k.Style&(yamlx.DoubleQuotedStyle|yamlx.SingleQuotedStyle) != 0 {
						width += 2
					}
					end := mark{start.line, start.col + width}
					return &yamlError{context: "While parsing", cmark: &start, problem: fmt.Sprintf("Duplicate key '%s' found", k.Value), pmark: &end}
				}
				seen[k.Value] = true
			}
		}
		queue = append(queue, n.Content...)
	}
	return nil
}

// convert turns the tree into strictyaml's all-strings data.
func convert(n *yamlx.Node) any {
	switch n.Kind {
	case yamlx.MappingNode:
		m := make([]kv, 0, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			m = append(m, kv{key: fromParserText(k.Value), val: convert(n.Content[i+1]), line: k.Line, col: k.Column})
		}
		return m
	case yamlx.SequenceNode:
		l := make([]any, len(n.Content))
		for i, c := range n.Content {
			l[i] = convert(c)
		}
		return l
	case yamlx.AliasNode:
		if n.Alias != nil {
			return convert(n.Alias)
		}
	}
	return fromParserText(n.Value)
}
