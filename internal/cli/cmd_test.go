package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/skillet-go/skillet/agent"
	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/profile"
	"github.com/skillet-go/skillet/lint"
	"github.com/skillet-go/skillet/mcpserver"
)

// parseCmd runs args through a root command (the global flags and their
// error handling) holding only the command newCmd makes, with a runF that
// records the options it is given instead of doing the work. It returns
// those options (nil when runF was not called), the Factory and the
// command's error.
func parseCmd[O any](t *testing.T, newCmd func(*Factory, func(context.Context, *O) error) *cobra.Command, args ...string) (*O, *Factory, error) {
	t.Helper()
	var out, errb bytes.Buffer
	f := NewFactory(&IO{In: strings.NewReader(""), Out: &out, Err: &errb})
	var got *O
	root := newRoot(f)
	root.AddCommand(newCmd(f, func(_ context.Context, o *O) error {
		got = o
		return nil
	}))
	usageArgs(root)
	root.SetArgs(args)
	root.SetOut(&out)
	root.SetErr(&errb)
	err := root.ExecuteContext(context.Background())
	if got != nil && out.Len()+errb.Len() > 0 {
		t.Errorf("%v: the run function was injected, yet the command wrote %q and %q", args, out.String(), errb.String())
	}
	return got, f, err
}

// optsCase is one invocation and the options it must give, or that it is
// a usage error (wantUsage: runF must not be called).
type optsCase[O any] struct {
	args      []string
	want      O
	wantUsage string
}

// checkOpts runs every case through parseCmd and compares the options,
// ignoring the dependency fields (streams and functions), which
// checkDeps checks.
func checkOpts[O any](t *testing.T, newCmd func(*Factory, func(context.Context, *O) error) *cobra.Command, cases []optsCase[O], ignore ...string) {
	t.Helper()
	for _, tc := range cases {
		got, _, err := parseCmd(t, newCmd, tc.args...)
		if tc.wantUsage != "" {
			if !isUsageError(err) || !strings.Contains(err.Error(), tc.wantUsage) {
				t.Errorf("%v: error %v, want a usage error containing %q", tc.args, err, tc.wantUsage)
			}
			if got != nil {
				t.Errorf("%v: the run function was called on a usage error", tc.args)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		if got == nil {
			t.Errorf("%v: the run function was not called", tc.args)
			continue
		}
		var zero O
		if d := cmp.Diff(tc.want, *got, cmpopts.IgnoreFields(zero, ignore...), cmpopts.EquateEmpty()); d != "" {
			t.Errorf("%v: options (-want +got):\n%s", tc.args, d)
		}
	}
}

func TestListOptions(t *testing.T) {
	t.Parallel()
	checkOpts(t, NewCmdList, []optsCase[ListOptions]{
		{args: []string{"list"}, want: ListOptions{}},
		{args: []string{"list", "--json"}, want: ListOptions{JSON: true}},
		{args: []string{"-q", "list", "--json=false"}, want: ListOptions{Quiet: true}},
		{args: []string{"list", "--quiet"}, want: ListOptions{Quiet: true}},
		{args: []string{"list", "extra"}, wantUsage: `unknown command "extra" for "skillet list"`},
		{args: []string{"list", "--jsno"}, wantUsage: "did you mean --json?"},
	}, "IO", "Catalog")
}

// TestGlobalFlags checks that the global flags reach the catalog options
// every command's Catalog and Config functions use, and that a workspace
// or root that does not exist is a usage error, not an empty listing.
func TestGlobalFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "loose.md")
	if err := os.WriteFile(file, []byte("---\nname: loose\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args      []string
		want      *catalog.Options
		wantUsage string
	}{
		{args: []string{"list"}, want: &catalog.Options{}},
		{args: []string{"list", "-w", dir, "--root", dir, "--root", file, "--preset", "claude", "--no-user", "--strict", "--config", "x.yaml"},
			want: &catalog.Options{Workspace: dir, ExtraPaths: []string{dir, file}, Preset: "claude", NoUser: true, Strict: true, ConfigFile: "x.yaml"}},
		{args: []string{"--workspace=" + dir, "list"}, want: &catalog.Options{Workspace: dir}},
		{args: []string{"list", "-w", filepath.Join(dir, "nope")}, wantUsage: "--workspace " + filepath.Join(dir, "nope") + ": no such folder"},
		{args: []string{"list", "-w", file}, wantUsage: "--workspace " + file + ": not a folder"},
		{args: []string{"list", "--root", filepath.Join(dir, "nope")}, wantUsage: "--root " + filepath.Join(dir, "nope") + ": no such file or folder"},
	} {
		_, f, err := parseCmd(t, NewCmdList, tc.args...)
		if err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		opts, err := f.Config()
		if tc.wantUsage != "" {
			if !isUsageError(err) || err.Error() != tc.wantUsage {
				t.Errorf("%v: Config() error %v, want the usage error %q", tc.args, err, tc.wantUsage)
			}
			if _, err := f.Catalog(context.Background()); !isUsageError(err) {
				t.Errorf("%v: Catalog() error %v, want a usage error", tc.args, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		if d := cmp.Diff(tc.want, opts, cmpopts.EquateEmpty(), cmpopts.IgnoreUnexported(catalog.Options{})); d != "" {
			t.Errorf("%v: catalog options (-want +got):\n%s", tc.args, d)
		}
	}
}

// TestExitCode checks the one mapping of errors to exit codes, and what
// each prints.
func TestExitCode(t *testing.T) {
	t.Parallel()
	_, presetErr := catalog.New(context.Background(), &catalog.Options{Workspace: t.TempDir(), NoConfigFile: true, Preset: "clade"})
	for _, tc := range []struct {
		name string
		err  error
		code int
		out  string
	}{
		{"none", nil, 0, ""},
		{"failure", errors.New("boom"), 1, "skillet: boom\n"},
		{"usage", usagef("--limit must be 0 or more"), 2, "skillet: --limit must be 0 or more\nRun 'skillet search --help' for usage.\n"},
		{"wrapped usage", &exitError{code: 2, err: usagef("x"), message: true}, 2, "skillet: x\n"},
		{"silent", silent(1), 1, ""},
		{"unknown preset", presetErr, 2, "skillet: unknown preset \"clade\"; did you mean \"claude\"?"},
		{"config file", &catalog.ConfigError{}, 2, "skillet: "},
	} {
		var b bytes.Buffer
		code := exitCode(tc.err, []string{"search", "x"}, &b)
		if code != tc.code || !strings.HasPrefix(b.String(), tc.out) {
			t.Errorf("%s: exit %d and %q, want %d and %q", tc.name, code, b.String(), tc.code, tc.out)
		}
		if tc.name == "config file" && strings.Contains(b.String(), "--help") {
			t.Errorf("%s: %q points at --help; the file's position says more", tc.name, b.String())
		}
	}
}

func TestVersion(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		bi   *debug.BuildInfo
		ok   bool
		want []string
	}{
		{"no build info", nil, false, []string{"skillet devel"}},
		{"checkout", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-12-01T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}},
			true, []string{"skillet devel", "revision: abc123 (modified) 2026-12-01T10:00:00Z"}},
		{"release", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, true, []string{"skillet v1.2.3"}},
	} {
		var out bytes.Buffer
		opts := &VersionOptions{IO: &IO{Out: &out}, BuildInfo: func() (*debug.BuildInfo, bool) { return tc.bi, tc.ok }}
		if err := versionRun(context.Background(), opts); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		if lines[0] != tc.want[0] || !strings.HasPrefix(lines[1], "go: go") {
			t.Errorf("%s: %q", tc.name, out.String())
		}
		if len(tc.want) > 1 && (len(lines) < 3 || lines[2] != tc.want[1]) {
			t.Errorf("%s: %q, want the line %q", tc.name, out.String(), tc.want[1])
		}
		if len(tc.want) == 1 && len(lines) != 2 {
			t.Errorf("%s: %q, want no revision line", tc.name, out.String())
		}
	}
	checkOpts(t, NewCmdVersion, []optsCase[VersionOptions]{
		{args: []string{"version"}, want: VersionOptions{}},
		{args: []string{"version", "now"}, wantUsage: `unknown command "now" for "skillet version"`},
	}, "IO", "BuildInfo")
}

func TestShowOptions(t *testing.T) {
	t.Parallel()
	checkOpts(t, NewCmdShow, []optsCase[ShowOptions]{
		{args: []string{"show", "alpha"}, want: ShowOptions{Name: "alpha"}},
		{args: []string{"show", "alpha", "--file", "references/a.md", "--json"}, want: ShowOptions{Name: "alpha", File: "references/a.md", JSON: true}},
		{args: []string{"show", "--file=x", "--", "-odd"}, want: ShowOptions{Name: "-odd", File: "x"}},
		{args: []string{"show"}, wantUsage: "missing NAME: skillet show takes the name of the skill to show"},
		{args: []string{"show", "a", "b"}, wantUsage: "skillet show takes one NAME, got 2 arguments"},
		{args: []string{"show", "a", "--fil", "x"}, wantUsage: "did you mean --file?"},
	}, "IO", "Catalog")
}

func TestSearchOptions(t *testing.T) {
	t.Parallel()
	checkOpts(t, NewCmdSearch, []optsCase[SearchOptions]{
		{args: []string{"search", "release"}, want: SearchOptions{Query: "release", Limit: 10}},
		{args: []string{"search", "release", "notes", "-n", "0", "--json"}, want: SearchOptions{Query: "release notes", Limit: 0, JSON: true}},
		{args: []string{"search", "--limit=3", "x"}, want: SearchOptions{Query: "x", Limit: 3}},
		{args: []string{"search"}, wantUsage: "missing QUERY: skillet search takes the words"},
		{args: []string{"search", "x", "--limit", "-1"}, wantUsage: "--limit must be 0 (no limit) or more"},
		{args: []string{"search", "x", "--limit", "many"}, wantUsage: `invalid value "many" for --limit: it must be a whole number`},
	}, "IO", "Catalog")
}

func TestPromptOptions(t *testing.T) {
	t.Parallel()
	anthropic, ollama, def := "anthropic", "ollama", "default"
	checkOpts(t, NewCmdPrompt, []optsCase[PromptOptions]{
		{args: []string{"prompt"}, want: PromptOptions{Format: agent.FormatXML, Provider: def}},
		{args: []string{"prompt", "--format", "markdown", "--provider", "ollama", "-q"}, want: PromptOptions{Format: agent.FormatMarkdown, Provider: ollama, Quiet: true}},
		{args: []string{"prompt", "--format=md", "--provider=Anthropic", "--budget-chars", "500"}, want: PromptOptions{Format: agent.FormatMarkdown, Provider: anthropic, BudgetChars: 500}},
		{args: []string{"prompt", "--budget-chars", "0"}, want: PromptOptions{Format: agent.FormatXML, Provider: def, BudgetChars: -1}},
		{args: []string{"prompt", "--template", "t.tmpl"}, want: PromptOptions{Format: agent.FormatXML, Provider: def, Template: "t.tmpl"}},
		{args: []string{"prompt", "--template", "t.tmpl", "--format", "xml"}, wantUsage: "--template and --format cannot be used together"},
		{args: []string{"prompt", "--format", "jsno"}, wantUsage: `unknown catalog format "jsno" (known: xml, markdown, json); did you mean json?`},
		{args: []string{"prompt", "--provider", "anthropc"}, wantUsage: "; did you mean anthropic?"},
		{args: []string{"prompt", "--budget-chars", "-5"}, wantUsage: "--budget-chars must be 0 or more"},
		{args: []string{"prompt", "x"}, wantUsage: `unknown command "x" for "skillet prompt"`},
	}, "IO", "Catalog")
}

func TestToolSchemaOptions(t *testing.T) {
	t.Parallel()
	checkOpts(t, NewCmdToolSchema, []optsCase[ToolSchemaOptions]{
		{args: []string{"tool-schema"}, want: ToolSchemaOptions{API: "mcp"}},
		{args: []string{"tool-schema", "--api", "openai"}, want: ToolSchemaOptions{API: "openai"}},
		{args: []string{"tool-schema", "--api=anthropic"}, want: ToolSchemaOptions{API: "anthropic"}},
		{args: []string{"tool-schema", "--api", "opnai"}, wantUsage: `--api must be mcp, anthropic, openai, openai-responses or gemini, not "opnai"; did you mean openai?`},
		{args: []string{"tool-schema", "--api", "soap"}, wantUsage: `not "soap"`},
	}, "IO", "Catalog")
}

func TestLintOptions(t *testing.T) {
	t.Parallel()
	base := LintOptions{Format: "text", FailOn: "error", MaxWarnings: -1}
	with := func(set func(*LintOptions)) LintOptions {
		o := base
		set(&o)
		return o
	}
	checkOpts(t, NewCmdLint, []optsCase[LintOptions]{
		{args: []string{"lint"}, want: base},
		{args: []string{"lint", "skills/a", "beta", "-q"}, want: with(func(o *LintOptions) { o.Targets = []string{"skills/a", "beta"}; o.Quiet = true })},
		{args: []string{"lint", "--json"}, want: with(func(o *LintOptions) { o.Format = "json" })},
		{args: []string{"lint", "--json", "--format", "json"}, want: with(func(o *LintOptions) { o.Format = "json" })},
		{args: []string{"lint", "--format", "sarif", "--fail-on", "warning", "--max-warnings", "3"},
			want: with(func(o *LintOptions) { o.Format = "sarif"; o.FailOn = "warning"; o.MaxWarnings = 3 })},
		{args: []string{"lint", "--compat", "--target", "claude, codex", "--target", "gemini"},
			want: with(func(o *LintOptions) { o.Compat = true; o.Hosts = []string{"claude", "codex", "gemini"} })},
		{args: []string{"lint", "--fix"}, want: with(func(o *LintOptions) { o.Fix = &lint.FixOptions{} })},
		{args: []string{"lint", "--fix=quote,name"}, want: with(func(o *LintOptions) { o.Fix = &lint.FixOptions{Name: true} })},
		{args: []string{"lint", "--diff"}, want: with(func(o *LintOptions) { o.Fix = &lint.FixOptions{}; o.Diff = true })},
		{args: []string{"lint", "--explain", "shadowed"}, want: with(func(o *LintOptions) { o.Explain = "shadowed" })},
		// --list-rules and --explain do not check the other flags.
		{args: []string{"lint", "--list-rules", "--format", "nope"}, want: with(func(o *LintOptions) { o.ListRules = true; o.Format = "nope" })},
		{args: []string{"lint", "--explain", "shadowd"}, wantUsage: `no diagnostic code or --compat rule "shadowd"; did you mean shadowed?`},
		{args: []string{"lint", "--explain="}, wantUsage: `no diagnostic code or --compat rule ""`},
		{args: []string{"lint", "--explain", "reserved-word"}, wantUsage: "did you mean reserved-words?"},
		{args: []string{"lint", "--explain", "reserved-words"}, want: with(func(o *LintOptions) { o.Explain = "reserved-words" })},
		{args: []string{"lint", "--fail-on", "warnings"}, wantUsage: `unknown --fail-on "warnings" (error or warning); did you mean warning?`},
		{args: []string{"lint", "--format", "sraif"}, wantUsage: "did you mean sarif?"},
		{args: []string{"lint", "--json", "--format", "sarif"}, wantUsage: "--json and --format sarif disagree"},
		{args: []string{"lint", "--fix=nmae"}, wantUsage: `unknown --fix "nmae" (quote or name); did you mean name?`},
		{args: []string{"lint", "--diff", "--compat"}, wantUsage: "--diff prints a unified diff"},
		{args: []string{"lint", "--max-warnings", "x"}, wantUsage: "it must be a whole number"},
	}, "IO", "Config")
}

func TestNewOptions(t *testing.T) {
	t.Parallel()
	checkOpts(t, NewCmdNew, []optsCase[NewOptions]{
		{args: []string{"new", "my-skill", "--description", "Does it."}, want: NewOptions{Scaffold: lint.ScaffoldOptions{Name: "my-skill", Description: "Does it."}}},
		{args: []string{"new", "My Skill", "--description=D", "--triggers", "asked", "--license", "MIT", "--allowed-tools", "Read Bash", "--when", "w", "--flat"},
			want: NewOptions{Scaffold: lint.ScaffoldOptions{Name: "My Skill", Description: "D", Triggers: "asked", License: "MIT", AllowedTools: "Read Bash", WhenToUse: "w", Flat: true}}},
		{args: []string{"new", "x", "--description", ""}, want: NewOptions{Scaffold: lint.ScaffoldOptions{Name: "x"}}},
		{args: []string{"new", "x"}, wantUsage: "--description is required"},
		{args: []string{"new", "--description", "D"}, wantUsage: "missing NAME: skillet new takes the name of the skill to write"},
		{args: []string{"new", "a", "b", "--description", "D"}, wantUsage: "skillet new takes one NAME, got 2 arguments"},
	}, "IO", "Catalog")
}

func TestServeOptions(t *testing.T) {
	t.Parallel()
	dflt, dfltHTTP := mcpserver.Defaults()
	base := ServeOptions{
		MaxConns: dfltHTTP.MaxConns, MaxSessions: dfltHTTP.MaxSessions,
		SessionTimeout: dfltHTTP.SessionTimeout, MaxServedBytes: dflt.MaxServedBytes,
		InstructionsChars: dflt.InstructionsChars,
		MaxConnsPerClient: dfltHTTP.MaxConnsPerClient, MaxStreamsPerClient: dfltHTTP.MaxStreamsPerClient,
		MaxSessionsPerClient: dfltHTTP.MaxSessionsPerClient,
		PollInterval:         2 * time.Second, TTL: time.Minute, Tool: mcpserver.ToolAuto, LogLevel: slog.LevelInfo, LogFormat: "text",
	}
	with := func(set func(*ServeOptions)) ServeOptions {
		o := base
		set(&o)
		return o
	}
	dir := t.TempDir()
	checkOpts(t, NewCmdServe, []optsCase[ServeOptions]{
		{args: []string{"serve"}, want: base},
		{args: []string{"serve", "--http", "localhost:0", "--stateful", "--max-request-bytes", "1000", "--max-conns", "5", "--session-timeout", "1m"},
			want: with(func(o *ServeOptions) {
				o.HTTP, o.Stateful, o.MaxRequestBytes, o.MaxConns, o.SessionTimeout = "localhost:0", true, 1000, 5, time.Minute
			})},
		{args: []string{"serve", "--http", ":8080", "--listen-any", "--auth-token-file", "tok", "--insecure-no-auth"},
			want: with(func(o *ServeOptions) {
				o.HTTP, o.ListenAny, o.AuthTokenFile, o.InsecureNoAuth = ":8080", true, "tok", true
			})},
		{args: []string{"serve", "--no-watch", "--poll", "--poll-interval", "5s", "--ttl", "0", "--tool", "never", "--log-level", "debug", "--log-format", "json"},
			want: with(func(o *ServeOptions) {
				o.NoWatch, o.Poll, o.PollInterval, o.TTL, o.Tool, o.LogLevel, o.LogFormat = true, true, 5*time.Second, 0, mcpserver.ToolMode("never"), slog.LevelDebug, "json"
			})},
		{args: []string{"serve", "-q"}, want: with(func(o *ServeOptions) { o.Quiet, o.LogLevel = true, slog.LevelWarn })},
		{args: []string{"serve", "--max-served-bytes", "10", "--instructions-chars", "-1"}, want: with(func(o *ServeOptions) { o.MaxServedBytes, o.InstructionsChars = 10, -1 })},
		// --print-config resolves the client and records the invocation; the
		// serving flags are not checked.
		{args: []string{"serve", "-w", dir, "--print-config", "Claude", "--tool", "always", "--no-user"},
			want: with(func(o *ServeOptions) {
				o.PrintConfig, o.ConfigArgs, o.Tool, o.LogLevel = "claude-code", []string{"serve", "--workspace", dir, "--no-user", "--tool", "always"}, "", 0
			})},
		{args: []string{"serve", "--print-config", "codx"}, wantUsage: `unknown client "codx"`},
		{args: []string{"serve", "--stateful"}, wantUsage: "need --http"},
		{args: []string{"serve", "--max-conns", "0"}, wantUsage: "must be positive"},
		{args: []string{"serve", "--max-conns-per-client", "10", "--max-streams-per-client", "-1", "--max-sessions-per-client", "3"},
			want: with(func(o *ServeOptions) { o.MaxConnsPerClient, o.MaxStreamsPerClient, o.MaxSessionsPerClient = 10, -1, 3 })},
		{args: []string{"serve", "--max-streams-per-client", "0"}, wantUsage: "must be positive, or -1 for no bound"},
		{args: []string{"serve", "--max-sessions-per-client", "-2"}, wantUsage: "must be positive, or -1 for no bound"},
		{args: []string{"serve", "--tool", "alway"}, wantUsage: `--tool must be auto, always or never, not "alway"; did you mean always?`},
		{args: []string{"serve", "--log-level", "warning"}, wantUsage: `not "warning"; did you mean warn?`},
		{args: []string{"serve", "--log-format", "jsn"}, wantUsage: `--log-format must be text or json, not "jsn"; did you mean json?`},
		{args: []string{"serve", "--ttl", "-1s"}, wantUsage: "--ttl cannot be negative"},
		{args: []string{"serve", "--poll-interval", "often"}, wantUsage: "it must be a duration"},
	}, "IO", "Catalog", "Config")
}

// TestRefOptions checks the reference commands' arguments: paths that
// exist reach the run function; anything else is the reference's usage
// error (exit 2), and the run function is not called.
func TestRefOptions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, p := range []string{a, b} {
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	type newRef = func(*Factory, func(context.Context, *RefOptions) error) *cobra.Command
	for _, tc := range []struct {
		newCmd newRef
		args   []string
		want   []string // nil: exit 2
	}{
		{NewCmdValidate, []string{"validate", a}, []string{a}},
		{NewCmdValidate, []string{"validate", "--", a}, []string{a}},
		{NewCmdValidate, []string{"validate"}, nil},
		{NewCmdValidate, []string{"validate", a, b}, nil},
		{NewCmdValidate, []string{"validate", filepath.Join(dir, "nope")}, nil},
		{NewCmdValidate, []string{"validate", "--strict", a}, nil},
		{NewCmdReadProperties, []string{"read-properties", b}, []string{b}},
		{NewCmdReadProperties, []string{"read-properties", a, b}, nil},
		{NewCmdToPrompt, []string{"to-prompt", a, b}, []string{a, b}},
		{NewCmdToPrompt, []string{"to-prompt"}, nil},
	} {
		var errb bytes.Buffer
		f := NewFactory(&IO{In: strings.NewReader(""), Out: io.Discard, Err: &errb})
		var got *RefOptions
		root := newRoot(f)
		root.AddCommand(tc.newCmd(f, func(_ context.Context, o *RefOptions) error { got = o; return nil }))
		usageArgs(root)
		root.SetArgs(tc.args)
		err := root.ExecuteContext(context.Background())
		if tc.want == nil {
			var ee *exitError
			if !errors.As(err, &ee) || ee.code != exitUsage || got != nil || !strings.Contains(errb.String(), "Usage: skillet "+tc.args[0]) {
				t.Errorf("%v: error %v, stderr %q, run called %v; want the reference's usage error", tc.args, err, errb.String(), got != nil)
			}
			continue
		}
		if err != nil || got == nil {
			t.Errorf("%v: error %v, run called %v", tc.args, err, got != nil)
			continue
		}
		if d := cmp.Diff(tc.want, got.Paths); d != "" {
			t.Errorf("%v: paths (-want +got):\n%s", tc.args, d)
		}
	}
}

// TestREADMEFlags checks that the README names every command and every
// flag of every command (the global ones included), so a new flag cannot
// be left out of it.
func TestREADMEFlags(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	root := NewCmdRoot(NewFactory(&IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}))
	names := func(fs *pflag.FlagSet) []string {
		var out []string
		fs.VisitAll(func(f *pflag.Flag) {
			if !f.Hidden && f.Name != "help" {
				out = append(out, f.Name)
			}
		})
		return out
	}
	documented := func(flag string) bool {
		return regexp.MustCompile("`[^`]*--" + regexp.QuoteMeta(flag) + "([ =`\\[]|$)").MatchString(readme)
	}
	for _, name := range names(root.PersistentFlags()) {
		if !documented(name) {
			t.Errorf("README: the global flag --%s is not documented", name)
		}
	}
	for _, c := range root.Commands() {
		if !c.IsAvailableCommand() || c.Name() == "help" || c.Name() == "completion" {
			continue
		}
		if !strings.Contains(readme, "`skillet "+c.Name()) {
			t.Errorf("README: the command %s is not in the command table", c.Name())
		}
		if c.DisableFlagParsing {
			continue // the reference commands take no flags
		}
		for _, name := range names(c.LocalFlags()) {
			if !documented(name) {
				t.Errorf("README: %s --%s is not documented", c.Name(), name)
			}
		}
	}
}

// TestRunsUseTheirOptions calls each command's run function directly with
// options whose catalog (or configuration) function fails: the run must
// return that error and write nothing, so the work reads only what its
// options inject, not the flags of some command line. Nor may a run
// change the process: serve's memory limit is the command's to set
// (setServeMemoryLimit), where serveRun set it on every test of the binary
// after this one (192 MiB, the fixed overhead of a zero budget).
func TestRunsUseTheirOptions(t *testing.T) {
	t.Parallel()
	limit := debug.SetMemoryLimit(-1)
	errNoCatalog := errors.New("no catalog here")
	noCatalog := func(context.Context) (*catalog.Catalog, error) { return nil, errNoCatalog }
	noConfig := func() (*catalog.Options, error) { return nil, errNoCatalog }
	var out, errb bytes.Buffer
	iostreams := &IO{In: strings.NewReader(""), Out: &out, Err: &errb}
	ctx := context.Background()
	def := "default"
	for name, run := range map[string]func() error{
		"list":   func() error { return listRun(ctx, &ListOptions{IO: iostreams, Catalog: noCatalog}) },
		"show":   func() error { return showRun(ctx, &ShowOptions{IO: iostreams, Catalog: noCatalog, Name: "x"}) },
		"search": func() error { return searchRun(ctx, &SearchOptions{IO: iostreams, Catalog: noCatalog, Query: "x"}) },
		"prompt": func() error { return promptRun(ctx, &PromptOptions{IO: iostreams, Catalog: noCatalog, Provider: def}) },
		"tool-schema": func() error {
			return toolSchemaRun(ctx, &ToolSchemaOptions{IO: iostreams, Catalog: noCatalog, API: "mcp"})
		},
		"new": func() error {
			return newRun(ctx, &NewOptions{IO: iostreams, Catalog: noCatalog, Scaffold: lint.ScaffoldOptions{Name: "x", Description: "d"}})
		},
		"lint": func() error {
			return lintRun(ctx, &LintOptions{IO: iostreams, Config: noConfig, Format: "text", FailOn: "error", MaxWarnings: -1})
		},
		"serve": func() error {
			return serveRun(ctx, &ServeOptions{IO: iostreams, Catalog: noCatalog, LogFormat: "text", Quiet: true})
		},
		"serve --print-config": func() error {
			return serveRun(ctx, &ServeOptions{IO: iostreams, Config: noConfig, PrintConfig: "codex", ConfigArgs: []string{"serve"}})
		},
	} {
		out.Reset()
		errb.Reset()
		if err := run(); !errors.Is(err, errNoCatalog) {
			t.Errorf("%s: error %v, want the injected one", name, err)
		}
		if out.Len()+errb.Len() > 0 {
			t.Errorf("%s: wrote %q and %q before it had a catalog", name, out.String(), errb.String())
		}
		if got := debug.SetMemoryLimit(-1); got != limit {
			t.Errorf("%s: set the process's memory limit to %d bytes (was %d)", name, got, limit)
			limit = got
		}
	}
}

// TestHelpRoots checks that skillet list --help and the README name every
// root of the default preset in its order of precedence, so the help
// cannot fall behind the profile that decides the roots.
func TestHelpRoots(t *testing.T) {
	t.Parallel()
	p, ok := profile.Lookup("agents")
	if !ok {
		t.Fatal("no agents profile")
	}
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	list := NewCmdList(NewFactory(&IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard}), nil)
	texts := map[string]string{
		"skillet list --help": strings.Join(strings.Fields(list.Long), " "),
		"README.md":           strings.Join(strings.Fields(string(data)), " "),
	}
	roots := append(slices.Clone(p.Roots.Project), p.Roots.User...)
	for where, text := range texts {
		at := 0
		for _, r := range roots {
			loc := regexp.MustCompile(`(^|[^\w.-])` + regexp.QuoteMeta(r) + `([^\w./-]|$)`).FindStringIndex(text[at:])
			if loc == nil {
				t.Errorf("%s does not name the root %s after the ones before it (%v)", where, r, roots)
				break
			}
			at += loc[1] - 1
		}
	}
}
