package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillet-go/skillet/agent"
	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/agentx"
	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/outfmt"
	"github.com/skillet-go/skillet/internal/textsafe"
	"github.com/skillet-go/skillet/skill"
)

// ShowOptions are the argument, flags and dependencies of skillet show.
type ShowOptions struct {
	IO      *IO
	Catalog func(context.Context) (*catalog.Catalog, error)

	Name string // the skill
	File string // --file: a bundled file, relative to the skill folder
	JSON bool   // --json

	Quiet bool // --quiet: no walk-limit note on stderr
}

// NewCmdShow returns skillet show. Its RunE fills a ShowOptions and calls
// runF with it, or showRun when runF is nil.
func NewCmdShow(f *Factory, runF func(context.Context, *ShowOptions) error) *cobra.Command {
	opts := &ShowOptions{IO: f.IO, Catalog: f.IndexedCatalog}
	cmd := &cobra.Command{
		Use:   "show NAME",
		Short: "Print exactly what the load tool returns for a skill",
		Long: `Print exactly what the load tool (use_skill) returns to a model for the
skill NAME (docs/disclosure.md#load-tool): its instructions with the base
directory and a sample of its bundled files, or with --file PATH the text
of one bundled file, read confined to the skill folder.

Hidden skills (disable-model-invocation) are shown too: running this
command is an explicit invocation. NAME is found whatever its letter case
when one skill has it. An unknown name, or a path the tool
refuses (outside the folder, a folder, binary, too large), exits 1 with the
tool's error text on stderr. --json prints {"tool", "name", "path", "text",
"isError"} on stdout instead of the text. When the walk of a root stopped
at a limit (docs/discovery.md#limits), so that a skill past it is unknown,
stderr says so (unless --quiet).`,
		Args: exactArgs("NAME", "takes the name of the skill to show (skillet list lists them)"),
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return completeSkillNames(f)(cmd, args, toComplete)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			opts.Quiet = f.Quiet()
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return showRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.File, "file", "", "print this bundled file (relative to the skill folder) instead of the instructions")
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print the tool's result as JSON")
	return cmd
}

func showRun(ctx context.Context, opts *ShowOptions) error {
	c, err := opts.Catalog(ctx)
	if err != nil {
		return err
	}
	tool := agent.NewTool(c, &agent.ToolOptions{AllowHidden: true})
	// Over the persistent index, a listing narrowed to the name holds what
	// a found skill's answer reads: the skills the name folds to and the
	// walk notes (catalogx.Hooks.ListNamed), one skill's records where the
	// whole listing is 400 bytes a skill. An error result is asked again
	// of the whole listing, since the tool's nearest names and
	// notLoadedNotes read every skill and diagnostic; but for a name the
	// listing does not hold, answered from the listing's names and the
	// diagnostics the notes print (catalogx.Names), which hold what those
	// read.
	var l *catalog.Listing
	var lerr error
	var res agent.Result
	l, names := catx.ListNamed(ctx, c, opts.Name, func(d *skill.Diagnostic) bool {
		return isWalkNote(d) || notLoadedNote(d, opts.Name)
	})
	if l != nil {
		if res, err = showCall(ctx, tool, l, names, nil, opts); err != nil {
			return err
		}
	}
	if l == nil || (res.IsError && names == nil) {
		// One listing serves the name's letter case, the tool and the
		// notes: over the persistent index each List stats every folder
		// and skill file it covers.
		l, lerr = c.List(ctx)
		if res, err = showCall(ctx, tool, l, nil, lerr, opts); err != nil {
			return err
		}
	}
	if opts.JSON {
		if err := outfmt.JSON(opts.IO.Out, showJSON{Tool: tool.Name(), Name: opts.Name, Path: opts.File, Text: res.Text, IsError: res.IsError}); err != nil {
			return err
		}
	} else if !res.IsError {
		fmt.Fprint(opts.IO.Out, textsafe.EscapeBlock(res.Text))
	}
	if res.IsError {
		fmt.Fprintln(opts.IO.Err, textsafe.EscapeBlock(res.Text))
	}
	if lerr == nil {
		if res.IsError {
			notLoadedNotes(opts.IO.Err, l, opts.Name)
		}
		if !opts.Quiet {
			// A skill past a walk limit is unknown to the tool: say so.
			walkNotes(opts.IO.Err, l.Diagnostics)
		}
	}
	if res.IsError {
		return silent(exitFail)
	}
	return nil
}

// showCall calls the tool for opts's skill (its name in the letter case
// of l's skill, foldName) and file with l in the context, as the tool's
// listing; without l when lerr says the listing failed (the tool lists
// then). With names (catalogx.Hooks.ListNamed's, for a name no skill of
// the listing has in any letter case) the tool answers from them instead
// (agentx.WithNames).
func showCall(ctx context.Context, tool *agent.Tool, l *catalog.Listing, names *catalogx.Names, lerr error, opts *ShowOptions) (agent.Result, error) {
	name, toolCtx := opts.Name, ctx
	switch {
	case names != nil:
		toolCtx = agentx.WithNames(ctx, names.Visible, names.Hidden)
	case lerr == nil:
		name, toolCtx = foldName(l, name), agentx.WithListing(ctx, l)
	}
	args, err := json.Marshal(struct {
		Name string `json:"name"`
		Path string `json:"path,omitempty"`
	}{name, opts.File})
	if err != nil {
		return agent.Result{}, err
	}
	return tool.Call(toolCtx, args), nil
}

// foldName returns the name of the one skill, hidden ones included, whose
// name equals name in another letter case when no skill has name itself
// ("Deploy" for deploy): a person typing show NAME finds a skill whatever
// the case, as the catalog's names are lower case. Otherwise, or when
// several skills fold to it, name is returned as given (the tool then
// says it is unknown and suggests the nearest). l is the catalog's
// listing.
func foldName(l *catalog.Listing, name string) string {
	found := ""
	for _, s := range l.Skills {
		switch {
		case s.Name == name:
			return name
		case strings.EqualFold(s.Name, strings.TrimSpace(name)):
			if found != "" && found != s.Name {
				return name
			}
			found = s.Name
		}
	}
	if found == "" {
		return name
	}
	return found
}

// showJSON is the shape of skillet show --json.
type showJSON struct {
	Tool    string `json:"tool"`
	Name    string `json:"name"`
	Path    string `json:"path,omitempty"`
	Text    string `json:"text"`
	IsError bool   `json:"isError"`
}

// notLoadedNotes prints, one a line, the errors and warnings about skill
// files that would be the skill name but do not load (no description, a
// file --strict refuses, one that cannot be read): the file's skill name
// or its folder's (a flat file's name without .md) is name, in any letter
// case, and no listed skill has it. The tool's answer says only that the
// skill is unknown; this says why.
func notLoadedNotes(w io.Writer, l *catalog.Listing, name string) {
	for _, s := range l.Skills {
		if strings.EqualFold(s.Name, strings.TrimSpace(name)) {
			return
		}
	}
	for i := range l.Diagnostics {
		if d := &l.Diagnostics[i]; notLoadedNote(d, name) {
			fmt.Fprintln(w, textsafe.Escape(d.String()))
		}
	}
}

// notLoadedNote reports whether notLoadedNotes prints d about the skill
// name when no skill has the name: an error or a warning about a skill
// file whose skill name or folder's (a flat file's name without .md) is
// name, spaces trimmed, in any letter case.
func notLoadedNote(d *skill.Diagnostic, name string) bool {
	if d.Severity == skill.SeverityNote || d.Path == "" {
		return false
	}
	name = strings.TrimSpace(name)
	folder := filepath.Base(filepath.Dir(d.Path))
	if b := filepath.Base(d.Path); !strings.EqualFold(b, "SKILL.md") {
		folder = strings.TrimSuffix(b, filepath.Ext(b))
	}
	return strings.EqualFold(d.Skill, name) || strings.EqualFold(folder, name)
}
