// Package skillsref reproduces the three commands of the Agent Skills
// reference validator, skills-ref (validate, read-properties, to-prompt),
// verdict for verdict: the same checks in the same order, the same messages,
// exit codes, JSON and XML, so scripts written against it switch over
// unchanged. The rules are the specification's
// (https://agentskills.io/specification) as skills-ref applies them; see
// docs/lint.md#reference-parity.
//
// The file is read the way the reference reads it, not the way skillet's
// loader does: as UTF-8 with universal newlines, the frontmatter being the
// text between the first two occurrences of "---", parsed with
// strictyaml's rules (every scalar a string; flow collections, anchors,
// tags, duplicate keys and tabs between tokens are errors, with
// strictyaml's and ruamel.yaml's messages). Where the reference crashes
// (a file that is not UTF-8, a control character the YAML reader refuses),
// these functions return a clear message instead.
//
// [Check] is the one place these rules live: validate prints its messages,
// and skillet lint --strict reports the same findings with their codes.
package skillsref

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/internal/spec"
	"github.com/skillet-go/skillet/skill"
)

// Error is a failure the reference tool raises as an exception: the CLI
// prints "Error: " + Message and exits 1.
type Error struct {
	Message string
	// Code and Line classify the failure for lint (Line 1-based in the
	// file, 0 when unknown).
	Code         skill.Code
	Line, Column int
}

func (e *Error) Error() string { return e.Message }

// PyPath normalises a path as Python's pathlib does: repeated and trailing
// slashes and "." components removed, "" and "./" becoming ".". The
// reference prints paths in that form.
func PyPath(p string) string {
	if p == "" {
		return "."
	}
	abs := strings.HasPrefix(p, "/")
	var parts []string
	for _, c := range strings.Split(p, "/") {
		if c != "" && c != "." {
			parts = append(parts, c)
		}
	}
	s := strings.Join(parts, "/")
	switch {
	case abs:
		if strings.HasPrefix(p, "//") && !strings.HasPrefix(p, "///") {
			return "//" + s
		}
		return "/" + s
	case s == "":
		return "."
	}
	return s
}

// pyName is pathlib's name: the last component ("" for "." and "/").
func pyName(p string) string {
	p = PyPath(p)
	if p == "." || strings.Trim(p, "/") == "" {
		return ""
	}
	return p[strings.LastIndex(p, "/")+1:]
}

// pyParent is pathlib's parent.
func pyParent(p string) string {
	p = PyPath(p)
	i := strings.LastIndex(p, "/")
	switch {
	case i < 0:
		return "."
	case i == 0:
		return "/"
	}
	return p[:i]
}

// SkillDir returns the folder a command-line path names, as the reference
// prints it: the path normalised ([PyPath]), and a regular file whose
// lower-cased name is skill.md standing for its parent folder.
func SkillDir(path string) string {
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() && strings.ToLower(filepath.Base(path)) == "skill.md" {
		return pyParent(path)
	}
	return PyPath(path)
}

// FindSkillFile returns dir/SKILL.md, else dir/skill.md, else "": the
// first name that exists, whatever it is.
func FindSkillFile(dir string) string {
	for _, name := range []string{"SKILL.md", "skill.md"} {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// maxFileBytes bounds the SKILL.md the reference commands read.
const maxFileBytes = 8 << 20

// frontmatter reads the skill file and returns its frontmatter as
// strictyaml's data, or the reference's ParseError.
func frontmatter(file string) ([]kv, error) {
	data, err := readFile(file)
	if err != nil {
		return nil, err
	}
	return parseFrontmatter(data)
}

// parseFrontmatter is frontmatter on the file's bytes.
func parseFrontmatter(data []byte) ([]kv, error) {
	if !utf8.Valid(data) {
		off := 0
		for off < len(data) {
			r, n := utf8.DecodeRune(data[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		line := 1 + bytes.Count(data[:off], []byte("\n"))
		return nil, &Error{Message: fmt.Sprintf("SKILL.md is not valid UTF-8 text (byte 0x%02x at offset %d)", data[off], off), Code: diagcode.InvalidEncoding, Line: line}
	}
	fmText, opened, closed := frontmatterText(data)
	if !opened {
		return nil, &Error{Message: "SKILL.md must start with YAML frontmatter (---)", Code: diagcode.NoFrontmatter, Line: 1}
	}
	if !closed {
		return nil, &Error{Message: "SKILL.md frontmatter not properly closed with ---", Code: diagcode.ParseError, Line: 1}
	}
	v, yerr := loadStrict(fmText)
	if yerr != nil {
		line, col := 0, 0
		if yerr.pmark != nil {
			line, col = yerr.pmark.line+1, yerr.pmark.col+1
		}
		if yerr.readerCh != 0 || yerr.pmark != nil && yerr.problem == "" {
			return nil, &Error{Message: fmt.Sprintf("Invalid YAML in frontmatter: unacceptable character #x%04x: special characters are not allowed (line %d, column %d)",
				yerr.readerCh, line, col), Code: diagcode.ParseError, Line: line, Column: col}
		}
		return nil, &Error{Message: "Invalid YAML in frontmatter: " + yerr.format(splitLines(fmText)), Code: diagcode.ParseError, Line: line, Column: col}
	}
	m, ok := v.([]kv)
	if !ok {
		return nil, &Error{Message: "SKILL.md frontmatter must be a YAML mapping", Code: diagcode.ParseError, Line: 1}
	}
	for i := range m {
		if m[i].key != "metadata" {
			continue
		}
		if md, ok := m[i].val.([]kv); ok {
			conv := make([]kv, len(md))
			for j, e := range md {
				conv[j] = kv{key: e.key, val: pyStrOf(e.val)}
			}
			m[i].val = conv
		}
	}
	return m, nil
}

// frontmatterText is what the reference validator reads as the
// frontmatter: content.split("---", 2)[1] of the file's text in Python's
// text mode (universal newlines), with whether the text starts with "---"
// (opened) and holds a second "---" (closed). A file without a CR is its
// text already, so only the frontmatter is copied: the whole file was
// copied into a string (TestFrontmatterText holds the two ways alike).
func frontmatterText(data []byte) (fm string, opened, closed bool) {
	if bytes.IndexByte(data, '\r') >= 0 {
		return frontmatterOfText(string(data))
	}
	if !bytes.HasPrefix(data, []byte("---")) {
		return "", false, false
	}
	end := bytes.Index(data[3:], []byte("---"))
	if end < 0 {
		return "", true, false
	}
	return string(data[3 : 3+end]), true, true
}

// frontmatterOfText is frontmatterText of the text content, line ends
// made universal first.
func frontmatterOfText(content string) (fm string, opened, closed bool) {
	content = strings.ReplaceAll(content, "\r\n", "\n")
	content = strings.ReplaceAll(content, "\r", "\n")
	if !strings.HasPrefix(content, "---") {
		return "", false, false
	}
	parts := strings.SplitN(content, "---", 3)
	if len(parts) < 3 {
		return "", true, false
	}
	return parts[1], true, true
}

// fileMark is the line and column of e's key in the skill file (1-based,
// 0 when unknown): the frontmatter text starts right after the opening
// "---" on line 1, so its lines are the file's and only its first line is
// shifted by those three characters.
func fileMark(e kv) (line, col int) {
	if e.line == 1 && e.col > 0 {
		return 1, e.col + 3
	}
	return e.line, e.col
}

// readFile reads file whole (at most maxFileBytes), as the reference
// validator reads it; no Version is made, whose SHA-256 of every file
// was 1.2% of lint --compat's CPU and never read.
func readFile(file string) ([]byte, error) {
	data, err := fsx.ReadFile(file, maxFileBytes)
	if err != nil {
		code := skill.Code(diagcode.Unreadable)
		if errors.Is(err, fsx.ErrTooLarge) {
			code = diagcode.TooLarge
		}
		msg := errText(err)
		if !strings.HasPrefix(msg, file) {
			msg = file + ": " + msg
		}
		return nil, &Error{Message: "Cannot read " + msg, Code: code}
	}
	return data, nil
}

func errText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Path + ": " + pe.Err.Error()
	}
	return err.Error()
}

func get(m []kv, key string) (any, bool) {
	for _, e := range m {
		if e.key == key {
			return e.val, true
		}
	}
	return nil, false
}

// Violation is one problem the reference validator reports: its message,
// and for lint the diagnostic code and the 1-based line of the skill file
// it concerns (0 when it concerns the file as a whole).
type Violation struct {
	Code         skill.Code
	Message      string
	Line, Column int
}

// allowedFields is the reference validator's allow-list, as it prints it
// (a Python list).
const allowedFields = "['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name']"

var specFields = map[string]bool{"name": true, "description": true, "license": true, "allowed-tools": true, "metadata": true, "compatibility": true}

// Check validates the skill folder dir (a path as the reference prints
// it, see [SkillDir]) against the specification with the reference
// validator's rules and returns its violations in its order; none means
// valid.
func Check(dir string) []Violation {
	fi, err := os.Stat(dir)
	if err != nil {
		return []Violation{{Code: diagcode.FileMissing, Message: "Path does not exist: " + dir}}
	}
	if !fi.IsDir() {
		return []Violation{{Code: diagcode.FileMissing, Message: "Not a directory: " + dir}}
	}
	file := FindSkillFile(dir)
	if file == "" {
		return []Violation{missingFile}
	}
	data, err := readFile(file)
	if err != nil {
		return []Violation{errViolation(err)}
	}
	vs, _, _ := CheckFile(pyName(dir), filepath.Base(file), data)
	return vs
}

// CheckRead is [Check] of the folder dir whose file SKILL.md (that exact
// name, which [FindSkillFile] finds first) another reader read whole as
// data: the same violations without reading it again. ok is false when
// Check would not read those bytes (data over the validator's limit of
// 8 MiB, which Check reports as unreadable): the caller calls Check.
func CheckRead(dir string, data []byte) (vs []Violation, ok bool) {
	if len(data) > maxFileBytes {
		return nil, false
	}
	vs, _, _ = CheckFile(pyName(dir), "SKILL.md", data)
	return vs, true
}

var missingFile = Violation{Code: diagcode.FileMissing, Message: "Missing required file: SKILL.md"}

func errViolation(err error) Violation {
	var e *Error
	errors.As(err, &e)
	return Violation{Code: e.Code, Message: e.Message, Line: e.Line, Column: e.Column}
}

// CheckFile is [Check] on a skill file already read: dirName is the name
// of the folder holding it (as [Check] takes it from the folder's path),
// fileName the file's own name and data its bytes. A fileName other than
// SKILL.md and skill.md (SKILL.MD, Skill.md) is a file the reference does
// not find: the folder has no SKILL.md. When there is no violation, name
// and description are the two fields as the reference reads them
// (stripped of white space, the name NFKC-normalised).
//
// It is the one decision of strict mode: skillet validate calls it
// through [Check], and the catalog in strict mode (skillet list, prompt,
// show and lint --strict) loads a skill folder exactly when it returns no
// violation (docs/lint.md#reference-parity).
func CheckFile(dirName, fileName string, data []byte) (vs []Violation, name, description string) {
	if fileName != "SKILL.md" && fileName != "skill.md" {
		return []Violation{missingFile}, "", ""
	}
	if len(data) > maxFileBytes {
		return []Violation{{Code: diagcode.TooLarge, Message: fmt.Sprintf("Cannot read %s: the file is over %d bytes", fileName, maxFileBytes)}}, "", ""
	}
	fm, err := parseFrontmatter(data)
	if err != nil {
		return []Violation{errViolation(err)}, "", ""
	}
	out := fieldViolations(fm, dirName)
	if len(out) == 0 {
		n, _ := get(fm, "name")
		d, _ := get(fm, "description")
		name, description = norm.NFKC.String(pyStrip(n.(string))), pyStrip(d.(string))
	}
	return out, name, description
}

// fieldViolations checks the frontmatter's fields, in the reference's
// order.
func fieldViolations(fm []kv, dirName string) []Violation {
	var out []Violation
	var unknown []string
	var first kv // the first unknown key in the file, whose place the violation takes
	for _, e := range fm {
		if !specFields[e.key] {
			if unknown == nil {
				first = e
			}
			unknown = append(unknown, e.key)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		line, col := fileMark(first)
		out = append(out, Violation{Code: diagcode.UnknownField, Line: line, Column: col,
			Message: fmt.Sprintf("Unexpected fields in frontmatter: %s. Only %s are allowed.", strings.Join(unknown, ", "), allowedFields)})
	}
	if v, ok := get(fm, "name"); !ok {
		out = append(out, Violation{Code: diagcode.NameMissing, Message: "Missing required field in frontmatter: name"})
	} else {
		out = append(out, nameViolations(v, dirName)...)
	}
	if v, ok := get(fm, "description"); !ok {
		out = append(out, Violation{Code: diagcode.NoDescription, Message: "Missing required field in frontmatter: description"})
	} else if s, ok := v.(string); !ok || pyStrip(s) == "" {
		out = append(out, Violation{Code: diagcode.NoDescription, Message: "Field 'description' must be a non-empty string"})
	} else if n := utf8.RuneCountInString(s); n > spec.MaxDescriptionChars {
		out = append(out, Violation{Code: diagcode.DescriptionTooLong, Message: fmt.Sprintf("Description exceeds %d character limit (%d chars)", spec.MaxDescriptionChars, n)})
	}
	if v, ok := get(fm, "compatibility"); ok {
		if s, ok := v.(string); !ok {
			out = append(out, Violation{Code: diagcode.FieldInvalid, Message: "Field 'compatibility' must be a string"})
		} else if n := utf8.RuneCountInString(s); n > spec.MaxCompatibilityChars {
			out = append(out, Violation{Code: diagcode.CompatibilityTooLong, Message: fmt.Sprintf("Compatibility exceeds %d character limit (%d chars)", spec.MaxCompatibilityChars, n)})
		}
	}
	return out
}

// ContentCode reports whether code is one strict mode decides with the
// reference's rules: a finding about what a skill file says (every code
// the specification's rules own, plus parse-error, invalid-encoding
// and file-missing). In strict mode such findings about a skill
// folder's file are exactly [CheckFile]'s violations.
func ContentCode(code skill.Code) bool {
	switch code {
	case diagcode.ParseError, diagcode.InvalidEncoding, diagcode.FileMissing:
		return true
	}
	return code.Info().Spec
}

// Diagnostic is v as a finding about the skill file path: an error with
// v's code, position and message on one line ([Brief]); skillName is the
// skill's name when it is known.
func (v Violation) Diagnostic(path, skillName string) skill.Diagnostic {
	return skill.Diagnostic{Code: v.Code, Severity: skill.SeverityError, Path: path,
		Line: v.Line, Column: v.Column, Message: Brief(v.Message), Skill: skillName}
}

// Validate checks the skill folder dir as [Check] does and returns the
// reference validator's messages; an empty slice means valid.
func Validate(dir string) []string {
	var out []string
	for _, v := range Check(dir) {
		out = append(out, v.Message)
	}
	return out
}

func nameViolations(v any, dirName string) []Violation {
	raw, ok := v.(string)
	if !ok || pyStrip(raw) == "" {
		return []Violation{{Code: diagcode.NameInvalid, Message: "Field 'name' must be a non-empty string"}}
	}
	name := norm.NFKC.String(pyStrip(raw))
	var out []Violation
	add := func(code skill.Code, format string, args ...any) {
		out = append(out, Violation{Code: code, Message: fmt.Sprintf(format, args...)})
	}
	if n := utf8.RuneCountInString(name); n > spec.MaxNameChars {
		add(diagcode.NameInvalid, "Skill name '%s' exceeds %d character limit (%d chars)", name, spec.MaxNameChars, n)
	}
	if name != strings.ToLower(name) {
		add(diagcode.NameInvalid, "Skill name '%s' must be lowercase", name)
	}
	if strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-") {
		add(diagcode.NameInvalid, "Skill name cannot start or end with a hyphen")
	}
	if strings.Contains(name, "--") {
		add(diagcode.NameInvalid, "Skill name cannot contain consecutive hyphens")
	}
	for _, r := range name {
		if !(unicode.IsLetter(r) || unicode.IsNumber(r) || r == '-') {
			add(diagcode.NameInvalid, "Skill name '%s' contains invalid characters. Only letters, digits, and hyphens are allowed.", name)
			break
		}
	}
	if norm.NFKC.String(dirName) != name {
		add(diagcode.NameMismatch, "Directory name '%s' must match skill name '%s'", dirName, name)
	}
	return out
}

// pyStrip is Python's str.strip(): Unicode white space, and the
// separators U+001C-U+001F, removed from both ends.
func pyStrip(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f })
}

// Properties is what read-properties prints: name and description, and
// each optional field as the frontmatter holds it (a string, a list or a
// mapping; nil when absent).
type Properties struct {
	Name, Description                    string
	License, Compatibility, AllowedTools any
	Metadata                             any
}

// ReadProperties reads the properties of the skill folder dir (as
// [SkillDir] gives it); only the presence of name and description is
// checked, as the reference tool does.
func ReadProperties(dir string) (*Properties, error) {
	file := FindSkillFile(dir)
	if file == "" {
		return nil, &Error{Message: "SKILL.md not found in " + dir, Code: diagcode.FileMissing}
	}
	fm, err := frontmatter(file)
	if err != nil {
		return nil, err
	}
	for _, key := range []string{"name", "description"} {
		if _, ok := get(fm, key); !ok {
			return nil, &Error{Message: "Missing required field in frontmatter: " + key, Code: diagcode.NameMissing}
		}
	}
	props := &Properties{}
	for _, key := range []string{"name", "description"} {
		v, _ := get(fm, key)
		s, ok := v.(string)
		if !ok || pyStrip(s) == "" {
			return nil, &Error{Message: fmt.Sprintf("Field '%s' must be a non-empty string", key), Code: diagcode.FieldInvalid}
		}
		if key == "name" {
			props.Name = pyStrip(s)
		} else {
			props.Description = pyStrip(s)
		}
	}
	props.License, _ = get(fm, "license")
	props.Compatibility, _ = get(fm, "compatibility")
	props.AllowedTools, _ = get(fm, "allowed-tools")
	props.Metadata, _ = get(fm, "metadata")
	return props, nil
}

// JSON renders the properties as Python's json.dumps(indent=2) does:
// two-space indent, non-ASCII as \uXXXX escapes; absent fields and an
// empty metadata are left out.
func (p *Properties) JSON() []byte {
	m := []kv{{key: "name", val: p.Name}, {key: "description", val: p.Description}}
	for _, f := range []kv{{key: "license", val: p.License}, {key: "compatibility", val: p.Compatibility}, {key: "allowed-tools", val: p.AllowedTools}} {
		if f.val != nil {
			m = append(m, f)
		}
	}
	if pyTruthy(p.Metadata) {
		m = append(m, kv{key: "metadata", val: p.Metadata})
	}
	var b strings.Builder
	pyJSON(&b, m, "")
	return []byte(b.String())
}

func pyTruthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case string:
		return x != ""
	case []any:
		return len(x) > 0
	case []kv:
		return len(x) > 0
	}
	return true
}

func pyJSON(b *strings.Builder, v any, indent string) {
	inner := indent + "  "
	switch x := v.(type) {
	case []kv:
		if len(x) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, e := range x {
			if i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(inner + pyJSONString(e.key) + ": ")
			pyJSON(b, e.val, inner)
		}
		b.WriteString("\n" + indent + "}")
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range x {
			if i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString(inner)
			pyJSON(b, e, inner)
		}
		b.WriteString("\n" + indent + "]")
	case string:
		b.WriteString(pyJSONString(x))
	default:
		b.WriteString("null")
	}
}

// pyStrOf is Python's str() of strictyaml data: a string as is, a list
// or mapping as its repr.
func pyStrOf(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return pyRepr(v)
}

// pyRepr is Python's repr of strictyaml data: {'a': 'b'}, ['x'].
func pyRepr(v any) string {
	switch x := v.(type) {
	case []kv:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = pyStr(e.key) + ": " + pyRepr(e.val)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = pyRepr(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case string:
		return pyStr(x)
	}
	return "None"
}

// htmlEscape is Python's html.escape(s, quote=True).
var htmlEscape = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#x27;")

// ToPrompt renders the reference tool's <available_skills> block for the
// given skill folders (as [SkillDir] gives them): every tag and value on
// its own line, name and description HTML-escaped, the location (the
// resolved folder joined with the skill file's name) as is. Skills appear
// in argument order; nothing is returned if any skill fails.
func ToPrompt(dirs []string) (string, error) {
	lines := []string{"<available_skills>"}
	for _, dir := range dirs {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", &Error{Message: err.Error(), Code: diagcode.Unreadable}
		}
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			abs = r
		}
		props, err := ReadProperties(abs)
		if err != nil {
			return "", err
		}
		lines = append(lines, "<skill>", "<name>", htmlEscape.Replace(props.Name), "</name>",
			"<description>", htmlEscape.Replace(props.Description), "</description>",
			"<location>", FindSkillFile(abs), "</location>", "</skill>")
	}
	lines = append(lines, "</available_skills>")
	return strings.Join(lines, "\n"), nil
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

// Brief is a reference message on one line: a YAML error's context and
// problem joined by ": ", without the positions and source lines (which
// Violation.Line and Column carry).
func Brief(msg string) string {
	first, rest, ok := strings.Cut(msg, "\n")
	if !ok {
		return msg
	}
	parts := []string{first}
	for _, l := range strings.Split(rest, "\n") {
		if l != "" && !strings.HasPrefix(l, " ") {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, ": ")
}
