package cli

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/mcpserver"
)

type serveOptions struct {
	printConfig     string
	http            string
	stateful        bool
	listenAny       bool
	noWatch         bool
	poll            bool
	pollInterval    time.Duration
	ttl             time.Duration
	tool            string
	logLevel        string
	logFormat       string
	maxRequestBytes int64
	authTokenFile   string
	insecureNoAuth  bool
	maxConns        int
	maxSessions     int
	sessionTimeout  time.Duration
	maxServedBytes  int64
	instrChars      int
}

// tokenEnv is the environment variable that may hold the bearer token.
const tokenEnv = "SKILLET_AUTH_TOKEN"

func newServeCmd(f *Factory, io *IO) *cobra.Command {
	o := &serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the skills to MCP clients (stdio, or streamable HTTP with --http)",
		Long: `Serve the skills found in the roots as an MCP server (docs/mcp.md).

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
carry "Authorization: Bearer TOKEN"; --listen-any refuses to start without
a token unless --insecure-no-auth is given. GET /metrics serves Prometheus
metrics; --log-format json writes structured logs.

The roots are watched: a skill added, edited or removed on disk reaches
connected clients without a restart. Logs go to stderr, never stdout.
SIGINT or SIGTERM stops the server once the requests in flight are answered.`,
		Example: `  skillet serve --no-user --root ./skills
  skillet serve --http localhost:8080
  skillet serve --http :8080 --listen-any --auth-token-file /run/secrets/token`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("print-config") {
				return printConfig(cmd, f, io, o)
			}
			return runServe(cmd.Context(), f, io, o)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.printConfig, "print-config", "", "print the configuration that makes `CLIENT` start this server with these flags, and exit: "+strings.Join(configClientNames(), ", "))
	_ = cmd.RegisterFlagCompletionFunc("print-config", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return configClientNames(), cobra.ShellCompDirectiveNoFileComp
	})
	fl.StringVar(&o.http, "http", "", "serve streamable HTTP on `HOST:PORT` (for example localhost:8080; port 0 picks one) instead of stdio")
	fl.BoolVar(&o.stateful, "stateful", false, "keep a session per HTTP client, so reloads are pushed as notifications")
	fl.BoolVar(&o.listenAny, "listen-any", false, "allow an --http address that listens on every network interface")
	fl.BoolVar(&o.noWatch, "no-watch", false, "do not watch the roots for changes")
	fl.BoolVar(&o.poll, "poll", false, "poll the roots for changes instead of using file system notifications")
	fl.DurationVar(&o.pollInterval, "poll-interval", 2*time.Second, "how often to poll, with --poll or where notifications fail")
	fl.DurationVar(&o.ttl, "ttl", time.Minute, "how long clients may cache listings and reads (ttlMs, protocol 2026-07-28)")
	fl.StringVar(&o.tool, "tool", "auto", "when to offer the load tool: auto (to clients without the Skills Extension), always, never")
	fl.StringVar(&o.logLevel, "log-level", "info", "log level on stderr: debug, info, warn, error")
	fl.Int64Var(&o.maxRequestBytes, "max-request-bytes", 0, "the largest HTTP request body accepted (default 4 MiB)")
	fl.StringVar(&o.logFormat, "log-format", "text", "log format on stderr: text or json")
	fl.StringVar(&o.authTokenFile, "auth-token-file", "", "require \"Authorization: Bearer TOKEN\" with the token in `FILE` (or in $"+tokenEnv+"): at least 32 characters, a file only its owner reads")
	fl.BoolVar(&o.insecureNoAuth, "insecure-no-auth", false, "allow --listen-any without a token")
	fl.IntVar(&o.maxConns, "max-conns", mcpserver.DefaultMaxConns, "the most HTTP connections served at once")
	fl.IntVar(&o.maxSessions, "max-sessions", mcpserver.DefaultMaxSessions, "the most stateful sessions kept (the one idle longest is closed first)")
	fl.DurationVar(&o.sessionTimeout, "session-timeout", mcpserver.DefaultSessionTimeout, "close a stateful session idle for that long (an open notification stream is not idle)")
	fl.Int64Var(&o.maxServedBytes, "max-served-bytes", mcpserver.DefaultMaxServedBytes, "the memory budget of served files, in bytes as sent; files past it are served as too large")
	fl.IntVar(&o.instrChars, "instructions-chars", mcpserver.DefaultInstructionsChars, "the budget of the server's instructions in characters, which clients cut (Claude Code keeps 4,096); -1 for none")
	_ = cmd.RegisterFlagCompletionFunc("tool", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"auto", "always", "never"}, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

func runServe(ctx context.Context, f *Factory, io *IO, o *serveOptions) error {
	if o.http == "" && (o.stateful || o.listenAny || o.maxRequestBytes != 0 || o.authTokenFile != "" || o.insecureNoAuth) {
		return usagef("--stateful, --listen-any, --max-request-bytes, --auth-token-file and --insecure-no-auth need --http")
	}
	if o.maxConns < 1 || o.maxSessions < 1 || o.sessionTimeout <= 0 || o.maxServedBytes < 1 {
		return usagef("--max-conns, --max-sessions, --session-timeout and --max-served-bytes must be positive")
	}
	token := ""
	if o.http != "" {
		var err error
		if token, err = readToken(o.authTokenFile); err != nil {
			return err
		}
		if o.listenAny && token == "" && !o.insecureNoAuth {
			return usagef("--listen-any serves other machines: give --auth-token-file FILE (or set $%s), or --insecure-no-auth to serve without a token", tokenEnv)
		}
	}
	if o.logFormat != "text" && o.logFormat != "json" {
		return usagef("--log-format must be text or json, not %q", o.logFormat)
	}
	if o.maxRequestBytes < 0 {
		return usagef("--max-request-bytes must be positive")
	}
	// The address is checked and bound before the catalog is read, so a
	// bad or busy --http is a usage error at once.
	var ln net.Listener
	if o.http != "" {
		var err error
		if ln, err = mcpserver.Listen(ctx, o.http, o.listenAny); err != nil {
			return &usageError{fmt.Errorf("--http: %w", err)}
		}
		defer ln.Close()
	}
	tool, ok := mcpserver.ParseToolMode(o.tool)
	if !ok {
		return usagef("--tool must be auto, always or never, not %q", o.tool)
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(o.logLevel)); err != nil {
		return usagef("--log-level must be debug, info, warn or error, not %q", o.logLevel)
	}
	if f.Quiet() && level < slog.LevelWarn {
		level = slog.LevelWarn
	}
	if o.ttl < 0 {
		return usagef("--ttl cannot be negative")
	}
	var handler slog.Handler = slog.NewTextHandler(io.Err, &slog.HandlerOptions{Level: level})
	if o.logFormat == "json" {
		handler = slog.NewJSONHandler(io.Err, &slog.HandlerOptions{Level: level})
	}
	logger := slog.New(handler)

	c, err := f.IndexedCatalog(ctx)
	if err != nil {
		return err
	}
	ttl := o.ttl
	if ttl == 0 {
		ttl = -1 // "immediately stale" rather than the default
	}
	srv, err := mcpserver.New(ctx, c, &mcpserver.Options{
		Version:           version(),
		Logger:            logger,
		Tool:              tool,
		CacheTTL:          ttl,
		Poll:              o.poll,
		PollInterval:      o.pollInterval,
		MaxServedBytes:    o.maxServedBytes,
		InstructionsChars: o.instrChars,
	})
	if err != nil {
		return err
	}
	if !o.noWatch {
		go func() {
			if err := srv.Watch(ctx); err != nil {
				logger.Warn("watching the roots stopped", "error", err)
			}
		}()
	}

	if o.http == "" {
		logger.Info("serving MCP over stdio", "workspace", c.Workspace())
		return srv.RunStdio(ctx, io.In, io.Out)
	}
	mode := "stateless"
	if o.stateful {
		mode = "stateful"
	}
	logger.Info("serving MCP over streamable HTTP", "url", "http://"+hostPort(ln.Addr())+mcpserver.Path, "mode", mode,
		"auth", token != "", "workspace", c.Workspace())
	return srv.Serve(ctx, ln, &mcpserver.HTTPOptions{
		Stateful: o.stateful, MaxRequestBytes: o.maxRequestBytes, AuthToken: token,
		MaxConns: o.maxConns, MaxSessions: o.maxSessions, SessionTimeout: o.sessionTimeout,
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

// readToken returns the bearer token from the file, else from the
// environment variable, else "". A token file must not be readable by
// others (checkTokenPerm); a token must have at least minTokenChars
// characters. The token itself is never printed.
func readToken(file string) (string, error) {
	raw, from := os.Getenv(tokenEnv), "$"+tokenEnv
	if file != "" {
		b, v, err := fsx.ReadRegular(file, 64<<10) // never blocks on a FIFO
		if err != nil {
			return "", &usageError{fmt.Errorf("--auth-token-file: %w", err)}
		}
		if err := checkTokenPerm(file, v.Mode); err != nil {
			return "", &usageError{fmt.Errorf("--auth-token-file: %w", err)}
		}
		raw, from = string(b), "--auth-token-file "+file
	} else if raw == "" {
		return "", nil
	}
	tok, ok := mcpserver.ParseToken(raw)
	if !ok {
		return "", usagef("the token in %s is empty or holds characters other than printable ASCII", from)
	}
	if len(tok) < minTokenChars {
		return "", usagef("the token in %s has %d characters; use at least %d (openssl rand -hex 32 makes one of 64)", from, len(tok), minTokenChars)
	}
	return tok, nil
}
