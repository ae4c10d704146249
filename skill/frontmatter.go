package skill

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/suggest"
	"github.com/skillet-go/skillet/internal/yamlx"
)

// keyPos is a frontmatter key with its file position.
type keyPos struct {
	key       string
	line, col int
	value     *yamlx.Node
}

// frontmatter is the decoded YAML: its root mapping, the text it was parsed
// from (after repairs) and where its lines sit in the file.
type frontmatter struct {
	root      *yamlx.Node
	text      []byte   // the frontmatter text, LF line endings
	lines     []string // its lines (after repairs), split on first use
	lineOff   int      // file line of lines[0]
	keys      []keyPos // top-level keys, first occurrence only
	all       Map
	repairs   []Repair
	descKey   *keyPos
	compatKey *keyPos
	keyBuf    [8]keyPos // keys of a file with few, in the same allocation
}

// splitLines fills fm.lines from fm.text; only repairs and source-text
// extraction need the lines, so a clean file never splits them.
func (fm *frontmatter) splitLines() []string {
	if fm.lines == nil {
		fm.lines = strings.Split(string(fm.text), "\n")
	}
	return fm.lines
}

func (fm *frontmatter) get(key string) *keyPos {
	for i := range fm.keys {
		if fm.keys[i].key == key {
			return &fm.keys[i]
		}
	}
	return nil
}

// maxRepairs bounds the repair-and-retry loop.
const maxRepairs = 16

func (p *parser) decodeFrontmatter(text []byte, lineOff int) (*frontmatter, bool) {
	if p.fast == nil {
		p.fast = fastBufs.Get().(*fastBuf)
	}
	// The frontmatter lives in the parse's pooled memory: nothing a Skill
	// keeps points into it (Frontmatter and Repairs are slices of their
	// own), and Parse hands it back with the nodes.
	fm := &p.fast.fm
	*fm = frontmatter{lineOff: lineOff}
	if bytes.IndexByte(text, '\r') >= 0 {
		// YAML reads a lone CR as a line break; the file's lines are
		// counted by LF, so CRLF becomes LF and a stray CR inside a line
		// is read as a space.
		text = bytes.ReplaceAll(text, []byte("\r\n"), []byte("\n"))
		text = bytes.ReplaceAll(text, []byte("\r"), []byte(" "))
	}
	fm.text = text
	root, fast := p.fast.Read(text)
	var err error
	if !fast {
		root, err = yamlx.Parse(text)
	}
	if err != nil {
		first := err
		if p.opts.Mode == Lenient {
			root, err = p.repair(fm, err)
		}
		if err != nil {
			p.yamlError(first, lineOff)
			return nil, false
		}
	}
	if root == nil {
		return fm, true
	}
	if root.Kind != yamlx.MappingNode {
		p.report(diagcode.ParseError, root.Line+lineOff-1, root.Column, "the frontmatter must be a YAML mapping of keys to values")
		return nil, false
	}
	fm.root = root
	budget := maxValueNodes
	n := len(root.Content) / 2
	fm.keys = fm.keyBuf[:0]
	if n > len(fm.keyBuf) {
		fm.keys = make([]keyPos, 0, n)
	}
	fm.all = make(Map, 0, n)
	// Duplicates are found by scanning the few keys a file has; a map
	// only for files with many.
	var seen map[string]bool
	if n > 32 {
		seen = make(map[string]bool, n)
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		key := yamlx.KeyText(k)
		line, col := k.Line+lineOff-1, k.Column
		if seen != nil && seen[key] || seen == nil && fm.get(key) != nil {
			p.report(diagcode.DuplicateField, line, col, "the key %q appears more than once; the first value is used", key)
			continue
		}
		if seen != nil {
			seen[key] = true
		}
		val, err := toValue(v, &budget, 0)
		if err != nil {
			p.report(diagcode.ParseError, line, col, "%v", err)
			return nil, false
		}
		fm.keys = append(fm.keys, keyPos{key: key, line: line, col: col, value: v})
		fm.all = append(fm.all, Field{Key: key, Value: val, Line: line, Column: col})
	}
	return fm, true
}

func (p *parser) yamlError(err error, lineOff int) {
	var se *yamlx.SyntaxError
	if errors.As(err, &se) && se.Line > 0 {
		p.report(diagcode.ParseError, se.Line+lineOff-1, se.Column, "invalid YAML in the frontmatter: %s", se.Message)
		return
	}
	p.report(diagcode.ParseError, lineOff-1, 1, "invalid YAML in the frontmatter: %v", err)
}

// keyLine matches "key: value" with optional indentation; the key is a plain
// word (letters, digits, _ . - / and inner spaces).
var keyLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\s*)([A-Za-z0-9_][A-Za-z0-9_./ -]*?)\s*:(?:[ \t]+(.*))?$`)
})

// repair implements docs/format.md#parsing's repair-and-retry: at the line the YAML error
// names, the value of a "key: value" line (with its continuation lines) is
// re-quoted as a double-quoted string, and decoding is tried again. Every
// successful rewrite is reported as parse-recovered.
func (p *parser) repair(fm *frontmatter, err error) (*yamlx.Node, error) {
	fm.splitLines()
	repaired := map[int]bool{}
	var reports []Diagnostic
	for attempt := 0; attempt < maxRepairs; attempt++ {
		var se *yamlx.SyntaxError
		if !errors.As(err, &se) || se.Line == 0 {
			return nil, err
		}
		idx := se.Line - 1
		if idx < len(fm.lines) && strings.TrimSpace(fm.lines[idx]) != "" && se.Column <= indentOf(fm.lines[idx])+1 {
			// The error is at the start of a line (a tab, a stray
			// character before any key): no value to re-quote.
			return nil, err
		}
		if idx >= len(fm.lines) {
			idx = len(fm.lines) - 1
		}
		for idx > 0 && strings.TrimSpace(fm.lines[idx]) == "" {
			idx--
		}
		start, end, ok := owner(fm.lines, idx)
		for ok && repaired[start] {
			// Already rewritten: blame the key line above it.
			start, end, ok = previousKey(fm.lines, start)
		}
		if !ok {
			return nil, err
		}
		m := keyLine().FindStringSubmatch(fm.lines[start])
		indent, key := m[1], m[2]
		value := joinPlain(m[3], fm.lines[start+1:end+1])
		text := indent + key + ": " + strconv.Quote(value)
		fm.lines[start] = text
		for i := start + 1; i <= end; i++ {
			fm.lines[i] = "" // keep line numbers stable
		}
		repaired[start] = true
		fileLine := start + fm.lineOff
		fm.repairs = append(fm.repairs, Repair{Line: fileLine, EndLine: end + fm.lineOff, Key: key, Text: text, Error: se.Message})
		col := len([]rune(indent+key)) + 3
		reports = append(reports, Diagnostic{Code: diagcode.ParseRecovered, Line: fileLine, Column: col,
			Message: "the value of " + strconv.Quote(key) + " is not valid YAML (" + se.Message + "); it was read as a quoted string"})
		// The rewritten text is most often one the fast reader reads (the
		// value is now a quoted string); it builds the library's tree or
		// declines, so trying it first changes nothing but the cost.
		var root *yamlx.Node
		rewritten := []byte(strings.Join(fm.lines, "\n"))
		if r, ok := p.fast.Read(rewritten); ok {
			root, err = r, nil
		} else {
			root, err = yamlx.Parse(rewritten)
		}
		if err == nil {
			for _, d := range reports {
				p.report(d.Code, d.Line, d.Column, "%s", d.Message)
			}
			return root, nil
		}
	}
	return nil, err
}

// owner finds the "key: value" line whose plain value the line idx belongs
// to (idx itself, or the key line above a continuation line), and the last
// continuation line of that value.
func owner(lines []string, idx int) (start, end int, ok bool) {
	i := idx
	for i > 0 {
		j := i - 1
		for j >= 0 && strings.TrimSpace(lines[j]) == "" {
			j--
		}
		if j < 0 {
			break
		}
		if indentOf(lines[i]) <= indentOf(lines[j]) {
			break
		}
		if mi := keyLine().FindStringSubmatch(lines[i]); mi != nil && knownField(mi[2]) {
			break // a known field indented by mistake, not a continuation
		}
		m := keyLine().FindStringSubmatch(lines[j])
		if m == nil {
			// lines[j] is itself a continuation; keep climbing.
			i = j
			continue
		}
		if strings.TrimSpace(m[3]) == "" {
			break // lines[i] is a nested entry of the mapping opened at j
		}
		i = j
	}
	return span(lines, i)
}

// previousKey returns the nearest repairable key line above line i.
func previousKey(lines []string, i int) (start, end int, ok bool) {
	for j := i - 1; j >= 0; j-- {
		if s, e, ok := span(lines, j); ok {
			return s, e, true
		}
	}
	return 0, 0, false
}

// span checks that line i is a "key: value" line with a plain (unquoted,
// non-block) value and returns the range of its continuation lines.
func span(lines []string, i int) (start, end int, ok bool) {
	m := keyLine().FindStringSubmatch(lines[i])
	if m == nil {
		return 0, 0, false
	}
	v := strings.TrimSpace(m[3])
	if v == "" || v[0] == '"' || v[0] == '\'' || v[0] == '|' || v[0] == '>' {
		return 0, 0, false
	}
	ind := indentOf(lines[i])
	end = i
	for j := i + 1; j < len(lines); j++ {
		if strings.TrimSpace(lines[j]) == "" {
			continue
		}
		if indentOf(lines[j]) <= ind {
			break
		}
		end = j
	}
	return i, end, true
}

func indentOf(s string) int {
	return len(s) - len(strings.TrimLeft(s, " \t"))
}

// joinPlain folds a plain scalar's first line and continuation lines into
// one string, as YAML folds plain scalars, dropping a trailing comment.
func joinPlain(first string, rest []string) string {
	parts := []string{strings.TrimSpace(first)}
	for _, l := range rest {
		if t := strings.TrimSpace(l); t != "" {
			parts = append(parts, t)
		}
	}
	v := strings.Join(parts, " ")
	if i := strings.Index(v, " #"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	return v
}

// maxValueNodes bounds alias expansion when converting the frontmatter.
const maxValueNodes = 100_000

// toValue converts a YAML node into Map, []any or a YAML 1.2 core scalar.
func toValue(n *yamlx.Node, budget *int, depth int) (any, error) {
	*budget--
	if *budget < 0 || depth > 1000 {
		return nil, errBudget
	}
	switch n.Kind {
	case yamlx.AliasNode:
		if n.Alias == nil {
			return nil, nil
		}
		return toValue(n.Alias, budget, depth+1)
	case yamlx.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := toValue(c, budget, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yamlx.MappingNode:
		out := make(Map, 0, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			val, err := toValue(v, budget, depth+1)
			if err != nil {
				return nil, err
			}
			// "<<" is an ordinary key: merge keys are a YAML 1.1 extension
			// that a YAML 1.2 core parser (another host's) does not apply.
			out = append(out, Field{Key: yamlx.KeyText(k), Value: val})
		}
		return out, nil
	case yamlx.ScalarNode:
		return yamlx.Scalar(n), nil
	}
	return nil, nil
}

// fieldKind groups the fields of the docs/format.md table.
var specFields = map[string]bool{
	"name": true, "description": true, "license": true,
	"compatibility": true, "metadata": true, "allowed-tools": true,
}

// whenToUseKeys are the accepted spellings of when-to-use (docs/format.md#fields).
var whenToUseKeys = []string{"when-to-use", "whenToUse", "when_to_use"}

// extensionFields are fields other hosts define (Claude Code's frontmatter
// reference); they are kept in Extra without a warning.
var extensionFields = map[string]bool{
	"user-invocable": true, "argument-hint": true, "arguments": true,
	"disallowed-tools": true, "model": true, "effort": true, "context": true,
	"agent": true, "background": true, "hooks": true, "paths": true, "shell": true,
}

// hostFields are the fields some host reads (docs/format.md#fields), for
// misplacedField's suggestions.
var hostFields = func() []string {
	out := []string{"name", "description", "license", "compatibility", "metadata", "allowed-tools", "disable-model-invocation", "when-to-use"}
	for k := range extensionFields {
		out = append(out, k)
	}
	slices.Sort(out[8:])
	return out
}()

// whenHint is where a list of triggers belongs.
const whenHint = `hosts show the model only the description: say when to use the skill there ("Use when ...")`

// misplacedFields are keys meant as a field some host reads under another
// name, with where their content goes, and the field whose presence makes
// the key plain extra information ("" for none).
var misplacedFields = map[string][2]string{
	"triggers":        {whenHint, "when-to-use"},
	"trigger":         {whenHint, "when-to-use"},
	"trigger-phrases": {whenHint, "when-to-use"},
	"triggers-on":     {whenHint, "when-to-use"},
	"use-when":        {whenHint, "when-to-use"},
	"tools":           {"did you mean allowed-tools?", "allowed-tools"},
	"summary":         {"did you mean description?", "description"},
	"desc":            {"did you mean description?", "description"},
}

// hostToolNames are the tool names of hosts' allowed-tools lists (Claude
// Code's Read, Bash(git:*), MCP tools as mcp__server__tool): a tools: key
// naming one is meant as allowed-tools.
var hostToolNames = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(Read|Write|Edit|MultiEdit|Bash|Grep|Glob|WebFetch|WebSearch|Task|TodoWrite|NotebookEdit)\b|mcp__`)
})

// misplacedField says what a key outside the known fields was most likely
// meant as (fm: the frontmatter, v: its value), when it is another
// spelling of a field some host reads (allowed_tools, allowedTools,
// Allowed-Tools), a one-letter slip of one (licence), a dotted path into
// one (metadata.openclaw), or a known misplacement (triggers; tools naming
// a host's tools; summary without a description); "" for any other key,
// which no host reads.
func misplacedField(fm *frontmatter, key string, v *yamlx.Node) string {
	norm := normalKey(key)
	if m, ok := misplacedFields[norm]; ok {
		switch {
		case m[1] != "" && fm.get(m[1]) != nil:
			return ""
		case norm == "tools" && !hostToolNames().MatchString(sourceOf(v)):
			return ""
		}
		return m[0]
	}
	if knownField(norm) && norm != key {
		return "did you mean " + norm + "?"
	}
	if first, _, ok := strings.Cut(norm, "."); ok && knownField(first) {
		return fmt.Sprintf("a key with a dot is one key, not a path: nest it under %s", first)
	}
	if len(norm) >= 6 {
		if near := suggest.Nearest(norm, hostFields); near != "" && near != norm && fm.get(near) == nil &&
			!strings.HasPrefix(near, norm) && !strings.HasPrefix(norm, near) && len(near)-len(norm) <= 1 && len(norm)-len(near) <= 1 {
			return "did you mean " + near + "?"
		}
	}
	return ""
}

// sourceOf is the text of a value's scalars, space-separated.
func sourceOf(v *yamlx.Node) string {
	if v == nil {
		return ""
	}
	if v.Kind == yamlx.ScalarNode {
		return v.Value
	}
	var parts []string
	for _, c := range v.Content {
		parts = append(parts, sourceOf(c))
	}
	return strings.Join(parts, " ")
}

// normalKey is key in lower-case kebab form: allowed_tools, allowedTools
// and "Allowed Tools" are allowed-tools.
func normalKey(key string) string {
	var b strings.Builder
	for i, r := range strings.TrimSpace(key) {
		switch {
		case r == '_' || r == ' ':
			b.WriteByte('-')
		case r >= 'A' && r <= 'Z':
			if i > 0 && key[i-1] >= 'a' && key[i-1] <= 'z' {
				b.WriteByte('-')
			}
			b.WriteRune(r + 'a' - 'A')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// knownField reports whether key is a field of the docs/format.md table: one of the
// specification's six, when-to-use with its aliases,
// disable-model-invocation, or a recognised extension field.
func knownField(key string) bool {
	if specFields[key] || extensionFields[key] || key == "disable-model-invocation" {
		return true
	}
	for _, k := range whenToUseKeys {
		if k == key {
			return true
		}
	}
	return false
}

func (p *parser) applyFields(s *Skill, fm *frontmatter) {
	whenSeen := false
	for i := range fm.keys {
		k := &fm.keys[i]
		v := k.value
		if v.Kind == yamlx.AliasNode && v.Alias != nil {
			v = v.Alias
		}
		if p.opts.Mode == Strict && !specFields[k.key] {
			// Strict mode reads the specification's six fields only, as
			// its reference validator does: when-to-use,
			// disable-model-invocation and the extension fields are
			// unknown there (docs/format.md#fields), and an error.
			p.report(diagcode.UnknownField, k.line, k.col, "unknown field %q (the specification defines name, description, license, compatibility, metadata, allowed-tools)", k.key)
		}
		switch k.key {
		case "name":
			if v.Kind == yamlx.ScalarNode {
				if !yamlx.IsNull(v) {
					s.RawName = v.Value
				}
			} else {
				p.report(diagcode.FieldInvalid, k.line, k.col, "name must be a string, not a %s", kind(v))
			}
		case "description":
			fm.descKey = k
			s.Description = p.stringField(k, v)
		case "when-to-use", "whenToUse", "when_to_use":
			if whenSeen {
				s.Extra = append(s.Extra, fm.all[i])
				continue
			}
			whenSeen = true
			s.WhenToUse = p.stringField(k, v)
		case "license":
			s.License = p.stringField(k, v)
		case "compatibility":
			fm.compatKey = k
			if v.Kind == yamlx.ScalarNode {
				if !yamlx.IsNull(v) {
					s.Compatibility = strings.TrimSpace(v.Value)
				}
			} else {
				p.report(diagcode.FieldInvalid, k.line, k.col, "compatibility must be a string, not a %s; its source text is kept", kind(v))
				s.Compatibility = sourceText(fm, v, i)
			}
		case "metadata":
			p.metadata(s, fm, k, v, i)
		case "allowed-tools":
			s.AllowedTools = p.allowedTools(k, v, fm.lineOff)
		case "disable-model-invocation":
			b, ok := boolValue(v)
			if !ok {
				p.report(diagcode.FieldInvalid, k.line, k.col, "disable-model-invocation must be true or false, not %q", v.Value)
			}
			s.DisableModelInvocation = b
		default:
			if p.caseVariant(s, fm, k, v) {
				continue
			}
			s.Extra = append(s.Extra, fm.all[i])
			if extensionFields[k.key] || p.opts.Mode == Strict {
				continue
			}
			// Lenient mode reports a field only when it is most likely
			// meant as one a host reads: no host treats the others
			// (homepage, author, tags...) differently from their absence.
			if hint := misplacedField(fm, k.key, v); hint != "" {
				p.report(diagcode.UnknownField, k.line, k.col, "unknown field %q: no host reads it; %s", k.key, hint)
			}
		}
	}
}

// caseVariant reads "Name" or "Description" (any letter case) as name or
// description in lenient mode when the frontmatter lacks the real key and
// the value is a string: YAML keys are case-sensitive, so hosts ignore it,
// but the author meant the field. It reports whether it took the key.
func (p *parser) caseVariant(s *Skill, fm *frontmatter, k *keyPos, v *yamlx.Node) bool {
	field := strings.ToLower(k.key)
	if p.opts.Mode != Lenient || field != "name" && field != "description" || fm.get(field) != nil ||
		v.Kind != yamlx.ScalarNode || yamlx.IsNull(v) {
		return false
	}
	for j := range fm.keys {
		o := &fm.keys[j]
		if o == k {
			break
		}
		if strings.EqualFold(o.key, field) {
			return false // an earlier variant was taken
		}
	}
	if field == "name" {
		s.RawName = v.Value
	} else {
		fm.descKey = k
		s.Description = strings.TrimSpace(v.Value)
	}
	p.report(diagcode.FieldInvalid, k.line, k.col, "the key %q is read as %s, but keys are case-sensitive and hosts look for %q only: rename it", k.key, field, field)
	return true
}

func kind(n *yamlx.Node) string {
	switch n.Kind {
	case yamlx.MappingNode:
		return "mapping"
	case yamlx.SequenceNode:
		return "list"
	}
	return "scalar"
}

func (p *parser) stringField(k *keyPos, v *yamlx.Node) string {
	if v.Kind != yamlx.ScalarNode {
		p.report(diagcode.FieldInvalid, k.line, k.col, "%s must be a string, not a %s", k.key, kind(v))
		return ""
	}
	if yamlx.IsNull(v) {
		return ""
	}
	return strings.TrimSpace(v.Value)
}

// boolValue reads a boolean the way Claude Code does: true/false, yes/no,
// on/off, 1/0 in any case. A null value is false.
func boolValue(v *yamlx.Node) (bool, bool) {
	if v.Kind != yamlx.ScalarNode {
		return false, false
	}
	switch strings.ToLower(strings.TrimSpace(v.Value)) {
	case "true", "yes", "on", "1":
		return true, true
	case "false", "no", "off", "0", "", "~", "null":
		return false, true
	}
	return false, false
}

func (p *parser) metadata(s *Skill, fm *frontmatter, k *keyPos, v *yamlx.Node, idx int) {
	switch v.Kind {
	case yamlx.MappingNode:
	case yamlx.ScalarNode:
		if yamlx.IsNull(v) {
			p.report(diagcode.MetadataInvalid, k.line, k.col, "metadata is empty (null), not a map")
		} else {
			p.report(diagcode.MetadataInvalid, k.line, k.col, "metadata must be a map of strings, not a scalar")
		}
		return
	default:
		p.report(diagcode.MetadataInvalid, k.line, k.col, "metadata must be a map of strings, not a %s", kind(v))
		return
	}
	s.Metadata = make(map[string]string, len(v.Content)/2)
	for i := 0; i+1 < len(v.Content); i += 2 {
		mk, mv := v.Content[i], v.Content[i+1]
		key := yamlx.KeyText(mk)
		if _, dup := s.Metadata[key]; dup {
			continue
		}
		if mv.Kind == yamlx.AliasNode && mv.Alias != nil {
			mv = mv.Alias
		}
		if mv.Kind == yamlx.ScalarNode {
			if yamlx.IsNull(mv) {
				s.Metadata[key] = ""
			} else {
				s.Metadata[key] = mv.Value
			}
			continue
		}
		// A nested value is what hosts read for their own settings
		// (OpenClaw's metadata: {openclaw: {requires: ...}}), and the
		// reference validator accepts it: only strict mode, which holds
		// the specification's map of strings, reports it.
		if p.opts.Mode == Strict {
			p.report(diagcode.MetadataInvalid, mk.Line+fm.lineOff-1, mk.Column, "metadata.%s is a %s, not a string; its source text is kept", key, kind(mv))
		}
		var next *yamlx.Node
		if i+2 < len(v.Content) {
			next = v.Content[i+2]
		}
		s.Metadata[key] = nodeText(fm, mv, next, idx)
	}
}

func (p *parser) allowedTools(k *keyPos, v *yamlx.Node, lineOff int) []string {
	switch v.Kind {
	case yamlx.ScalarNode:
		if yamlx.IsNull(v) {
			return nil
		}
		return splitTools(v.Value)
	case yamlx.SequenceNode:
		var out []string
		for _, c := range v.Content {
			if c.Kind != yamlx.ScalarNode {
				p.report(diagcode.FieldInvalid, c.Line+lineOff-1, c.Column, "allowed-tools entries must be strings")
				continue
			}
			if t := strings.TrimSpace(c.Value); t != "" {
				out = append(out, t)
			}
		}
		return out
	}
	p.report(diagcode.FieldInvalid, k.line, k.col, "allowed-tools must be a space-separated string or a list, not a %s", kind(v))
	return nil
}

// splitTools splits an allowed-tools string on white space and commas that
// are outside parentheses, so "Bash(git add:*) Read" is two tools.
func splitTools(s string) []string {
	var out []string
	depth, start := 0, -1
	flush := func(i int) {
		if start >= 0 {
			out = append(out, s[start:i])
			start = -1
		}
	}
	for i, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')':
			if depth > 0 {
				depth--
			}
		case depth == 0 && (r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == ','):
			flush(i)
			continue
		}
		if start < 0 {
			start = i
		}
	}
	flush(len(s))
	return out
}

// sourceText returns the YAML text of the value of the idx-th top-level key.
func sourceText(fm *frontmatter, v *yamlx.Node, idx int) string {
	return nodeText(fm, v, nil, idx)
}

// nodeText returns the source text of node v: from its start to the start
// of next (its following sibling key), or else to the next top-level key
// after the idx-th, or the end of the frontmatter. The text is dedented and
// trimmed.
func nodeText(fm *frontmatter, v, next *yamlx.Node, idx int) string {
	startLine, startCol := v.Line, v.Column
	if v.Kind != yamlx.ScalarNode && v.Style&yamlx.FlowStyle == 0 && startLine > 0 {
		// A block collection starts at its first entry; take whole lines.
		startCol = 1
	}
	fm.splitLines()
	endLine, endCol := len(fm.lines)+1, 1
	if next != nil {
		endLine, endCol = next.Line, next.Column
	} else if idx+1 < len(fm.keys) {
		nk := fm.keys[idx+1]
		endLine, endCol = nk.line-fm.lineOff+1, nk.col
	}
	var b strings.Builder
	for l := startLine; l <= endLine && l <= len(fm.lines); l++ {
		line := []rune(fm.lines[l-1])
		from, to := 0, len(line)
		if l == startLine {
			from = min(startCol-1, len(line))
		}
		if l == endLine {
			to = min(endCol-1, len(line))
		}
		if from > to {
			from = to
		}
		if l > startLine {
			b.WriteByte('\n')
		}
		b.WriteString(string(line[from:to]))
	}
	return dedent(strings.TrimRight(b.String(), " \t\n"))
}

func dedent(s string) string {
	lines := strings.Split(s, "\n")
	minInd := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		if n := indentOf(l); minInd < 0 || n < minInd {
			minInd = n
		}
	}
	if minInd <= 0 {
		return strings.TrimSpace(s)
	}
	for i, l := range lines {
		if len(l) >= minInd {
			lines[i] = l[minInd:]
		}
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
