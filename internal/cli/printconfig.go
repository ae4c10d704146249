package cli

import (
	"bytes"
	"fmt"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/skillet-go/skillet/internal/outfmt"
	"github.com/skillet-go/skillet/mcpserver"
)

// A configClient writes the ready-to-paste configuration of one MCP client
// for this server: how the client starts it (stdio: command and args) or
// where it reaches it (url, with --http). Each format follows the client's
// own documentation, as of the versions named.
type configClient struct {
	name, where string // where says where the text goes (on stderr)
	write       func(b *bytes.Buffer, c serverConfig)
	// tokenEnv says the configuration reads a token from $SKILLET_AUTH_TOKEN
	// in the client's environment; note is what else the client needs.
	tokenEnv bool
	note     string
}

// configEntry is one server in the JSON formats, keys in this order.
type configEntry struct {
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	URL     string            `json:"url,omitempty"`
	HTTPURL string            `json:"httpUrl,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
}

// vscodeInput is an entry of the inputs of VS Code's mcp.json: a value it
// asks for once and keeps in its secret storage.
type vscodeInput struct {
	Type        string `json:"type"`
	ID          string `json:"id"`
	Description string `json:"description"`
	Password    bool   `json:"password"`
}

// serverConfig is what every format says.
type serverConfig struct {
	name    string   // the server's name in the client
	command string   // the absolute path of skillet
	args    []string // serve and the flags of this invocation
	url     string   // with --http: the URL to reach, "" for stdio
	// tokenFile is the absolute token file of a server that requires a
	// token (--auth-token-file), "" without one or when the token is in
	// $SKILLET_AUTH_TOKEN; token says the server requires one. The
	// token itself is never printed: each client's configuration reads
	// it where the client can (docs/mcp.md#clients-with-a-token).
	token     bool
	tokenFile string
}

// bearer is the value of the Authorization header with the token as the
// client's configuration refers to it (ref: "$VAR", "${env:VAR}", ...).
func bearer(ref string) map[string]string { return map[string]string{"Authorization": "Bearer " + ref} }

// writeShellBearer writes, when c has a token, a command line's
// --header "Authorization: Bearer ..." with the token read by the shell when
// the command runs: from the token file, else from $SKILLET_AUTH_TOKEN.
func writeShellBearer(b *bytes.Buffer, c serverConfig) {
	if !c.token {
		return
	}
	src := "$" + tokenEnv
	if c.tokenFile != "" {
		src = "$(cat " + shellQuote(c.tokenFile) + ")"
	}
	fmt.Fprintf(b, " --header \"Authorization: Bearer %s\"", src)
}

var configClients = []configClient{
	{"claude-code", "Claude Code: run this command (add --scope project to share it in .mcp.json)", func(b *bytes.Buffer, c serverConfig) {
		// claude mcp add [options] <name> <commandOrUrl> [args...]
		// (Claude Code 2.1.332, claude mcp add --help); --scope project
		// writes .mcp.json in the current folder for the whole team.
		if c.url != "" {
			fmt.Fprintf(b, "claude mcp add --transport http %s %s", shellQuote(c.name), shellQuote(c.url))
			// The shell reads the token when the command runs; Claude
			// Code keeps the header in its configuration.
			writeShellBearer(b, c)
			b.WriteString("\n")
			return
		}
		fmt.Fprintf(b, "claude mcp add %s -- %s\n", shellQuote(c.name), shellJoin(append([]string{c.command}, c.args...)))
	}, false, ""},
	{"codex", "Codex: add this table to ~/.codex/config.toml", func(b *bytes.Buffer, c serverConfig) {
		// [mcp_servers.NAME] with command and args, or url for streamable
		// HTTP (Codex 0.171.0; its configuration reference,
		// https://github.com/openai/codex/blob/main/docs/config.md).
		fmt.Fprintf(b, "[mcp_servers.%s]\n", tomlKey(c.name))
		if c.url != "" {
			fmt.Fprintf(b, "url = %s\n", strconv.Quote(c.url))
			if c.token {
				// Codex reads the token from the variable named when it
				// starts the server's connection.
				fmt.Fprintf(b, "bearer_token_env_var = %s\n", strconv.Quote(tokenEnv))
			}
			return
		}
		fmt.Fprintf(b, "command = %s\nargs = [", strconv.Quote(c.command))
		for i, a := range c.args {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strconv.Quote(a))
		}
		b.WriteString("]\n")
	}, true, ""},
	{"gemini", "Gemini CLI: merge this into .gemini/settings.json (or ~/.gemini/settings.json)", func(b *bytes.Buffer, c serverConfig) {
		// mcpServers.NAME with command and args, or httpUrl for
		// streamable HTTP (Gemini CLI 0.61.0, docs/tools/mcp-server.md).
		entry := configEntry{Command: c.command, Args: c.args}
		if c.url != "" {
			entry = configEntry{HTTPURL: c.url}
			if c.token {
				// Gemini CLI expands $VAR in settings.json.
				entry.Headers = bearer("$" + tokenEnv)
			}
		}
		_ = outfmt.JSON(b, map[string]any{"mcpServers": map[string]any{c.name: entry}})
	}, true, "Gemini CLI starts the servers of a project's .gemini/settings.json only in a folder the user trusts (it asks on its first start there and keeps the answer in ~/.gemini/trustedFolders.json; GEMINI_CLI_TRUST_WORKSPACE=true trusts it in CI); until then /mcp lists skillet as disabled. ~/.gemini/settings.json applies in every folder"},
	{"vscode", "VS Code with Copilot: merge this into .vscode/mcp.json", func(b *bytes.Buffer, c serverConfig) {
		// servers.NAME with type stdio (command, args) or http (url)
		// (VS Code's MCP configuration reference).
		entry := configEntry{Type: "stdio", Command: c.command, Args: c.args}
		config := map[string]any{}
		if c.url != "" {
			entry = configEntry{Type: "http", URL: c.url}
			if c.token {
				// VS Code asks for the token once and keeps it in its
				// secret storage (an input of type promptString).
				entry.Headers = bearer("${input:skillet-token}")
				config["inputs"] = []vscodeInput{{Type: "promptString", ID: "skillet-token", Description: "skillet serve's bearer token", Password: true}}
			}
		}
		config["servers"] = map[string]any{c.name: entry}
		_ = outfmt.JSON(b, config)
	}, false, ""},
	{"cursor", "Cursor: merge this into .cursor/mcp.json (or ~/.cursor/mcp.json)", func(b *bytes.Buffer, c serverConfig) {
		// mcpServers.NAME with command and args, or url (Cursor's MCP
		// documentation).
		entry := configEntry{Command: c.command, Args: c.args}
		if c.url != "" {
			entry = configEntry{URL: c.url}
			if c.token {
				// Cursor expands ${env:VAR} in mcp.json.
				entry.Headers = bearer("${env:" + tokenEnv + "}")
			}
		}
		_ = outfmt.JSON(b, map[string]any{"mcpServers": map[string]any{c.name: entry}})
	}, true, ""},
	{"inspector", "MCP Inspector CLI (@modelcontextprotocol/inspector 2.12.0; npx @modelcontextprotocol/inspector in place of mcp-inspector): run this command; --method says what to call", func(b *bytes.Buffer, c serverConfig) {
		// mcp-inspector --cli [options] [target...] (inspector 2.12.0,
		// mcp-inspector --cli --help): --server-url with --transport http
		// for streamable HTTP, --header for each header; a stdio server's
		// command after --, so that its flags stay its own.
		if c.url != "" {
			fmt.Fprintf(b, "mcp-inspector --cli --method skills/list --transport http --server-url %s", shellQuote(c.url))
			writeShellBearer(b, c)
			b.WriteString("\n")
			return
		}
		fmt.Fprintf(b, "mcp-inspector --cli --method skills/list -- %s\n", shellJoin(append([]string{c.command}, c.args...)))
	}, false, "the inspector advertises the Skills Extension, so with --tool auto its tools/list holds no use_skill (the server logs why): skills/list, skills/get --uri and resources/read --uri serve the skills; serve --tool always offers the tool as well"},
}

// configClientNames lists the names --print-config takes.
func configClientNames() []string {
	var names []string
	for _, c := range configClients {
		names = append(names, c.name)
	}
	return names
}

// clientAliases are other names people type for a client.
var clientAliases = map[string]string{
	"claude": "claude-code", "claudecode": "claude-code", "gemini-cli": "gemini",
	"code": "vscode", "vs-code": "vscode", "copilot": "vscode",
	"mcp-inspector": "inspector", "inspector-cli": "inspector",
}

// lookupClient returns the --print-config client named typed (case and
// aliases aside), or a usage error that suggests the nearest.
func lookupClient(typed string) (string, error) {
	name := strings.ToLower(strings.TrimSpace(typed))
	if a, ok := clientAliases[name]; ok {
		name = a
	}
	if slices.Contains(configClientNames(), name) {
		return name, nil
	}
	msg := fmt.Sprintf("--print-config: unknown client %q (known: %s)", typed, strings.Join(configClientNames(), ", "))
	if near := nearest(name, configClientNames()); near != "" {
		msg += fmt.Sprintf("; did you mean %q?", near)
	}
	return "", usagef("%s", msg)
}

// printConfig writes the configuration of the client o.PrintConfig for
// the server o.ConfigArgs start: the same workspace (absolute), roots
// (absolute) and flags, less --print-config itself.
func printConfig(o *ServeOptions) error {
	i := slices.IndexFunc(configClients, func(c configClient) bool { return c.name == o.PrintConfig })
	if i < 0 {
		return fmt.Errorf("--print-config: no client %q", o.PrintConfig)
	}
	if _, err := o.Config(); err != nil {
		return err
	}
	if _, port, err := net.SplitHostPort(o.HTTP); err == nil && port == "0" {
		// Port 0 is picked when the server starts: no URL to print yet.
		return usagef("--print-config needs the port the server will listen on, not --http %s (port 0 picks a free one only when the server starts)", o.HTTP)
	}
	c := serveConfig(o)
	var b bytes.Buffer
	configClients[i].write(&b, c)
	// Stdout holds only what is pasted; the hints go to stderr.
	fmt.Fprintf(o.IO.Err, "# %s\n", configClients[i].where)
	if c.url != "" {
		fmt.Fprintf(o.IO.Err, "# the client connects to a running server: start it with %s\n", shellJoin(append([]string{c.command}, c.args...)))
		if c.token && configClients[i].tokenEnv {
			// The token is a secret: the configuration names the variable
			// the client reads it from, never the token.
			src := "the token"
			if c.tokenFile != "" {
				src = "\"$(cat " + shellQuote(c.tokenFile) + ")\""
			}
			fmt.Fprintf(o.IO.Err, "# the server requires a token: the client sends it from $%s; set it where the client starts (export %s=%s)\n", tokenEnv, tokenEnv, src)
		}
	}
	if configClients[i].note != "" {
		fmt.Fprintf(o.IO.Err, "# %s\n", configClients[i].note)
	}
	_, err := o.IO.Out.Write(b.Bytes())
	return err
}

// invocationArgs are the arguments that start the server the invocation cmd
// describes: serve, --workspace (absolute), then every flag given (roots
// the configuration file and the token file absolute) but --print-config
// and --help.
func invocationArgs(cmd *cobra.Command, g *globals) ([]string, error) {
	ws := g.workspace
	if ws == "" {
		ws = "."
	}
	ws, err := filepath.Abs(ws)
	if err != nil {
		return nil, err
	}
	args := []string{"serve", "--workspace", ws}
	abs := func(p string) string {
		if a, err := filepath.Abs(p); err == nil {
			return a
		}
		return p
	}
	visit := func(f *pflag.Flag) {
		switch f.Name {
		case "print-config", "workspace", "help":
			return
		case "root":
			for _, r := range g.roots {
				args = append(args, "--root", abs(r))
			}
			return
		case "config":
			args = append(args, "--config", abs(g.config))
			return
		case "auth-token-file", "tls-cert", "tls-key":
			// Like a root: the client may start the server from another
			// folder, where a relative token file is another file or none.
			args = append(args, "--"+f.Name, abs(f.Value.String()))
			return
		}
		if f.Value.Type() == "bool" {
			args = append(args, "--"+f.Name)
			if f.Value.String() != "true" {
				args[len(args)-1] += "=" + f.Value.String()
			}
			return
		}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			for _, v := range sv.GetSlice() {
				args = append(args, "--"+f.Name, v)
			}
			return
		}
		args = append(args, "--"+f.Name, f.Value.String())
	}
	changed := func(f *pflag.Flag) {
		if f.Changed {
			visit(f)
		}
	}
	cmd.InheritedFlags().VisitAll(changed)
	cmd.LocalFlags().VisitAll(changed)
	return args, nil
}

// serveConfig is the configuration of the server o describes: this
// executable (symlinks resolved), o.ConfigArgs, and with --http the URL to
// reach.
func serveConfig(o *ServeOptions) serverConfig {
	exe, err := os.Executable()
	if err != nil {
		exe = "skillet"
	} else if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	c := serverConfig{name: "skillet", command: exe, args: o.ConfigArgs}
	if o.HTTP != "" && (o.AuthTokenFile != "" || os.Getenv(tokenEnv) != "") {
		c.token = true
		if o.AuthTokenFile != "" {
			c.tokenFile, _ = filepath.Abs(o.AuthTokenFile)
			// A file of a team's tokens is not one client's: each member
			// sends their own from the environment.
			if toks, err := readTokens(o.AuthTokenFile); err == nil && len(toks) > 1 {
				c.tokenFile = ""
			}
		}
	}
	if o.HTTP != "" {
		host := o.HTTP
		if h, port, err := net.SplitHostPort(o.HTTP); err == nil {
			if h == "" || h == "0.0.0.0" || h == "::" {
				h = "localhost"
			}
			if _, err := netip.ParseAddr(h); err != nil {
				// A name in the URL in lower case: the server's check of
				// the Host header takes localhost, not LOCALHOST.
				h = strings.ToLower(h)
			}
			host = net.JoinHostPort(h, port)
		}
		c.url = "http://" + host + mcpserver.Path
		if o.TLSCert != "" {
			c.url = "https://" + host + mcpserver.Path
		}
	}
	return c
}

// tomlKey is a TOML table key: bare when it can be, quoted otherwise.
func tomlKey(k string) string {
	for _, r := range k {
		if !(r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return strconv.Quote(k)
		}
	}
	return k
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=@%+,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}
