package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/skill"
)

// What only the tests call: reference implementations the tests hold the
// package's code to, and helpers of the tests, moved out of the package's
// non-test files.

func listingJSON(l *catalog.Listing) listJSONOut {
	out := listJSONOut{
		Workspace:   slash(l.Workspace),
		Roots:       []rootJSON{},
		Skills:      []skillJSON{},
		Diagnostics: []skill.Diagnostic{},
	}
	for _, r := range l.Roots {
		out.Roots = append(out.Roots, rootJSON{Path: slash(r.Path), Scope: r.Scope, Exists: r.Exists})
	}
	for _, s := range l.Skills {
		out.Skills = append(out.Skills, toSkillJSON(s))
	}
	for _, d := range l.Diagnostics {
		d.Path = slash(d.Path)
		d.Related = slash(d.Related)
		out.Diagnostics = append(out.Diagnostics, d)
	}
	return out
}

func toSkillJSON(s *catalog.Skill) skillJSON {
	j := skillJSON{
		Name: s.Name, Description: s.Description, WhenToUse: s.WhenToUse,
		Location: slash(s.Location), BaseDir: slash(s.BaseDir), Scope: s.Scope, Folder: slash(s.Folder),
		Hidden: s.Hidden(), Bytes: s.Bytes, Truncated: s.Truncated,
		License: s.Parsed().License, Compatibility: s.Parsed().Compatibility,
		Metadata: s.Parsed().Metadata, AllowedTools: s.Parsed().AllowedTools, Extra: s.Parsed().Extra,
	}
	if j.Metadata == nil {
		j.Metadata = map[string]string{}
	}
	if j.AllowedTools == nil {
		j.AllowedTools = []string{}
	}
	if j.Extra == nil {
		j.Extra = skill.Map{}
	}
	return j
}

// lintDocs returns the generated part of docs/lint.md: the marker, a
// table of every code, then one "## code" section each.
func lintDocs() string {
	codes := skill.Codes()
	var b strings.Builder
	b.WriteString(docsMarker + "\n\n## Codes\n\n")
	b.WriteString("Every code skillet reports, with its default level (`--strict` raises the specification's rules to\n")
	b.WriteString("errors), the `--fix` that mends it, and where the rule comes from. `skillet lint --list-rules` prints this\n")
	b.WriteString("table and `skillet lint --explain CODE` one section. A rule off by default is reported only when selected\n")
	b.WriteString("([choosing rules](#choosing-rules)).\n\n")
	b.WriteString("| code | level | default | fix | summary |\n| --- | --- | --- | --- | --- |\n")
	for _, ci := range codes {
		fix := fixFlag(ci.Fixable)
		if fix != "" {
			fix = "`" + fix + "`"
		}
		fmt.Fprintf(&b, "| [%s](#%s) | %s | %s | %s | %s |\n", ci.Code, ci.Code, levelText(ci), defaultText(ci), fix, strings.ReplaceAll(ci.Summary, "|", `\|`))
	}
	for _, ci := range codes {
		fmt.Fprintf(&b, "\n## %s\n\n", ci.Code)
		fmt.Fprintf(&b, "%s.\n\n", upperFirst(ci.Summary))
		fmt.Fprintf(&b, "- Level: %s\n", levelText(ci))
		if ci.OptIn {
			fmt.Fprintf(&b, "- On by default: no (`--extend-select %s` reports it)\n", ci.Code)
		} else {
			b.WriteString("- On by default: yes\n")
		}
		if f := fixFlag(ci.Fixable); f != "" {
			fmt.Fprintf(&b, "- Fixable: yes, `skillet lint %s`\n", f)
		} else {
			b.WriteString("- Fixable: no\n")
		}
		fmt.Fprintf(&b, "- Source: %s\n", sourceLinks(ci.Source))
		if ci.Remedy != "" {
			fmt.Fprintf(&b, "- What to do: %s\n", ci.Remedy)
		}
		b.WriteByte('\n')
		b.WriteString(wrap(ci.Help, 110) + "\n")
	}
	return b.String()
}

// sourceLinks renders a Source as Markdown: addresses and docs pages become
// links (pages relative to docs/), names stay text.
func sourceLinks(src string) string {
	var out []string
	for _, s := range strings.Split(src, ", ") {
		switch {
		case strings.HasPrefix(s, "https://"):
			label := strings.TrimPrefix(s, "https://")
			if i := strings.Index(s, "#"); i >= 0 && strings.Contains(s, "agentskills.io/specification") {
				label = "specification, " + strings.ReplaceAll(s[i+1:], "-", " ")
			}
			out = append(out, fmt.Sprintf("[%s](%s)", label, s))
		case strings.HasPrefix(s, "docs/"):
			rel := strings.TrimPrefix(s, "docs/")
			out = append(out, fmt.Sprintf("[%s](%s)", rel, rel))
		default:
			out = append(out, s)
		}
	}
	return strings.Join(out, ", ")
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// writeListingJSON writes the object of list --json (docs/output.md) exactly as
// outfmt.JSON(w, listingJSON(l)) would (two-space indent, no HTML escaping),
// but in one pass: every value is appended to one reused buffer already
// indented, one skill at a time, so nothing is encoded twice and the whole
// document is never held in memory (docs/performance.md).
func writeListingJSON(w io.Writer, l *catalog.Listing) error {
	lw := newListWriter(w)
	for _, s := range l.Skills {
		if err := lw.skill(l, s); err != nil {
			return err
		}
	}
	return lw.finish(l)
}
