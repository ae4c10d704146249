package cli

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skillet-go/skillet/internal/skillsref"
	"github.com/skillet-go/skillet/internal/textsafe"
)

// The three commands of the specification's reference validator
// (skills-ref): same arguments, output streams, messages and exit codes.
// Their arguments are read as the reference's command-line library reads
// them, so a bad invocation gets its usage error (exit 2) too.

// refArgs checks the arguments of a reference command: -h/--help print the
// help, "--" ends the options, any other option is unknown, every path must
// exist, and one path is allowed unless many is set. It returns the paths,
// or an error carrying the exit code (0 after help).
func refArgs(cmd *cobra.Command, io *IO, metavar string, many bool, args []string) ([]string, error) {
	usage := func(format string, a ...any) error {
		fmt.Fprintf(io.Err, "Usage: skillet %s [OPTIONS] %s\nTry 'skillet %s --help' for help.\n\nError: %s\n",
			cmd.Name(), metavar, cmd.Name(), fmt.Sprintf(format, a...))
		return silent(exitUsage)
	}
	var paths []string
	opts := true
	for _, a := range args {
		switch {
		case opts && a == "--":
			opts = false
		case opts && (a == "-h" || a == "--help"):
			cmd.SetOut(io.Out)
			if err := cmd.Help(); err != nil {
				return nil, err
			}
			return nil, silent(exitOK)
		case opts && strings.HasPrefix(a, "--"):
			name, _, _ := strings.Cut(a, "=")
			return nil, usage("No such option: %s", name)
		case opts && len(a) > 1 && a[0] == '-':
			return nil, usage("No such option: -%c", a[1])
		default:
			paths = append(paths, a)
		}
	}
	if len(paths) == 0 {
		return nil, usage("Missing argument '%s'.", metavar)
	}
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			return nil, usage("Invalid value for '%s': Path '%s' does not exist.", metavar, p)
		}
	}
	if !many && len(paths) > 1 {
		extra := paths[1:]
		word := "argument"
		if len(extra) > 1 {
			word = "arguments"
		}
		return nil, usage("Got unexpected extra %s (%s)", word, strings.Join(extra, " "))
	}
	return paths, nil
}

// RefOptions are the arguments and dependencies of the reference
// validator's commands (validate, read-properties, to-prompt).
type RefOptions struct {
	IO *IO
	// Paths are the SKILL_PATH arguments: one for validate and
	// read-properties, one or more for to-prompt, each checked to exist.
	Paths []string
}

// newRefCmd returns one reference command: its RunE reads the arguments as
// the reference does (refArgs), fills a RefOptions and calls runF with it,
// or run when runF is nil.
func newRefCmd(f *Factory, cmd *cobra.Command, metavar string, many bool, run, runF func(context.Context, *RefOptions) error) *cobra.Command {
	opts := &RefOptions{IO: f.IO}
	cmd.DisableFlagParsing = true
	// The global flags are refused like any other option (refArgs), so
	// the help does not list them.
	cmd.SetUsageFunc(func(c *cobra.Command) error {
		fmt.Fprintf(c.OutOrStderr(), "Usage:\n  %s\n\nFlags:\n  -h, --help   help for %s\n\n"+
			"It takes no other flag, the global ones (--workspace, --root, --strict, ...) included:\n"+
			"only the reference validator's arguments.\n", c.UseLine(), c.Name())
		return nil
	})
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		paths, err := refArgs(cmd, f.IO, metavar, many, args)
		if err != nil {
			return err
		}
		opts.Paths = paths
		if runF != nil {
			return runF(cmd.Context(), opts)
		}
		return run(cmd.Context(), opts)
	}
	return cmd
}

// NewCmdValidate returns skillet validate.
func NewCmdValidate(f *Factory, runF func(context.Context, *RefOptions) error) *cobra.Command {
	return newRefCmd(f, &cobra.Command{
		Use:   "validate SKILL_PATH",
		Short: "Check one skill against the specification (as skills-ref validate)",
		Long: `Validate the skill folder (or SKILL.md) at SKILL_PATH against the Agent Skills
specification, with the reference validator's rules and messages: "Valid
skill: PATH" on stdout and exit 0, or "Validation failed for PATH:" and one
line per problem on stderr and exit 1. A missing path is a usage error
(exit 2). skillet lint --strict reports the same problems with their codes
(docs/lint.md#reference-parity).`,
	}, "SKILL_PATH", false, validateRun, runF)
}

func validateRun(_ context.Context, opts *RefOptions) error {
	io := opts.IO
	dir := skillsref.SkillDir(opts.Paths[0])
	problems := skillsref.Validate(dir)
	if len(problems) == 0 {
		fmt.Fprintf(io.Out, "Valid skill: %s\n", printable(dir))
		return nil
	}
	fmt.Fprintf(io.Err, "Validation failed for %s:\n", printable(dir))
	for _, p := range problems {
		fmt.Fprintf(io.Err, "  - %s\n", textsafe.EscapeBlock(p))
	}
	return silent(exitFail)
}

// NewCmdReadProperties returns skillet read-properties.
func NewCmdReadProperties(f *Factory, runF func(context.Context, *RefOptions) error) *cobra.Command {
	return newRefCmd(f, &cobra.Command{
		Use:   "read-properties SKILL_PATH",
		Short: "Print a skill's properties as JSON (as skills-ref read-properties)",
		Long: `Print the name, description, license, compatibility, allowed-tools and
metadata of the skill at SKILL_PATH as JSON, in the reference validator's
format (two-space indent, non-ASCII escaped). Only the presence of name and
description is checked; errors print "Error: ..." and exit 1.`,
	}, "SKILL_PATH", false, readPropertiesRun, runF)
}

func readPropertiesRun(_ context.Context, opts *RefOptions) error {
	props, err := skillsref.ReadProperties(skillsref.SkillDir(opts.Paths[0]))
	if err != nil {
		fmt.Fprintf(opts.IO.Err, "Error: %s\n", textsafe.EscapeBlock(err.Error()))
		return silent(exitFail)
	}
	fmt.Fprintf(opts.IO.Out, "%s\n", props.JSON())
	return nil
}

// NewCmdToPrompt returns skillet to-prompt.
func NewCmdToPrompt(f *Factory, runF func(context.Context, *RefOptions) error) *cobra.Command {
	return newRefCmd(f, &cobra.Command{
		Use:   "to-prompt SKILL_PATHS...",
		Short: "Print the <available_skills> block of skills-ref to-prompt",
		Long: `Print the reference validator's <available_skills> XML block for the skills
at SKILL_PATHS, in argument order. If any skill fails, nothing is printed on
stdout, "Error: ..." goes to stderr and the exit code is 1.`,
	}, "SKILL_PATHS...", true, toPromptRun, runF)
}

func toPromptRun(_ context.Context, opts *RefOptions) error {
	dirs := make([]string, len(opts.Paths))
	for i, p := range opts.Paths {
		dirs[i] = skillsref.SkillDir(p)
	}
	out, err := skillsref.ToPrompt(dirs)
	if err != nil {
		fmt.Fprintf(opts.IO.Err, "Error: %s\n", textsafe.EscapeBlock(err.Error()))
		return silent(exitFail)
	}
	fmt.Fprintln(opts.IO.Out, textsafe.EscapeBlock(out))
	return nil
}
