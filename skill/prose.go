package skill

import (
	"regexp"
	"strings"
	"sync"
)

// The rules below pick, among a body's lines of prose, one that can stand
// for a missing description (docs/format.md#the-first-prose-line). They
// were fitted on half of the published skills' bodies (a seeded split)
// and counted on the other half untouched; see docs/format.md.

// proseLine returns the text a line of prose (list and quote markers
// removed) gives as a description, and whether it gives one: metadata
// written as "key: value", labels ("**Version:** 1.0", "Created by: X"),
// taglines wholly in ** or quotes, code and template lines give none; a
// "**Label** — text" line gives its text, a "description: text" line its
// value. Markdown emphasis and links are reduced to their text. next is
// the following non-blank line (trimmed), for a lead-in ending with ":".
func proseLine(line, next string) (string, bool) {
	if isCodeLine(line) {
		return "", false
	}
	if m := keyValueLine().FindStringSubmatch(line); m != nil {
		key, value := m[2], strings.TrimSpace(m[3])
		switch {
		case key == "description" && value != "" && !isCodeLine(value):
			return plainText(strings.Trim(value, `"'`)), true
		case m[1] != "" || isMetadataKey(key) || metadataLabels[firstWord(key)]:
			return "", false
		}
	}
	if label, rest, ok := boldLabel(line); ok {
		rest, colon := strings.CutPrefix(rest, ":")
		colon = colon || strings.HasSuffix(label, ":")
		dash := strings.HasPrefix(rest, "—") || strings.HasPrefix(rest, "–") || strings.HasPrefix(rest, "- ")
		switch {
		case rest == "" || colon && metadataLabels[firstWord(label)]:
			return "", false // "**Follow these steps:**", "**Version:** 1.0", "**Package**: x"
		case colon || dash:
			line = strings.TrimSpace(strings.TrimLeft(rest, " —–-")) // "**Core principle:** text", "**X** — text"
		}
	}
	if label, value, ok := strings.Cut(plainText(line), ": "); ok && len(strings.Fields(label)) <= 4 && !strings.ContainsAny(label, "`*") {
		value = strings.TrimSpace(value)
		if metadataLabels[firstWord(label)] || strings.HasPrefix(value, "`") || len(strings.Fields(value)) <= 1 {
			return "", false // "Created by: X", "Navigate: `cmd`", "Portfolio: example.com"
		}
	}
	if strings.HasPrefix(line, "✅") || strings.HasPrefix(line, "❌") || strings.HasPrefix(line, "⚠") {
		return "", false // a checklist mark: a rule of the body, not what the skill does
	}
	if wholly(line, "**") || wholly(line, "__") || wholly(line, `"`) || wholly(line, "“") {
		return "", false // a tagline or a quotation
	}
	text := plainText(line)
	if strings.HasSuffix(text, ":") && len(strings.Fields(text)) <= 10 {
		// A lead-in ("Use this skill when:"): the list item that follows
		// completes it; on its own it says nothing.
		if item := stripMarkers(next); item != next && item != "" && !isCodeLine(item) {
			return text + " " + plainText(item), true
		}
		return "", false
	}
	// One word that is a file name, path or address ("AuthTool.zip")
	// says nothing.
	word := strings.TrimSuffix(text, ".")
	return text, len(strings.Fields(text)) >= 2 || !strings.ContainsAny(word, "./:`")
}

// firstWord is s's first word in lower case ("" for none).
func firstWord(s string) string {
	f := strings.Fields(strings.ToLower(strings.Trim(s, ":* ")))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// metadataLabels are the first words of labels that introduce metadata,
// not what a skill does ("Version: 1.0", "Created by: ...", "Requires API
// Key: ...").
var metadataLabels = map[string]bool{
	"version": true, "author": true, "authors": true, "created": true, "package": true, "license": true,
	"homepage": true, "requires": true, "requirements": true, "prerequisites": true, "tags": true,
	"category": true, "status": true, "maintainer": true, "updated": true, "source": true, "repository": true,
	"website": true, "install": true, "installation": true, "dependencies": true, "navigate": true,
	"note": true, "tip": true, "warning": true, "important": true, "caution": true, "last": true, "frameworks": true,
}

// isMetadataKey reports whether key is written as a field name rather than
// words of prose: a frontmatter field, or one lower-case word ("prompt",
// "api_key", "user-invocable").
func isMetadataKey(key string) bool {
	return knownField(key) || strings.ToLower(key) == key && !strings.Contains(key, " ")
}

// keyValueLine matches "key: value" with the key bare or quoted; group 1
// is the quote (when quoted), 2 the key, 3 the value.
var keyValueLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(["']?)([A-Za-z][A-Za-z0-9_ -]{0,40}?)["']?:(?:\s+(.*)|$)`)
})

// boldLabel splits "**Label** rest" or "**Label:** rest" (also with __);
// ok is false when line does not open with a bold span that a label
// (at most five words) fills.
func boldLabel(line string) (label, rest string, ok bool) {
	for _, m := range []string{"**", "__"} {
		if !strings.HasPrefix(line, m) {
			continue
		}
		end := strings.Index(line[2:], m)
		if end <= 0 {
			return "", "", false
		}
		label = line[2 : 2+end]
		if len(strings.Fields(label)) > 5 {
			return "", "", false
		}
		return label, strings.TrimSpace(line[4+end:]), true
	}
	return "", "", false
}

// wholly reports whether line is one span wrapped in mark (a tagline
// "**Ship faster.**", a quotation "\"...\"").
func wholly(line, mark string) bool {
	closing := mark
	if mark == "“" {
		closing = "”"
	}
	if len(line) <= len(mark)+len(closing) || !strings.HasPrefix(line, mark) {
		return false
	}
	// The closing mark comes before any trailing "." or "!"; what is left
	// must still hold the opening mark apart from it ("\"!!!" is not a
	// quotation).
	trimmed := strings.TrimRight(line, ".!")
	if len(trimmed) < len(mark)+len(closing) || !strings.HasSuffix(trimmed, closing) {
		return false
	}
	inner := trimmed[:len(trimmed)-len(closing)]
	return !strings.Contains(inner[len(mark):], closing)
}

// isCodeLine reports whether line is code or a template rather than
// prose: an import, a JSON member or brace, a shell prompt, a template
// variable (${...}), a statement ending in "{", "[", "(" or ";".
func isCodeLine(line string) bool {
	for _, p := range []string{"import ", "from ", "${", "{", "}", "]", "$ ", "def ", "func ", "const ", "let ", "var ", "function ", "#!", "<?", "npm ", "pip ", "npx ", "curl "} {
		if strings.HasPrefix(line, p) {
			if p == "from " && !strings.Contains(line, " import ") {
				continue
			}
			return true
		}
	}
	if strings.HasPrefix(line, `"`) && jsonMember().MatchString(line) || wholly(line, "`") {
		return true
	}
	return strings.HasSuffix(line, "{") || strings.HasSuffix(line, "[") || strings.HasSuffix(line, "(") || strings.HasSuffix(line, ";")
}

// jsonMember matches a JSON object member line ("key": value).
var jsonMember = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^"[^"]*"\s*:`) })

// plainText reduces Markdown emphasis (**x**, __x__, *x*, _x_) and links
// ([text](url)) to their text; inline code stays.
func plainText(s string) string {
	s = mdLink().ReplaceAllString(s, "$1")
	for strings.Contains(s, "**") || strings.Contains(s, "__") { // "*__*" leaves "**"
		s = strings.ReplaceAll(strings.ReplaceAll(s, "**", ""), "__", "")
	}
	s = mdEmphasis().ReplaceAllString(s, "$1$2$3")
	return strings.TrimSpace(s)
}

var (
	mdLink = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`!?\[([^\]]*)\]\([^)\s]*\)`) })
	// A single * or _ emphasis: at a word's start, closed at a word's end.
	mdEmphasis = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(^|[\s(])[*_]([^\s*_](?:[^*_]*[^\s*_])?)[*_]([\s).,;:!?]|$)`)
	})
)
