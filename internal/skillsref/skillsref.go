// Package skillsref reproduces the three commands of the Agent Skills
// reference validator, skills-ref (validate, read-properties, to-prompt):
// their messages, JSON keys and XML shape, so scripts written against it
// switch over unchanged (docs/output.md; https://agentskills.io/specification and its reference validator (docs/lint.md#reference-parity)).
//
// The file itself is read by skillet's own parser (YAML 1.2, line-based
// fences), so a few inputs the reference tool rejects only because of its
// YAML library are accepted here: flow style such as [a, b], anchors and
// aliases, explicit tags, a UTF-8 BOM, CRLF. Duplicate keys and values that
// need repair are invalid YAML and rejected, as there. Names follow the
// specification's ASCII rule (a-z, 0-9, hyphens) where the reference tool
// also accepts other Unicode letters. Every rule of the specification is
// checked with the reference tool's wording.
package skillsref

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/skill"
)

// Error is a failure the reference tool raises as an exception: the CLI
// prints "Error: " + Message and exits 1.
type Error struct{ Message string }

func (e *Error) Error() string { return e.Message }

// SkillDir returns the folder a path names: a file whose lower-cased name is
// skill.md stands for its parent folder (as typed, not resolved).
func SkillDir(path string) string {
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() && strings.ToLower(filepath.Base(path)) == "skill.md" {
		return filepath.Dir(path)
	}
	return path
}

// FindSkillFile returns dir/SKILL.md, else dir/skill.md, else "".
func FindSkillFile(dir string) string {
	for _, name := range []string{"SKILL.md", "skill.md"} {
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	return ""
}

// maxFileBytes bounds the SKILL.md the reference commands read.
const maxFileBytes = 8 << 20

// parsed is a SKILL.md read for the reference commands.
type parsed struct {
	file string
	s    *skill.Skill
	fm   skill.Map
}

// load reads and splits the skill file of dir, returning the reference
// tool's pre-parse error when it cannot.
func load(dir string) (*parsed, error) {
	file := FindSkillFile(dir)
	if file == "" {
		return nil, &Error{"Missing required file: SKILL.md"}
	}
	data, err := catalog.ReadRegular(file, maxFileBytes)
	if err != nil {
		return nil, &Error{"Cannot read " + err.Error()}
	}
	// The reference tool stops at the first structural problem.
	s, diags := skill.Parse(data, &skill.Options{Path: file, MaxDescriptionChars: -1, KeepRejected: true})
	for _, d := range diags {
		switch d.Code {
		case skill.CodeInvalidEncoding:
			return nil, &Error{"SKILL.md is not valid UTF-8 text"}
		case skill.CodeNoFrontmatter:
			return nil, &Error{"SKILL.md must start with YAML frontmatter (---)"}
		case skill.CodeParseError:
			switch {
			case strings.Contains(d.Message, "never closed"):
				return nil, &Error{"SKILL.md frontmatter not properly closed with ---"}
			case strings.Contains(d.Message, "must be a YAML mapping"):
				return nil, &Error{"SKILL.md frontmatter must be a YAML mapping"}
			}
			return nil, &Error{"Invalid YAML in frontmatter: " + strings.TrimPrefix(d.Message, "invalid YAML in the frontmatter: ")}
		case skill.CodeParseRecovered:
			switch {
			case d.Line == 1 && strings.Contains(d.Message, "blank line"):
				return nil, &Error{"SKILL.md must start with YAML frontmatter (---)"}
			case strings.Contains(d.Message, "frontmatter opened on line"):
				// skillet closed the frontmatter after its block of keys;
				// the reference tool does not: it reads up to the next ---
				// line, as strict mode does.
				return nil, strictFenceError(data, file)
			}
		case skill.CodeDuplicateField:
			// Duplicate keys are invalid YAML; the reference tool's parser
			// rejects them.
			return nil, &Error{fmt.Sprintf("Invalid YAML in frontmatter: %s (line %d)", d.Message, d.Line)}
		}
	}
	if s == nil {
		if d := firstError(diags); d != nil {
			return nil, &Error{d.Message}
		}
		return nil, &Error{"SKILL.md could not be parsed"}
	}
	// A value that only parsed after repair is invalid YAML for the
	// reference tool, which does not repair.
	if len(s.Repairs) > 0 {
		r := s.Repairs[0]
		return nil, &Error{fmt.Sprintf("Invalid YAML in frontmatter: %s (line %d)", r.Error, r.Line)}
	}
	if len(s.Frontmatter) == 0 {
		return nil, &Error{"SKILL.md frontmatter must be a YAML mapping"}
	}
	return &parsed{file: file, s: s, fm: s.Frontmatter}, nil
}

// strictFenceError is the reference tool's error for a frontmatter that
// lenient parsing closed after its block of keys.
func strictFenceError(data []byte, file string) *Error {
	_, diags := skill.Parse(data, &skill.Options{Path: file, Mode: skill.Strict, MaxDescriptionChars: -1, KeepRejected: true})
	for _, d := range diags {
		if d.Code != skill.CodeParseError {
			continue
		}
		if strings.Contains(d.Message, "never closed") {
			return &Error{"SKILL.md frontmatter not properly closed with ---"}
		}
		return &Error{"Invalid YAML in frontmatter: " + strings.TrimPrefix(d.Message, "invalid YAML in the frontmatter: ")}
	}
	return &Error{"SKILL.md frontmatter not properly closed with ---"}
}

func firstError(diags []skill.Diagnostic) *skill.Diagnostic {
	for i := range diags {
		if diags[i].Severity == skill.SeverityError {
			return &diags[i]
		}
	}
	return nil
}

// allowedFields is the reference validator's allow-list, as it prints it.
const allowedFields = "['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name']"

// Validate checks the skill folder (or SKILL.md) at path against the
// specification and returns the reference validator's problem messages; an
// empty slice means valid.
func Validate(path string) []string {
	fi, err := os.Stat(path)
	if err != nil {
		return []string{"Path does not exist: " + path}
	}
	dir := path
	if !fi.IsDir() {
		if strings.ToLower(filepath.Base(path)) != "skill.md" {
			return []string{"Not a directory: " + path}
		}
		dir = filepath.Dir(path)
	}
	p, err := load(dir)
	if err != nil {
		return []string{err.Error()}
	}
	var problems []string
	var unknown []string
	for _, f := range p.fm {
		if !skill.SpecField(f.Key) {
			unknown = append(unknown, f.Key)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		problems = append(problems, fmt.Sprintf("Unexpected fields in frontmatter: %s. Only %s are allowed.", strings.Join(unknown, ", "), allowedFields))
	}
	problems = append(problems, nameProblems(p, filepath.Base(mustAbs(dir)))...)
	if v, ok := p.fm.Get("description"); !ok {
		problems = append(problems, "Missing required field in frontmatter: description")
	} else if s, ok := scalarText(p, "description", v); !ok || strings.TrimSpace(s) == "" {
		problems = append(problems, "Field 'description' must be a non-empty string")
	} else if n := utf8.RuneCountInString(s); n > skill.MaxDescriptionChars {
		problems = append(problems, fmt.Sprintf("Description exceeds %d character limit (%d chars)", skill.MaxDescriptionChars, n))
	}
	if v, ok := p.fm.Get("compatibility"); ok {
		if s, ok := scalarText(p, "compatibility", v); !ok {
			problems = append(problems, "Field 'compatibility' must be a string")
		} else if n := utf8.RuneCountInString(s); n > skill.MaxCompatibilityChars {
			problems = append(problems, fmt.Sprintf("Compatibility exceeds %d character limit (%d chars)", skill.MaxCompatibilityChars, n))
		}
	}
	return problems
}

func mustAbs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// scalarText returns the text of a scalar field as the author wrote it
// (the reference tool reads every scalar as a string).
func scalarText(p *parsed, key string, v any) (string, bool) {
	switch v.(type) {
	case skill.Map, []any:
		return "", false
	case nil:
		return "", true
	}
	switch key {
	case "name":
		return p.s.RawName, true
	case "description":
		return p.s.Description, true
	case "compatibility":
		return p.s.Compatibility, true
	case "license":
		return p.s.License, true
	}
	return fmt.Sprint(v), true
}

func nameProblems(p *parsed, dirName string) []string {
	v, ok := p.fm.Get("name")
	if !ok {
		return []string{"Missing required field in frontmatter: name"}
	}
	raw, ok := scalarText(p, "name", v)
	if !ok || strings.TrimSpace(raw) == "" {
		return []string{"Field 'name' must be a non-empty string"}
	}
	name := norm.NFKC.String(strings.TrimSpace(raw))
	var out []string
	if n := utf8.RuneCountInString(name); n > skill.MaxNameChars {
		out = append(out, fmt.Sprintf("Skill name '%s' exceeds %d character limit (%d chars)", name, skill.MaxNameChars, n))
	}
	if name != strings.ToLower(name) {
		out = append(out, fmt.Sprintf("Skill name '%s' must be lowercase", name))
	}
	if strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-") {
		out = append(out, "Skill name cannot start or end with a hyphen")
	}
	if strings.Contains(name, "--") {
		out = append(out, "Skill name cannot contain consecutive hyphens")
	}
	for _, r := range strings.ToLower(name) {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			out = append(out, fmt.Sprintf("Skill name '%s' contains invalid characters. Only letters, digits, and hyphens are allowed.", name))
			break
		}
	}
	if norm.NFKC.String(dirName) != name {
		out = append(out, fmt.Sprintf("Directory name '%s' must match skill name '%s'", dirName, name))
	}
	return out
}

// Properties is what read-properties prints, in the reference tool's key
// order.
type Properties struct {
	Name          string
	Description   string
	License       *string
	Compatibility *string
	AllowedTools  any // a string or a list, as written
	Metadata      [][2]string
}

// ReadProperties reads a skill's properties; only the presence of name and
// description is checked, as the reference tool does.
func ReadProperties(path string) (*Properties, error) {
	p, err := load(SkillDir(path))
	if err != nil {
		return nil, err
	}
	props := &Properties{}
	for _, key := range []string{"name", "description"} {
		v, ok := p.fm.Get(key)
		if !ok {
			return nil, &Error{"Missing required field in frontmatter: " + key}
		}
		s, ok := scalarText(p, key, v)
		if !ok || strings.TrimSpace(s) == "" {
			return nil, &Error{fmt.Sprintf("Field '%s' must be a non-empty string", key)}
		}
		if key == "name" {
			props.Name = strings.TrimSpace(s)
		} else {
			props.Description = strings.TrimSpace(s)
		}
	}
	if v, ok := p.fm.Get("license"); ok {
		s := reprText(v)
		props.License = &s
	}
	if v, ok := p.fm.Get("compatibility"); ok {
		s := reprText(v)
		props.Compatibility = &s
	}
	if v, ok := p.fm.Get("allowed-tools"); ok && v != nil {
		if list, ok := v.([]any); ok {
			items := make([]string, len(list))
			for i, it := range list {
				items[i] = reprText(it)
			}
			props.AllowedTools = items
		} else {
			props.AllowedTools = reprText(v)
		}
	}
	if v, ok := p.fm.Get("metadata"); ok {
		if m, ok := v.(skill.Map); ok {
			for _, f := range m {
				val := p.s.Metadata[f.Key]
				switch f.Value.(type) {
				case skill.Map, []any:
					val = pyRepr(f.Value)
				}
				props.Metadata = append(props.Metadata, [2]string{f.Key, val})
			}
		}
	}
	return props, nil
}

// reprText is a value as the reference tool's schema-less YAML reads it:
// scalars as their text, collections as Python's repr.
func reprText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case skill.Map, []any:
		return pyRepr(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

// pyRepr renders a value as Python's repr of the all-strings data the
// reference tool's YAML library produces: {'a': 'b'}, ['x'].
func pyRepr(v any) string {
	switch x := v.(type) {
	case skill.Map:
		parts := make([]string, len(x))
		for i, f := range x {
			parts[i] = pyStr(f.Key) + ": " + pyRepr(f.Value)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := make([]string, len(x))
		for i, it := range x {
			parts[i] = pyRepr(it)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return pyStr(reprText(v))
}

// pyStr is Python's repr of a str.
func pyStr(s string) string {
	q := byte('\'')
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == rune(q):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// JSON renders the properties as Python's json.dumps(indent=2) does:
// two-space indent, ", " never at line ends, non-ASCII as \uXXXX escapes.
func (p *Properties) JSON() []byte {
	var b bytes.Buffer
	b.WriteString("{\n")
	var items []string
	add := func(key, val string) { items = append(items, "  "+pyJSONString(key)+": "+val) }
	add("name", pyJSONString(p.Name))
	add("description", pyJSONString(p.Description))
	if p.License != nil {
		add("license", pyJSONString(*p.License))
	}
	if p.Compatibility != nil {
		add("compatibility", pyJSONString(*p.Compatibility))
	}
	switch at := p.AllowedTools.(type) {
	case string:
		add("allowed-tools", pyJSONString(at))
	case []string:
		if len(at) == 0 {
			add("allowed-tools", "[]")
		} else {
			parts := make([]string, len(at))
			for i, t := range at {
				parts[i] = "    " + pyJSONString(t)
			}
			add("allowed-tools", "[\n"+strings.Join(parts, ",\n")+"\n  ]")
		}
	}
	if len(p.Metadata) > 0 {
		parts := make([]string, len(p.Metadata))
		for i, kv := range p.Metadata {
			parts[i] = "    " + pyJSONString(kv[0]) + ": " + pyJSONString(kv[1])
		}
		add("metadata", "{\n"+strings.Join(parts, ",\n")+"\n  }")
	}
	b.WriteString(strings.Join(items, ",\n"))
	b.WriteString("\n}")
	return b.Bytes()
}

// pyJSONString encodes s as Python's json module does with ensure_ascii.
func pyJSONString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			switch {
			case r < 0x20:
				fmt.Fprintf(&b, `\u%04x`, r)
			case r < 0x80:
				b.WriteRune(r)
			case r >= 0x10000:
				r1, r2 := utf16.EncodeRune(r)
				fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
			default:
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// htmlEscape is Python's html.escape(s, quote=True).
var htmlEscape = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#x27;")

// ToPrompt renders the reference tool's <available_skills> block for the
// given skill folders: every tag and value on its own line, name and
// description HTML-escaped, the location (the absolute, resolved path of
// the skill file) as is. Skills appear in argument order; nothing is
// returned if any skill fails.
func ToPrompt(paths []string) (string, error) {
	lines := []string{"<available_skills>"}
	for _, path := range paths {
		dir := SkillDir(path)
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", err
		}
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			abs = r
		}
		props, err := ReadProperties(abs)
		if err != nil {
			return "", err
		}
		file := FindSkillFile(abs)
		lines = append(lines, "<skill>", "<name>", htmlEscape.Replace(props.Name), "</name>",
			"<description>", htmlEscape.Replace(props.Description), "</description>",
			"<location>", file, "</location>", "</skill>")
	}
	lines = append(lines, "</available_skills>")
	return strings.Join(lines, "\n"), nil
}

// IsError reports whether err is a reference-tool error (exit 1) rather
// than an unexpected failure.
func IsError(err error) bool {
	var e *Error
	return errors.As(err, &e)
}
