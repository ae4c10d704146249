// Package jsonw appends indented JSON to a byte slice in one pass: the
// bytes encoding/json writes with SetIndent("", "  ") and
// SetEscapeHTML(false), without building the values first or indenting
// afterwards. lint's JSON report and skillet list --json use it
// (docs/performance.md#lint).
package jsonw

import (
	"strconv"
	"unicode/utf8"
)

// Writer holds the document being appended, B; the caller writes B out
// and truncates it whenever it likes.
type Writer struct {
	B []byte
}

// Elem starts the i-th element of a non-empty array at the given depth.
func (w *Writer) Elem(i, depth int) {
	if i > 0 {
		w.B = append(w.B, ',')
	}
	w.NL(depth)
}

// Key starts the i-th member of an object at the given depth.
func (w *Writer) Key(i, depth int, k string) {
	w.Elem(i, depth)
	w.Str(k)
	w.B = append(w.B, ':', ' ')
}

// KeyText returns the bytes Key(i, depth, k) appends, so that a key written
// for every element of a long array can be built once and appended as is.
func KeyText(i, depth int, k string) string {
	var w Writer
	w.Key(i, depth, k)
	return string(w.B)
}

// End closes a non-empty array or object whose brackets sit at depth.
func (w *Writer) End(depth int, c byte) {
	w.NL(depth)
	w.B = append(w.B, c)
}

// NL starts a new line indented for depth.
func (w *Writer) NL(depth int) {
	if n := 1 + 2*depth; n <= len(newlines) {
		w.B = append(w.B, newlines[:n]...)
		return
	}
	w.B = append(w.B, '\n')
	for range depth {
		w.B = append(w.B, ' ', ' ')
	}
}

// newlines is a line break and the indentation of up to 15 levels.
const newlines = "\n                              "

// Array appends an array of n elements whose brackets sit at depth:
// "[]" when n is 0, else each element on its own line one level deeper,
// written by elem(i).
func (w *Writer) Array(n, depth int, elem func(i int)) {
	if n == 0 {
		w.B = append(w.B, "[]"...)
		return
	}
	w.B = append(w.B, '[')
	for i := range n {
		w.Elem(i, depth+1)
		elem(i)
	}
	w.End(depth, ']')
}

// Int appends n.
func (w *Writer) Int(n int) { w.B = strconv.AppendInt(w.B, int64(n), 10) }

// Str appends s as a JSON string the way encoding/json does without HTML
// escaping: quotes, backslashes and control characters escaped (\b, \f,
// \n, \r, \t short, the others as \u00XX), invalid UTF-8 as \ufffd, U+2028
// and U+2029 as \u escapes.
func (w *Writer) Str(s string) { w.quote(s, false) }

// StrHTML appends s as Str does, with <, > and & escaped too (\u003c,
// \u003e, \u0026), as json.Marshal writes strings.
func (w *Writer) StrHTML(s string) { w.quote(s, true) }

// Classes of a byte in a JSON string.
const (
	plainByte = iota // written as is
	escByte          // a quote, a backslash or a control character
	htmlByte         // <, > or &, escaped only with html
	multiByte        // part of a multi-byte sequence
)

var strClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c < 0x20 || c == '"' || c == '\\':
			t[c] = escByte
		case c == '<' || c == '>' || c == '&':
			t[c] = htmlByte
		case c >= utf8.RuneSelf:
			t[c] = multiByte
		}
	}
	return t
}()

// quote appends s quoted, a byte at a time: a run of bytes written as
// they are is copied at once, at the next byte to escape.
func (w *Writer) quote(s string, html bool) {
	b := append(w.B, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if k := strClass[c]; k == plainByte || k == htmlByte && !html {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	w.B = append(b, '"')
}

const hex = "0123456789abcdef"
