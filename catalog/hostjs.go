package catalog

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/skillet-go/skillet/skill"
)

// This file holds the readings of hosts written in JavaScript whose rules
// are not YAML's: how they find the frontmatter's fences (Parse.Fences),
// Qwen Code's line reader (Parse.BrokenYAML "key-lines") and JavaScript's
// String() of a value (Parse.NonString "js-string").

// splitFencesMode splits text (line ends already made LF where the host
// does) into frontmatter and body as Parse.Fences says:
//
//   - "exact": the first line is exactly ---, the frontmatter ends at the
//     next line that is exactly --- (Qwen Code, skill-manager.ts: the regular
//     expression ^---\n([\s\S]*?)\n---(?:\n|$)).
//   - "closing-prefix": the first line is exactly --- (a CR before its line
//     break allowed), and the frontmatter ends at the next line that starts
//     with --- ("----" and "--- x" close it; Gemini CLI, skillLoader.ts
//     FRONTMATTER_REGEX).
//   - "prefix": the text starts with ---, whatever follows on that line
//     past its fourth character, and the frontmatter ends at the first line
//     starting with --- (pi, utils/frontmatter.ts: indexOf("\n---", 3)).
func splitFencesMode(text, mode string) (fm, body string, ok bool) {
	switch mode {
	case "prefix":
		if !strings.HasPrefix(text, "---") {
			return "", text, false
		}
		i := strings.Index(text[3:], "\n---")
		if i < 0 || 3+i <= 4 {
			return "", text, false
		}
		end := 3 + i
		return text[4:end], strings.TrimPrefix(text[end+4:], "\n"), true
	case "exact", "closing-prefix":
		start := 0
		switch {
		case strings.HasPrefix(text, "---\n"):
			start = 4
		case mode == "closing-prefix" && strings.HasPrefix(text, "---\r\n"):
			start = 5
		default:
			return "", text, false
		}
		for off := start; ; {
			i := strings.Index(text[off:], "\n---")
			if i < 0 {
				return "", text, false
			}
			end := off + i
			after := text[end+4:]
			if mode == "closing-prefix" || after == "" || after[0] == '\n' {
				fm := strings.TrimSuffix(text[start:end], "\r")
				rest := after
				if j := strings.IndexByte(rest, '\n'); j >= 0 {
					rest = rest[j+1:]
				} else {
					rest = ""
				}
				return fm, rest, true
			}
			off = end + 1
		}
	}
	return splitHostFences(text, false)
}

// keyLinesFields is Qwen Code's line reader of a frontmatter its YAML
// library refuses (Parse.BrokenYAML "key-lines"; QwenLM/qwen-code
// packages/core/src/utils/yaml-parser.ts parseSimple, in the 0.24.4
// package's chunks/chunk-DXXCNZW4.js): blank and # lines are left out;
// "  - X" lines after "KEY:" make a list, other lines indented by two
// spaces after "KEY:" a map; every other line holding a ':' is KEY: VALUE
// at any indentation, split at its first ':', both sides trimmed, the
// last line of a key winning. A value is read as true, false, null, a
// number, a double-quoted string (quotes removed) or the text itself.
// (Its maps, as the YAML library's, have no prototype: see jsString.)
func keyLinesFields(fm string) map[string]any {
	var lines []string
	for _, l := range strings.Split(fm, "\n") {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
			lines = append(lines, l)
		}
	}
	out := map[string]any{}
	var (
		key, objKey string
		list        []any
		inList      bool
		obj         map[string]any
	)
	for i, line := range lines {
		if strings.HasPrefix(line, "  - ") {
			if !inList {
				inList, list = true, nil
			}
			list = append(list, jsValue(strings.TrimSpace(line[4:])))
			continue
		}
		if inList {
			out[key] = list
			inList, list, key = false, nil, ""
		}
		if strings.HasPrefix(line, "  ") && obj != nil {
			k, v, _ := strings.Cut(strings.TrimSpace(line), ":")
			obj[strings.TrimSpace(k)] = jsValue(strings.TrimSpace(v))
			continue
		}
		if obj != nil {
			out[objKey] = obj
			obj, objKey = nil, ""
		}
		k, v, found := strings.Cut(line, ":")
		if !found {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if v != "" {
			out[k] = jsValue(v)
			continue
		}
		key = k
		if i+1 < len(lines) {
			switch next := lines[i+1]; {
			case strings.HasPrefix(next, "  - "):
			case strings.HasPrefix(next, "  "):
				obj, objKey, key = map[string]any{}, k, ""
			}
		}
	}
	if inList {
		out[key] = list
	}
	if obj != nil {
		out[objKey] = obj
	}
	return out
}

// jsValue is how Qwen Code's line reader reads one value.
func jsValue(v string) any {
	switch v {
	case "true":
		return true
	case "false":
		return false
	case "null":
		return nil
	case "":
		return ""
	}
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		return strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(v[1 : len(v)-1])
	}
	if f, ok := jsNumber(v); ok {
		return f
	}
	return v
}

// jsNumber is JavaScript's Number(v) when it gives a finite number: a
// decimal (with exponent), or 0x, 0o, 0b digits; blanks around allowed.
func jsNumber(v string) (float64, bool) {
	t := strings.TrimSpace(v)
	if t == "" {
		return 0, true
	}
	if len(t) > 2 && t[0] == '0' {
		base := map[byte]int{'x': 16, 'X': 16, 'o': 8, 'O': 8, 'b': 2, 'B': 2}[t[1]]
		if base != 0 {
			n, err := strconv.ParseUint(t[2:], base, 64)
			return float64(n), err == nil
		}
	}
	for _, r := range t {
		if !strings.ContainsRune("0123456789+-.eE", r) {
			return 0, false // Go would read "Inf", "NaN", "_" and hex floats
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// jsString is JavaScript's String(v) of a YAML or line-reader value: a
// number in its shortest form, a list's items joined by commas (null
// items empty). Qwen Code's parse gives maps no prototype, so String() of
// a map, or of a list holding one, throws: ok is false.
func jsString(v any) (s string, ok bool) {
	defer func() {
		if recover() != nil {
			s, ok = "", false
		}
	}()
	return jsStringOf(v), true
}

func jsStringOf(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return jsStringOf(float64(x))
	case float64:
		switch {
		case math.IsInf(x, 1):
			return "Infinity"
		case math.IsInf(x, -1):
			return "-Infinity"
		case math.IsNaN(x):
			return "NaN"
		case x == 0:
			return "0"
		case math.Abs(x) >= 1e21 || math.Abs(x) < 1e-6:
			s := strconv.FormatFloat(x, 'e', -1, 64)
			return strings.Replace(s, "e-0", "e-", 1)
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			if e != nil {
				parts[i] = jsStringOf(e)
			}
		}
		return strings.Join(parts, ",")
	}
	panic("a map has no string form") // recovered by jsString
}

// jsFields are name, description, when_to_use and disable-model-invocation
// as Qwen Code takes them from its parse (a YAML map or its line reader's):
// a null value is no value; name and description are String() of what is
// there; when_to_use only when a string; disabled by true or "true".
func jsFields(get func(string) (any, bool)) hostFields {
	var f hostFields
	var okName, okDesc = true, true
	if v, ok := get("name"); ok && v != nil {
		f.name, okName = jsString(v)
		f.hasName = true
	}
	if v, ok := get("description"); ok && v != nil {
		f.description, okDesc = jsString(v)
		f.hasDesc = true
	}
	f.invalid = !okName || !okDesc
	if v, ok := get("when_to_use"); ok {
		if s, ok := v.(string); ok {
			f.whenToUse = s
		}
	}
	if v, ok := get("disable-model-invocation"); ok {
		f.disabled = v == true || v == "true"
	}
	return f
}

// mapGetter and frontmatterGetter read a line reader's map and a parsed
// frontmatter alike.
func mapGetter(m map[string]any) func(string) (any, bool) {
	return func(k string) (any, bool) { v, ok := m[k]; return v, ok }
}

func frontmatterGetter(m skill.Map) func(string) (any, bool) {
	return m.Get
}

// fieldRules applies Parse.FieldTypes and Disclosure.Paths to the fields
// the host's reader gave (Qwen Code 0.24.4, skill-manager.ts
// parseSkillContent in the package's chunks/chunk-DPEB6S2R.js, and
// types.ts parseModelField, parseAllowedToolsField, parsePathsField in
// chunks/chunk-DXXCNZW4.js): it refuses a file where a typed field is of
// another type or a paths entry is absolute or climbs out with .., and
// marks a skill with paths as held back. A null value counts as not given
// (Qwen Code's parse removes nulls).
func (h *hostParser) fieldRules() bool {
	pp, dc := &h.p.Parse, &h.p.Disclosure
	if len(pp.FieldTypes) == 0 && dc.Paths == "" {
		return true
	}
	get := h.get
	if get == nil && h.parsed != nil && !h.f.fromLines {
		get = frontmatterGetter(h.parsed.Frontmatter)
	}
	if get == nil {
		return true
	}
	for _, k := range slices.Sorted(maps.Keys(pp.FieldTypes)) {
		v, ok := get(k)
		if !ok || v == nil {
			continue
		}
		_, isList := v.([]any)
		_, isString := v.(string)
		if pp.FieldTypes[k] == "list" && !isList || pp.FieldTypes[k] == "string" && !isString {
			return h.refuse(fmt.Sprintf("its %s is %s, where it requires a %s", k, valueKind(v), pp.FieldTypes[k]))
		}
	}
	if dc.Paths != "conditional" {
		return true
	}
	v, ok := get("paths")
	list, isList := v.([]any)
	if !ok || !isList {
		return true
	}
	for _, e := range list {
		s, _ := jsString(e)
		g := strings.ReplaceAll(strings.TrimSpace(s), `\`, "/")
		switch {
		case g == "":
			continue
		case strings.HasPrefix(g, "/") || len(g) >= 2 && g[1] == ':' && isASCIILetter(g[0]):
			return h.refuse(fmt.Sprintf("its paths entry %q is absolute", s))
		case slices.Contains(strings.Split(g, "/"), ".."):
			return h.refuse(fmt.Sprintf("its paths entry %q climbs out of the project (..)", s))
		}
		h.f.conditional = true
	}
	if h.f.conditional {
		h.change("its paths keep it out of the catalog until a file they match is read")
	}
	return true
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
