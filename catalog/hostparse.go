package catalog

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/skillet-go/skillet/internal/profile"
	"github.com/skillet-go/skillet/skill"
)

// hostParsed is what a host makes of one skill file.
type hostParsed struct {
	name, description string
	hidden            bool
	alias             string // the name shown in parentheses after the folder (Names.Alias)
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
	fromLines, invalid bool
	null               bool // a name or description key with no value
	yamlError          string
	// whenToUse is the routing hint of a subset parse (when-to-use,
	// whenToUse or when_to_use, the first given): Kestrel reads it, and
	// skillet shows it whatever the host (docs/hosts.md).
	whenToUse string
}

// hostParse reads one skill file as profile p's host does. folder is the
// skill's folder name (a flat file's stem).
func hostParse(p *profile.Profile, data []byte, path, folder string, flat bool) hostParsed {
	var out hostParsed
	pp := &p.Parse
	if bytes.HasPrefix(data, utf8BOM) {
		if pp.BOM == "drop" {
			out.reason = "the file starts with a UTF-8 byte order mark, which it does not read past"
			return out
		}
		data = data[len(utf8BOM):]
	}
	if !utf8.Valid(data) {
		out.reason = "the file is not UTF-8 text"
		return out
	}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	if pp.LineEnds == "" {
		text = strings.ReplaceAll(text, "\r", "\n")
	}
	fm, body, hasFM := splitHostFences(text, pp.FenceAnywhere)
	var f hostFields
	var parsed *skill.Skill
	if hasFM {
		if pp.YAML == "subset" {
			f = subsetFields(fm, nil, false)
		} else {
			src := text
			if pp.FenceAnywhere {
				src = "---\n" + fm + "\n---\n" + body
			}
			s, diags := skill.Parse([]byte(src), &skill.Options{Path: path, Flat: flat, KeepRejected: true, SkipBody: true, MaxDescriptionChars: -1})
			ok := s != nil && !s.Recovered
			msg := ""
			if why := refusedYAML(pp, fm, diags); why != "" {
				out.reason = why
				return out
			}
			for _, d := range diags {
				if d.Code == skill.CodeParseError || d.Code == skill.CodeParseRecovered {
					ok = false
					if msg == "" {
						msg = fmt.Sprintf("line %d: %s", d.Line, d.Message)
					}
				}
			}
			if s != nil && s.Recovered && len(s.Repairs) > 0 {
				msg = fmt.Sprintf("line %d: %s", s.Repairs[0].Line, s.Repairs[0].Error)
			}
			if s != nil {
				parsed = s
				f = yamlFields(s)
			}
			if !ok && pp.YAML == "repair" && s != nil {
				ok = true
				out.changes = append(out.changes, "the frontmatter is not valid YAML; it reads a repaired copy")
			}
			if !ok {
				f.yamlError = msg
				if msg == "" {
					f.yamlError = "it does not decode"
				}
				switch pp.BrokenYAML {
				case "", "drop":
					out.reason = "the frontmatter is not valid YAML (" + f.yamlError + ")"
					return out
				case "lines", "single-lines":
					f = subsetFields(fm, []string{"name", "description"}, pp.BrokenYAML == "lines")
					f.fromLines = true
					out.changes = append(out.changes, "the frontmatter is not valid YAML; name and description are read line by line")
				case "empty":
					f = hostFields{yamlError: f.yamlError}
					out.changes = append(out.changes, "the frontmatter is not valid YAML; it loads with no metadata")
				}
			} else if (f.invalid || f.null) && pp.NonString == "drop" {
				out.reason = "its name or description is not a string, which it requires"
				return out
			} else if (pp.BrokenYAML == "lines" || pp.BrokenYAML == "single-lines") && f.invalid {
				f = subsetFields(fm, []string{"name", "description"}, pp.BrokenYAML == "lines")
				f.fromLines = true
			}
		}
	} else {
		if pp.NoFrontmatter == "drop" {
			out.reason = "the file has no --- frontmatter"
			return out
		}
		body = text
		out.changes = append(out.changes, "the file has no frontmatter; name and description are inferred")
	}

	// The name.
	n := &p.Names
	raw := strings.TrimSpace(f.name)
	name := folder
	switch {
	case n.Source == "folder":
	case f.hasName && raw != "":
		name = raw
	case n.Required:
		out.reason = "the frontmatter has no name"
		return out
	}
	switch n.Normalize {
	case "kebab":
		name = skill.Normalize(name)
	case "spaces":
		name = strings.Join(strings.Fields(name), "-")
	case "path-chars":
		name = strings.Map(func(r rune) rune {
			if strings.ContainsRune(`:\/<>*?"|`, r) {
				return '-'
			}
			return r
		}, name)
	}
	if n.MaxChars > 0 && utf8.RuneCountInString(name) > n.MaxChars {
		out.reason = fmt.Sprintf("the name is %d characters, over its limit of %d", utf8.RuneCountInString(name), n.MaxChars)
		return out
	}
	if n.Pattern != "" {
		re, _ := profile.Pattern(n.Pattern)
		if !re.MatchString(name) {
			out.reason = fmt.Sprintf("the name %q breaks its rule %s", name, n.Pattern)
			return out
		}
	}
	if n.MatchFolder && name != folder {
		out.reason = fmt.Sprintf("the name %q differs from the folder name %q", name, folder)
		return out
	}
	switch {
	case f.hasName && raw != "" && name != raw:
		out.changes = append(out.changes, fmt.Sprintf("the name %q is shown as %q", raw, name))
	case !f.hasName || raw == "":
		out.changes = append(out.changes, fmt.Sprintf("named %q after its folder", name))
	}

	// The description.
	desc := f.description
	if !pp.KeepSpace || strings.TrimSpace(desc) == "" {
		desc = strings.TrimSpace(desc)
	}
	if pp.OneLine {
		desc = strings.Join(strings.Fields(desc), " ")
	}
	if !f.hasDesc || desc == "" {
		policy := pp.Description
		if f.hasDesc && pp.EmptyDescription == "load" {
			policy = "empty"
		}
		switch policy {
		case "drop":
			out.reason = "the frontmatter has no description"
			return out
		case "empty":
			desc = ""
			out.changes = append(out.changes, "it has no description")
		case "body":
			desc = bodyDescription(body)
			out.changes = append(out.changes, "the description is taken from the body")
		case "first-line":
			desc = firstLine(body)
			out.changes = append(out.changes, "the description is the body's first line")
		case "body-text":
			desc = bodyText(body)
			out.changes = append(out.changes, "the description is the body's text")
		}
	}
	if max := pp.MaxDescriptionChars; max > 0 && utf8.RuneCountInString(desc) > max {
		switch pp.LongDescription {
		case "drop":
			out.reason = fmt.Sprintf("the description is %d characters, over its limit of %d", utf8.RuneCountInString(desc), max)
			return out
		case "cut":
			desc = string([]rune(desc)[:max-utf8.RuneCountInString(pp.Suffix)]) + pp.Suffix
			out.changes = append(out.changes, fmt.Sprintf("the description is cut at %d characters", max))
		}
	}
	if pp.EmptyBody == "drop" && hasFM && strings.TrimSpace(body) == "" {
		out.reason = "nothing follows the frontmatter"
		return out
	}
	if max := p.Disclosure.CatalogChars; max > 0 && utf8.RuneCountInString(desc) > max {
		desc = string([]rune(desc)[:max]) + p.Disclosure.CatalogSuffix
		out.changes = append(out.changes, fmt.Sprintf("the catalog cuts the description at %d characters", max))
	}
	if p.Disclosure.EscapeAngles {
		desc = strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace(desc)
	}
	if n.Alias && n.Source == "folder" && f.hasName && raw != "" && raw != name && !strings.ContainsAny(raw, " \t\n") {
		out.alias = raw
	}
	out.hidden = f.disabled && p.Disclosure.HidesDisabled
	out.name, out.description = name, desc

	var s skill.Skill
	if parsed != nil && !f.fromLines && pp.YAML != "subset" && f.yamlError == "" {
		s = *parsed
	}
	s.Name, s.Description, s.Body = name, desc, ""
	if s.WhenToUse == "" {
		s.WhenToUse = f.whenToUse // a subset parse has no parsed skill
	}
	s.RawName = raw
	s.DisableModelInvocation = out.hidden
	s.HasFrontmatter = hasFM
	out.skill = &s
	return out
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
			if d.Code == skill.CodeDuplicateField {
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

var keyLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+(.*))?$`) })

// subsetFields reads key: value lines of a frontmatter, values optionally
// quoted. With keys set, only those keys are read; with join, indented
// lines after one of them continue its value (joined with a space).
func subsetFields(fm string, keys []string, join bool) hostFields {
	var f hostFields
	lines := strings.Split(fm, "\n")
	for i := 0; i < len(lines); i++ {
		m := keyLine().FindStringSubmatch(strings.TrimRight(lines[i], " \t"))
		if m == nil {
			continue
		}
		key, val := m[1], strings.TrimSpace(m[2])
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
