//go:build unix

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/skillet-go/skillet/internal/hostws"
)

// host is one agent: how to ask its version and how to list its skills
// once in a sandbox.
type host struct {
	name    string
	command []string // the listing, as recorded
	notes   string
	// versionArgs prints the version; versionRe picks it out.
	versionArgs []string
	versionRe   *regexp.Regexp
	list        func(ctx context.Context, e *runEnv, sb *hostws.Sandbox, ws *hostws.Workspace, n int) ([]entry, error)
	// builtinsByBaseline: the host does not mark its own skills, so a run
	// on an empty workspace lists them, and entries equal to those are
	// treated as built in.
	builtinsByBaseline bool
	// parse and raw name the parser of the agent's output and the file
	// --raw keeps it in, for --from-raw.
	parse func([]byte) ([]entry, error)
	raw   string

	ver      string
	baseline []entry
}

func hostByName(n string) *host {
	for _, h := range hosts {
		if h.name == n {
			return h
		}
	}
	return nil
}

func (h *host) version(ctx context.Context, e *runEnv) (string, error) {
	if _, err := os.Stat(filepath.Join(e.bin, h.versionArgs[0])); err != nil {
		return "", err
	}
	sb, cleanup, err := e.materialize(&hostws.Workspace{Name: "version", Cwd: "proj"})
	if err != nil {
		return "", err
	}
	defer cleanup()
	out, se, err := e.exec(ctx, sb, e.sandboxEnv(sb), h.versionArgs...)
	if err != nil {
		return "", fmt.Errorf("%v: %w: %s", h.versionArgs, err, se)
	}
	m := h.versionRe.FindStringSubmatch(string(out) + string(se)) // pi prints it on standard error
	if m == nil {
		return "", fmt.Errorf("%v printed no version: %q", h.versionArgs, clip(string(out)))
	}
	return m[1], nil
}

var semver = regexp.MustCompile(`(\d+\.\d+\.\d+)`)

// listing runs args in sb and parses its standard output with parse.
func listing(parse func([]byte) ([]entry, error), extraEnv func(sb *hostws.Sandbox) []string, args ...string) func(context.Context, *runEnv, *hostws.Sandbox, *hostws.Workspace, int) ([]entry, error) {
	return func(ctx context.Context, e *runEnv, sb *hostws.Sandbox, ws *hostws.Workspace, n int) ([]entry, error) {
		var extra []string
		if extraEnv != nil {
			extra = extraEnv(sb)
		}
		out, se, err := e.exec(ctx, sb, e.sandboxEnv(sb, extra...), args...)
		e.keepRaw(args[0], ws.Name, n, "stdout", out)
		e.keepRaw(args[0], ws.Name, n, "stderr", se)
		if err != nil {
			return nil, fmt.Errorf("%s: %w: %s", strings.Join(args, " "), err, clip(string(se)))
		}
		return parse(out)
	}
}

var hosts = []*host{
	{
		name:        "claude",
		command:     []string{"claude", "-p", "hello"},
		notes:       "Skills read from the first request Claude Code sends to the model (ANTHROPIC_BASE_URL pointed at a localhost recorder that answers with a minimal streaming reply): the list after \"The following skills are available for use with the Skill tool:\". Claude Code gives no paths. Built-in skills (those an empty workspace lists) are left out.",
		versionArgs: []string{"claude", "--version"},
		versionRe:   semver,
		list: viaModel(strings.TrimSpace(claudeListHead), parseClaude, nil, func(url string) []string {
			return []string{
				"ANTHROPIC_API_KEY=sk-ant-offline-recorder",
				"ANTHROPIC_BASE_URL=" + url,
				"DISABLE_TELEMETRY=1",
				"DISABLE_AUTOUPDATER=1",
				"DISABLE_ERROR_REPORTING=1",
				"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
			}
		}, "claude", "-p", "hello"),
		builtinsByBaseline: true,
		parse:              parseClaude,
		raw:                "request.json",
	},
	{
		name:        "codex",
		command:     []string{"codex", "debug", "prompt-input"},
		notes:       "Skills read from the <skills_instructions> developer message of codex debug prompt-input (what the model gets). Codex's bundled system skills ($CODEX_HOME/skills/.system) are left out.",
		versionArgs: []string{"codex", "--version"},
		versionRe:   semver,
		list:        listing(parseCodex, nil, "codex", "debug", "prompt-input"),
		parse:       parseCodex,
		raw:         "stdout",
	},
	{
		name:        "opencode",
		command:     []string{"opencode", "debug", "skill"},
		notes:       "opencode debug skill: the skills OpenCode registered, with the description as written in SKILL.md (the skill tool shows the model the same). Built-in skills (location <built-in>) are left out.",
		versionArgs: []string{"opencode", "--version"},
		versionRe:   semver,
		list: listing(parseOpenCode, func(*hostws.Sandbox) []string {
			return []string{"OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1"}
		}, "opencode", "debug", "skill"),
		parse: parseOpenCode,
		raw:   "stdout",
	},
	{
		name:        "gemini",
		command:     []string{"gemini", "skills", "list"},
		notes:       "gemini skills list, with the sandbox's project trusted in ~/.gemini/trustedFolders.json (project skills are shown only for a trusted folder). Built-in skills are not listed without --all.",
		versionArgs: []string{"gemini", "--version"},
		versionRe:   semver,
		list: func(ctx context.Context, e *runEnv, sb *hostws.Sandbox, ws *hostws.Workspace, n int) ([]entry, error) {
			if err := trustGemini(sb); err != nil {
				return nil, err
			}
			return listing(parseGemini, func(*hostws.Sandbox) []string {
				return []string{"GEMINI_CLI_NO_RELAUNCH=true", "GEMINI_TELEMETRY_ENABLED=false"}
			}, "gemini", "skills", "list")(ctx, e, sb, ws, n)
		},
		parse: parseGemini,
		raw:   "stdout",
	},
	{
		name:        "qwen",
		command:     []string{"qwen", "-p", "hello", "--auth-type", "openai"},
		notes:       "Skills read from the first request Qwen Code sends to the model (OPENAI_BASE_URL pointed at a localhost recorder): the <available_skills> block. Qwen Code gives each skill's level (project, user, bundled) instead of a path and appends \" (LEVEL)\" to each description; the recorder takes that suffix off and XML-unescapes. Bundled skills are left out.",
		versionArgs: []string{"qwen", "--version"},
		versionRe:   semver,
		list: viaModel("<available_skills>", parseAvailableSkills, nil, func(url string) []string {
			return []string{"OPENAI_API_KEY=sk-offline-recorder", "OPENAI_BASE_URL=" + url + "/v1", "OPENAI_MODEL=offline"}
		}, "qwen", "-p", "hello", "--auth-type", "openai"),
		parse: parseAvailableSkills,
		raw:   "request.json",
	},
	{
		name:        "pi",
		command:     []string{"pi", "-p", "hello", "--provider", "offline", "--model", "offline", "--no-session", "--offline"},
		notes:       "Skills read from the system prompt pi sends to the model (a provider \"offline\" in ~/.pi/agent/models.json pointed at a localhost recorder): the <available_skills> block, XML-unescaped.",
		versionArgs: []string{"pi", "--version"},
		versionRe:   semver,
		list: viaModel("<available_skills>", parseAvailableSkills, func(sb *hostws.Sandbox, url string) error {
			file := filepath.Join(sb.Home, ".pi", "agent", "models.json")
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				return err
			}
			cfg := map[string]any{"providers": map[string]any{"offline": map[string]any{
				"baseUrl": url + "/v1", "api": "openai-completions", "apiKey": "offline",
				"compat": map[string]any{"supportsDeveloperRole": false, "supportsReasoningEffort": false},
				"models": []any{map[string]any{"id": "offline"}},
			}}}
			data, _ := json.Marshal(cfg)
			return os.WriteFile(file, data, 0o644)
		}, func(string) []string { return []string{"PI_OFFLINE=1"} }, "pi", "-p", "hello", "--provider", "offline", "--model", "offline", "--no-session", "--offline"),
		parse: parseAvailableSkills,
		raw:   "request.json",
	},
	{
		name:        "copilot",
		command:     []string{"copilot", "skill", "list", "--json"},
		notes:       "copilot skill list --json; the path Copilot gives is the skill's folder. Built-in skills (source builtin) are left out.",
		versionArgs: []string{"copilot", "--version"},
		versionRe:   semver,
		list:        listing(parseCopilot, nil, "copilot", "skill", "list", "--json"),
		parse:       parseCopilot,
		raw:         "stdout",
	},
	{
		name:        "amp",
		command:     []string{"amp", "skill", "list", "--json"},
		notes:       "amp skill list --json with a dummy AMP_API_KEY and AMP_URL at a closed localhost port (no account is reached); the path Amp gives is the skill's folder (baseDir). Built-in skills (source builtin) are left out.",
		versionArgs: []string{"amp", "--version"},
		versionRe:   regexp.MustCompile(`(\d+\.\d+\.\d+\S*)`),
		list: listing(parseAmp, func(*hostws.Sandbox) []string {
			return []string{"AMP_API_KEY=sk-amp-offline-recorder", "AMP_URL=http://127.0.0.1:9", "AMP_SKIP_UPDATE_CHECK=1"}
		}, "amp", "skill", "list", "--json"),
		parse: parseAmp,
		raw:   "stdout",
	},
	{
		name:        "kilo",
		command:     []string{"kilo", "debug", "skill"},
		notes:       "kilo debug skill (Kilo CLI, an OpenCode fork): the skills Kilo registered, with the description as written in SKILL.md. Built-in skills (location builtin) are left out.",
		versionArgs: []string{"kilo", "--version"},
		versionRe:   semver,
		list: listing(parseOpenCode, func(*hostws.Sandbox) []string {
			return []string{"KILO_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_MODELS_FETCH=1", "KILO_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1"}
		}, "kilo", "debug", "skill"),
		parse: parseOpenCode,
		raw:   "stdout",
	},
}

// viaModel lists the skills an agent puts in its first model request:
// the agent's API base URL points at the recorder's localhost server,
// which answers with a minimal reply; once a request holding marker has
// arrived the agent's work is done and it is stopped. setup prepares the
// sandbox (a provider config), env gives the variables for the base URL.
func viaModel(marker string, parse func([]byte) ([]entry, error), setup func(sb *hostws.Sandbox, url string) error, env func(url string) []string, args ...string) func(context.Context, *runEnv, *hostws.Sandbox, *hostws.Workspace, int) ([]entry, error) {
	return func(ctx context.Context, e *runEnv, sb *hostws.Sandbox, ws *hostws.Workspace, n int) ([]entry, error) {
		token, done, wait := e.srv.expect(marker)
		url := e.srv.url + "/" + token
		if setup != nil {
			if err := setup(sb, url); err != nil {
				return nil, err
			}
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go func() {
			select {
			case <-done:
				time.Sleep(200 * time.Millisecond) // let the reply go out
				cancel()
			case <-ctx.Done():
			}
		}()
		_, se, err := e.exec(ctx, sb, e.sandboxEnv(sb, env(url)...), args...)
		bodies := wait()
		e.keepRaw(args[0], ws.Name, n, "stderr", se)
		if len(bodies) == 0 {
			return nil, fmt.Errorf("%s sent no request to the model (exit %v): %s", args[0], err, clip(string(se)))
		}
		// The request that carries the list (the main turn); a side request
		// (a title, a quota check) may come first.
		body := bodies[0]
		found := false
		for _, b := range bodies {
			if strings.Contains(string(b), marker) {
				body, found = b, true
				break
			}
		}
		e.keepRaw(args[0], ws.Name, n, "request.json", body)
		if !found {
			// No skill at all: some agents leave the whole list out.
			return nil, nil
		}
		return parse(body)
	}
}

// trustGemini marks the sandbox root (and so every folder below it) as
// trusted for Gemini CLI, unless the workspace wrote its own trust file.
func trustGemini(sb *hostws.Sandbox) error {
	file := filepath.Join(sb.Home, ".gemini", "trustedFolders.json")
	if _, err := os.Stat(file); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	data, _ := json.Marshal(map[string]string{sb.Root: "TRUST_PARENT", filepath.Join(sb.Root, "proj"): "TRUST_FOLDER", sb.Cwd: "TRUST_FOLDER"})
	return os.WriteFile(file, data, 0o644)
}

// setProcessGroup makes the agent the leader of its own process group so
// that a timeout ends its children too.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
