package cli

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/lint"
	"github.com/skillet-go/skillet/mcpserver"
)

// ServeOptions are the flags and dependencies of skillet serve.
type ServeOptions struct {
	IO      *IO
	Catalog func(context.Context) (*catalog.Catalog, error)
	// Config is the catalog options of the global flags (checked by
	// --print-config, which opens no catalog).
	Config func() (*catalog.Options, error)
	Quiet  bool

	// PrintConfig is the client --print-config names (aliases resolved),
	// "" to serve; ConfigArgs are then the arguments that start this
	// server: serve, the absolute workspace and every flag given but
	// --print-config.
	PrintConfig string
	ConfigArgs  []string

	HTTP              string             // --http HOST:PORT; "" for stdio
	Stateful          bool               // --stateful
	ListenAny         bool               // --listen-any
	AuthTokenFile     string             // --auth-token-file
	InsecureNoAuth    bool               // --insecure-no-auth
	MaxRequestBytes   int64              // --max-request-bytes; 0 for the default
	MaxConns          int                // --max-conns
	MaxSessions       int                // --max-sessions
	SessionTimeout    time.Duration      // --session-timeout
	NoWatch           bool               // --no-watch
	Poll              bool               // --poll
	PollInterval      time.Duration      // --poll-interval
	TTL               time.Duration      // --ttl
	Tool              mcpserver.ToolMode // --tool
	LogLevel          slog.Level         // --log-level, at least warn with --quiet
	LogFormat         string             // --log-format: text or json
	MaxServedBytes    int64              // --max-served-bytes
	InstructionsChars int                // --instructions-chars; -1 for no budget
	TLSCert, TLSKey   string             // --tls-cert, --tls-key: serve HTTPS
	// --max-conns-per-client, --max-streams-per-client,
	// --max-sessions-per-client; -1 for no bound.
	MaxConnsPerClient, MaxStreamsPerClient, MaxSessionsPerClient int
}

// tokenEnv is the environment variable that may hold the bearer token.
const tokenEnv = "SKILLET_AUTH_TOKEN"

// NewCmdServe returns skillet serve. Its RunE checks the flags, fills a
// ServeOptions and calls runF with it, or serveRun when runF is nil.
func NewCmdServe(f *Factory, runF func(context.Context, *ServeOptions) error) *cobra.Command {
	opts := &ServeOptions{IO: f.IO, Catalog: f.IndexedCatalog, Config: f.Config}
	var tool, logLevel string
	cmd := &cobra.Command{
		Use:     "serve",
		Short:   "Serve the skills to MCP clients (stdio, or streamable HTTP with --http)",
		Long:    serveLong,
		Example: serveExample,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Quiet = f.Quiet()
			if cmd.Flags().Changed("print-config") {
				var err error
				if opts.PrintConfig, err = lookupClient(opts.PrintConfig); err != nil {
					return err
				}
				if opts.ConfigArgs, err = invocationArgs(cmd, &f.flags); err != nil {
					return err
				}
			} else if err := opts.parse(tool, logLevel); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			if opts.PrintConfig == "" {
				setServeMemoryLimit(opts.MaxServedBytes)
			}
			return serveRun(cmd.Context(), opts)
		},
	}
	addServeFlags(cmd, opts, &tool, &logLevel)
	return cmd
}

// serveLong is skillet serve's help, and serveExample its examples.
const (
	serveLong = `Serve the skills found in the roots as an MCP server (docs/mcp.md).

By default it speaks MCP over stdin and stdout, for a client that starts it
as a subprocess. With --http localhost:PORT it serves streamable HTTP at
http://localhost:PORT/mcp, stateless unless --stateful is given (stateful
sessions let the server push list_changed notifications). An address that
is not loopback (":8080", "0.0.0.0:8080", "[::%lo]:8080", a LAN address,
a name that resolves to one) is refused unless --listen-any is given.

Every client gets the skills in the way it supports: every file as a
resource skill://NAME/PATH, each skill as a prompt, and the MCP Skills
Extension (skills/list, skills/get, resources/directory/read).

A team server (docs/serving.md): --auth-token-file FILE, or the token in
$SKILLET_AUTH_TOKEN, makes every request but GET /healthz and GET /readyz
carry "Authorization: Bearer TOKEN"; the file may hold one token a line, one
for each member, who then each get their own per-client bounds (behind an
Ingress too); --listen-any refuses to start without
a token unless --insecure-no-auth is given. GET /metrics serves Prometheus
metrics; --log-format json writes structured logs.

The roots are watched: a skill added, edited or removed on disk reaches
connected clients without a restart. Logs go to stderr, never stdout.
SIGINT or SIGTERM stops the server once the requests in flight are answered.`
	serveExample = `  skillet serve --no-user --root ./skills
  skillet serve --http localhost:8080
  skillet serve --http :8080 --listen-any --auth-token-file /run/secrets/token`
)

// addServeFlags defines serve's flags and their completions on cmd: into
// opts, and the --tool and --log-level values, which parse checks, into
// tool and logLevel. The defaults are mcpserver's.
func addServeFlags(cmd *cobra.Command, opts *ServeOptions, tool, logLevel *string) {
	dflt, dfltHTTP := mcpserver.Defaults()
	fl := cmd.Flags()
	fl.StringVar(&opts.PrintConfig, "print-config", "", "print the configuration that makes `CLIENT` start this server with these flags, and exit: "+strings.Join(configClientNames(), ", "))
	_ = cmd.RegisterFlagCompletionFunc("print-config", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return configClientNames(), cobra.ShellCompDirectiveNoFileComp
	})
	fl.StringVar(&opts.HTTP, "http", "", "serve streamable HTTP on `HOST:PORT` (for example localhost:8080; port 0 picks one) instead of stdio")
	fl.BoolVar(&opts.Stateful, "stateful", false, "keep a session per HTTP client, so reloads are pushed as notifications")
	fl.BoolVar(&opts.ListenAny, "listen-any", false, "allow an --http address that listens on every network interface")
	fl.BoolVar(&opts.NoWatch, "no-watch", false, "do not watch the roots for changes")
	fl.BoolVar(&opts.Poll, "poll", false, "poll the roots for changes instead of using file system notifications")
	fl.DurationVar(&opts.PollInterval, "poll-interval", 2*time.Second, "how often to poll, with --poll or where notifications fail")
	fl.DurationVar(&opts.TTL, "ttl", time.Minute, "how long clients may cache listings and reads (ttlMs, protocol 2026-07-28)")
	fl.StringVar(tool, "tool", "auto", "when to offer the load tool: auto (to clients without the Skills Extension), always, never")
	fl.StringVar(logLevel, "log-level", "info", "log level on stderr: debug, info, warn, error (at least warn with --quiet)")
	fl.Int64Var(&opts.MaxRequestBytes, "max-request-bytes", 0, "the largest HTTP request body accepted (default 4 MiB)")
	fl.StringVar(&opts.LogFormat, "log-format", "text", "log format on stderr: text or json")
	fl.StringVar(&opts.AuthTokenFile, "auth-token-file", "", "require \"Authorization: Bearer TOKEN\" with a token in `FILE` (or in $"+tokenEnv+"): one a line (# comments), one for each client, the client of the per-client bounds; each at least 32 characters, in a file others cannot read and only its owner can write (docs/serving.md#token-file)")
	fl.BoolVar(&opts.InsecureNoAuth, "insecure-no-auth", false, "allow --listen-any without a token")
	fl.IntVar(&opts.MaxConns, "max-conns", dfltHTTP.MaxConns, "the most HTTP connections served at once")
	fl.IntVar(&opts.MaxSessions, "max-sessions", dfltHTTP.MaxSessions, "the most stateful sessions kept (the one idle longest is closed first)")
	fl.IntVar(&opts.MaxConnsPerClient, "max-conns-per-client", dfltHTTP.MaxConnsPerClient, "the most HTTP connections one client (its token, else its remote address) holds; -1 for no bound (docs/serving.md#fairness)")
	fl.IntVar(&opts.MaxStreamsPerClient, "max-streams-per-client", dfltHTTP.MaxStreamsPerClient, "the most notification streams one client (its token, else its remote address) holds open; -1 for no bound")
	fl.IntVar(&opts.MaxSessionsPerClient, "max-sessions-per-client", dfltHTTP.MaxSessionsPerClient, "the most stateful sessions one client (its token, else its remote address) holds; -1 for no bound")
	fl.DurationVar(&opts.SessionTimeout, "session-timeout", dfltHTTP.SessionTimeout, "close a stateful session idle for that long (an open notification stream is not idle)")
	fl.Int64Var(&opts.MaxServedBytes, "max-served-bytes", dflt.MaxServedBytes, "the one memory budget, in bytes: served files as sent, a reload's new files and answers being written (docs/serving.md#memory); files past it are served as too large")
	fl.StringVar(&opts.TLSCert, "tls-cert", "", "serve HTTPS with the certificate (chain) in PEM `FILE`; needs --tls-key (docs/serving.md#tls)")
	fl.StringVar(&opts.TLSKey, "tls-key", "", "the private key in PEM `FILE` of --tls-cert")
	fl.IntVar(&opts.InstructionsChars, "instructions-chars", dflt.InstructionsChars, "the budget of the server's instructions in characters, which clients cut (Claude Code keeps 4,096); -1 for no budget (the whole block is sent)")
	_ = cmd.RegisterFlagCompletionFunc("tool", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return toolModes, cobra.ShellCompDirectiveNoFileComp
	})
	_ = cmd.RegisterFlagCompletionFunc("log-level", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return logLevels, cobra.ShellCompDirectiveNoFileComp
	})
	_ = cmd.RegisterFlagCompletionFunc("log-format", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return logFormats, cobra.ShellCompDirectiveNoFileComp
	})
}

// The values --tool, --log-level and --log-format take.
var (
	toolModes  = []string{"auto", "always", "never"}
	logLevels  = []string{"debug", "info", "warn", "error"}
	logFormats = []string{"text", "json"}
)

// parse checks serve's flags (all but the token, read when serving) and
// fills o.Tool and o.LogLevel from the --tool and --log-level values.
func (o *ServeOptions) parse(tool, logLevel string) error {
	if o.HTTP == "" && (o.Stateful || o.ListenAny || o.MaxRequestBytes != 0 || o.AuthTokenFile != "" || o.InsecureNoAuth || o.TLSCert != "" || o.TLSKey != "") {
		return usagef("--stateful, --listen-any, --max-request-bytes, --auth-token-file, --insecure-no-auth, --tls-cert and --tls-key need --http")
	}
	if (o.TLSCert == "") != (o.TLSKey == "") {
		return usagef("--tls-cert and --tls-key go together")
	}
	if o.MaxConns < 1 || o.MaxSessions < 1 || o.SessionTimeout <= 0 || o.MaxServedBytes < 1 {
		return usagef("--max-conns, --max-sessions, --session-timeout and --max-served-bytes must be positive")
	}
	if o.MaxConnsPerClient == 0 || o.MaxConnsPerClient < -1 || o.MaxStreamsPerClient == 0 || o.MaxStreamsPerClient < -1 ||
		o.MaxSessionsPerClient == 0 || o.MaxSessionsPerClient < -1 {
		return usagef("--max-conns-per-client, --max-streams-per-client and --max-sessions-per-client must be positive, or -1 for no bound")
	}
	if o.LogFormat != "text" && o.LogFormat != "json" {
		return usagef("--log-format must be text or json, not %q%s", o.LogFormat, didYouMean(o.LogFormat, logFormats))
	}
	if o.MaxRequestBytes < 0 {
		return usagef("--max-request-bytes must be positive")
	}
	var ok bool
	if o.Tool, ok = mcpserver.ParseToolMode(tool); !ok {
		return usagef("--tool must be auto, always or never, not %q%s", tool, didYouMean(tool, toolModes))
	}
	if err := o.LogLevel.UnmarshalText([]byte(logLevel)); err != nil {
		return usagef("--log-level must be debug, info, warn or error, not %q%s", logLevel, didYouMean(logLevel, logLevels))
	}
	if o.Quiet && o.LogLevel < slog.LevelWarn {
		o.LogLevel = slog.LevelWarn
	}
	if o.TTL < 0 {
		return usagef("--ttl cannot be negative")
	}
	return nil
}

// setServeMemoryLimit sets the process's soft memory limit
// (debug.SetMemoryLimit) to the one memory budget of maxServedBytes bytes
// plus the server's fixed overhead (docs/serving.md#memory), unless
// GOMEMLIMIT is set: the garbage collector works harder as the heap nears
// it, so that what answers and reloads dropped is given back in time. The
// command calls it before serveRun, not serveRun itself: the limit is the
// whole process's, and a test calling serveRun would leave it on every
// test of the binary after it.
func setServeMemoryLimit(maxServedBytes int64) {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(maxServedBytes + mcpserver.MemoryOverhead)
	}
}

// serveRun serves, or with PrintConfig prints the client's configuration.
func serveRun(ctx context.Context, o *ServeOptions) error {
	if o.PrintConfig != "" {
		return printConfig(o)
	}
	var tokens []string
	var ln net.Listener
	if o.HTTP != "" {
		var err error
		if tokens, err = o.readTokens(); err != nil {
			return err
		}
		// The address is checked and bound before the catalog is read, so
		// a bad or busy --http is a usage error at once.
		if ln, err = o.listen(ctx); err != nil {
			return err
		}
		defer ln.Close()
	}
	logger := o.logger()

	c, err := o.Catalog(ctx)
	if err != nil {
		return stoppedEarly(ctx, err, logger)
	}
	srv, err := o.newServer(ctx, c, logger)
	if err != nil {
		return stoppedEarly(ctx, err, logger)
	}
	warnIfNoSkills(ctx, c, logger)
	if !o.NoWatch {
		go func() {
			if err := srv.Watch(ctx); err != nil {
				logger.Warn("watching the roots stopped", "error", err)
			}
		}()
	}
	if o.HTTP == "" {
		logger.Info("serving MCP over stdio", "workspace", c.Workspace())
		return srv.RunStdio(ctx, o.IO.In, o.IO.Out)
	}
	return o.serveHTTP(ctx, srv, ln, tokens, logger, c.Workspace())
}

// readTokens reads the bearer tokens of --auth-token-file (or
// $SKILLET_AUTH_TOKEN); none is a usage error with --listen-any unless
// --insecure-no-auth is given.
func (o *ServeOptions) readTokens() ([]string, error) {
	tokens, err := readTokens(o.AuthTokenFile)
	if err != nil {
		return nil, err
	}
	if o.ListenAny && len(tokens) == 0 && !o.InsecureNoAuth {
		return nil, usagef("--listen-any serves other machines: give --auth-token-file FILE (or set $%s), or --insecure-no-auth to serve without a token", tokenEnv)
	}
	return tokens, nil
}

// listen binds the --http address (refusing one that is not loopback
// without --listen-any), behind TLS with --tls-cert and --tls-key; every
// error is a usage error naming the flags.
func (o *ServeOptions) listen(ctx context.Context) (net.Listener, error) {
	var cfg *tls.Config
	if o.TLSCert != "" {
		cert, err := tls.LoadX509KeyPair(o.TLSCert, o.TLSKey)
		if err != nil {
			return nil, &usageError{fmt.Errorf("--tls-cert, --tls-key: %w", err)}
		}
		cfg = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12, NextProtos: []string{"http/1.1"}}
	}
	ln, err := mcpserver.Listen(ctx, o.HTTP, o.ListenAny)
	if err != nil {
		return nil, &usageError{fmt.Errorf("--http: %w", err)}
	}
	if cfg != nil {
		ln = tls.NewListener(ln, cfg)
	}
	return ln, nil
}

// logger is the server's logger on stderr, in --log-format at --log-level.
func (o *ServeOptions) logger() *slog.Logger {
	var handler slog.Handler = slog.NewTextHandler(o.IO.Err, &slog.HandlerOptions{Level: o.LogLevel})
	if o.LogFormat == "json" {
		handler = slog.NewJSONHandler(o.IO.Err, &slog.HandlerOptions{Level: o.LogLevel})
	}
	return slog.New(handler)
}

// newServer makes the MCP server of catalog c with serve's options (--ttl
// 0 meaning "immediately stale" rather than the default).
func (o *ServeOptions) newServer(ctx context.Context, c *catalog.Catalog, logger *slog.Logger) (*mcpserver.Server, error) {
	ttl := o.TTL
	if ttl == 0 {
		ttl = -1
	}
	return mcpserver.New(ctx, c, &mcpserver.Options{
		Version:           version(),
		Logger:            logger,
		Tool:              o.Tool,
		CacheTTL:          ttl,
		Poll:              o.Poll,
		PollInterval:      o.PollInterval,
		MaxServedBytes:    o.MaxServedBytes,
		InstructionsChars: o.InstructionsChars,
	})
}

// warnIfNoSkills logs, when c lists no skill, where skills sit that a flag
// would read.
func warnIfNoSkills(ctx context.Context, c *catalog.Catalog, logger *slog.Logger) {
	l, err := c.List(ctx)
	if err != nil || len(l.Skills) > 0 {
		return
	}
	for _, d := range lint.Elsewhere(l.Workspace, l.Roots) {
		logger.Warn("no skill is served", "diagnostic", d.String())
	}
}

// serveHTTP logs the URL the server answers at (the only line that gives
// the port of --http HOST:0: logged even with -q, at the lowest level the
// log shows) and serves streamable HTTP on ln until ctx ends.
func (o *ServeOptions) serveHTTP(ctx context.Context, srv *mcpserver.Server, ln net.Listener, tokens []string, logger *slog.Logger, workspace string) error {
	mode := "stateless"
	if o.Stateful {
		mode = "stateful"
	}
	scheme := "http://"
	if o.TLSCert != "" {
		scheme = "https://"
	}
	level := slog.LevelInfo
	if !logger.Enabled(ctx, level) {
		level = o.LogLevel
	}
	logger.Log(ctx, level, "serving MCP over streamable HTTP", "url", scheme+hostPort(ln.Addr())+mcpserver.Path, "mode", mode,
		"auth", len(tokens) > 0, "tokens", len(tokens), "workspace", workspace)
	return srv.Serve(ctx, ln, &mcpserver.HTTPOptions{
		Stateful: o.Stateful, MaxRequestBytes: o.MaxRequestBytes, AuthTokens: tokens,
		MaxConns: o.MaxConns, MaxSessions: o.MaxSessions, SessionTimeout: o.SessionTimeout,
		MaxConnsPerClient: o.MaxConnsPerClient, MaxStreamsPerClient: o.MaxStreamsPerClient, MaxSessionsPerClient: o.MaxSessionsPerClient,
	})
}

// hostPort prints a listener's address as a URL host.
func hostPort(a net.Addr) string {
	s := a.String()
	if strings.HasPrefix(s, "[::]") || strings.HasPrefix(s, "0.0.0.0") {
		_, port, _ := net.SplitHostPort(s)
		return "localhost:" + port
	}
	return s
}

// minTokenChars is the shortest bearer token accepted: 32 characters, 128
// bits as hex (openssl rand -hex 32 makes 64).
const minTokenChars = 32

// readTokens returns the bearer tokens from the file, else from the
// environment variable, else none. Either holds one token, or one a line
// for a team whose members each have their own (the client of the
// per-client bounds, docs/serving.md#fairness); blank lines and lines
// starting with # are skipped (splitTokens). A token file must not be
// readable by others (checkTokenPerm); each token must have at least
// minTokenChars characters and appear once. No token is ever printed:
// errors name the line.
func readTokens(file string) ([]string, error) {
	raw, from := os.Getenv(tokenEnv), "$"+tokenEnv
	if file != "" {
		b, v, err := fsx.ReadRegular(file, 64<<10) // never blocks on a FIFO
		if err != nil {
			return nil, &usageError{fmt.Errorf("--auth-token-file: %w", err)}
		}
		if err := checkTokenPerm(file, v.Mode); err != nil {
			return nil, &usageError{fmt.Errorf("--auth-token-file: %w", err)}
		}
		raw, from = string(b), "--auth-token-file "+file
	} else if raw == "" {
		return nil, nil
	}
	toks, err := splitTokens(raw)
	if err != nil {
		return nil, &usageError{fmt.Errorf("the token in %s %w", from, err)}
	}
	return toks, nil
}

// splitTokens reads the tokens of a token file: one a line, surrounding
// white space dropped, blank lines and lines starting with # skipped. Its
// errors say what is wrong and on which line (counted from 1), never
// the token: none at all, a token parseToken refuses, one shorter than
// minTokenChars, or one given twice.
func splitTokens(raw string) ([]string, error) {
	var toks []string
	seen := map[string]int{}
	for i, line := range strings.Split(raw, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		n := i + 1
		tok, ok := parseToken(line)
		switch {
		case !ok:
			return nil, fmt.Errorf("on line %d holds characters other than printable ASCII", n)
		case len(tok) < minTokenChars:
			return nil, fmt.Errorf("on line %d has %d characters; use at least %d (openssl rand -hex 32 makes one of 64)", n, len(tok), minTokenChars)
		case seen[tok] != 0:
			return nil, fmt.Errorf("on line %d is the one on line %d: give each client its own", n, seen[tok])
		}
		seen[tok] = n
		toks = append(toks, tok)
	}
	if len(toks) == 0 {
		return nil, errors.New("is empty")
	}
	return toks, nil
}

// parseToken reads a token as stored in a token file or environment
// variable: surrounding white space is dropped; an empty token or one with
// characters a header cannot carry is an error.
func parseToken(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return "", false
		}
	}
	return s, true
}

// stoppedEarly is the error of a serve that failed before serving: nil
// when SIGINT or SIGTERM (ctx) stopped it during the first load, which is
// the clean stop a signal asks for (exit 0, as once serving), not a
// failure to report as "context canceled".
func stoppedEarly(ctx context.Context, err error, logger *slog.Logger) error {
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		logger.Info("stopped before serving: a signal came during the first load")
		return nil
	}
	return err
}
