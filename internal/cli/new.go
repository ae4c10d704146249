package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/lint"
)

// NewOptions are the argument, flags and dependencies of skillet new.
type NewOptions struct {
	IO      *IO
	Catalog func(context.Context) (*catalog.Catalog, error)

	// Scaffold is what to write: the NAME argument and the flags.
	Scaffold lint.ScaffoldOptions
}

// NewCmdNew returns skillet new. Its RunE checks that --description is
// given, fills a NewOptions and calls runF with it, or newRun when runF is
// nil.
func NewCmdNew(f *Factory, runF func(context.Context, *NewOptions) error) *cobra.Command {
	opts := &NewOptions{IO: f.IO, Catalog: f.Catalog}
	cmd := &cobra.Command{
		Use:   "new NAME --description TEXT [--triggers TEXT] [--license TEXT] [--allowed-tools TOOLS] [--when TEXT] [--flat] [--target HOST[,HOST]]",
		Short: "Write a new skill that passes lint",
		Long: `Write NAME/SKILL.md (or NAME.md with --flat) into a project folder of the
workspace that every --target host reads (with no --target, the host of
--preset or the configured preset, if any): of skillet.yaml's directories,
else the preset's project folders, one that exists, read by the most hosts;
with none, the first (.agents/skills by default), created if missing. In a
repository that has only .claude/skills, that is where it writes. skillet
prints the file written and says which hosts read its folder; when no folder
is read by every target (claude and codex share none), it writes nothing and
exits 2.

The name is normalised to kebab-case, and skillet says so. An existing skill,
file or folder of that name is never overwritten: skillet new then writes
nothing and exits 1. What it writes passes skillet lint, lint --strict,
validate and lint --target for every host with no finding, with two
exceptions: lint --strict and validate report a --when field (not in the
specification), and a --flat NAME.md goes into the same folder, where of
the hosts only kestrel loads a loose file (claude and copilot load loose
files only from .claude/commands, pi only from .pi/skills), so lint
--target for any other host reports it not-loaded. --triggers puts when to
use the skill into the description ("Use when ..."), where every host reads
it; --when writes the when-to-use field instead, which most hosts ignore
(skillet says which). The description may have up to the specification's
1024 characters; over maxDescriptionChars (240 by default) the catalog shows
it cut, and skillet says so.`,
		Args: exactArgs("NAME", "takes the name of the skill to write"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("description") {
				return usagef("--description is required: say what the skill does and when to use it")
			}
			opts.Scaffold.Name = args[0]
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return newRun(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Scaffold.Description, "description", "", "what the skill does and when to use it (required)")
	fl.StringVar(&opts.Scaffold.Triggers, "triggers", "", `when the model should use it, appended to the description as "Use when ..."`)
	fl.StringVar(&opts.Scaffold.License, "license", "", "the license field: a license name or a bundled license file")
	fl.StringVar(&opts.Scaffold.AllowedTools, "allowed-tools", "", `the allowed-tools field: tools separated by spaces ("Read Bash(git:*)")`)
	fl.StringVar(&opts.Scaffold.WhenToUse, "when", "", "write a when-to-use field (most hosts ignore it; --triggers reaches all)")
	fl.BoolVar(&opts.Scaffold.Flat, "flat", false, "write the flat form NAME.md instead of NAME/SKILL.md")
	fl.StringSliceVar(&opts.Scaffold.Targets, "target", nil, "host profiles the skill ships to (comma-separated, repeatable): write into a folder every one reads")
	_ = cmd.RegisterFlagCompletionFunc("target", func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return hostCompletions(), cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

func newRun(ctx context.Context, opts *NewOptions) error {
	c, err := opts.Catalog(ctx)
	if err != nil {
		return err
	}
	res, err := lint.Scaffold(ctx, c, &opts.Scaffold)
	if err != nil {
		return err // lint.ErrInvalid is a usage error (exitCode)
	}
	if res.Asked != "" {
		fmt.Fprintf(opts.IO.Err, "skillet: the name %q was normalised to %q\n", printable(res.Asked), res.Name)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(opts.IO.Err, "skillet: %s\n", n)
	}
	cwd, _ := os.Getwd()
	fmt.Fprintln(opts.IO.Out, fsx.Display(res.Path, cwd))
	return nil
}
