// Package yamlx is the only package of skillet that imports a YAML library.
//
// It parses YAML text into a node tree with positions, converts nodes into
// plain Go values typed by the YAML 1.2 core schema, and reports syntax errors
// with a 1-based line and column. Keeping the import in one place means the
// library can be swapped (go.yaml.in/yaml/v4 today, go.yaml.in/yaml/v3 as the
// fallback, which has the same Node API) by editing this file alone.
package yamlx

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	yaml "go.yaml.in/yaml/v4"
)

// Node is a YAML node with its kind, resolved tag, value, children and the
// 1-based line and column where it starts.
type Node = yaml.Node

// LibraryOnly, when set, makes the fast reader ([FastBuf.Read],
// [FastTree]) decline every text, so that skill's frontmatter reader and
// the reference validator hand every file to the library. Only tests set
// it, to check that both readers give byte-identical results.
var LibraryOnly atomic.Bool

// Kind is a [Node]'s kind and Style its style bits.
type (
	Kind  = yaml.Kind
	Style = yaml.Style
)

// Kinds of [Node].
const (
	DocumentNode = yaml.DocumentNode
	MappingNode  = yaml.MappingNode
	SequenceNode = yaml.SequenceNode
	ScalarNode   = yaml.ScalarNode
	AliasNode    = yaml.AliasNode
)

// Node styles that matter to callers.
const (
	LiteralStyle      = yaml.LiteralStyle
	FoldedStyle       = yaml.FoldedStyle
	DoubleQuotedStyle = yaml.DoubleQuotedStyle
	SingleQuotedStyle = yaml.SingleQuotedStyle
	FlowStyle         = yaml.FlowStyle
	TaggedStyle       = yaml.TaggedStyle
)

// SyntaxError is YAML that could not be parsed. Line and Column are 1-based
// and relative to the parsed text; either is 0 when unknown.
type SyntaxError struct {
	Line    int
	Column  int
	Message string
	// Problem and Context are the parser's two parts of Message (Context
	// may be empty, "while scanning a simple key"), and ContextLine and
	// ContextColumn (1-based, 0 when unknown) where the context began.
	Problem, Context           string
	ContextLine, ContextColumn int
}

func (e *SyntaxError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("yaml: %d:%d: %s", e.Line, e.Column, e.Message)
	}
	return "yaml: " + e.Message
}

// MappingValueError reports whether the error is the scanner's complaint
// about a ": " inside a plain scalar ("mapping values are not allowed").
func (e *SyntaxError) MappingValueError() bool {
	return strings.Contains(e.Message, "mapping values are not allowed")
}

// Parse parses one YAML document and returns its root node (the child of the
// document node). Empty input, or input holding only comments, returns
// (nil, nil). A syntax error is returned as *[SyntaxError]; a stream with more
// than one document is an error too.
func Parse(src []byte) (*Node, error) {
	if blank(src) {
		return nil, nil
	}
	var doc Node
	if err := yaml.Load(src, &doc); err != nil {
		return nil, convertError(err)
	}
	if doc.Kind == DocumentNode {
		if len(doc.Content) == 0 {
			return nil, nil
		}
		return doc.Content[0], nil
	}
	return &doc, nil
}

// blank reports whether src holds nothing but white space and comment lines.
func blank(src []byte) bool {
	lineStart := true
	inComment := false
	for _, c := range src {
		switch {
		case c == '\n':
			lineStart, inComment = true, false
		case inComment:
		case c == ' ' || c == '\t' || c == '\r':
		case c == '#' && lineStart:
			inComment = true
		default:
			return false
		}
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			lineStart = false
		}
	}
	return true
}

func convertError(err error) error {
	var les *yaml.LoadErrors
	if errors.As(err, &les) && len(les.Errors) > 0 {
		e := les.Errors[0]
		return &SyntaxError{Line: e.Mark.Line, Column: e.Mark.Column, Message: e.Message, Problem: e.Message}
	}
	var le *yaml.LoadError
	if errors.As(err, &le) {
		msg := le.Message
		if le.ContextMsg != "" {
			msg = le.ContextMsg + ": " + msg
		}
		return &SyntaxError{Line: le.Mark.Line, Column: le.Mark.Column, Message: msg,
			Problem: le.Message, Context: le.ContextMsg, ContextLine: le.ContextMark.Line, ContextColumn: le.ContextMark.Column}
	}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	return &SyntaxError{Message: msg}
}

// KeyText returns the text of a mapping key: the scalar's value, or for a
// complex key (a sequence or mapping used as a key) its kind in brackets.
func KeyText(k *Node) string {
	if k.Kind == AliasNode && k.Alias != nil {
		k = k.Alias
	}
	if k.Kind == ScalarNode {
		return k.Value
	}
	return fmt.Sprintf("<%s key at %d:%d>", kindName(k.Kind), k.Line, k.Column)
}

func kindName(k yaml.Kind) string {
	switch k {
	case MappingNode:
		return "mapping"
	case SequenceNode:
		return "sequence"
	case ScalarNode:
		return "scalar"
	case AliasNode:
		return "alias"
	}
	return "node"
}

// Scalar returns a scalar node's value typed by the YAML 1.2 core schema
// (YAML 1.2.2 §10.3.2): quoted and block scalars are strings; plain scalars
// are null, bool, int (decimal, 0o octal, 0x hex), float or string. So
// "1.10" is the float 1.1, "yes" and "2001-12-14" are strings, "017" is 17.
func Scalar(n *Node) any {
	if n.Style&yaml.TaggedStyle != 0 {
		return taggedScalar(n)
	}
	if n.Style&(LiteralStyle|FoldedStyle|DoubleQuotedStyle|SingleQuotedStyle) != 0 {
		return n.Value
	}
	return plainScalar(n.Value)
}

// IsNull reports whether [Scalar] would return nil for n, without
// building the value.
func IsNull(n *Node) bool {
	if n.Style&yaml.TaggedStyle != 0 {
		switch n.ShortTag() {
		case "!!null", "!!bool", "!!int", "!!float":
			return nullText(n.Value)
		}
		return false
	}
	if n.Style&(LiteralStyle|FoldedStyle|DoubleQuotedStyle|SingleQuotedStyle) != 0 {
		return false
	}
	return nullText(n.Value)
}

func nullText(s string) bool {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return true
	}
	return false
}

func taggedScalar(n *Node) any {
	switch n.ShortTag() {
	case "!!str":
		return n.Value
	case "!!null", "!!bool", "!!int", "!!float":
		return plainScalar(n.Value)
	}
	return n.Value
}

var (
	intDec = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[-+]?[0-9]+$`) })
	intOct = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^0o[0-7]+$`) })
	intHex = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^0x[0-9a-fA-F]+$`) })
	float  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	})
)

func plainScalar(s string) any {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return nil
	case "true", "True", "TRUE":
		return true
	case "false", "False", "FALSE":
		return false
	}
	c := s[0]
	if !(c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.') {
		return s
	}
	switch {
	case intDec().MatchString(s):
		if i, err := strconv.ParseInt(s, 10, 64); err == nil {
			return i
		}
		return s
	case intOct().MatchString(s):
		if i, err := strconv.ParseInt(s[2:], 8, 64); err == nil {
			return i
		}
		return s
	case intHex().MatchString(s):
		if i, err := strconv.ParseInt(s[2:], 16, 64); err == nil {
			return i
		}
		return s
	case float().MatchString(s):
		if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) {
			return f
		}
	}
	return s
}
