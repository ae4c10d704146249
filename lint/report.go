package lint

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/skill"
)

// Display returns p relative to base when it lies inside base, else p
// unchanged; base "" leaves every path absolute. Text reports use it so
// paths read as Go tools print them (relative to the current folder).
func Display(p, base string) string {
	if base == "" || !filepath.IsAbs(p) {
		return p
	}
	if catalog.Within(p, base) {
		if rel, err := filepath.Rel(base, p); err == nil {
			return rel
		}
	}
	return p
}

// WriteText writes one line per diagnostic, "path:line:col: level: message
// [code]" (line and column left out when unknown), in the report's sorted
// order. Paths are shown relative to base (see [Display]).
func (r *Report) WriteText(w io.Writer, base string) error {
	for _, d := range r.Diagnostics {
		d.Path = Display(d.Path, base)
		if _, err := fmt.Fprintln(w, d.String()); err != nil {
			return err
		}
	}
	return nil
}

// WriteCompat writes the compatibility report as text: per skill file, its
// path and name, one line per host profile (loads, loads changed and how,
// or not loaded and why), then one line per checker rule it breaks.
func (r *Report) WriteCompat(w io.Writer, base string) error {
	var b strings.Builder
	for _, c := range r.Compat {
		fmt.Fprintf(&b, "%s (%s)\n", Display(c.Path, base), c.Name)
		for _, h := range c.Hosts {
			switch h.Verdict {
			case VerdictLoads:
				fmt.Fprintf(&b, "  %s: loads\n", h.Host)
			case VerdictLoadsChanged:
				fmt.Fprintf(&b, "  %s: loads changed: %s\n", h.Host, strings.Join(h.Changes, "; "))
			default:
				fmt.Fprintf(&b, "  %s: not loaded: %s\n", h.Host, h.Reason)
			}
		}
		for _, br := range c.Breaks {
			fmt.Fprintf(&b, "  %s: %s [%s]\n", br.Host, br.Message, br.Rule)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Summary is the report's closing line, for example
// "12 files, 11 skills: 1 error, 3 warnings".
func (r *Report) Summary() string {
	c := r.Counts
	return fmt.Sprintf("%s, %s: %s, %s", plural(c.Files, "file"), plural(c.Skills, "skill"),
		plural(c.Errors, "error"), plural(c.Warnings, "warning"))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
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
// with "issues": [] when it has none.
func (r *Report) WriteJSON(w io.Writer) error {
	out := jsonReport{Workspace: filepath.ToSlash(r.Workspace), Files: []jsonFile{}, Counts: r.Counts}
	for _, f := range r.Files {
		jf := jsonFile{Path: filepath.ToSlash(f.Path), Name: f.Name, Issues: []jsonIssue{}}
		for _, d := range f.Diagnostics {
			jf.Issues = append(jf.Issues, jsonIssue{Code: d.Code, Level: d.Severity, Message: d.Message,
				Line: d.Line, Column: d.Column, Related: filepath.ToSlash(d.Related)})
		}
		out.Files = append(out.Files, jf)
	}
	if r.Compat != nil {
		compat := []*Compat{}
		for _, c := range r.Compat {
			cc := *c
			cc.Path = filepath.ToSlash(c.Path)
			compat = append(compat, &cc)
		}
		out.Compat = &compat
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
