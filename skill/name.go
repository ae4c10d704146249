package skill

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/spec"
	"github.com/skillet-go/skillet/internal/yamlx"
)

var (
	// looseName is Kestrel's rule for a normalised name.
	looseName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`) })
)

// specName is the specification's name rule: lowercase ASCII letters and
// digits in hyphen-separated runs (spec §name), ^[a-z0-9]+(-[a-z0-9]+)*$
// checked without a regular expression (every skill is checked).
func specName(name string) bool {
	if name == "" || name[0] == '-' || name[len(name)-1] == '-' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
		case c == '-' && name[i-1] != '-':
		default:
			return false
		}
	}
	return true
}

// ValidName reports whether name meets the specification's rule: 1-64
// characters of a-z, 0-9 and "-", no leading, trailing or double hyphen
// (spec §name).
func ValidName(name string) bool {
	return len(name) <= spec.MaxNameChars && specName(name)
}

// Normalize rewrites a name to kebab-case (Kestrel): NFKC, accents removed,
// camelCase split, lower case, every run of other characters turned into a
// single "-", and no leading or trailing "-". "Release Checklist" becomes
// "release-checklist"; "PDFProcessing" becomes "pdf-processing". The result
// may be "" when the name holds no letter or digit.
func Normalize(name string) string {
	s := norm.NFKD.String(strings.TrimSpace(name))
	var b strings.Builder
	// Combining accents go first, so "CaféBar" still splits at its B.
	runes := []rune(strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, s))
	prevDash := true
	for i, r := range runes {
		if r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
			prevDash = false
			continue
		}
		if t := foldLetters[r]; t != "" && unicode.IsLower(r) {
			b.WriteString(t)
			prevDash = false
			continue
		}
		if r >= 'A' && r <= 'Z' || foldLetters[r] != "" {
			// Split camelCase: aB -> a-b, and ABc -> a-bc.
			if !prevDash && i > 0 {
				p := runes[i-1]
				nextLower := i+1 < len(runes) && latinLower(runes[i+1])
				if latinLower(p) || (latinUpper(p) && nextLower) {
					b.WriteByte('-')
				}
			}
			if t := foldLetters[r]; t != "" {
				b.WriteString(strings.ToLower(t))
			} else {
				b.WriteRune(unicode.ToLower(r))
			}
			prevDash = false
			continue
		}
		if !prevDash {
			b.WriteByte('-')
			prevDash = true
		}
	}
	return strings.Trim(b.String(), "-")
}

// foldLetters spells the Latin letters that have no decomposition (so NFKD
// leaves them whole) in the ASCII letters they are usually written with:
// "Øresund" is "oresund", not "resund".
var foldLetters = map[rune]string{
	'Ø': "O", 'ø': "o", 'Æ': "AE", 'æ': "ae", 'Œ': "OE", 'œ': "oe", 'ß': "ss", 'ẞ': "SS",
	'Ł': "L", 'ł': "l", 'Đ': "D", 'đ': "d", 'Ð': "D", 'ð': "d", 'Þ': "TH", 'þ': "th",
	'Ħ': "H", 'ħ': "h", 'ı': "i", 'Ŧ': "T", 'ŧ': "t",
}

// latinLower and latinUpper report whether r is a lower- or upper-case
// letter Normalize keeps (a-z, A-Z and the letters of foldLetters).
func latinLower(r rune) bool {
	return r >= 'a' && r <= 'z' || foldLetters[r] != "" && unicode.IsLower(r)
}

func latinUpper(r rune) bool {
	return r >= 'A' && r <= 'Z' || foldLetters[r] != "" && unicode.IsUpper(r)
}

// sameWords reports whether a and b are the same name once both are
// normalised and their hyphens removed: "ElevenLabs Automation" (which
// Normalize splits as eleven-labs-automation) and "elevenlabs-automation"
// are, and so are "Café" and "cafe".
func sameWords(a, b string) bool {
	na, nb := Normalize(a), Normalize(b)
	return na != "" && strings.ReplaceAll(na, "-", "") == strings.ReplaceAll(nb, "-", "")
}

// resolveName applies docs/format.md#names and reports the result. It returns false when
// the skill must be rejected.
func (p *parser) resolveName(s *Skill, fm *frontmatter, dirName string) bool {
	line, col := 0, 0
	var nameKey *keyPos
	if fm != nil {
		nameKey = fm.get("name")
		if nameKey != nil {
			line, col = nameKey.line, nameKey.col
			if nameKey.value != nil && nameKey.value.Kind != 0 {
				col = nameKey.value.Column
			}
		}
	}
	raw := strings.TrimSpace(norm.NFKC.String(s.RawName))
	fromPath := false
	if raw == "" {
		if dirName == "" {
			p.reportSeverity(diagcode.NameInvalid, SeverityError, line, col, "the skill has no name and none can be taken from its path")
			return false
		}
		fromPath = true
		raw = strings.TrimSpace(norm.NFKC.String(dirName))
		switch {
		case s.HasFrontmatter && nameKey == nil:
			p.report(diagcode.NameMissing, max(line, 1), max(col, 1), "the frontmatter has no name; the %s %q is used", p.nameSource(), dirName)
		case nameKey != nil && (nameKey.value == nil || nameKey.value.Kind != yamlx.SequenceNode && nameKey.value.Kind != yamlx.MappingNode):
			// "name:" with nothing after it, or only white space: no
			// name either (the reference validator rejects it).
			p.report(diagcode.NameMissing, line, col, "the name is empty; the %s %q is used", p.nameSource(), dirName)
		}
	}
	p.name = raw
	if p.opts.Mode == Strict {
		if msg := specNameProblem(raw); msg != "" {
			p.report(diagcode.NameInvalid, line, col, "%s", msg)
			return false
		}
		s.Name = raw
		if !fromPath && dirName != "" && raw != dirName {
			p.report(diagcode.NameMismatch, line, col, "the name %q does not match the %s %q", raw, p.nameSource(), dirName)
		}
		return true
	}

	name := raw
	switch {
	case ValidName(raw):
	case looseName().MatchString(raw):
		p.reportSeverity(diagcode.NameInvalid, SeverityWarning, line, col, "%s (it still loads)", specNameProblem(raw))
	default:
		name = Normalize(raw)
		if name == "" || !looseName().MatchString(name) {
			p.reportSeverity(diagcode.NameInvalid, SeverityError, line, col, "the name %q has no letter or digit from a-z and 0-9 to keep; names are lower-case a-z, 0-9 and hyphens", raw)
			return false
		}
		if dirName != "" && name != dirName && ValidName(dirName) && sameWords(raw, dirName) {
			// The folder is the name written in kebab-case with its own
			// word breaks ("ElevenLabs Automation" in elevenlabs-automation).
			name = dirName
		}
		p.name = name
		p.report(diagcode.NameNormalized, line, col, "the name %q was normalised to %q", raw, name)
		if !ValidName(name) {
			p.reportSeverity(diagcode.NameInvalid, SeverityWarning, line, col, "%s (it still loads)", specNameProblem(name))
		}
	}
	s.Name = name
	p.name = name
	// A normalised name matches a folder that normalises to it too (an
	// accented folder, "café" for the name "Café"); a name that was already
	// valid must be the folder's exactly, as the specification says.
	normalised := fromPath || name != raw
	if dirName != "" && name != dirName && !(normalised && name == Normalize(dirName)) {
		p.report(diagcode.NameMismatch, line, col, "the name %q does not match the %s %q", name, p.nameSource(), dirName)
	}
	return true
}

// specNameProblem explains how name breaks the specification's rule, or
// returns "" when it does not.
func specNameProblem(name string) string {
	n := utf8.RuneCountInString(name)
	switch {
	case n == 0:
		return "the name is empty"
	case n > spec.MaxNameChars:
		return "the name is " + strconv.Itoa(n) + " characters, over the specification's 64"
	case name != strings.ToLower(name):
		return "the name " + strconv.Quote(name) + " must be lower case"
	case strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-"):
		return "the name " + strconv.Quote(name) + " cannot start or end with a hyphen"
	case strings.Contains(name, "--"):
		return "the name " + strconv.Quote(name) + " cannot contain consecutive hyphens"
	case !specName(name):
		return "the name " + strconv.Quote(name) + " may only hold a-z, 0-9 and hyphens"
	}
	return ""
}

// DefaultName is the name a skill file's path gives it, which a skill's
// name is compared with (name-mismatch) and which names it when the
// frontmatter gives none: the folder holding the file in the directory
// form (ROOT/NAME/SKILL.md), the file name without its extension in the
// flat form (ROOT/NAME.md); "" for an empty path. See
// docs/format.md#names.
func DefaultName(path string, flat bool) string {
	if path == "" {
		return ""
	}
	if !flat {
		if name, ok := parentName(path); ok {
			return name
		}
	}
	path = filepath.Clean(path)
	if flat {
		base := filepath.Base(path)
		return strings.TrimSuffix(base, filepath.Ext(base))
	}
	return filepath.Base(filepath.Dir(path))
}

// parentName is filepath.Base(filepath.Dir(filepath.Clean(path))) for a
// path that is clean already and has a parent (the paths the catalog
// passes), without the cost of cleaning it; ok is false for any other.
func parentName(path string) (name string, ok bool) {
	if filepath.Separator != '/' || path == "" || path[0] == '.' || path[len(path)-1] == '/' ||
		strings.Contains(path, "//") || strings.Contains(path, "/.") {
		return "", false
	}
	i := strings.LastIndexByte(path, '/')
	if i <= 0 {
		return "", false
	}
	dir := path[:i]
	return dir[strings.LastIndexByte(dir, '/')+1:], true
}
