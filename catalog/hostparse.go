package catalog

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/profile"
	"github.com/skillet-go/skillet/internal/yamlx"
	"github.com/skillet-go/skillet/skill"
)

// hostParsed is what a host makes of one skill file.
type hostParsed struct {
	name, description string
	hidden            bool
	alias             string // the name shown in parentheses after the folder (Names.Alias)
	short             string // the description's first line, trimmed (Disclosure.FirstLines)
	changes           []string
	reason            string // why it is not loaded; "" when it is
	skill             *skill.Skill
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// hostFields are the frontmatter values a host reads, as text.
type hostFields struct {
	name, description  string
	hasName, hasDesc   bool
	disabled           bool
	conditional        bool // held back by its paths (Disclosure.Paths)
	fromLines, invalid bool
	null               bool // a name or description key with no value
	yamlError          string
	// whenToUse is the routing hint of a subset parse (when-to-use,
	// whenToUse or when_to_use, the first given): Kestrel reads it, and
	// skillet shows it whatever the host (docs/hosts.md).
	whenToUse string
}

// hostParser is one reading of one skill file by the host of profile p.
// Its steps run in the host's order (text, frontmatter, name, description,
// catalog); each returns false once the host refuses the file, with the
// reason in out.reason, and records what it changed in out.changes.
type hostParser struct {
	p    *profile.Profile
	out  hostParsed
	memo *yamlMemo // parses shared with other profiles' readings of the file, or nil

	// What the frontmatter step found.
	f      hostFields
	parsed *skill.Skill // the YAML parse, when the host reads YAML
	body   string
	hasFM  bool
	raw    string // the name field, trimmed
	// get reads a frontmatter field as the host's own reader gave it, when
	// that is not the YAML parse (Qwen Code's line reader); nil otherwise.
	get func(string) (any, bool)
}

func (h *hostParser) change(what string) { h.out.changes = append(h.out.changes, what) }

// refuse records why the host does not load the file, and returns false.
func (h *hostParser) refuse(why string) bool {
	h.out.reason = why
	return false
}

// hostParse reads one skill file as profile p's host does. folder is the
// skill's folder name (a flat file's stem).
func hostParse(p *profile.Profile, data []byte, path, folder string, flat bool) hostParsed {
	return hostParseMemo(p, data, path, folder, flat, nil)
}

// hostParseMemo is hostParse taking the YAML parse from memo when another
// profile's reading of the same bytes parsed the same text (nil: none).
func hostParseMemo(p *profile.Profile, data []byte, path, folder string, flat bool, memo *yamlMemo) hostParsed {
	h := &hostParser{p: p, memo: memo}
	text, why := h.memo.text(&p.Parse, data)
	if why != "" {
		h.refuse(why)
		return h.out
	}
	if !h.frontmatter(text, path, flat) || !h.fieldRules() {
		return h.out
	}
	name, ok := h.name(folder)
	if !ok {
		return h.out
	}
	desc, ok := h.description()
	if !ok {
		return h.out
	}
	n := &p.Names
	if n.Alias && n.Source == "folder" && h.f.hasName && h.raw != "" && h.raw != name && !strings.ContainsAny(h.raw, " \t\n"+n.AliasRefuses) {
		h.out.alias = h.raw
	}
	h.out.hidden = h.f.disabled && p.Disclosure.HidesDisabled || h.f.conditional
	h.out.name, h.out.description = name, desc
	if memo == nil || !memo.noSkill {
		h.out.skill = h.skill(name, desc)
	}
	return h.out
}

// hostText is a skill file's text as the host reads it: a byte order mark
// taken off (or the reason it refuses one), UTF-8 checked, line ends made
// LF (a lone CR too, unless Parse.LineEnds is "lf").
func hostText(pp *profile.Parse, data []byte) (text, reason string) {
	if bytes.HasPrefix(data, utf8BOM) {
		if pp.BOM == "drop" {
			return "", "the file starts with a UTF-8 byte order mark, which it does not read past"
		}
		data = data[len(utf8BOM):]
	}
	if !utf8.Valid(data) {
		return "", "the file is not UTF-8 text"
	}
	text = strings.ReplaceAll(string(data), "\r\n", "\n")
	if pp.LineEnds == "" {
		text = strings.ReplaceAll(text, "\r", "\n")
	}
	return text, ""
}

// frontmatter splits text and reads its frontmatter as Parse.YAML says,
// into h.f, h.parsed, h.body and h.hasFM.
func (h *hostParser) frontmatter(text, path string, flat bool) bool {
	pp := &h.p.Parse
	fm, body, hasFM := splitHostFences(text, pp.FenceAnywhere)
	if pp.Fences != "" {
		fm, body, hasFM = splitFencesMode(text, pp.Fences)
	}
	h.body, h.hasFM = body, hasFM
	switch {
	case !hasFM:
		if pp.NoFrontmatter == "drop" {
			return h.refuse("the file has no --- frontmatter")
		}
		h.body = text
		h.change("the file has no frontmatter; name and description are inferred")
		return true
	case pp.YAML == "subset":
		h.f = subsetFields(fm, nil, false)
		return true
	}
	src := text
	if pp.Tabs == "spaces" && strings.Contains(fm, "\n\t") {
		fm = tabsAsSpaces(fm)
		src = "---\n" + fm + "---\n" + body
	}
	if pp.FenceAnywhere || pp.Fences != "" {
		if s, diags, ok := h.memo.padded(text, fm, body, path, flat); ok {
			return h.yaml(s, diags, fm)
		}
		src = h.memo.fenced(text, fm, body)
	}
	s, diags := h.memo.parse(src, path, flat)
	return h.yaml(s, diags, fm)
}

// tabsAsSpaces replaces the tabs that indent each line of fm by spaces,
// one for one (Parse.Tabs "spaces").
func tabsAsSpaces(fm string) string {
	lines := strings.Split(fm, "\n")
	for i, l := range lines {
		rest := strings.TrimLeft(l, "\t")
		lines[i] = strings.Repeat(" ", len(l)-len(rest)) + rest
	}
	return strings.Join(lines, "\n")
}

// yaml reads a frontmatter fm with skillet's YAML parse of it (s, diags)
// as the host's YAML library would: what it refuses, what it repairs, and
// what a host does with a frontmatter it cannot read (Parse.BrokenYAML).
func (h *hostParser) yaml(s *skill.Skill, diags []skill.Diagnostic, fm string) bool {
	pp := &h.p.Parse
	if why := refusedYAML(pp, fm, diags); why != "" {
		return h.refuse(why)
	}
	msg, ok := yamlProblem(s, diags)
	if s != nil {
		h.parsed = s
		h.f = yamlFields(s)
	}
	if s != nil && pp.MergeKeys == "apply" {
		mergeFields(&h.f, s.Frontmatter)
	}
	if s != nil && pp.Fences != "" && strings.HasSuffix(fm, "\n") && keepsLastBreak(fm) && strings.HasSuffix(h.f.description, "\n") {
		// The host's YAML text ends before the closing fence's line break,
		// so a description with keep chomping (|+, >+) that ends the
		// frontmatter with blank lines keeps one line break fewer than
		// skillet's reading.
		h.f.description = strings.TrimSuffix(h.f.description, "\n")
	}
	if s != nil && pp.NonString == "js-string" {
		h.get = frontmatterGetter(s.Frontmatter)
		h.f = jsFields(h.get)
	}
	if s != nil && h.p.Disclosure.DisabledWhen != "" {
		h.f.disabled = disabledBy(h.p.Disclosure.DisabledWhen, frontmatterGetter(s.Frontmatter))
	}
	if ok && pp.DuplicateKeys == "broken" && hasCode(diags, diagcode.DuplicateField) {
		ok, msg = false, "a key is given twice"
	}
	if ok && pp.NonString == "broken" && (h.f.invalid || h.f.null) {
		ok, msg = false, "its name or description is not a string"
	}
	if !ok && pp.YAML == "repair" && s != nil {
		ok = true
		h.change("the frontmatter is not valid YAML; it reads a repaired copy")
	}
	if ok && pp.DuplicateKeys == "last" && hasCode(diags, diagcode.DuplicateField) {
		lastFields(fm, &h.f)
	}
	if ok && s != nil {
		if why := stringFieldsReason(pp.StringFields, s); why != "" {
			return h.refuse(why)
		}
		if pp.FinalBreak == "drop" && len(s.Frontmatter) > 0 && s.Frontmatter[len(s.Frontmatter)-1].Key == "description" {
			// The host reads the frontmatter without its last line break:
			// a block scalar that ends it loses one.
			h.f.description = strings.TrimSuffix(h.f.description, "\n")
		}
	}
	lines := pp.BrokenYAML == "lines" || pp.BrokenYAML == "single-lines"
	switch {
	case !ok:
		if !h.brokenYAML(fm, msg) {
			return false
		}
		return h.jsChecked()
	case pp.NonString == "js-string":
		return h.jsChecked()
	case (h.f.invalid || h.f.null) && pp.NonString == "drop":
		return h.refuse("its name or description is not a string, which it requires")
	case lines && h.f.invalid:
		h.f = subsetFields(fm, []string{"name", "description"}, pp.BrokenYAML == "lines")
		h.f.fromLines = true
	}
	return true
}

// yamlMemo holds the texts and YAML parses of one skill file's bytes made
// for the profiles that read them (readPending): most profiles' rules give
// the same text (byte order mark, line ends, tabs and fences read alike),
// and a text is made and parsed once for all of them. The parse and its diagnostics are only read after
// (yaml, skill copies the parsed skill), so sharing them changes no
// verdict (TestHostFilesAllIsHostFiles holds the shared reading to each
// profile's own).
type yamlMemo struct {
	texts  []memoText
	parses []yamlParse
	srcs   []memoSrc
	// plain is set when the file has no byte order mark and no CR: every
	// rule then reads it as the same text, made once (a copy of the whole
	// file and a UTF-8 check a rule, where the 11 profiles have four).
	plain bool
	// noSkill is set when the verdicts on the file keep no parsed skill
	// (readPending, give): hostParseMemo then makes none (hostParsed.skill
	// nil), where it made a copy of the parse for each profile that loads
	// the file, let go at once (1.5 MB of the 75 MB lint --compat
	// allocated over both corpus folders, pprof -sample_index=alloc_space).
	noSkill bool
	// folders remember, for the profiles that read the file, its folder
	// name (skill.DefaultName of a path and form): the same answer for
	// every profile, where each asked again (1.5 ms of a lint --compat run
	// over both corpus folders, pprof of BenchmarkCompat/compat).
	folders []memoFolder
}

type memoFolder struct {
	path, name string
	flat       bool
}

// folder is skill.DefaultName(path, flat), asked once per path and form
// when m is not nil.
func (m *yamlMemo) folder(path string, flat bool) string {
	if m == nil {
		return skill.DefaultName(path, flat)
	}
	for _, f := range m.folders {
		if f.path == path && f.flat == flat {
			return f.name
		}
	}
	name := skill.DefaultName(path, flat)
	m.folders = append(m.folders, memoFolder{path: path, name: name, flat: flat})
	return name
}

// nameMatches reports whether name matches the profile pattern: one
// pass over its bytes for the profiles' patterns (namePatternMatch), the
// regular expression for any other.
func nameMatches(pattern, name string) bool {
	if ok, known := namePatternMatch(pattern, name); known {
		return ok
	}
	re, _ := profile.Pattern(pattern)
	return re.MatchString(name)
}

// memoSrc is a text made of a frontmatter and a body (fenced).
type memoSrc struct{ fm, body, src string }

// fenced is "---\n" + fm + "\n---\n" + body, the text a host whose fences
// are not skillet's (Parse.FenceAnywhere, Parse.Fences) gives its YAML
// step: text itself when it is that already (its frontmatter closed by a
// line "---" of its own), else made once for the profiles that cut text
// alike. It was made for each such profile, a copy of the whole file
// each, which the memo's parse then compared in full (BenchmarkHostFilesAll).
// m may be nil.
func (m *yamlMemo) fenced(text, fm, body string) string {
	if n := len(fm); len(text) == n+9+len(body) && text[:4] == "---\n" && text[4:4+n] == fm &&
		text[4+n:9+n] == "\n---\n" && text[9+n:] == body {
		return text
	}
	if m != nil {
		for _, s := range m.srcs {
			if s.fm == fm && s.body == body {
				return s.src
			}
		}
	}
	src := "---\n" + fm + "\n---\n" + body
	if m != nil {
		m.srcs = append(m.srcs, memoSrc{fm, body, src})
	}
	return src
}

// memoText is hostText of the file under the two rules it reads.
type memoText struct {
	bomDrop, crKept bool
	text, reason    string
}

// text is hostText(pp, data), from the memo when a profile with the same
// byte order mark and line end rules read the same bytes; m may be nil.
// With a memo the text may be data's own bytes: data must not be written
// while the text is used.
func (m *yamlMemo) text(pp *profile.Parse, data []byte) (string, string) {
	if m == nil {
		return hostText(pp, data)
	}
	bomDrop, crKept := pp.BOM == "drop", pp.LineEnds != ""
	if len(m.texts) == 0 {
		m.plain = !bytes.HasPrefix(data, utf8BOM) && bytes.IndexByte(data, '\r') < 0
	}
	for _, t := range m.texts {
		if m.plain || t.bomDrop == bomDrop && t.crKept == crKept {
			return t.text, t.reason
		}
	}
	var text, reason string
	if m.plain {
		// hostText of a file with no byte order mark and no CR is its
		// bytes as they are. The memo's bytes are a read's own, which
		// nothing writes after (readPending), so the text is those
		// bytes, not a copy of the whole file (7% of lint --compat's
		// allocated bytes; TestYAMLMemoIsHostParse).
		if !utf8.Valid(data) {
			reason = "the file is not UTF-8 text"
		} else {
			text = unsafe.String(unsafe.SliceData(data), len(data))
		}
	} else {
		text, reason = hostText(pp, data)
	}
	m.texts = append(m.texts, memoText{bomDrop: bomDrop, crKept: crKept, text: text, reason: reason})
	return text, reason
}

type yamlParse struct {
	src, path string
	flat      bool
	given     bool // the listing's parse (givenParse)
	padded    bool // derived from the listing's parse of src (padded), for its padded text
	s         *skill.Skill
	diags     []skill.Diagnostic
}

// parse is skill.Parse of src as a host's YAML step reads it, from the
// memo when the same text was parsed for the same file, or derived from
// the listing's parse of it (padded); m may be nil.
func (m *yamlMemo) parse(src, path string, flat bool) (*skill.Skill, []skill.Diagnostic) {
	if m != nil {
		for _, y := range m.parses {
			if !y.padded && y.src == src && y.path == path && y.flat == flat {
				return y.s, y.diags
			}
		}
	}
	// skill.Parse reads its bytes and keeps nothing of them (the
	// listing's readers reuse theirs): it is given src's own bytes, not
	// a copy of the whole file, which was 8% of lint --compat's
	// allocated bytes (pprof -sample_index=alloc_space).
	s, diags := skill.Parse(unsafe.Slice(unsafe.StringData(src), len(src)), &skill.Options{Path: path, Flat: flat, KeepRejected: true, SkipBody: true, MaxDescriptionChars: -1})
	if m != nil {
		m.parses = append(m.parses, yamlParse{src: src, path: path, flat: flat, s: s, diags: diags})
	}
	return s, diags
}

// padded is skill.Parse of fenced(text, fm, body) derived from the
// listing's parse of text, the file (givenParse), when that is text with
// one more line break before its closing fence: the text a host whose
// frontmatter ends at the first "---" anywhere (Parse.FenceAnywhere:
// Claude Code) gives its YAML step, "---\n" + fm + "\n---\n" + body with
// fm ending in its own line break, which is then not made (a copy of the
// whole file). That was a second YAML parse of almost every file in
// lint --compat (655 of 662 files of both corpus folders), 10% of what
// --compat adds to lint's CPU. A blank line after the frontmatter's last
// changes nothing YAML reads but a block scalar kept with "+" (|+, >+),
// which gains a line break, and the place of an error at the end of the
// text: ok is false when the frontmatter holds a '+' or the listing's
// parse found a parse-error or parse-recovered finding or repaired the
// frontmatter. The skill is the listing's with its body one line and one
// byte further on (BodyLine, BodyOffset); the findings are the listing's,
// whose codes a host reads (hasCode, yamlProblem, refusedYAML) lie in the
// frontmatter, at the same lines. FuzzGivenParseIsHostParse holds every
// profile's reading with the listing's parse given to the one without.
// m may be nil.
func (m *yamlMemo) padded(text, fm, body, path string, flat bool) (*skill.Skill, []skill.Diagnostic, bool) {
	n := len(fm)
	if m == nil || n == 0 || fm[n-1] != '\n' || len(text) != n+8+len(body) || text[:4] != "---\n" ||
		text[4:4+n] != fm || text[4+n:8+n] != "---\n" || text[8+n:] != body || strings.IndexByte(fm, '+') >= 0 {
		return nil, nil, false
	}
	for _, y := range m.parses {
		if y.padded && y.src == text && y.path == path && y.flat == flat {
			return y.s, y.diags, true
		}
	}
	for i := range m.parses {
		y := &m.parses[i]
		if !y.given || y.src != text || y.path != path || y.flat != flat || y.s == nil || y.s.Recovered ||
			hasCode(y.diags, diagcode.ParseError) || hasCode(y.diags, diagcode.ParseRecovered) {
			continue
		}
		d := *y.s
		d.BodyLine++
		d.BodyOffset++
		// Kept by the text it was derived from (padded), not the padded
		// text, which is not made.
		m.parses = append(m.parses, yamlParse{src: text, path: path, flat: flat, padded: true, s: &d, diags: y.diags})
		return &d, y.diags, true
	}
	return nil, nil, false
}

// hasCode reports whether diags hold a diagnostic of code c.
func hasCode(diags []skill.Diagnostic, c skill.Code) bool {
	for _, d := range diags {
		if d.Code == c {
			return true
		}
	}
	return false
}

// lastFields sets name, description and when_to_use in f from the last
// time each key is given in the frontmatter fm, as a YAML library that
// keeps the last of duplicate keys reads them (Parse.DuplicateKeys
// "last"). f is left as it is when fm does not parse.
func lastFields(fm string, f *hostFields) {
	root, err := yamlx.Parse([]byte(fm))
	if err != nil || root == nil || root.Kind != yamlx.MappingNode {
		return
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		v := root.Content[i+1]
		if v.Kind == yamlx.AliasNode && v.Alias != nil {
			v = v.Alias
		}
		var val any
		switch {
		case v.Kind == yamlx.ScalarNode:
			val = yamlx.Scalar(v)
		default:
			val = []any{} // a list or map: not a string
		}
		switch yamlx.KeyText(root.Content[i]) {
		case "name":
			f.name, f.invalid = scalarString(val, f.invalid)
			f.hasName = true
		case "description":
			f.description, f.invalid = scalarString(val, f.invalid)
			f.hasDesc = true
		case "when_to_use":
			if str, ok := val.(string); ok {
				f.whenToUse = str
			}
		}
	}
}

// stringFieldsReason says why a host that requires the fields names to be
// strings refuses the parsed frontmatter s (Parse.StringFields), or "".
func stringFieldsReason(names []string, s *skill.Skill) string {
	for _, k := range names {
		v, ok := s.Frontmatter.Get(k)
		if !ok {
			continue
		}
		if _, str := v.(string); !str {
			return fmt.Sprintf("its %s is not a string (%s), which it requires", k, valueKind(v))
		}
	}
	return ""
}

// valueKind names the YAML type of a frontmatter value.
func valueKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case int64, float64:
		return "a number"
	case []any:
		return "a list"
	}
	return "a map"
}

// jsChecked refuses a name or description JavaScript's String() throws on
// (Parse.NonString "js-string").
func (h *hostParser) jsChecked() bool {
	if h.p.Parse.NonString == "js-string" && h.f.invalid {
		return h.refuse("its name or description is a map, which it cannot make a string of")
	}
	return true
}

// yamlProblem says whether skillet's parse s read the frontmatter as valid
// YAML, and if not, the first problem ("line N: ...").
func yamlProblem(s *skill.Skill, diags []skill.Diagnostic) (msg string, ok bool) {
	ok = s != nil && !s.Recovered
	for _, d := range diags {
		if d.Code == diagcode.ParseError || d.Code == diagcode.ParseRecovered {
			ok = false
			if msg == "" {
				msg = fmt.Sprintf("line %d: %s", d.Line, d.Message)
			}
		}
	}
	if s != nil && s.Recovered && len(s.Repairs) > 0 {
		msg = fmt.Sprintf("line %d: %s", s.Repairs[0].Line, s.Repairs[0].Error)
	}
	return msg, ok
}

// brokenYAML is what the host does with a frontmatter its YAML reader
// refuses (msg says why): Parse.BrokenYAML.
func (h *hostParser) brokenYAML(fm, msg string) bool {
	pp := &h.p.Parse
	if msg == "" {
		msg = "it does not decode"
	}
	h.f.yamlError = msg
	switch pp.BrokenYAML {
	case "", "drop":
		return h.refuse("the frontmatter is not valid YAML (" + msg + ")")
	case "lines", "single-lines":
		h.f = subsetFields(fm, []string{"name", "description"}, pp.BrokenYAML == "lines")
		h.f.fromLines = true
		h.change("the frontmatter is not valid YAML; name and description are read line by line")
	case "key-lines":
		h.get = mapGetter(keyLinesFields(fm))
		h.f = jsFields(h.get)
		h.f.fromLines, h.f.yamlError = true, msg
		h.change("the frontmatter is not valid YAML; its lines are read as key: value")
	case "last-lines":
		h.f = lastLineFields(fm)
		h.f.fromLines, h.f.yamlError = true, msg
		if !h.f.hasName || !h.f.hasDesc {
			return h.refuse("the frontmatter is not valid YAML (" + msg + ") and its lines give no name: and description:")
		}
		h.change("the frontmatter is not valid YAML; name and description are read line by line")
	case "empty":
		h.f = hostFields{yamlError: msg}
		h.change("the frontmatter is not valid YAML; it loads with no metadata")
	}
	return true
}

// name is the name the host gives the skill (Names): the field or the
// folder, normalized and checked.
func (h *hostParser) name(folder string) (string, bool) {
	n := &h.p.Names
	f := &h.f
	raw := strings.TrimSpace(f.name)
	h.raw = raw
	name := folder
	switch {
	case n.Source == "folder":
	case f.hasName && raw != "":
		name = raw
	case f.hasName && n.EmptyName == "drop":
		return "", h.refuse("its name is empty")
	case f.hasName && n.EmptyName == "keep":
		name = ""
	case n.Required:
		return "", h.refuse("the frontmatter has no name")
	}
	name = normalizeHostName(n.Normalize, name)
	if why := hostNameReason(n, name, folder); why != "" {
		return "", h.refuse(why)
	}
	switch {
	case f.hasName && raw != "" && name != raw:
		h.change(fmt.Sprintf("the name %q is shown as %q", raw, name))
	case f.hasName && raw == "" && n.EmptyName == "keep":
		h.change("listed with an empty name")
	case !f.hasName || raw == "":
		h.change(fmt.Sprintf("named %q after its folder", name))
	}
	return name, true
}

// normalizeHostName rewrites a name as Names.Normalize says.
func normalizeHostName(mode, name string) string {
	switch mode {
	case "kebab":
		return skill.Normalize(name)
	case "spaces":
		return strings.Join(strings.Fields(name), "-")
	case "path-chars":
		return strings.Map(func(r rune) rune {
			if strings.ContainsRune(`:\/<>*?"|`, r) {
				return '-'
			}
			return r
		}, name)
	}
	return name
}

// hostNameReason says why the host refuses a skill of this (normalized)
// name in this folder, or "": its length, pattern and folder rules.
func hostNameReason(n *profile.Naming, name, folder string) string {
	if count := utf8.RuneCountInString(name); n.MaxChars > 0 && count > n.MaxChars {
		return fmt.Sprintf("the name is %d characters, over its limit of %d", count, n.MaxChars)
	}
	if n.Pattern != "" {
		if !nameMatches(n.Pattern, name) {
			return fmt.Sprintf("the name %q breaks its rule %s", name, n.Pattern)
		}
	}
	if n.MatchFolder && name != folder {
		return fmt.Sprintf("the name %q differs from the folder name %q", name, folder)
	}
	return ""
}

// description is the description the host shows the model: the field
// (trimmed, on one line) or what stands in for a missing one, its length
// rule, then the catalog's own cut and escaping.
func (h *hostParser) description() (string, bool) {
	pp := &h.p.Parse
	desc := h.f.description
	if !pp.KeepSpace || strings.TrimSpace(desc) == "" {
		desc = strings.TrimSpace(desc)
	}
	if pp.OneLine {
		desc = oneLine(desc)
	}
	if !h.f.hasDesc || desc == "" {
		var ok bool
		if desc, ok = h.missingDescription(); !ok {
			return "", false
		}
	}
	first, _, _ := strings.Cut(desc, "\n")
	h.out.short = strings.TrimSpace(first)
	if sep := pp.WhenToUse; sep != "" && strings.TrimSpace(h.f.whenToUse) != "" {
		desc += sep + strings.TrimSpace(h.f.whenToUse)
		h.change("its when_to_use is appended to the description")
	}
	if max := pp.MaxDescriptionChars; max > 0 && len(desc) > max && utf8.RuneCountInString(desc) > max {
		switch pp.LongDescription {
		case "drop":
			return "", h.refuse(fmt.Sprintf("the description is %d characters, over its limit of %d", utf8.RuneCountInString(desc), max))
		case "cut":
			desc = string([]rune(desc)[:max-utf8.RuneCountInString(pp.Suffix)]) + pp.Suffix
			h.change(fmt.Sprintf("the description is cut at %d characters", max))
		}
	}
	if pp.EmptyBody == "drop" && h.hasFM && strings.TrimSpace(h.body) == "" {
		return "", h.refuse("nothing follows the frontmatter")
	}
	dc := &h.p.Disclosure
	if max := dc.CatalogChars; max > 0 && len(desc) > max && textLen(dc.Units, desc) > max {
		desc = cutText(dc.Units, desc, max-textLen(dc.Units, dc.CatalogSuffix)) + dc.CatalogSuffix
		h.change(fmt.Sprintf("the catalog cuts the description at %d %s", max, unitName(dc.Units)))
	}
	if dc.EscapeAngles {
		desc = escapeAngles.Replace(desc)
	}
	return desc, true
}

// oneLine is strings.Join(strings.Fields(s), " "): s with every run of
// white space made one space and none at either end. A description that
// is so already, as most are, is s itself, found in one pass, where
// Fields and Join made a slice and a copy of every description for each
// profile that reads it on one line (Parse.OneLine; 4% of what
// lint --compat adds to lint's CPU, pprof). FuzzOneLine holds it to
// Fields and Join.
func oneLine(s string) string {
	space := true // at the start, or after a space
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == ' ' && !space:
				space = true
			case c == ' ', c == '\t', c == '\n', c == '\v', c == '\f', c == '\r':
				return strings.Join(strings.Fields(s), " ")
			default:
				space = false
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			return strings.Join(strings.Fields(s), " ")
		}
		space = false
		i += n
	}
	if space && s != "" {
		return strings.Join(strings.Fields(s), " ")
	}
	return s
}

// escapeAngles writes < and > as &lt; and &gt; (Disclosure.EscapeAngles).
// One for all: a replacer built for each description was 2% of what
// lint --compat allocated (pprof -sample_index=alloc_space).
var escapeAngles = strings.NewReplacer("<", "&lt;", ">", "&gt;")

// disabledBy says whether disable-model-invocation hides the skill, as
// Disclosure.DisabledWhen reads it.
func disabledBy(when string, get func(string) (any, bool)) bool {
	v, _ := get("disable-model-invocation")
	if when == "boolean" {
		return v == true
	}
	return v == true || v == "true"
}

// missingDescription is what stands in for a missing or empty description
// (Parse.Description, Parse.EmptyDescription).
func (h *hostParser) missingDescription() (string, bool) {
	pp := &h.p.Parse
	policy := pp.Description
	if h.f.hasDesc && pp.EmptyDescription == "load" {
		policy = "empty"
	}
	switch policy {
	case "drop":
		return "", h.refuse("the frontmatter has no description")
	case "empty":
		h.change("it has no description")
	case "body":
		h.change("the description is taken from the body")
		return h.fallback(bodyDescription(h.body)), true
	case "first-line":
		h.change("the description is the body's first line")
		return h.fallback(firstLine(h.body)), true
	case "body-text":
		h.change("the description is the body's text")
		return h.fallback(bodyText(h.body)), true
	}
	return "", true
}

// fallback is a description taken from the body as the host shows it:
// cut at Parse.FallbackChars (before its white space is collapsed), then
// on one line with Parse.OneLine.
func (h *hostParser) fallback(desc string) string {
	pp := &h.p.Parse
	if max := pp.FallbackChars; max > 0 && len(desc) > max && utf8.RuneCountInString(desc) > max {
		desc = string([]rune(desc)[:max-utf8.RuneCountInString(pp.FallbackSuffix)]) + pp.FallbackSuffix
		h.change(fmt.Sprintf("the description taken from the body is cut at %d characters", max))
	}
	if pp.OneLine {
		desc = oneLine(desc)
	}
	return desc
}

// skill is the parsed skill with the host's name and description: the YAML
// parse when the host read the frontmatter as YAML, else only what the
// host read.
func (h *hostParser) skill(name, desc string) *skill.Skill {
	var s skill.Skill
	if h.parsed != nil && !h.f.fromLines && h.p.Parse.YAML != "subset" && h.f.yamlError == "" {
		s = *h.parsed
	}
	s.Name, s.Description, s.Body = name, desc, ""
	if s.WhenToUse == "" {
		s.WhenToUse = h.f.whenToUse // a subset parse has no parsed skill
	}
	s.RawName = h.raw
	s.DisableModelInvocation = h.out.hidden
	s.HasFrontmatter = h.hasFM
	return &s
}

// splitHostFences splits text (LF line endings) into frontmatter and body:
// the first line must be ---, the frontmatter ends at the next line that is
// --- (trailing blanks allowed).
func splitHostFences(text string, anywhere bool) (fm, body string, ok bool) {
	first, rest, found := strings.Cut(text, "\n")
	if strings.TrimRight(first, " \t") != "---" || !found {
		return "", text, false
	}
	if anywhere {
		if i := strings.Index(rest, "---"); i >= 0 {
			after := rest[i+3:]
			if j := strings.IndexByte(after, '\n'); j >= 0 && strings.TrimSpace(after[:j]) == "" {
				after = after[j+1:]
			}
			return rest[:i], after, true
		}
		return "", text, false
	}
	off := 0
	for off <= len(rest) {
		line, after, more := strings.Cut(rest[off:], "\n")
		if strings.TrimRight(line, " \t") == "---" {
			return rest[:off], after, true
		}
		if !more {
			break
		}
		off += len(line) + 1
	}
	return "", text, false
}

// refusedYAML says why a host whose YAML library refuses duplicate keys
// or tab indentation (Parse.DuplicateKeys, Parse.Tabs "drop") does not
// load a frontmatter that skillet reads, or "".
func refusedYAML(pp *profile.Parse, fm string, diags []skill.Diagnostic) string {
	if pp.Tabs == "drop" {
		for i, line := range strings.Split(fm, "\n") {
			if strings.HasPrefix(strings.TrimLeft(line, " "), "\t") {
				return fmt.Sprintf("line %d of the frontmatter is indented with a tab, which its YAML reader refuses", i+2)
			}
		}
	}
	if pp.DuplicateKeys == "drop" {
		for _, d := range diags {
			if d.Code == diagcode.DuplicateField {
				return "the frontmatter gives a key twice, which its YAML reader refuses (line " + fmt.Sprint(d.Line) + ")"
			}
		}
	}
	return ""
}

// yamlFields takes name, description and disable-model-invocation from a
// parsed frontmatter, as text. invalid says a value is not a string.
func yamlFields(s *skill.Skill) hostFields {
	var f hostFields
	for _, k := range []string{"name", "description"} {
		if v, ok := s.Frontmatter.Get(k); ok && v == nil {
			f.null = true
		}
	}
	if v, ok := s.Frontmatter.Get("name"); ok {
		f.hasName = true
		f.name, f.invalid = scalarString(v, f.invalid)
	}
	if v, ok := s.Frontmatter.Get("description"); ok {
		f.hasDesc = true
		f.description, f.invalid = scalarString(v, f.invalid)
	}
	f.disabled = s.DisableModelInvocation
	f.whenToUse = s.WhenToUse
	return f
}

func scalarString(v any, invalid bool) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, invalid
	case nil:
		return "", invalid
	case bool, int64, float64:
		return fmt.Sprint(x), true
	}
	return "", true
}

// keyValue splits a frontmatter line "KEY:" or "KEY: VALUE" (a space or
// tab after the colon) whose KEY is a letter or "_" and then letters,
// digits, "_" and "-": the match of ^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+(.*))?$
// with the value's leading blanks kept. ok is false for any other line.
// The regular expression's backtracking matcher was 4% of what
// lint --compat adds to lint's CPU (pprof); FuzzKeyValue holds keyValue
// to it.
func keyValue(line string) (key, value string, ok bool) {
	i := 0
	for i < len(line) && (line[i] == '_' || 'a' <= line[i]|0x20 && line[i]|0x20 <= 'z' || i > 0 && (line[i] == '-' || '0' <= line[i] && line[i] <= '9')) {
		i++
	}
	if i == 0 || i == len(line) || line[i] != ':' {
		return "", "", false
	}
	rest := line[i+1:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return "", "", false
	}
	return line[:i], rest, true
}

// subsetFields reads key: value lines of a frontmatter, values optionally
// quoted. With keys set, only those keys are read; with join, indented
// lines after one of them continue its value (joined with a space).
func subsetFields(fm string, keys []string, join bool) hostFields {
	var f hostFields
	lines := strings.Split(fm, "\n")
	for i := 0; i < len(lines); i++ {
		key, val, ok := keyValue(strings.TrimRight(lines[i], " \t"))
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		if keys != nil {
			found := false
			for _, k := range keys {
				found = found || k == key
			}
			if !found {
				continue
			}
			for join && i+1 < len(lines) && lines[i+1] != "" && (lines[i+1][0] == ' ' || lines[i+1][0] == '\t') {
				i++
				val = strings.TrimSpace(val + " " + strings.TrimSpace(lines[i]))
			}
		}
		val = unquote(val)
		switch key {
		case "name":
			if !f.hasName {
				f.name, f.hasName = val, true
			}
		case "description":
			if !f.hasDesc {
				f.description, f.hasDesc = val, true
			}
		case "disable-model-invocation":
			f.disabled = val == "true"
		case "when-to-use", "whenToUse", "when_to_use":
			if f.whenToUse == "" {
				f.whenToUse = val
			}
		}
	}
	return f
}

var keepDescLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^description:[ \t]*[|>][0-9]*\+[0-9]*[ \t]*(#.*)?$`) })

// mergeFields takes name and description from the mappings a "<<" key
// names (one, or a list, the first giving a key winning) where f has none
// (Parse.MergeKeys "apply").
func mergeFields(f *hostFields, fm skill.Map) {
	v, ok := fm.Get("<<")
	if !ok {
		return
	}
	var maps []skill.Map
	switch x := v.(type) {
	case skill.Map:
		maps = append(maps, x)
	case []any:
		for _, e := range x {
			if m, ok := e.(skill.Map); ok {
				maps = append(maps, m)
			}
		}
	}
	for _, m := range maps {
		if n, ok := m.Get("name"); ok && !f.hasName {
			f.hasName = true
			f.name, f.invalid = scalarString(n, f.invalid)
		}
		if d, ok := m.Get("description"); ok && !f.hasDesc {
			f.hasDesc = true
			f.description, f.invalid = scalarString(d, f.invalid)
		}
	}
}

// keepsLastBreak says whether the last key of frontmatter fm is a
// description written as a block scalar with keep chomping (|+ or >+).
func keepsLastBreak(fm string) bool {
	lines := strings.Split(fm, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		if l == "" || l[0] == ' ' || l[0] == '\t' || l[0] == '#' {
			continue
		}
		return keepDescLine().MatchString(strings.TrimRight(l, " \t"))
	}
	return false
}

var (
	lastNameLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*name:\s*(.*)$`) })
	lastDescLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*description:\s*(.*)$`) })
	indentedLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[ \t]+\S`) })
)

// lastLineFields is Parse.BrokenYAML "last-lines" (Gemini CLI's fallback
// reader, google-gemini/gemini-cli packages/core/src/skills/skillLoader.ts
// parseSimpleFrontmatter @5411f113): a line "name: V" or "description: V"
// at any indentation sets that field to V trimmed, quotes kept, the last
// such line winning; the indented lines right after a description line
// continue it, each trimmed, the non-empty parts joined by single spaces.
func lastLineFields(fm string) hostFields {
	var f hostFields
	lines := strings.Split(fm, "\n")
	for i := 0; i < len(lines); i++ {
		if m := lastNameLine().FindStringSubmatch(lines[i]); m != nil {
			f.name, f.hasName = strings.TrimSpace(m[1]), true
			continue
		}
		m := lastDescLine().FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		var parts []string
		if t := strings.TrimSpace(m[1]); t != "" {
			parts = append(parts, t)
		}
		for i+1 < len(lines) && indentedLine().MatchString(lines[i+1]) {
			i++
			if t := strings.TrimSpace(lines[i]); t != "" {
				parts = append(parts, t)
			}
		}
		f.description, f.hasDesc = strings.Join(parts, " "), true
	}
	return f
}

func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}

// bodyText is the body's text without headings, its lines joined by
// single spaces.
func bodyText(body string) string {
	var parts []string
	for _, l := range strings.Split(body, "\n") {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, " ")
}

// bodyDescription is skillet's description fallback: the first prose line.
func bodyDescription(body string) string {
	s, _ := skill.Parse([]byte(body), &skill.Options{SkipBody: true, KeepRejected: true, MaxDescriptionChars: -1})
	if s == nil || s.HasFrontmatter {
		return firstLine(body)
	}
	return s.Description
}

// firstLine is the body's first non-blank line, trimmed, a heading's
// leading # marks removed.
func firstLine(body string) string {
	for _, l := range strings.Split(body, "\n") {
		if t := strings.TrimSpace(l); t != "" {
			if h := strings.TrimLeft(t, "#"); h != t && (h == "" || h[0] == ' ' || h[0] == '\t') {
				return strings.TrimSpace(h)
			}
			return t
		}
	}
	return ""
}

// textLen is the length of s in a profile's units (Disclosure.Units): code
// points, or UTF-16 code units ("utf16").
//
// It is never more than len(s) (a character is at least a byte, and
// only a character of four bytes is two UTF-16 units): a text of at most
// max bytes is within a limit of max without being counted, as most
// descriptions are (TestTextLenAtMostBytes).
func textLen(units, s string) int {
	n := utf8.RuneCountInString(s)
	if units == "utf16" {
		for _, r := range s {
			if r > 0xFFFF {
				n++
			}
		}
	}
	return n
}

// cutText is the first max units of s (Disclosure.Units). A cut in
// UTF-16 units that falls inside a surrogate pair keeps its first half,
// which reaches the model as U+FFFD.
func cutText(units, s string, max int) string {
	n := 0
	for i, r := range s {
		w := 1
		if units == "utf16" && r > 0xFFFF {
			w = 2
		}
		if n+w > max {
			if n < max {
				return s[:i] + "\uFFFD"
			}
			return s[:i]
		}
		n += w
	}
	return s
}

// unitName names a profile's units in a message.
func unitName(units string) string {
	if units == "utf16" {
		return "UTF-16 units"
	}
	return "characters"
}
