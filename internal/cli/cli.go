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
	"sync"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/suggest"
	"github.com/skillet-go/skillet/internal/textsafe"
	"github.com/skillet-go/skillet/lint"
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
	if percent, limit, ok := oneShotGC(commandNamed(os.Args[1:]), os.Getenv); ok {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
		walkGC = walkGCPercent
	} else if completingWalkGC(os.Args[1:], os.Getenv) {
		walkGC = walkGCPercent
	}
	if listGCOn(commandNamed(os.Args[1:]), os.Getenv) {
		listGC = listGCSteps
	}
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

// oneShotGC returns the collector's settings for a process that runs the
// command named: show, prompt, search and tool-schema read a listing (from
// the index, most often), print and exit, and with the default GOGC a warm
// show at 10,000 skills spent a seventh of its CPU in two collections.
// GOGC=400 makes them rarer (a warm show then peaks about 1 MB lower, a
// cold one 4 MB higher), and a soft limit of 512 MiB bounds what that may
// cost on a very large tree (docs/performance.md#start-up). lint, which
// checks each body as it is read and holds none, gets the same: at 10,000
// skills it spent a sixth of its CPU collecting, and GOGC=400 costs it
// about 5 MB of peak memory (docs/performance.md#lint). list, whose peak
// memory is measured, keeps the default until its live heap is large
// (listGC), and serve, which runs for long, keeps it; so does a process
// started with GOGC or GOMEMLIMIT set.
func oneShotGC(command string, getenv func(string) string) (percent int, limit int64, ok bool) {
	switch command {
	case "show", "prompt", "search", "tool-schema", "lint":
	default:
		return 0, 0, false
	}
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return 0, 0, false
	}
	return 400, 512 << 20, true
}

// completingWalkGC reports whether a process run with args is shell
// completion (cobra's __complete and __completeNoDesc) and GOGC and
// GOMEMLIMIT are not set: its walk, when there is no current index
// (catalogx.Hooks.ListPrefixed), then runs at walkGC as show's does. At
// the default GOGC the first completion at 100,000 skills peaked at
// 110.5 MB, where show's walk at 50 peaks at 93.
func completingWalkGC(args []string, getenv func(string) string) bool {
	if len(args) == 0 || (args[0] != cobra.ShellCompRequestCmd && args[0] != cobra.ShellCompNoDescRequestCmd) {
		return false
	}
	return getenv("GOGC") == "" && getenv("GOMEMLIMIT") == ""
}

// walkGC is GOGC while a one-skill command with no current index walks and
// writes it (catalogx.Hooks.WalkGC): set by Main with oneShotGC's
// settings, 0 (GOGC left alone) otherwise. The walk holds about what
// list --json holds and the search section being built
// (docs/performance.md#persistent-index), which GOGC=400 would let grow
// fivefold: at 100,000 skills the first show peaked at 221 MB, 114 MB
// with GOGC=100 and 98 MB with 50, for 0.87 and 0.95 of the floor's
// CPU.
var walkGC int

// walkGCPercent is walkGC for a process with oneShotGC's settings.
const walkGCPercent = 50

// Run runs skillet with args and returns the exit code. A command that
// succeeds but could not write all its output (a full disk, a closed
// stdout) fails with the write's error (exit 1): a listing or prompt cut
// short must not pass for a whole one.
func Run(ctx context.Context, args []string, io *IO) int {
	out := &outWriter{w: io.Out}
	cio := *io
	cio.Out = out
	f := NewFactory(&cio)
	args = splitShortFlags(args)
	root := newCmdRootOnly(f, args)
	root.SetArgs(unknownWithHelp(root, args))
	root.SetIn(cio.In)
	root.SetOut(cio.Out)
	root.SetErr(cio.Err)
	code := exitCode(root.ExecuteContext(ctx), args, io.Err)
	if err := out.failed(); code == exitOK && err != nil {
		return exitCode(err, args, io.Err)
	}
	return code
}

// unknownWithHelp returns args without their -h and --help flags when the
// command they name does not exist (skillet lsit --help), so that the
// unknown command is reported (exit 2, with the nearest command) where
// cobra would print the root's help and exit 0; other args are returned
// as they are.
func unknownWithHelp(root *cobra.Command, args []string) []string {
	help := false
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-h" || a == "--help" {
			help = true
		}
	}
	if !help {
		return args
	}
	if c, _, err := root.Find(args); err == nil && (c != root || firstPositional(args) == "") {
		return args
	}
	kept := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			kept = append(kept, args[i:]...)
			break
		}
		if a != "-h" && a != "--help" {
			kept = append(kept, a)
		}
	}
	return kept
}

// splitShortFlags writes a cluster of the root's short flags before the
// command (-qw DIR) as separate flags (-q -w DIR). pflag reads a cluster
// well, but cobra's search for the command takes only a lone -w to have a
// value, so it took DIR for the command name; args are returned as they are
// when there is no such cluster.
func splitShortFlags(args []string) []string {
	const bools, all = "qhv", "qhvw"
	out := make([]string, 0, len(args)+2)
	split := false
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" || !strings.HasPrefix(a, "-") {
			break // the command, or --: what follows is not the root's
		}
		if valueFlags[a] && i+1 < len(args) {
			out = append(out, a, args[i+1])
			i++
			continue
		}
		if len(a) >= 3 && a[1] != '-' && !strings.Contains(a, "=") &&
			strings.Trim(a[1:len(a)-1], bools) == "" && strings.Contains(all, a[len(a)-1:]) {
			for _, c := range a[1:] {
				out = append(out, "-"+string(c))
			}
			split = true
			continue
		}
		out = append(out, a)
	}
	if !split {
		return args
	}
	return append(out, args[i:]...)
}

// firstPositional returns the first argument that is neither a flag nor a
// flag's value (skipped as commandNamed skips them), or "".
func firstPositional(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return ""
		}
		if strings.HasPrefix(a, "-") {
			if valueFlags[a] {
				i++
			}
			continue
		}
		return a
	}
	return ""
}

// outWriter is a command's standard output; it keeps the first write
// error, which the commands that print with fmt.Fprint* do not check.
type outWriter struct {
	w   io.Writer
	mu  sync.Mutex
	err error
}

func (o *outWriter) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	if err != nil {
		o.mu.Lock()
		if o.err == nil {
			o.err = err
		}
		o.mu.Unlock()
	}
	return n, err
}

// failed returns the first write error, or nil.
func (o *outWriter) failed() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

// exitCode is the one place where an error becomes an exit code: 0 for
// none; the code of an *exitError (printing its error if it says so); 2
// for a usage error (see [isUsageError]), printed with the command whose
// help explains it, or for a configuration file that does not parse,
// printed with its position; 1 for any other error, printed.
func exitCode(err error, args []string, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil && ee.message {
			fmt.Fprintln(stderr, "skillet:", textsafe.Escape(ee.err.Error()))
		}
		return ee.code
	}
	var ce *catalog.ConfigError
	if errors.As(err, &ce) && len(ce.More) > 0 {
		// Each bad value on a line of its own.
		for _, x := range append([]*catalog.ConfigError{ce}, ce.More...) {
			one := *x
			one.More = nil
			fmt.Fprintln(stderr, "skillet:", textsafe.Escape(one.Error()))
		}
		return exitUsage
	}
	fmt.Fprintln(stderr, "skillet:", textsafe.Escape(err.Error()))
	if ce != nil {
		return exitUsage // the message says where in the file; --help would not
	}
	if isUsageError(err) {
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", usageCommand(args))
		return exitUsage
	}
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

// isUsageError reports whether err is a bad invocation. The CLI's own
// checks wrap theirs in *usageError: flag errors (SetFlagErrorFunc),
// argument-count errors and unknown commands (usageArgs), and each
// command's checks (usagef). The library's errors that only a bad flag or
// argument can cause are matched by type or sentinel: an unknown --preset,
// a lint target or --target host that does not exist, an unknown rule, a name or
// description skillet new cannot use. No message text is matched.
func isUsageError(err error) bool {
	var ue *usageError
	return errors.As(err, &ue) || errors.Is(err, catalog.ErrUnknownPreset) ||
		errors.Is(err, lint.ErrTarget) || errors.Is(err, lint.ErrUnknownHost) || errors.Is(err, lint.ErrInvalid) ||
		errors.Is(err, lint.ErrUnknownCode)
}

// flagError turns a flag parsing error into a usage error, with the
// nearest flag of the command when the flag is unknown.
func flagError(c *cobra.Command, err error) error {
	var ne *pflag.NotExistError
	if errors.As(err, &ne) && ne.GetSpecifiedName() != "" {
		var names []string
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden {
				names = append(names, f.Name)
			}
		})
		if near := nearest(ne.GetSpecifiedName(), names); near != "" {
			return &usageError{fmt.Errorf("%w; did you mean --%s?", err, near)}
		}
	}
	var ve *pflag.InvalidValueError
	if errors.As(err, &ve) {
		// pflag says why in Go's words ("strconv.ParseInt: parsing ...");
		// say what the flag takes instead.
		want := "a valid value"
		switch ve.GetFlag().Value.Type() {
		case "int", "int64", "uint", "uint64":
			want = "a whole number"
		case "duration":
			want = "a duration such as 500ms, 2s or 1m"
		case "bool":
			want = "true or false"
		}
		return &usageError{fmt.Errorf("invalid value %q for --%s: it must be %s", ve.GetValue(), ve.GetFlag().Name, want)}
	}
	return &usageError{err}
}

// usageArgs wraps the positional-argument check of c and of every command
// below it, so that a wrong number of arguments is a usage error; a
// command with subcommands and no Run of its own gets one that reports an
// unknown command, with the nearest command's name.
func usageArgs(c *cobra.Command) {
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				return &usageError{err}
			}
			return nil
		}
	}
	if c.HasSubCommands() && c.Run == nil && c.RunE == nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return nil
			}
			var names []string
			for _, sub := range cmd.Commands() {
				if sub.IsAvailableCommand() {
					names = append(names, sub.Name())
				}
			}
			msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
			if near := nearest(args[0], names); near != "" {
				msg += "; did you mean " + near + "?"
			}
			return &usageError{errors.New(msg)}
		}
		c.RunE = func(cmd *cobra.Command, args []string) error { return cmd.Help() }
	}
	for _, sub := range c.Commands() {
		usageArgs(sub)
	}
}

// NewCmdRoot returns the skillet command with every subcommand, its global
// flags parsed into f.
func NewCmdRoot(f *Factory) *cobra.Command { return buildRoot(f, "") }

// newCmdRootOnly is NewCmdRoot with only the command that args run built
// (see commandNamed), or every command when args name none or the tree
// with only that command does not find it in args.
func newCmdRootOnly(f *Factory, args []string) *cobra.Command {
	only := commandNamed(args)
	if only == "" {
		return buildRoot(f, "")
	}
	root := buildRoot(f, only)
	if c, _, err := root.Find(args); err != nil || c == nil || c.Name() != only {
		return buildRoot(NewFactory(f.IO), "")
	}
	return root
}

// buildRoot builds the root command with every subcommand, or with only
// the one named only.
func buildRoot(f *Factory, only string) *cobra.Command {
	root := newRoot(f)
	if only == "" {
		root.Version = version()
	} else {
		// The root's --version and cobra's completion commands are
		// reached only through the whole tree (skillet --version,
		// skillet completion and __complete name no command), so a tree of
		// one command does without them: reading the build information
		// and building the completion commands, which cobra does at every
		// Execute, were a hundredth of a plain list's start-up.
		root.CompletionOptions.DisableDefaultCmd = true
	}
	for _, sc := range subcommands {
		if only == "" || sc.name == only {
			root.AddCommand(sc.build(f))
		}
	}
	usageArgs(root)
	return root
}

// subcommands are skillet's commands in the order help lists them, each
// with the function that builds it.
var subcommands = []struct {
	name  string
	build func(*Factory) *cobra.Command
}{
	{"list", func(f *Factory) *cobra.Command { return NewCmdList(f, nil) }},
	{"validate", func(f *Factory) *cobra.Command { return NewCmdValidate(f, nil) }},
	{"read-properties", func(f *Factory) *cobra.Command { return NewCmdReadProperties(f, nil) }},
	{"to-prompt", func(f *Factory) *cobra.Command { return NewCmdToPrompt(f, nil) }},
	{"prompt", func(f *Factory) *cobra.Command { return NewCmdPrompt(f, nil) }},
	{"show", func(f *Factory) *cobra.Command { return NewCmdShow(f, nil) }},
	{"search", func(f *Factory) *cobra.Command { return NewCmdSearch(f, nil) }},
	{"tool-schema", func(f *Factory) *cobra.Command { return NewCmdToolSchema(f, nil) }},
	{"lint", func(f *Factory) *cobra.Command { return NewCmdLint(f, nil) }},
	{"new", func(f *Factory) *cobra.Command { return NewCmdNew(f, nil) }},
	{"serve", func(f *Factory) *cobra.Command { return NewCmdServe(f, nil) }},
	{"version", func(f *Factory) *cobra.Command { return NewCmdVersion(f, nil) }},
}

// valueFlags are the root's flags that take a value as the next argument
// when it is not given with "=".
var valueFlags = map[string]bool{"-w": true, "--workspace": true, "--root": true, "--preset": true, "--config": true}

// commandNamed returns the subcommand that args run, or "" when they run
// none, or help, completion, or something that is not a command. Only that
// command is then built: building every command, its flags and help cost
// about a fortieth of a plain list's start-up (docs/performance.md#start-up).
// A flag between "skillet" and the command is skipped with its value, as
// cobra does; anything unclear is "" (the whole tree).
func commandNamed(args []string) string {
	name := firstPositional(args)
	for _, sc := range subcommands {
		if sc.name == name {
			return name
		}
	}
	return ""
}

// newRoot returns the skillet command without subcommands: its help, its
// global flags (parsed into f) and its flag errors.
func newRoot(f *Factory) *cobra.Command {
	g := &f.flags
	root := &cobra.Command{
		Use:   "skillet",
		Short: "Load, check and serve Agent Skills",
		Long: `skillet discovers Agent Skills (folders with a SKILL.md), shows what a model
would see of them, checks them, and serves them to agents over MCP.

Skills are found in the folders every common agent reads: the workspace's
project roots (.agents/skills, .claude/skills, .github/skills,
.opencode/skills, .gemini/skills, skills), the matching user roots in the
home folder, and any --root; --preset HOST reads as that agent does
(skillet list --help, docs/hosts.md).`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(flagError)
	root.SetHelpCommand(newHelpCmd())
	pf := root.PersistentFlags()
	pf.StringVarP(&g.workspace, "workspace", "w", "", "the project folder (default: the current folder)")
	pf.StringArrayVar(&g.roots, "root", nil, "an extra skills folder or loose .md file (repeatable)")
	pf.StringVar(&g.preset, "preset", "", "list what one host loads, by its rules (docs/hosts.md): "+strings.Join(catalog.ProfileNames(), ", "))
	pf.BoolVar(&g.noUser, "no-user", false, "skip the user roots in the home folder")
	pf.BoolVar(&g.strict, "strict", false, "read skills as the specification's reference validator does")
	pf.StringVar(&g.config, "config", "", "the configuration file (default: skillet.yaml or .skillet.yaml in the workspace)")
	pf.BoolVarP(&g.quiet, "quiet", "q", false, "print no summary line on stderr")
	pf.BoolVar(&g.noCache, "no-cache", false, "do not use or write the persistent index of the listing (show, search, prompt, tool-schema, serve)")
	_ = root.RegisterFlagCompletionFunc("preset", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return catalog.ProfileNames(), cobra.ShellCompDirectiveNoFileComp
	})
	return root
}

// nearest is the known word closest to typed, or "".
func nearest(typed string, known []string) string { return suggest.Nearest(typed, known) }

// usageCommand names the command whose help a usage error points at: the
// deepest command that args name.
func usageCommand(args []string) string {
	root := NewCmdRoot(NewFactory(&IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}))
	if c, _, err := root.Find(args); err == nil && c != nil {
		return c.CommandPath()
	}
	return root.Name()
}

// exactArgs is a command's check of exactly one positional argument, with
// a usage error that names it: metavar as the usage line spells it, what
// says what it is.
func exactArgs(metavar, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) == 0:
			return usagef("missing %s: %s %s", metavar, cmd.CommandPath(), what)
		case len(args) > 1:
			return usagef("%s takes one %s, got %d arguments", cmd.CommandPath(), metavar, len(args))
		}
		return nil
	}
}

// minArgs is a command's check of at least one positional argument, with a
// usage error that names it.
func minArgs(metavar, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return usagef("missing %s: %s %s", metavar, cmd.CommandPath(), what)
		}
		return nil
	}
}

// didYouMean is "; did you mean NEAR?" for the known word nearest to
// typed, or "" when none is near.
func didYouMean(typed string, known []string) string {
	if near := nearest(typed, known); near != "" {
		return "; did you mean " + near + "?"
	}
	return ""
}

// newHelpCmd returns "skillet help [COMMAND...]": the help of the command
// named, or a usage error that suggests the nearest command when there is
// none of that name (cobra's own prints the root's help and exits 0).
func newHelpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND]",
		Short: "Help about any command",
		Long:  "Help prints the help of any command: skillet help COMMAND.",
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			var names []cobra.Completion
			parent, _, err := c.Root().Find(args)
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			for _, sub := range parent.Commands() {
				if sub.IsAvailableCommand() && strings.HasPrefix(sub.Name(), toComplete) {
					names = append(names, cobra.CompletionWithDesc(sub.Name(), sub.Short))
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			target, rest, err := c.Root().Find(args)
			if err != nil || len(rest) > 0 {
				parent := c.Root()
				if target != nil {
					parent = target
				}
				typed := args[len(args)-1]
				if len(rest) > 0 {
					typed = rest[0]
				}
				var names []string
				for _, sub := range parent.Commands() {
					if sub.IsAvailableCommand() {
						names = append(names, sub.Name())
					}
				}
				return usagef("unknown help topic %q for %q%s", typed, parent.CommandPath(), didYouMean(typed, names))
			}
			return target.Help()
		},
	}
}
