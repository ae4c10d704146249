package cli

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/lint"
)

func newNewCmd(f *Factory, io *IO) *cobra.Command {
	var opts lint.ScaffoldOptions
	cmd := &cobra.Command{
		Use:   "new NAME --description TEXT [--triggers TEXT] [--license TEXT] [--allowed-tools TOOLS] [--when TEXT] [--flat]",
		Short: "Write a new skill that passes lint",
		Long: `Write NAME/SKILL.md (or NAME.md with --flat) into the first project
directory: the first of skillet.yaml's directories, else the preset's first
project root (.agents/skills by default), created if missing.

The name is normalised to kebab-case, and skillet says so. An existing skill,
file or folder of that name is never overwritten: skillet new then writes
nothing and exits 1. What it writes passes skillet lint, lint --strict,
validate and lint --target for every host with no finding. --triggers puts
when to use the skill into the description ("Use when ..."), where every host
reads it; --when writes the when-to-use field instead, which most hosts ignore
(skillet says which). The description may have up to the specification's 1024
characters; over maxDescriptionChars (240 by default) the catalog shows it cut,
and skillet says so.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("skillet new takes one NAME, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("description") {
				return usagef("--description is required: say what the skill does and when to use it")
			}
			opts.Name = args[0]
			c, err := f.Catalog(cmd.Context())
			if err != nil {
				return err
			}
			res, err := lint.Scaffold(cmd.Context(), c, &opts)
			switch {
			case errors.Is(err, lint.ErrInvalid):
				return &usageError{err}
			case err != nil:
				return &exitError{code: exitFail, err: err, message: true}
			}
			if res.Asked != "" {
				fmt.Fprintf(io.Err, "skillet: the name %q was normalised to %q\n", printable(res.Asked), res.Name)
			}
			for _, n := range res.Notes {
				fmt.Fprintf(io.Err, "skillet: %s\n", n)
			}
			cwd, _ := os.Getwd()
			fmt.Fprintln(io.Out, fsx.Display(res.Path, cwd))
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Description, "description", "", "what the skill does and when to use it (required)")
	fl.StringVar(&opts.Triggers, "triggers", "", `when the model should use it, appended to the description as "Use when ..."`)
	fl.StringVar(&opts.License, "license", "", "the license field: a license name or a bundled license file")
	fl.StringVar(&opts.AllowedTools, "allowed-tools", "", `the allowed-tools field: tools separated by spaces ("Read Bash(git:*)")`)
	fl.StringVar(&opts.WhenToUse, "when", "", "write a when-to-use field (most hosts ignore it; --triggers reaches all)")
	fl.BoolVar(&opts.Flat, "flat", false, "write the flat form NAME.md instead of NAME/SKILL.md")
	return cmd
}
