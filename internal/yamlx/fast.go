package yamlx

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/skillet-go/skillet/internal/swar"
)

// FastBuf is the memory of skillet's own reader of the common frontmatter
// shapes (Read): the nodes and the pointer lists of the last tree read,
// reused by the next. The zero value is ready to use.
type FastBuf struct {
	nodes []Node
	ptrs  []*Node
}

// Oversized reports whether b grew for an unusually large text (over
// 1,024 nodes): a pool lets it go rather than keep it.
func (b *FastBuf) Oversized() bool { return cap(b.nodes) > 1024 }

var fastBufs = sync.Pool{New: func() any { return new(FastBuf) }}

// FastTree is [FastBuf.Read] into a pooled buffer: the root of the tree
// [Parse] builds for src and a release function to call once the tree is
// no longer read (its nodes go back to the pool; the strings they hold do
// not), or ok false when Read declines src, which is then Parse's. The
// reference validator's strict reader (internal/skillsref) builds its
// trees with it; package skill reads into a buffer of its own.
func FastTree(src []byte) (root *Node, release func(), ok bool) {
	b := fastBufs.Get().(*FastBuf)
	root, ok = b.Read(src)
	release = func() {
		if !b.Oversized() {
			fastBufs.Put(b)
		}
	}
	if !ok {
		release()
		return nil, nil, false
	}
	return root, release, true
}

// Read reads the frontmatter shapes most published skills use
// and builds the node tree the YAML library builds for them: the same kinds,
// styles, values, lines and columns (docs/format.md#parsing). It handles a
// top-level mapping of plain keys whose values are one-line plain, single-
// or double-quoted scalars, one-line flow collections ([a, "b"], {"k": 1},
// nested), nothing (null), or one level of nesting: a block mapping or block
// sequence of such one-line values. For anything else (comments, tabs, block
// scalars, values that go on over several lines, anchors, tags, escapes
// beyond JSON's, control characters) it returns ok == false and the caller
// uses the library. text is valid UTF-8 (skill.Parse checks the whole file
// first) with LF line endings and no CR.
//
// Plain scalars carry no resolved Tag: skillet types them itself by the YAML
// 1.2 core schema (Scalar), never by the library's tag.
//
// All nodes live in one slice and all child lists in another, and values
// are substrings of one copy of text, so a file costs a handful of
// allocations instead of the library's hundred or so. The nodes are in
// buf, valid until its next Read. It never builds a tree [Parse] would not
// (held to it by FuzzFastPath in package skill), and declines everything
// while LibraryOnly is set.
func (buf *FastBuf) Read(text []byte) (*Node, bool) {
	if LibraryOnly.Load() || len(text) == 0 || len(text) > 1<<16 {
		return nil, false
	}
	lines, items, ok := fmScan(text)
	if !ok {
		return nil, false
	}
	n := 1 + 2*lines + 2*items
	if cap(buf.nodes) < n {
		buf.nodes = make([]Node, 0, n)
	}
	if len(buf.ptrs) < 2*n {
		buf.ptrs = make([]*Node, 2*n)
	}
	fp := fastParser{src: string(text), nodes: buf.nodes[:0:n]}
	// One slice of pointers: the first half holds every Content list, the
	// second is the stack of children of the collections being built.
	fp.kids, fp.stack = buf.ptrs[:0:n], buf.ptrs[n:n:2*n]
	root, ok := fp.document()
	if !ok {
		return nil, false
	}
	return root, true
}

// Classes of a frontmatter byte for the first pass of FastBuf.Read.
const (
	fmPlain = iota
	fmNewline
	fmComma
	fmOpen   // [ or {
	fmReject // #, tab, CR, DEL and other control characters
	fmHigh   // a lead byte that may start a character YAML does not print
)

var fmClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c == '\n':
			t[c] = fmNewline
		case c == ',':
			t[c] = fmComma
		case c == '[' || c == '{':
			t[c] = fmOpen
		case c == '#' || c == 0x7f || c < 0x20:
			t[c] = fmReject
		case c == 0xC2 || c == 0xE2 || c == 0xEF:
			t[c] = fmHigh
		}
	}
	return t
}()

type fastParser struct {
	src   string
	nodes []Node  // every node; never grown past its capacity
	kids  []*Node // every Content slice is a window of this
	stack []*Node // children of the collections being built
	line  int     // 1-based number of the current line
	pos   int     // offset of the current line in src
}

// node returns a new node, or nil when the slab is full (the estimate was
// wrong: decline rather than reallocate, which would move the nodes).
func (fp *fastParser) node(kind Kind, style Style, tag, value string, line, col int) *Node {
	if len(fp.nodes) == cap(fp.nodes) {
		return nil
	}
	fp.nodes = append(fp.nodes, Node{Kind: kind, Style: style, Tag: tag, Value: value, Line: line, Column: col})
	return &fp.nodes[len(fp.nodes)-1]
}

// close gives n the children pushed since mark.
func (fp *fastParser) close(n *Node, mark int) bool {
	k := len(fp.stack) - mark
	if len(fp.kids)+k > cap(fp.kids) {
		return false
	}
	start := len(fp.kids)
	fp.kids = append(fp.kids, fp.stack[mark:]...)
	n.Content = fp.kids[start:len(fp.kids):len(fp.kids)]
	fp.stack = fp.stack[:mark]
	return true
}

// nextLine returns the current line (without its LF) and moves on.
func (fp *fastParser) nextLine() (string, bool) {
	if fp.pos >= len(fp.src) {
		return "", false
	}
	rest := fp.src[fp.pos:]
	line := rest
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		line = rest[:i]
		fp.pos += i + 1
	} else {
		fp.pos = len(fp.src)
	}
	fp.line++
	return line, true
}

// peek returns the next line without moving on.
func (fp *fastParser) peek() (string, bool) {
	if fp.pos >= len(fp.src) {
		return "", false
	}
	rest := fp.src[fp.pos:]
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		return rest[:i], true
	}
	return rest, true
}

func blankLine(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != ' ' {
			return false
		}
	}
	return true
}

func indentLen(s string) int {
	i := 0
	for i < len(s) && s[i] == ' ' {
		i++
	}
	return i
}

// column is the 1-based character column of byte offset off in line.
func column(line string, off int) int {
	return swar.RuneCount(line[:off]) + 1
}

func (fp *fastParser) document() (*Node, bool) {
	var root *Node
	mark := len(fp.stack)
	for {
		line, more := fp.nextLine()
		if !more {
			break
		}
		if blankLine(line) {
			continue
		}
		if line[0] == ' ' {
			return nil, false // indented with no key above to own it
		}
		key, rest, ok := splitKey(line, 0)
		if !ok {
			return nil, false
		}
		if root == nil {
			if root = fp.node(MappingNode, 0, "!!map", "", fp.line, 1); root == nil {
				return nil, false
			}
		}
		k := fp.node(ScalarNode, 0, "", key, fp.line, 1)
		if k == nil {
			return nil, false
		}
		fp.stack = append(fp.stack, k)
		var v *Node
		if blankLine(rest) {
			v, ok = fp.nested(line, len(key))
		} else {
			v, ok = fp.inline(line, len(line)-len(rest))
		}
		if !ok || v == nil {
			return nil, false
		}
		fp.stack = append(fp.stack, v)
	}
	if root == nil || !fp.close(root, mark) {
		return nil, false
	}
	return root, true
}

// splitKey reads "key:" at offset at of line: a plain key of letters,
// digits, "_", "-" and "." that starts with a letter, digit or "_", right
// before the colon, and the colon followed by a space or the end of the
// line. rest is what follows the colon.
func splitKey(line string, at int) (key, rest string, ok bool) {
	i := at
	for i < len(line) {
		c := line[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' ||
			i > at && (c == '-' || c == '.') {
			i++
			continue
		}
		break
	}
	if i == at || i >= len(line) || line[i] != ':' {
		return "", "", false
	}
	if i+1 < len(line) && line[i+1] != ' ' {
		return "", "", false
	}
	return line[at:i], line[i+1:], true
}

// nested reads what follows "key:" with nothing after it on its line: a
// block mapping or sequence on the lines below, or null. colon is the byte
// offset of the colon in keyLine.
func (fp *fastParser) nested(keyLine string, colon int) (*Node, bool) {
	nullCol := column(keyLine, colon) + 1
	keyLineNo := fp.line
	save, saveLine := fp.pos, fp.line
	first, found := fp.skipBlankLines()
	ind := 0
	if found {
		ind = indentLen(first)
	}
	seq := found && isSeqItem(first, ind)
	if !found || (ind == 0 && !seq) {
		// Nothing nested: the value is null, and the blank lines are
		// read again by the caller.
		fp.pos, fp.line = save, saveLine
		return fp.node(ScalarNode, 0, "!!null", "", keyLineNo, nullCol), true
	}
	var coll *Node
	mark := len(fp.stack)
	for {
		l, more := fp.peek()
		if !more {
			break
		}
		if blankLine(l) {
			fp.nextLine()
			continue
		}
		li := indentLen(l)
		if seq && ind == 0 && !isSeqItem(l, 0) {
			break // a sequence at the key's own indent ends at the next key
		}
		if li != ind {
			if li == 0 {
				break // the next top-level key
			}
			return nil, false // deeper nesting or a ragged indent
		}
		fp.nextLine()
		var ok bool
		if seq {
			coll, ok = fp.seqItem(coll, l, ind)
		} else {
			coll, ok = fp.mapEntry(coll, l, ind)
		}
		if !ok {
			return nil, false
		}
	}
	if coll == nil || !fp.close(coll, mark) {
		return nil, false
	}
	return coll, true
}

// skipBlankLines moves past blank lines and returns the first line that is
// not blank, without reading it (found is false at the end of the
// frontmatter).
func (fp *fastParser) skipBlankLines() (first string, found bool) {
	for {
		l, more := fp.peek()
		if !more {
			return "", false
		}
		if !blankLine(l) {
			return l, true
		}
		fp.nextLine()
	}
}

// isSeqItem reports whether line holds "- " at byte ind.
func isSeqItem(line string, ind int) bool {
	return len(line) > ind+1 && line[ind] == '-' && line[ind+1] == ' '
}

// seqItem reads line l, "- VALUE" indented by ind, as the next item of the
// block sequence coll (made at the first item; nil before), pushing the
// value on the stack. It declines an item with no value or with a value
// that is not one line.
func (fp *fastParser) seqItem(coll *Node, l string, ind int) (*Node, bool) {
	if !isSeqItem(l, ind) {
		return nil, false
	}
	if coll == nil {
		if coll = fp.node(SequenceNode, 0, "!!seq", "", fp.line, ind+1); coll == nil {
			return nil, false
		}
	}
	off := ind + 2
	for off < len(l) && l[off] == ' ' {
		off++
	}
	if off == len(l) {
		return nil, false // "- " with no value
	}
	v, ok := fp.inline(l, off)
	if !ok || v == nil {
		return nil, false
	}
	fp.stack = append(fp.stack, v)
	return coll, true
}

// mapEntry reads line l, "key: VALUE" indented by ind, as the next entry
// of the block mapping coll (made at the first entry; nil before), pushing
// the key and the value on the stack. A key with nothing after it is null
// (something deeper below it is declined by nested on the next line).
func (fp *fastParser) mapEntry(coll *Node, l string, ind int) (*Node, bool) {
	key, rest, ok := splitKey(l, ind)
	if !ok {
		return nil, false
	}
	if coll == nil {
		if coll = fp.node(MappingNode, 0, "!!map", "", fp.line, ind+1); coll == nil {
			return nil, false
		}
	}
	k := fp.node(ScalarNode, 0, "", key, fp.line, ind+1)
	if k == nil {
		return nil, false
	}
	fp.stack = append(fp.stack, k)
	var v *Node
	if blankLine(rest) {
		v = fp.node(ScalarNode, 0, "!!null", "", fp.line, column(l, ind+len(key))+1)
	} else {
		v, ok = fp.inline(l, len(l)-len(rest))
	}
	if !ok || v == nil {
		return nil, false
	}
	fp.stack = append(fp.stack, v)
	return coll, true
}

// inline reads a one-line value starting at or after byte off of line
// (after the spaces that follow a colon or a dash).
func (fp *fastParser) inline(line string, off int) (*Node, bool) {
	for off < len(line) && line[off] == ' ' {
		off++
	}
	end := len(line)
	for end > off && line[end-1] == ' ' {
		end--
	}
	if off == end {
		return nil, false
	}
	switch line[off] {
	case '"', '\'', '[', '{':
		n, next, ok := fp.flowValue(line, off, end, false)
		if !ok || next != end {
			return nil, false
		}
		return n, true
	}
	v := line[off:end]
	if !plainBlock(v) {
		return nil, false
	}
	return fp.node(ScalarNode, 0, "", v, fp.line, column(line, off)), true
}

// plainBlock reports whether v (trimmed, on one line) is a plain scalar the
// library reads as exactly v in block context: it does not start with an
// indicator, and holds no ": " and does not end with ":".
func plainBlock(v string) bool {
	if !plainStart(v) {
		return false
	}
	for i := strings.IndexByte(v, ':'); i >= 0; {
		if i+1 == len(v) || v[i+1] == ' ' {
			return false
		}
		j := strings.IndexByte(v[i+1:], ':')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return true
}

// plainStart reports whether v can start a plain scalar: not empty, not an
// indicator, not a document marker.
func plainStart(v string) bool {
	if v == "" {
		return false
	}
	switch v[0] {
	case '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ':
		return false
	}
	return true
}

// flowValue reads a quoted scalar or a flow collection at line[i:end] and
// returns the node and the offset after it (and after any spaces). inFlow
// says the value is inside a flow collection, where plain scalars end at
// "," "]" "}".
func (fp *fastParser) flowValue(line string, i, end int, inFlow bool) (*Node, int, bool) {
	if i >= end {
		return nil, 0, false
	}
	col := column(line, i)
	var n *Node
	var next int
	switch line[i] {
	case '"':
		v, j, ok := doubleQuoted(line, i, end)
		if !ok {
			return nil, 0, false
		}
		n, next = fp.node(ScalarNode, DoubleQuotedStyle, "!!str", v, fp.line, col), j
	case '\'':
		v, j, ok := singleQuoted(line, i, end)
		if !ok {
			return nil, 0, false
		}
		n, next = fp.node(ScalarNode, SingleQuotedStyle, "!!str", v, fp.line, col), j
	case '[', '{':
		return fp.flowCollection(line, i, end)
	default:
		if !inFlow {
			return nil, 0, false
		}
		j := i
		for j < end {
			c := line[j]
			if c == ',' || c == ']' || c == '}' || c == '[' || c == '{' || c == ':' || c == '"' || c == '\'' {
				break
			}
			j++
		}
		k := j
		for k > i && line[k-1] == ' ' {
			k--
		}
		v := line[i:k]
		if !plainStart(v) {
			return nil, 0, false
		}
		if j < end && line[j] != ',' && line[j] != ']' && line[j] != '}' {
			return nil, 0, false
		}
		n, next = fp.node(ScalarNode, 0, "", v, fp.line, col), j
	}
	if n == nil {
		return nil, 0, false
	}
	for next < end && line[next] == ' ' {
		next++
	}
	return n, next, true
}

// flowCollection reads [a, b] or {k: v, ...} on one line.
func (fp *fastParser) flowCollection(line string, i, end int) (*Node, int, bool) {
	if len(fp.stack) > 64 {
		return nil, 0, false // deep nesting: leave it to the library
	}
	isMap := line[i] == '{'
	closer := byte(']')
	var n *Node
	if isMap {
		closer = '}'
		n = fp.node(MappingNode, FlowStyle, "!!map", "", fp.line, column(line, i))
	} else {
		n = fp.node(SequenceNode, FlowStyle, "!!seq", "", fp.line, column(line, i))
	}
	if n == nil {
		return nil, 0, false
	}
	mark := len(fp.stack)
	j := i + 1
	for j < end && line[j] == ' ' {
		j++
	}
	if j < end && line[j] == closer {
		j++
	} else {
		for {
			item, next, ok := fp.flowValue(line, j, end, true)
			if !ok {
				return nil, 0, false
			}
			fp.stack = append(fp.stack, item)
			j = next
			if isMap {
				// A key: quoted or plain scalar, then ": ".
				if item.Kind != ScalarNode || j+1 >= end || line[j] != ':' || line[j+1] != ' ' {
					return nil, 0, false
				}
				j += 2
				for j < end && line[j] == ' ' {
					j++
				}
				val, next, ok := fp.flowValue(line, j, end, true)
				if !ok {
					return nil, 0, false
				}
				fp.stack = append(fp.stack, val)
				j = next
			}
			if j >= end {
				return nil, 0, false
			}
			if line[j] == closer {
				j++
				break
			}
			if line[j] != ',' {
				return nil, 0, false
			}
			j++
			for j < end && line[j] == ' ' {
				j++
			}
			if j < end && line[j] == closer {
				return nil, 0, false // trailing comma: leave it to the library
			}
		}
	}
	if !fp.close(n, mark) {
		return nil, 0, false
	}
	for j < end && line[j] == ' ' {
		j++
	}
	return n, j, true
}

// doubleQuoted reads "..." at line[i:] that closes before end, with the
// escapes JSON has (\" \\ \/ \b \f \n \r \t \uXXXX outside the
// surrogates); any other escape declines.
func doubleQuoted(line string, i, end int) (string, int, bool) {
	j := i + 1
	start := j
	var b []byte
	for j < end {
		c := line[j]
		if c == '"' {
			if b == nil {
				return line[start:j], j + 1, true
			}
			b = append(b, line[start:j]...)
			return string(b), j + 1, true
		}
		if c != '\\' {
			j++
			continue
		}
		b = append(b, line[start:j]...)
		if j+1 >= end {
			return "", 0, false
		}
		switch e := line[j+1]; e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			if j+6 > end {
				return "", 0, false
			}
			r, err := strconv.ParseUint(line[j+2:j+6], 16, 32)
			if err != nil || r >= 0xD800 && r <= 0xDFFF {
				return "", 0, false
			}
			b = utf8.AppendRune(b, rune(r))
			j += 4
		default:
			return "", 0, false
		}
		j += 2
		start = j
	}
	return "", 0, false
}

// singleQuoted reads '...' at line[i:] that closes before end; ” is a
// quote.
func singleQuoted(line string, i, end int) (string, int, bool) {
	j := i + 1
	start := j
	var b []byte
	for j < end {
		if line[j] != '\'' {
			j++
			continue
		}
		if j+1 < end && line[j+1] == '\'' {
			b = append(b, line[start:j+1]...)
			j += 2
			start = j
			continue
		}
		if b == nil {
			return line[start:j], j + 1, true
		}
		b = append(b, line[start:j]...)
		return string(b), j + 1, true
	}
	return "", 0, false
}
