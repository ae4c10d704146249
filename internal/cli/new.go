package cli

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/skillet-go/skillet/lint"
)

func newNewCmd(g *globals, io *IO) *cobra.Command {
	var opts lint.ScaffoldOptions
	cmd := &cobra.Command{
		Use:   "new NAME --description TEXT [--when TEXT] [--flat]",
		Short: "Write a new skill that passes lint",
		Long: `Write NAME/SKILL.md (or NAME.md with --flat) into the first project
directory: the first of skillet.yaml's directories, else the preset's first
project root (.agents/skills by default), created if missing.

The name is normalised to kebab-case, and skillet says so. An existing skill,
file or folder of that name is never overwritten: skillet new then writes
nothing and exits 1. What it writes passes skillet lint with no error and no
warning, so the description must fit maxDescriptionChars (240 by default).`,
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
			c, err := g.catalog(cmd.Context())
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
				fmt.Fprintf(io.Err, "skillet: the name %q was normalised to %q\n", res.Asked, res.Name)
			}
			cwd, _ := os.Getwd()
			fmt.Fprintln(io.Out, lint.Display(res.Path, cwd))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Description, "description", "", "what the skill does and when to use it (required)")
	f.StringVar(&opts.WhenToUse, "when", "", "an extra routing hint: when the model should use it")
	f.BoolVar(&opts.Flat, "flat", false, "write the flat form NAME.md instead of NAME/SKILL.md")
	return cmd
}
