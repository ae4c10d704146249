package cli

import (
	"bufio"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/skill"
)

// writeListingJSON writes the object of list --json (docs/output.md) exactly as
// outfmt.JSON(w, listingJSON(l)) would (two-space indent, no HTML escaping),
// but in one pass: every value is appended to one reused buffer already
// indented, one skill at a time, so nothing is encoded twice and the whole
// document is never held in memory (docs/performance.md).
func writeListingJSON(w io.Writer, l *catalog.Listing) error {
	lw := newListWriter(w)
	for _, s := range l.Skills {
		if err := lw.skill(l, s); err != nil {
			return err
		}
	}
	return lw.finish(l)
}

// listWriter writes the object of list --json as a listing is handed out
// skill by skill (catalog.Catalog.Each): the workspace and the roots with
// the first skill, the diagnostics at the end.
type listWriter struct {
	bw     *bufio.Writer
	j      jw
	skills int
	begun  bool
}

func newListWriter(w io.Writer) *listWriter {
	return &listWriter{bw: bufio.NewWriterSize(w, 64<<10)}
}

// begin writes everything before the first skill.
func (lw *listWriter) begin(l *catalog.Listing) {
	lw.begun = true
	j := &lw.j
	j.b = append(j.b, "{\n  \"workspace\": "...)
	j.str(slash(l.Workspace))
	j.b = append(j.b, ",\n  \"roots\": "...)
	if len(l.Roots) == 0 {
		j.b = append(j.b, "[]"...)
	} else {
		j.b = append(j.b, '[')
		for i := range l.Roots {
			r := &l.Roots[i]
			j.elem(i, 2)
			j.b = append(j.b, '{')
			j.key(0, 3, "path")
			j.str(slash(r.Path))
			j.key(1, 3, "scope")
			j.str(string(r.Scope))
			j.key(1, 3, "exists")
			j.b = strconv.AppendBool(j.b, r.Exists)
			j.end(2, '}')
		}
		j.end(1, ']')
	}
	j.b = append(j.b, ",\n  \"skills\": "...)
}

// flush writes the buffer out once it holds 32 KB.
func (lw *listWriter) flush() error {
	if len(lw.j.b) < 32<<10 {
		return nil
	}
	_, err := lw.bw.Write(lw.j.b)
	lw.j.b = lw.j.b[:0]
	return err
}

// skill writes the next skill of listing l.
func (lw *listWriter) skill(l *catalog.Listing, s *catalog.Skill) error {
	if !lw.begun {
		lw.begin(l)
	}
	j := &lw.j
	if lw.skills == 0 {
		j.b = append(j.b, '[')
	}
	j.elem(lw.skills, 2)
	lw.skills++
	j.skill(s)
	return lw.flush()
}

// finish writes the end of the skills and the diagnostics of l.
func (lw *listWriter) finish(l *catalog.Listing) error {
	if !lw.begun {
		lw.begin(l)
	}
	j := &lw.j
	if lw.skills == 0 {
		j.b = append(j.b, "[]"...)
	} else {
		j.end(1, ']')
	}
	j.b = append(j.b, ",\n  \"diagnostics\": "...)
	if len(l.Diagnostics) == 0 {
		j.b = append(j.b, "[]"...)
	} else {
		j.b = append(j.b, '[')
		for i := range l.Diagnostics {
			d := &l.Diagnostics[i]
			j.elem(i, 2)
			j.b = append(j.b, '{')
			j.key(0, 3, "code")
			j.str(string(d.Code))
			j.key(1, 3, "severity")
			j.str(string(d.Severity))
			j.key(1, 3, "path")
			j.str(slash(d.Path))
			j.key(1, 3, "line")
			j.b = strconv.AppendInt(j.b, int64(d.Line), 10)
			j.key(1, 3, "column")
			j.b = strconv.AppendInt(j.b, int64(d.Column), 10)
			j.key(1, 3, "message")
			j.str(d.Message)
			j.key(1, 3, "skill")
			j.str(d.Skill)
			if d.Related != "" {
				j.key(1, 3, "related")
				j.str(slash(d.Related))
			}
			j.end(2, '}')
			if err := lw.flush(); err != nil {
				return err
			}
		}
		j.end(1, ']')
	}
	j.b = append(j.b, "\n}\n"...)
	if _, err := lw.bw.Write(j.b); err != nil {
		return err
	}
	return lw.bw.Flush()
}

// jw appends indented JSON to b: the same bytes encoding/json writes with
// SetIndent("", "  ") and SetEscapeHTML(false).
type jw struct {
	b    []byte
	keys []string // scratch for sorted map keys
}

// elem starts the i-th element of an array at the given depth.
func (j *jw) elem(i, depth int) {
	if i > 0 {
		j.b = append(j.b, ',')
	}
	j.nl(depth)
}

// key starts the i-th member of an object at the given depth.
func (j *jw) key(i, depth int, k string) {
	j.elem(i, depth)
	j.str(k)
	j.b = append(j.b, ':', ' ')
}

// end closes a non-empty array or object whose brackets sit at depth.
func (j *jw) end(depth int, c byte) {
	j.nl(depth)
	j.b = append(j.b, c)
}

func (j *jw) nl(depth int) {
	j.b = append(j.b, '\n')
	for range depth {
		j.b = append(j.b, ' ', ' ')
	}
}

func (j *jw) skill(s *catalog.Skill) {
	const d = 3
	j.b = append(j.b, '{')
	j.key(0, d, "name")
	j.str(s.Name)
	j.key(1, d, "description")
	j.str(s.Description)
	j.key(1, d, "whenToUse")
	j.str(s.WhenToUse)
	j.key(1, d, "location")
	j.str(slash(s.Location))
	j.key(1, d, "baseDir")
	j.str(slash(s.BaseDir))
	j.key(1, d, "scope")
	j.str(string(s.Scope))
	j.key(1, d, "folder")
	j.str(slash(s.Folder))
	j.key(1, d, "hidden")
	j.b = strconv.AppendBool(j.b, s.Hidden())
	j.key(1, d, "bytes")
	j.b = strconv.AppendInt(j.b, s.Bytes, 10)
	j.key(1, d, "truncated")
	j.b = strconv.AppendBool(j.b, s.Truncated)
	j.key(1, d, "license")
	j.str(s.Parsed().License)
	j.key(1, d, "compatibility")
	j.str(s.Parsed().Compatibility)
	j.key(1, d, "metadata")
	j.stringMap(s.Parsed().Metadata, d)
	j.key(1, d, "allowedTools")
	j.strings(s.Parsed().AllowedTools, d)
	j.key(1, d, "extra")
	j.value(s.Parsed().Extra, d)
	j.end(d-1, '}')
}

// stringMap writes m with its keys sorted, as encoding/json does.
func (j *jw) stringMap(m map[string]string, depth int) {
	if len(m) == 0 {
		j.b = append(j.b, "{}"...)
		return
	}
	j.keys = j.keys[:0]
	for k := range m {
		j.keys = append(j.keys, k)
	}
	slices.Sort(j.keys)
	j.b = append(j.b, '{')
	for i, k := range j.keys {
		j.key(i, depth+1, k)
		j.str(m[k])
	}
	j.end(depth, '}')
}

func (j *jw) strings(list []string, depth int) {
	if len(list) == 0 {
		j.b = append(j.b, "[]"...)
		return
	}
	j.b = append(j.b, '[')
	for i, s := range list {
		j.elem(i, depth+1)
		j.str(s)
	}
	j.end(depth, ']')
}

// value writes a frontmatter value: string, bool, int64, float64, nil,
// []any or skill.Map (skill.Map's documented shapes); anything else goes
// through encoding/json. Strings are HTML-escaped, as skill.Map's
// MarshalJSON (json.Marshal) writes them.
func (j *jw) value(v any, depth int) {
	switch v := v.(type) {
	case nil:
		j.b = append(j.b, "null"...)
	case string:
		j.quote(v, true)
	case bool:
		j.b = strconv.AppendBool(j.b, v)
	case int64:
		j.b = strconv.AppendInt(j.b, v, 10)
	case skill.Map:
		if len(v) == 0 {
			j.b = append(j.b, "{}"...)
			return
		}
		j.b = append(j.b, '{')
		for i := range v {
			j.elem(i, depth+1)
			j.quote(v[i].Key, true)
			j.b = append(j.b, ':', ' ')
			j.value(v[i].Value, depth+1)
		}
		j.end(depth, '}')
	case []any:
		if len(v) == 0 {
			j.b = append(j.b, "[]"...)
			return
		}
		j.b = append(j.b, '[')
		for i := range v {
			j.elem(i, depth+1)
			j.value(v[i], depth+1)
		}
		j.end(depth, ']')
	default:
		// float64 and anything unforeseen: rare, so encoding/json's
		// exact formatting is worth its cost here.
		prefix := make([]byte, 0, 2*depth)
		for range depth {
			prefix = append(prefix, ' ', ' ')
		}
		enc, err := json.MarshalIndent(v, string(prefix), "  ")
		if err != nil {
			enc = []byte("null")
		}
		j.b = append(j.b, enc...)
	}
}

const hexDigits = "0123456789abcdef"

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

// str appends s as a JSON string the way encoding/json does without HTML
// escaping: quotes, backslashes and control characters escaped, invalid
// UTF-8 as \ufffd, U+2028 and U+2029 as \u escapes.
func (j *jw) str(s string) { j.quote(s, false) }

// quote appends s as a JSON string; with html, <, > and & are escaped too
// (\u003c, \u003e, \u0026), as json.Marshal does.
func (j *jw) quote(s string, html bool) {
	b := append(j.b, '"')
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
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
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
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	j.b = append(b, '"')
}
