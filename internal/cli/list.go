package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/outfmt"
	"github.com/skillet-go/skillet/internal/textsafe"
	"github.com/skillet-go/skillet/lint"
	"github.com/skillet-go/skillet/skill"
)

// ListOptions are the flags and dependencies of skillet list.
type ListOptions struct {
	IO      *IO
	Catalog func(context.Context) (*catalog.Catalog, error)
	Quiet   bool

	JSON bool // --json
}

// NewCmdList returns skillet list. Its RunE fills a ListOptions and calls
// runF with it, or listRun when runF is nil (tests pass their own).
func NewCmdList(f *Factory, runF func(context.Context, *ListOptions) error) *cobra.Command {
	opts := &ListOptions{IO: f.IO, Catalog: f.Catalog}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the skills an agent would load",
		Long: `List the skills found in the roots, in precedence order: a table on a
terminal, tab-separated lines otherwise, or the JSON object of docs/output.md
with --json. The table shows name, scope, folder (the root the skill came
from) and description; the tab-separated lines name, scope, location,
description and folder. Problems are summed up in one line on stderr; run
skillet lint for each of them. The line counts what reading the skill files
finds; lint finds more in the same files, as it also checks bodies, bundled
files and drafts.

The roots, highest precedence first (docs/discovery.md#roots): the
workspace's project roots (.agents/skills, .claude/skills, .github/skills,
.opencode/skills, .gemini/skills, skills), the user roots in the home folder
(~/.agents/skills, ~/.claude/skills, ~/.copilot/skills,
~/.config/opencode/skills, ~/.gemini/skills, $XDG_CONFIG_HOME/skillet/skills;
--no-user skips them), then every --root and the configuration's
extraPaths. When two skills share a name the first found wins
(docs/discovery.md#precedence). --preset HOST lists instead what that host
loads, by its own folders and rules, with a not-loaded diagnostic for each
other skill file under its folders (docs/hosts.md).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Quiet = f.Quiet()
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return listRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the listing as JSON (docs/output.md)")
	return cmd
}

func listRun(ctx context.Context, opts *ListOptions) error {
	c, err := opts.Catalog(ctx)
	if err != nil {
		return err
	}
	var l *catalog.Listing
	skills := 0
	if opts.JSON {
		// One pass: each skill is written as the listing hands it out and
		// not kept (docs/performance.md).
		lw := newListWriter(opts.IO.Out)
		gc := newLiveGC(listGC)
		l, err = catx.Each(ctx, c, func(l *catalog.Listing, s *catalog.Skill) error {
			skills++
			gc.skill()
			return lw.skill(l, s)
		})
		if err != nil {
			return err
		}
		if err := lw.finish(l); err != nil {
			return err
		}
	} else {
		if l, err = c.List(ctx); err != nil {
			return err
		}
		skills = len(l.Skills)
		writeTable(opts.IO, l)
	}
	if !opts.Quiet {
		summary(opts.IO.Err, skills, l.Diagnostics)
	}
	if skills == 0 {
		noSkillsNote(opts.IO.Err, l)
	}
	for _, d := range l.Diagnostics {
		if d.Code == diagcode.WorkspaceMissing {
			return silent(exitFail) // the folder went away after the flags were checked
		}
	}
	return nil
}

// summary prints "N skills, M warnings, K errors; run skillet lint for
// details, ..." when there is anything to report. The counts are the
// listing's findings (reading each skill file's frontmatter); lint counts
// more for the same files (the body and bundled-file checks, files in
// folders skipped by name), and the line says so. Findings of the rules
// lint reports only when selected (CodeInfo.OptIn: description-long,
// too-large, catalog-truncated; docs/lint.md#precision) are not counted,
// so that the line never points at findings lint would not show.
func summary(w io.Writer, skills int, diags []skill.Diagnostic) {
	var warnings, errors int
	for _, d := range diags {
		if d.Code.Info().OptIn {
			continue
		}
		switch d.Severity {
		case skill.SeverityError:
			errors++
		case skill.SeverityWarning:
			warnings++
		}
	}
	if warnings+errors == 0 {
		return
	}
	fmt.Fprintf(w, "%s, %s, %s; run skillet lint for details, and for its checks of bodies, bundled files and drafts\n",
		outfmt.Count(skills, "skill"), outfmt.Count(warnings, "warning"), outfmt.Count(errors, "error"))
}

// noSkillsNote prints, for a listing with no skill, the no-skills warning
// that names the skill-like files outside every root and the --root flags
// that would read them (lint.Elsewhere), on one line; nothing when there
// are none. It is printed even with -q: a listing of nothing is the
// moment to say why.
func noSkillsNote(w io.Writer, l *catalog.Listing) {
	for _, d := range lint.Elsewhere(l.Workspace, l.Roots) {
		fmt.Fprintln(w, textsafe.Escape(d.String()))
	}
}

// walkNotes prints, one a line, the diagnostics that say the walk of a
// root stopped early (walk-limit, docs/discovery.md#limits): a command
// that shows one skill or a block of them says that skills past the limit
// were not looked for, as list's summary counts them; and the one that
// says the persistent index was not used because another user could have
// written it (index-untrusted, docs/performance.md#persistent-index).
func walkNotes(w io.Writer, diags []skill.Diagnostic) {
	for i := range diags {
		if isWalkNote(&diags[i]) {
			fmt.Fprintln(w, textsafe.Escape(diags[i].String()))
		}
	}
}

// isWalkNote reports whether walkNotes prints d: a walk limit reached, or
// an index not used because others could have written it.
func isWalkNote(d *skill.Diagnostic) bool {
	return d.Code == diagcode.WalkLimit || d.Code == diagcode.IndexUntrusted
}

// The JSON shapes of docs/output.md. Field names are a contract.
type listJSONOut struct {
	Workspace   string             `json:"workspace"`
	Roots       []rootJSON         `json:"roots"`
	Skills      []skillJSON        `json:"skills"`
	Diagnostics []skill.Diagnostic `json:"diagnostics"`
}

type rootJSON struct {
	Path   string        `json:"path"`
	Scope  catalog.Scope `json:"scope"`
	Exists bool          `json:"exists"`
}

type skillJSON struct {
	Name          string            `json:"name"`
	Description   string            `json:"description"`
	WhenToUse     string            `json:"whenToUse"`
	Location      string            `json:"location"`
	BaseDir       string            `json:"baseDir"`
	Scope         catalog.Scope     `json:"scope"`
	Folder        string            `json:"folder"`
	Hidden        bool              `json:"hidden"`
	Bytes         int64             `json:"bytes"`
	Truncated     bool              `json:"truncated"`
	License       string            `json:"license"`
	Compatibility string            `json:"compatibility"`
	Metadata      map[string]string `json:"metadata"`
	AllowedTools  []string          `json:"allowedTools"`
	Extra         skill.Map         `json:"extra"`
}

func slash(p string) string { return filepath.ToSlash(p) }

// writeTable prints the listing: an aligned table with a header on a
// terminal, tab-separated "name scope location description" lines
// otherwise.
func writeTable(io *IO, l *catalog.Listing) {
	if !io.OutTTY {
		for _, s := range l.Skills {
			fmt.Fprintf(io.Out, "%s\t%s\t%s\t%s\t%s\n", printable(s.Name), scopeLabel(s), printable(s.Location), printable(oneLine(s.Description)), printable(s.Folder))
		}
		return
	}
	if len(l.Skills) == 0 {
		fmt.Fprintln(io.Out, "No skills found. Roots searched:")
		for _, r := range l.Roots {
			state := ""
			if !r.Exists {
				state = " (missing)"
			}
			fmt.Fprintf(io.Out, "  %s  %s%s\n", r.Scope, printable(r.Path), state)
		}
		return
	}
	tw := tabwriter.NewWriter(io.Out, 0, 4, 2, ' ', 0)
	nameW, scopeW, folderW := len("NAME"), len("SCOPE"), len("FOLDER")
	for _, s := range l.Skills {
		nameW = max(nameW, utf8.RuneCountInString(s.Name))
		scopeW = max(scopeW, len(scopeLabel(s)))
		folderW = max(folderW, utf8.RuneCountInString(printable(s.Folder)))
	}
	descW := 60
	if io.Width > 0 {
		descW = max(io.Width-nameW-scopeW-folderW-6, 20)
	}
	fmt.Fprintln(tw, "NAME\tSCOPE\tFOLDER\tDESCRIPTION")
	for _, s := range l.Skills {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", printable(s.Name), scopeLabel(s), printable(s.Folder), clip(printable(oneLine(s.Description)), descW))
	}
	tw.Flush()
}

func scopeLabel(s *catalog.Skill) string {
	label := string(s.Scope)
	if s.Hidden() {
		label += ",hidden"
	}
	return label
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// printable escapes control characters, escape sequences and invalid
// UTF-8 (a folder can be named anything), so one skill is always one line
// of text output and nothing reaches the terminal raw.
func printable(s string) string { return textsafe.Escape(s) }

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
