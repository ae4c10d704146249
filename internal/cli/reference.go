package cli

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/skillet-go/skillet/internal/skillsref"
)

// The three commands of the specification's reference validator
// (skills-ref): same arguments, output streams, messages and exit codes.

// pathArg checks that the path arguments exist, with the reference tool's
// usage error (exit 2) otherwise.
func pathArg(cmd *cobra.Command, io *IO, metavar string, paths []string) error {
	if len(paths) == 0 {
		fmt.Fprintf(io.Err, "Usage: skillet %s [OPTIONS] %s\nTry 'skillet %s --help' for help.\n\nError: Missing argument '%s'.\n",
			cmd.Name(), metavar, cmd.Name(), metavar)
		return silent(exitUsage)
	}
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			fmt.Fprintf(io.Err, "Usage: skillet %s [OPTIONS] %s\nTry 'skillet %s --help' for help.\n\nError: Invalid value for '%s': Path '%s' does not exist.\n",
				cmd.Name(), metavar, cmd.Name(), metavar, p)
			return silent(exitUsage)
		}
	}
	return nil
}

func newValidateCmd(io *IO) *cobra.Command {
	return &cobra.Command{
		Use:   "validate SKILL_PATH",
		Short: "Check one skill against the specification (as skills-ref validate)",
		Long: `Validate the skill folder (or SKILL.md) at SKILL_PATH against the Agent Skills
specification, with the reference validator's messages: "Valid skill: PATH"
on stdout and exit 0, or "Validation failed for PATH:" and one line per
problem on stderr and exit 1. A missing path is a usage error (exit 2).`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := pathArg(cmd, io, "SKILL_PATH", args); err != nil {
				return err
			}
			path := args[0]
			problems := skillsref.Validate(path)
			if len(problems) == 0 {
				fmt.Fprintf(io.Out, "Valid skill: %s\n", skillsref.SkillDir(path))
				return nil
			}
			fmt.Fprintf(io.Err, "Validation failed for %s:\n", skillsref.SkillDir(path))
			for _, p := range problems {
				fmt.Fprintf(io.Err, "  - %s\n", p)
			}
			return silent(exitFail)
		},
	}
}

func newReadPropertiesCmd(io *IO) *cobra.Command {
	return &cobra.Command{
		Use:   "read-properties SKILL_PATH",
		Short: "Print a skill's properties as JSON (as skills-ref read-properties)",
		Long: `Print the name, description, license, compatibility, allowed-tools and
metadata of the skill at SKILL_PATH as JSON, in the reference validator's
format (two-space indent, non-ASCII escaped). Only the presence of name and
description is checked; errors print "Error: ..." and exit 1.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := pathArg(cmd, io, "SKILL_PATH", args); err != nil {
				return err
			}
			props, err := skillsref.ReadProperties(args[0])
			if err != nil {
				fmt.Fprintf(io.Err, "Error: %s\n", err)
				return silent(exitFail)
			}
			fmt.Fprintf(io.Out, "%s\n", props.JSON())
			return nil
		},
	}
}

func newToPromptCmd(io *IO) *cobra.Command {
	return &cobra.Command{
		Use:   "to-prompt SKILL_PATHS...",
		Short: "Print the <available_skills> block of skills-ref to-prompt",
		Long: `Print the reference validator's <available_skills> XML block for the skills
at SKILL_PATHS, in argument order. If any skill fails, nothing is printed on
stdout, "Error: ..." goes to stderr and the exit code is 1.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := pathArg(cmd, io, "SKILL_PATHS...", args); err != nil {
				return err
			}
			out, err := skillsref.ToPrompt(args)
			if err != nil {
				fmt.Fprintf(io.Err, "Error: %s\n", err)
				return silent(exitFail)
			}
			fmt.Fprintln(io.Out, out)
			return nil
		},
	}
}
