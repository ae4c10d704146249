// Package cli is the skillet command line: cobra commands over the library
// packages. cmd/skillet's main only calls [Main].
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/skillet-go/skillet/catalog"
)

// Exit codes, set in one place: 0 success, 1 findings or failure, 2 usage.
const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

// IO is where a command reads and writes.
type IO struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
	// OutTTY says Out is a terminal (tables and colour), and Width is its
	// width in columns (0 when unknown).
	OutTTY bool
	Width  int
}

// Main runs skillet with the process's arguments and streams and returns
// the exit code. The first SIGINT or SIGTERM cancels the command's context;
// a second one ends the process.
func Main() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The first SIGINT or SIGTERM cancels the command's context (serve
	// shuts down cleanly); after it the default handling is back, so a
	// second one ends the process at once.
	go func() {
		<-ctx.Done()
		stop()
	}()
	io := &IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}
	if fd := int(os.Stdout.Fd()); term.IsTerminal(fd) {
		io.OutTTY = true
		if w, _, err := term.GetSize(fd); err == nil {
			io.Width = w
		}
	}
	return Run(ctx, os.Args[1:], io)
}

// Run runs skillet with args and returns the exit code.
func Run(ctx context.Context, args []string, io *IO) int {
	root := newRootCmd(io)
	root.SetArgs(args)
	root.SetIn(io.In)
	root.SetOut(io.Out)
	root.SetErr(io.Err)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil && ee.message {
			fmt.Fprintln(io.Err, "skillet:", ee.err)
		}
		return ee.code
	}
	if isUsageError(err) {
		fmt.Fprintln(io.Err, "skillet:", err)
		fmt.Fprintln(io.Err, "Run 'skillet --help' for usage.")
		return exitUsage
	}
	fmt.Fprintln(io.Err, "skillet:", err)
	return exitFail
}

// exitError carries an exit code; message says whether err is printed.
type exitError struct {
	code    int
	err     error
	message bool
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// usageError is a bad invocation: exit 2.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// silent returns an error that sets the exit code and prints nothing more
// (the command has already said why).
func silent(code int) error { return &exitError{code: code} }

func isUsageError(err error) bool {
	var ue *usageError
	if errors.As(err, &ue) {
		return true
	}
	msg := err.Error()
	return strings.HasPrefix(msg, "unknown command") || strings.HasPrefix(msg, "unknown flag") ||
		strings.HasPrefix(msg, "unknown shorthand flag") || strings.Contains(msg, "flag needs an argument") ||
		strings.HasPrefix(msg, "invalid argument") || strings.Contains(msg, "accepts ") ||
		strings.Contains(msg, "requires at least")
}

func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// globals are the flags every command shares.
type globals struct {
	workspace string
	roots     []string
	preset    string
	noUser    bool
	strict    bool
	config    string
	quiet     bool
}

// catalog opens the catalog the global flags describe.
func (g *globals) catalog(ctx context.Context) (*catalog.Catalog, error) {
	c, err := catalog.New(ctx, &catalog.Options{
		Workspace:  g.workspace,
		ConfigFile: g.config,
		Preset:     g.preset,
		ExtraPaths: g.roots,
		NoUser:     g.noUser,
		Strict:     g.strict,
	})
	if err != nil {
		var ce *catalog.ConfigError
		if errors.As(err, &ce) {
			return nil, &exitError{code: exitUsage, err: err, message: true}
		}
		if strings.HasPrefix(err.Error(), "unknown preset") {
			return nil, &usageError{err}
		}
		return nil, err
	}
	return c, nil
}

func newRootCmd(io *IO) *cobra.Command {
	g := &globals{}
	root := &cobra.Command{
		Use:   "skillet",
		Short: "Load, check and serve Agent Skills",
		Long: `skillet discovers Agent Skills (folders with a SKILL.md), shows what a model
would see of them, checks them, and serves them to agents over MCP.

Skills are found in the workspace's project roots (.agents/skills, skills),
the user roots (~/.agents/skills, ~/.config/skillet/skills) and any --root,
or in another agent's layout with --preset.`,
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return &usageError{err} })
	pf := root.PersistentFlags()
	pf.StringVarP(&g.workspace, "workspace", "w", "", "the project folder (default: the current folder)")
	pf.StringArrayVar(&g.roots, "root", nil, "an extra skills folder or loose .md file (repeatable)")
	pf.StringVar(&g.preset, "preset", "", "another agent's layout: "+strings.Join(catalog.PresetNames(), ", "))
	pf.BoolVar(&g.noUser, "no-user", false, "skip the user roots in the home folder")
	pf.BoolVar(&g.strict, "strict", false, "read skills as the specification's reference validator does")
	pf.StringVar(&g.config, "config", "", "the configuration file (default: skillet.yaml in the workspace)")
	pf.BoolVarP(&g.quiet, "quiet", "q", false, "print no summary line on stderr")
	_ = root.RegisterFlagCompletionFunc("preset", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return catalog.PresetNames(), cobra.ShellCompDirectiveNoFileComp
	})

	root.AddCommand(
		newListCmd(g, io),
		newValidateCmd(io),
		newReadPropertiesCmd(io),
		newToPromptCmd(io),
		newPromptCmd(g, io),
		newShowCmd(g, io),
		newSearchCmd(g, io),
		newToolSchemaCmd(g, io),
		newLintCmd(g, io),
		newNewCmd(g, io),
		newServeCmd(g, io),
	)
	return root
}
