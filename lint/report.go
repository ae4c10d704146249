package lint

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/internal/jsonw"
	"github.com/skillet-go/skillet/internal/outfmt"
	"github.com/skillet-go/skillet/internal/textsafe"
	"github.com/skillet-go/skillet/skill"
)

// WriteText writes one line per diagnostic, "path:line:col: level: message
// [code]" (line and column left out when unknown), in the report's sorted
// order, each followed by an indented line saying what to do ("\thelp:
// ..."): the suggested fix and the --fix that applies it, or the code's
// remedy. Paths are shown relative to base; control
// characters in paths and messages are escaped.
func (r *Report) WriteText(w io.Writer, base string) error {
	var b strings.Builder
	for _, d := range r.Diagnostics {
		d.Path = fsx.Display(d.Path, base)
		b.WriteString(textsafe.Escape(d.String()))
		b.WriteByte('\n')
		if h := remedy(d); h != "" {
			b.WriteString("\thelp: " + textsafe.Escape(h) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Remedy says what to do about d in a few words: its first suggested fix
// and the skillet lint flag that applies it, else its code's remedy, else
// "" (a note needs nothing).
func remedy(d skill.Diagnostic) string {
	if len(d.Fixes) > 0 {
		flag := "--fix"
		if nameCode(d.Code) {
			flag = "--fix=name"
		}
		return fmt.Sprintf("%s (skillet lint %s)", d.Fixes[0].Message, flag)
	}
	if d.Code == diagcode.NotLoaded && d.Severity != skill.SeverityError {
		// The host of --preset, not of a --target (whose finding is an
		// error): there is no --target to drop the host from.
		return notLoadedPresetRemedy
	}
	return d.Code.Info().Remedy
}

// notLoadedPresetRemedy is the remedy of a not-loaded finding about the
// host of --preset.
const notLoadedPresetRemedy = "move or change the skill as the message says (docs/hosts.md lists where each host looks and what it loads)"

// Fixable counts the findings that have a suggested fix: those --fix
// mends, and those only --fix=name mends.
func (r *Report) Fixable() (fix, name int) {
	for _, d := range r.Diagnostics {
		switch {
		case len(d.Fixes) == 0:
		case nameCode(d.Code):
			name++
		default:
			fix++
		}
	}
	return fix, name
}

// WriteCompat writes the compatibility report as text: per skill file, its
// path and name, one line per host profile (loads, loads changed and how,
// or not loaded and why), then one line per checker rule it breaks. Text
// from the skill folder (names, field names, messages) has its control
// characters escaped (textsafe: "\x1b"), as in WriteText.
func (r *Report) WriteCompat(w io.Writer, base string) error {
	var b strings.Builder
	for _, c := range r.Compat {
		fmt.Fprintf(&b, "%s (%s)\n", textsafe.Escape(fsx.Display(c.Path, base)), textsafe.Escape(c.Name))
		for _, h := range c.Hosts {
			switch h.Verdict {
			case verdictLoads:
				fmt.Fprintf(&b, "  %s: loads\n", h.Host)
			case verdictLoadsChanged:
				fmt.Fprintf(&b, "  %s: loads changed: %s\n", h.Host, textsafe.Escape(strings.Join(h.Changes, "; ")))
			default:
				why := h.Reason
				if h.Remedy != "" {
					why += "; " + h.Remedy
				}
				fmt.Fprintf(&b, "  %s: not loaded: %s\n", h.Host, textsafe.Escape(why))
			}
		}
		for _, br := range c.Breaks {
			fmt.Fprintf(&b, "  %s: %s [%s]\n", br.Host, textsafe.Escape(br.Message), br.Rule)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Summary is the report's closing line, for example
// "12 files, 11 skills: 1 error, 3 warnings; 2 fixable with --fix, 1 with
// --fix=name" (the last part only when something is fixable).
func (r *Report) Summary() string {
	c := r.Counts
	s := fmt.Sprintf("%s, %s: %s, %s", outfmt.Count(c.Files, "file"), outfmt.Count(c.Skills, "skill"),
		outfmt.Count(c.Errors, "error"), outfmt.Count(c.Warnings, "warning"))
	switch fix, name := r.Fixable(); {
	case fix > 0 && name > 0:
		s += fmt.Sprintf("; %d fixable with --fix, %d with --fix=name", fix, name)
	case fix > 0:
		s += fmt.Sprintf("; %d fixable with --fix", fix)
	case name > 0:
		s += fmt.Sprintf("; %d fixable with --fix=name", name)
	}
	return s
}

// gitHubAnnotationsPerLevel is how many annotations of one level (error,
// warning, notice) GitHub shows for a step; the rest of a step's workflow
// commands of that level are dropped
// (https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands).
const gitHubAnnotationsPerLevel = 10

// WriteGitHub writes the findings as GitHub Actions workflow commands
// (::error file=...,line=...,col=...,title=...::message), which a workflow
// shows as annotations on the files, with paths relative to base. Of each
// level it writes at most gitHubAnnotationsPerLevel commands: when there
// are more, the first gitHubAnnotationsPerLevel-1 findings and one more
// command of that level that says how many are not annotated; those are
// written after the commands as plain log lines (as WriteText writes
// them, between ::stop-commands:: and its end, so that none runs as a
// command), so the job log holds every finding.
func (r *Report) WriteGitHub(w io.Writer, base string) error {
	var b strings.Builder
	total := map[string]int{}
	for _, d := range r.Diagnostics {
		total[ghLevel(d.Severity)]++
	}
	shown := map[string]int{}
	var rest []skill.Diagnostic
	for _, d := range r.Diagnostics {
		level := ghLevel(d.Severity)
		if total[level] > gitHubAnnotationsPerLevel && shown[level] >= gitHubAnnotationsPerLevel-1 {
			rest = append(rest, d)
			continue
		}
		shown[level]++
		b.WriteString("::" + level + " file=" + ghProperty(filepath.ToSlash(fsx.Display(d.Path, base))))
		if d.Line > 0 {
			fmt.Fprintf(&b, ",line=%d", d.Line)
			if d.Column > 0 {
				fmt.Fprintf(&b, ",col=%d", d.Column)
			}
		}
		b.WriteString(",title=" + ghProperty("skillet "+string(d.Code)))
		msg := d.Message
		if h := remedy(d); h != "" {
			msg += "\nhelp: " + h
		}
		b.WriteString("::" + ghData(msg) + "\n")
	}
	for _, level := range []string{"error", "warning", "notice"} {
		if n := total[level] - shown[level]; n > 0 {
			noun := level
			if level == "notice" {
				noun = "note"
			}
			b.WriteString("::" + level + " title=" + ghProperty("skillet: "+outfmt.Count(n, "more "+noun)) + "::" +
				ghData(fmt.Sprintf("GitHub shows %d annotations of a level per step: %d of the %s are not annotated; the job log lists them below the annotations, and the job summary counts every finding by code",
					gitHubAnnotationsPerLevel, n, outfmt.Count(total[level], noun))) + "\n")
		}
	}
	if len(rest) > 0 {
		// The plain lines come from skill folders: no line of them may
		// run as a workflow command, whatever a path or message holds.
		var plain strings.Builder
		sub := &Report{Diagnostics: rest}
		if err := sub.WriteText(&plain, base); err != nil {
			return err
		}
		token := stopToken(plain.String())
		b.WriteString("::stop-commands::" + token + "\n" + plain.String() + "::" + token + "::\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// stopToken is the ::stop-commands:: token of the plain lines text: a
// SHA-256 of them, which no line can hold (a text that held its own hash
// is not to be found), and the same for the same report.
func stopToken(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "skillet-" + hex.EncodeToString(sum[:16])
}

// ghLevel is the workflow command of a finding's level.
func ghLevel(s skill.Severity) string {
	switch s {
	case skill.SeverityError:
		return "error"
	case skill.SeverityNote:
		return "notice"
	}
	return "warning"
}

// WriteGitHubSummary writes a job summary in GitHub-flavoured Markdown
// (for the file $GITHUB_STEP_SUMMARY names): the counts, a table of the
// findings per code and level, and the findings, at most maxSummaryFindings
// of them, with paths relative to base.
func (r *Report) WriteGitHubSummary(w io.Writer, base string) error {
	var b strings.Builder
	b.WriteString("### skillet lint\n\n" + textsafe.Escape(r.Summary()) + "\n\n")
	if len(r.Diagnostics) == 0 {
		_, err := io.WriteString(w, b.String())
		return err
	}
	type key struct {
		code  skill.Code
		level skill.Severity
	}
	counts := map[key]int{}
	var keys []key
	for _, d := range r.Diagnostics {
		k := key{d.Code, d.Severity}
		if counts[k] == 0 {
			keys = append(keys, k)
		}
		counts[k]++
	}
	slices.SortFunc(keys, func(a, b key) int {
		if c := counts[b] - counts[a]; c != 0 {
			return c
		}
		return strings.Compare(string(a.code), string(b.code))
	})
	b.WriteString("| code | level | findings |\n| --- | --- | ---: |\n")
	for _, k := range keys {
		fmt.Fprintf(&b, "| [%s](%s) | %s | %d |\n", k.code, HelpURL(k.code), k.level, counts[k])
	}
	b.WriteString("\n")
	for i, d := range r.Diagnostics {
		if i == maxSummaryFindings {
			fmt.Fprintf(&b, "- and %d more (skillet lint lists them all)\n", len(r.Diagnostics)-i)
			break
		}
		pos := filepath.ToSlash(fsx.Display(d.Path, base))
		if d.Line > 0 {
			pos += fmt.Sprintf(":%d", d.Line)
		}
		fmt.Fprintf(&b, "- `%s` %s: %s [%s]\n", mdCode(textsafe.Escape(pos)), d.Severity, mdText(textsafe.Escape(d.Message)), d.Code)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// maxSummaryFindings bounds the findings a job summary lists (GitHub
// takes at most 1 MiB of summary per step).
const maxSummaryFindings = 200

// mdCode makes s safe inside a Markdown code span.
func mdCode(s string) string { return strings.ReplaceAll(s, "`", "'") }

// mdText makes s safe as Markdown text in a list item: no HTML, no line
// breaks, no emphasis or links.
func mdText(s string) string {
	s = strings.NewReplacer("\n", " ", "\r", " ").Replace(s)
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>|#!~", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// ghData escapes a workflow command's message.
func ghData(s string) string { return ghEscape(s, false) }

// ghProperty escapes a workflow command's property value.
func ghProperty(s string) string { return ghEscape(s, true) }

// ghEscape escapes s as GitHub's workflow-command syntax requires ("%",
// CR and LF as %25, %0D and %0A; in a property also ":" and "," as %3A and
// %2C), and writes every other control character, bidirectional override
// and invalid UTF-8 byte as a visible escape (textsafe: "\x1b"), which the
// runner passes on as text: a path or message from a skill folder cannot
// send an escape sequence to the log viewer or forge a command. A message
// keeps its tabs.
func ghEscape(s string, property bool) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '%':
			b.WriteString("%25")
		case r == '\r':
			b.WriteString("%0D")
		case r == '\n':
			b.WriteString("%0A")
		case property && r == ':':
			b.WriteString("%3A")
		case property && r == ',':
			b.WriteString("%2C")
		case property:
			b.WriteString(textsafe.Escape(s[i : i+size]))
		default:
			b.WriteString(textsafe.EscapeBlock(s[i : i+size]))
		}
		i += size
	}
	return b.String()
}

// The JSON report of docs/output.md (Kestrel's workspace, per-file issues,
// counts). Field names are a contract.
type jsonReport struct {
	Workspace string     `json:"workspace"`
	Files     []jsonFile `json:"files"`
	Counts    Counts     `json:"counts"`
	Compat    *[]*Compat `json:"compat,omitempty"`
}

type jsonFile struct {
	Path   string      `json:"path"`
	Name   string      `json:"name"`
	Issues []jsonIssue `json:"issues"`
}

type jsonIssue struct {
	Code    skill.Code     `json:"code"`
	Level   skill.Severity `json:"level"`
	Message string         `json:"message"`
	Line    int            `json:"line"`
	Column  int            `json:"column"`
	Related string         `json:"related,omitempty"`
}

// WriteJSON writes the report as the JSON object of docs/output.md:
// {"workspace", "files": [{"path", "name", "issues": [{"code", "level",
// "message", "line", "column"}]}], "counts": {"files", "skills", "errors",
// "warnings"}}, plus "compat" when the compatibility report was asked for.
// Paths are absolute with "/" separators; every file checked is listed,
// with "issues": [] when it has none. The bytes are those of encoding/json
// with a two-space indent and no HTML escaping (TestWriteJSONIsEncodingJSON), written
// in one pass as the report is walked (docs/performance.md#lint).
func (r *Report) WriteJSON(w io.Writer) error {
	var j jsonw.Writer
	j.B = append(j.B, "{\n  \"workspace\": "...)
	j.Str(filepath.ToSlash(r.Workspace))
	j.B = append(j.B, ",\n  \"files\": "...)
	if len(r.Files) == 0 {
		j.B = append(j.B, "[]"...)
	} else {
		j.B = append(j.B, '[')
		var q jsonQuotes
		for i := range r.Files {
			r.jsonFile(&j, i, &q)
			if len(j.B) >= 32<<10 {
				if _, err := w.Write(j.B); err != nil {
					return err
				}
				j.B = j.B[:0]
			}
		}
		j.End(1, ']')
	}
	j.B = append(j.B, ",\n  \"counts\": {"...)
	j.Key(0, 2, "files")
	j.Int(r.Counts.Files)
	j.Key(1, 2, "skills")
	j.Int(r.Counts.Skills)
	j.Key(1, 2, "errors")
	j.Int(r.Counts.Errors)
	j.Key(1, 2, "warnings")
	j.Int(r.Counts.Warnings)
	j.End(1, '}')
	if r.Compat != nil {
		j.B = append(j.B, ",\n  \"compat\": "...)
		if err := writeCompatJSON(w, &j, r.Compat); err != nil {
			return err
		}
	}
	j.B = append(j.B, "\n}\n"...)
	_, err := w.Write(j.B)
	return err
}

// writeCompatJSON appends the "compat" array of cs to j (brackets at depth
// 1, as jsonw.Array writes it), writing j's bytes to w each time they pass
// 32 KiB, as the "files" array is written: the compatibility report of both
// corpus folders is 3.2 MB of JSON, 23 times the rest of the report, and
// held whole it was a buffer grown by doubling to 4 MB while the report
// was still live (docs/performance.md#lint---compats-host-work-6-december).
func writeCompatJSON(w io.Writer, j *jsonw.Writer, cs []*Compat) error {
	if len(cs) == 0 {
		j.B = append(j.B, "[]"...)
		return nil
	}
	j.B = append(j.B, '[')
	for i, c := range cs {
		j.Elem(i, 2)
		jsonCompat(j, c)
		if len(j.B) >= 32<<10 {
			if _, err := w.Write(j.B); err != nil {
				return err
			}
			j.B = j.B[:0]
		}
	}
	j.End(1, ']')
	return nil
}

// jsonQuotes are the strings a writer of the report's JSON quoted last:
// a report repeats its codes, levels and messages (a skill that links one
// missing file ten times has ten findings with one message), and each is
// quoted once per run of equal values.
type jsonQuotes struct{ code, level, msg lastQuoted }

// jsonFile appends the i-th element of the "files" array to j, after its
// separator and line break (what jsonw.Array writes before an element).
func (r *Report) jsonFile(j *jsonw.Writer, i int, q *jsonQuotes) {
	f := r.Files[i]
	j.Elem(i, 2)
	j.B = append(j.B, '{')
	j.Key(0, 3, "path")
	j.Str(filepath.ToSlash(f.Path))
	j.Key(1, 3, "name")
	j.Str(f.Name)
	j.Key(1, 3, "issues")
	j.Array(len(f.Diagnostics), 3, func(k int) {
		d := &f.Diagnostics[k]
		j.B = append(j.B, issueCode...)
		q.code.str(j, string(d.Code))
		j.B = append(j.B, issueLevel...)
		q.level.str(j, string(d.Severity))
		j.B = append(j.B, issueMessage...)
		q.msg.str(j, d.Message)
		j.B = append(j.B, issueLine...)
		j.Int(d.Line)
		j.B = append(j.B, issueColumn...)
		j.Int(d.Column)
		if rel := filepath.ToSlash(d.Related); rel != "" {
			j.Key(1, 5, "related")
			j.Str(rel)
		}
		j.End(4, '}')
	})
	j.End(2, '}')
}

// The fixed parts of an issue in WriteJSON, its members one level deeper
// than its braces (depth 5).
const (
	issueIndent  = "\n          "
	issueCode    = "{" + issueIndent + `"code": `
	issueLevel   = "," + issueIndent + `"level": `
	issueMessage = "," + issueIndent + `"message": `
	issueLine    = "," + issueIndent + `"line": `
	issueColumn  = "," + issueIndent + `"column": `
)

// lastQuoted remembers the last string quoted and its JSON form.
type lastQuoted struct {
	s      string
	quoted []byte
	set    bool
}

// str appends s to j as JSON, reusing the last quoting when s is the same.
func (q *lastQuoted) str(j *jsonw.Writer, s string) {
	if q.set && s == q.s {
		j.B = append(j.B, q.quoted...)
		return
	}
	from := len(j.B)
	j.Str(s)
	q.s, q.quoted, q.set = s, append(q.quoted[:0], j.B[from:]...), true
}

// jsonCompat appends c, an element of the "compat" array (at depth 2), as
// encoding/json encodes a Compat with "/" separators in its path, indented:
// the compatibility report was encoded whole and then re-indented, 9% of
// lint --compat's CPU on the corpus folders and a tenth of what it
// allocated. TestWriteJSONIsEncodingJSON holds it to encoding/json.
func jsonCompat(j *jsonw.Writer, c *Compat) {
	j.B = append(j.B, '{')
	j.Key(0, 3, "path")
	j.Str(filepath.ToSlash(c.Path))
	j.Key(1, 3, "name")
	j.Str(c.Name)
	j.Key(2, 3, "hosts")
	if c.Hosts == nil {
		j.B = append(j.B, "null"...)
	} else {
		j.Array(len(c.Hosts), 3, func(i int) { jsonHostCompat(j, &c.Hosts[i]) })
	}
	j.Key(3, 3, "breaks")
	if c.Breaks == nil {
		j.B = append(j.B, "null"...)
	} else {
		j.Array(len(c.Breaks), 3, func(i int) {
			b := &c.Breaks[i]
			j.B = append(j.B, '{')
			j.Key(0, 5, "host")
			j.Str(b.Host)
			j.Key(1, 5, "rule")
			j.Str(string(b.Rule))
			j.Key(2, 5, "message")
			j.Str(b.Message)
			j.End(4, '}')
		})
	}
	j.End(2, '}')
}

// jsonHostCompat appends h, an element of a "hosts" array (at depth 4),
// leaving out the empty members encoding/json's omitempty leaves out.
func jsonHostCompat(j *jsonw.Writer, h *HostCompat) {
	j.B = append(j.B, '{')
	j.Key(0, 5, "host")
	j.Str(h.Host)
	j.Key(1, 5, "verdict")
	j.Str(h.Verdict)
	n := 2
	str := func(k, v string) {
		if v != "" {
			j.Key(n, 5, k)
			j.Str(v)
			n++
		}
	}
	str("name", h.Name)
	str("description", h.Description)
	if len(h.Changes) > 0 {
		j.Key(n, 5, "changes")
		j.Array(len(h.Changes), 5, func(i int) { j.Str(h.Changes[i]) })
		n++
	}
	str("reason", h.Reason)
	str("remedy", h.Remedy)
	j.End(4, '}')
}
