package skill

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Skill is one parsed SKILL.md: the frontmatter fields of docs/format.md and,
// unless [Options.SkipBody] was set, the Markdown body.
type Skill struct {
	// Name is the skill's name after the rules of docs/format.md#names: the frontmatter
	// name (normalised to kebab-case in lenient mode), or the folder or file
	// name when the frontmatter has none.
	Name string
	// RawName is the name as written in the frontmatter ("" when absent).
	RawName string
	// Description is the frontmatter description, or the first prose line
	// of the body when it is missing (no-description).
	Description string
	// WhenToUse is the optional routing hint (when-to-use, whenToUse or
	// when_to_use; docs/format.md#fields).
	WhenToUse     string
	License       string
	Compatibility string
	// Metadata holds the metadata map. Values that are not strings keep
	// their source text ("1.10" stays "1.10"; a nested map is its YAML text).
	Metadata map[string]string
	// AllowedTools is allowed-tools as a list, whether it was written as a
	// space-separated string or a YAML list.
	AllowedTools []string
	// DisableModelInvocation hides the skill from the catalog; it can still
	// be loaded by explicit invocation (docs/format.md#fields).
	DisableModelInvocation bool
	// Extra holds every other frontmatter field, recognised extensions
	// (user-invocable, argument-hint, model, ...) and unknown ones, in
	// source order, typed as a YAML 1.2 core parser types them.
	Extra Map
	// Frontmatter is every key the author wrote, in source order, typed as a
	// YAML 1.2 core parser types them (what SEP-2640's skills/list carries).
	// It is nil when the file has no frontmatter.
	Frontmatter Map

	// HasFrontmatter reports whether the file opens with a --- fence.
	HasFrontmatter bool
	// Recovered reports that the frontmatter only parsed after Repairs.
	Recovered bool
	// Repairs lists the lines rewritten so the frontmatter would parse.
	Repairs []Repair

	// Body is the Markdown after the closing fence, leading blank lines
	// and trailing white space removed, line endings turned into "\n".
	// It is "" when Options.SkipBody was set.
	Body string
	// BodyOffset is the byte offset of the body in the source, and BodyLine
	// its 1-based line.
	BodyOffset int
	BodyLine   int
	// BodyLines counts the body's lines.
	BodyLines int
}

// Repair is one rewrite that made broken frontmatter parse: lines Line to
// EndLine (1-based, inclusive, in the file's numbering) are replaced by the
// single line Text (without a line ending). Key is the field repaired.
type Repair struct {
	Line    int
	EndLine int
	Key     string
	Text    string
	// Error is the YAML parser's complaint that the repair answered.
	Error string
}

// Hidden reports whether the skill is left out of the catalog
// (disable-model-invocation: true).
func (s *Skill) Hidden() bool { return s.DisableModelInvocation }

// Map is a mapping with its keys in source order; it marshals to a JSON
// object with the same key order. Values are string, bool, int64, float64,
// nil, []any or Map.
type Map []Field

// Field is one key of a [Map] with its value and the 1-based line and column
// of the key in the file (0 when not from a file).
type Field struct {
	Key    string
	Value  any
	Line   int
	Column int
}

// Get returns the value of key and whether it is present.
func (m Map) Get(key string) (any, bool) {
	for _, f := range m {
		if f.Key == key {
			return f.Value, true
		}
	}
	return nil, false
}

// Keys returns the keys in order.
func (m Map) Keys() []string {
	keys := make([]string, len(m))
	for i, f := range m {
		keys[i] = f.Key
	}
	return keys
}

// MarshalJSON writes m as a JSON object in key order. A nil Map is {}.
func (m Map) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range m {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(f.Key)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(f.Value)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Mode selects how strictly [Parse] reads a file (docs/format.md#names).
type Mode int

const (
	// Lenient loads what it can: broken plain scalars are repaired, names
	// are normalised, and spec departures are warnings.
	Lenient Mode = iota
	// Strict reads the Agent Skills specification as its reference
	// validator does: every spec violation is an error and the skill is
	// not loaded.
	Strict
)

func (m Mode) String() string {
	if m == Strict {
		return "strict"
	}
	return "lenient"
}

// ParseMode parses "lenient" or "strict" (case-insensitive; "" is lenient).
func ParseMode(s string) (Mode, bool) {
	switch strings.ToLower(s) {
	case "", "lenient":
		return Lenient, true
	case "strict":
		return Strict, true
	}
	return Lenient, false
}

// DefaultMaxDescriptionChars is the catalog's description limit (Kestrel).
const DefaultMaxDescriptionChars = 240

// Options control [Parse]. A nil *Options means the zero value: lenient,
// no path, default description limit.
type Options struct {
	// Path is the file's path; diagnostics carry it, and the folder name
	// (or, with Flat, the file stem) is the default name and the name the
	// frontmatter's must match.
	Path string
	// Flat says the file is a flat-form skill (ROOT/NAME.md, 004), named
	// after its stem rather than its folder.
	Flat bool
	// Mode is Lenient (default) or Strict.
	Mode Mode
	// MaxDescriptionChars is the catalog's limit behind description-long;
	// 0 means DefaultMaxDescriptionChars, a negative value disables it.
	MaxDescriptionChars int
	// SkipBody leaves Skill.Body empty (BodyOffset and BodyLine are still
	// set), for callers that list skills without holding bodies (docs/performance.md).
	SkipBody bool
	// Truncated says the caller read only the first part of a larger file;
	// it only changes the wording of a missing closing fence.
	Truncated bool
	// KeepRejected returns the skill, as far as it could be read, even
	// when the diagnostics hold errors, for tools that inspect invalid
	// files (lint, the reference validator's commands). A file whose
	// frontmatter cannot be decoded at all still returns nil.
	KeepRejected bool
}

// UnmarshalJSON reads a JSON object into m, keeping key order. Nested
// objects become Map, arrays []any, integers int64, other numbers float64.
func (m *Map) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeJSON(dec)
	if err != nil {
		return err
	}
	mm, ok := v.(Map)
	if !ok {
		if v == nil {
			*m = nil
			return nil
		}
		return fmt.Errorf("skill.Map: JSON value is not an object")
	}
	*m = mm
	return nil
}

func decodeJSON(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			m := Map{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := kt.(string)
				v, err := decodeJSON(dec)
				if err != nil {
					return nil, err
				}
				m = append(m, Field{Key: key, Value: v})
			}
			_, err := dec.Token() // '}'
			return m, err
		case '[':
			list := []any{}
			for dec.More() {
				v, err := decodeJSON(dec)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			_, err := dec.Token() // ']'
			return list, err
		}
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i, nil
		}
		return t.Float64()
	}
	return tok, nil
}
