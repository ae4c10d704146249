package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillet-go/skillet/internal/testcorpus"
)

// The tests here drive skillet serve with clients people use: the
// official inspector's CLI, and the coding agents Claude Code, Gemini CLI
// and Codex with their model requests sent to a recorder of the test's
// own on 127.0.0.1 (no model is reached, the keys are dummies), asserting
// what reaches the model. They skip with a message where Node, npm or the
// registry is missing; .ci/node-install.sh installs the packages before
// the tests in CI.

// agentsSetup installs the agents of testdata/node/agents/package.json
// and returns the folder of their executables (node_modules/.bin).
func agentsSetup(t *testing.T) string {
	t.Helper()
	nodeSetup(t) // the same checks: Node present, not -short, not -race
	dir := npmInstall(t, "testdata/node/agents/package.json", "node-agents-", os.Getenv("SKILLET_AGENTS_DIR"))
	return filepath.Join(dir, "node_modules", ".bin")
}

// agentBinaries returns the installed agent client's executable, skipping
// the test when it is not installed, and skillet's.
func agentBinaries(t *testing.T, name string) (agent, skillet string) {
	t.Helper()
	agent = filepath.Join(agentsSetup(t), name)
	if _, err := os.Stat(agent); err != nil {
		t.Skipf("%s not installed: %v", name, err)
	}
	return agent, skilletBinary(t)
}

// agentHome returns an isolated home folder for an agent client and the
// path of the project folder in it (not created).
func agentHome(t *testing.T) (home, ws string) {
	home = t.TempDir()
	return home, filepath.Join(home, "project")
}

// checkReached logs how many of the skill names reached the model request
// of client, and fails, when all are wanted, naming those that did not.
func checkReached(t *testing.T, client string, names, found []string, all bool) {
	t.Helper()
	t.Logf("%s: %d/%d skill names reached the model request", client, len(found), len(names))
	if all && len(found) != len(names) {
		t.Errorf("names that did not reach the model: %v", missing(names, found))
	}
}

// agentCorpus returns the roots of the skills the agents are given: two
// published collections, anthropics-skills (12 skills) and
// obra-superpowers (14), and their names.
func agentCorpus(t *testing.T) (roots, names []string) {
	t.Helper()
	corpus := testcorpus.Dir(t)
	for _, rel := range []string{"anthropics-skills/skills", "obra-superpowers/skills"} {
		root := filepath.Join(corpus, filepath.FromSlash(rel))
		entries, err := os.ReadDir(root)
		if err != nil {
			t.Skipf("corpus collection %s: %v", rel, err)
		}
		for _, e := range entries {
			if _, err := os.Stat(filepath.Join(root, e.Name(), "SKILL.md")); err == nil {
				names = append(names, e.Name())
			}
		}
		roots = append(roots, root)
	}
	return roots, names
}

// serveArgs are the arguments of skillet serve over the roots.
func serveArgs(ws string, roots []string, extra ...string) []string {
	args := []string{"serve", "-w", ws, "--no-user", "--no-watch", "-q"}
	for _, r := range roots {
		args = append(args, "--root", r)
	}
	return append(args, extra...)
}

// offline keeps the agents on this machine: what they would send anywhere
// but the recorder (update checks, telemetry) goes to a proxy address on
// which nothing listens, and localhost is reached directly.
var offline = []string{
	"HTTP_PROXY=http://127.0.0.1:9", "HTTPS_PROXY=http://127.0.0.1:9", "ALL_PROXY=http://127.0.0.1:9",
	"http_proxy=http://127.0.0.1:9", "https_proxy=http://127.0.0.1:9", "all_proxy=http://127.0.0.1:9",
	"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
	"DISABLE_TELEMETRY=1", "DO_NOT_TRACK=1",
}

// runAgent runs an agent, bounded in time, in dir with env added to a
// minimal environment, and returns its combined output.
func runAgent(t *testing.T, timeout time.Duration, dir string, env []string, name string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(append([]string{"PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "TERM=dumb", "CI=true", "NO_COLOR=1"}, offline...), env...)
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// recorder stands in for a model provider on 127.0.0.1: it records every
// request body and answers each API the agents speak with a minimal valid
// reply ("ok"): Anthropic's Messages (streamed or not), Gemini's
// generateContent and streamGenerateContent, OpenAI's Responses (streamed).
type recorder struct {
	srv    *httptest.Server
	mu     sync.Mutex
	bodies []recorded
}

type recorded struct {
	path string
	body string
}

func newRecorder(t *testing.T) *recorder {
	r := &recorder{}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *recorder) requests() []recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]recorded(nil), r.bodies...)
}

func (r *recorder) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(req.Body, 64<<20))
	r.mu.Lock()
	r.bodies = append(r.bodies, recorded{req.URL.Path + "?" + req.URL.RawQuery, string(body)})
	r.mu.Unlock()
	path := req.URL.Path
	sse := func(events ...[2]any) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, e := range events {
			data, _ := json.Marshal(e[1])
			if name, _ := e[0].(string); name != "" {
				fmt.Fprintf(w, "event: %s\n", name)
			}
			fmt.Fprintf(w, "data: %s\n\n", data)
		}
	}
	reply := func(v any) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(v)
	}
	switch {
	case strings.Contains(path, "count_tokens"):
		reply(map[string]any{"input_tokens": 10})
	case strings.Contains(path, "countTokens"):
		reply(map[string]any{"totalTokens": 10})
	case strings.Contains(path, "generateContent"):
		// A router request wants a JSON verdict; any other, text.
		text := "ok"
		if strings.Contains(string(body), "responseJsonSchema") || strings.Contains(string(body), "responseSchema") {
			text = `{"reasoning":"simple","model_choice":"flash"}`
		}
		res := map[string]any{
			"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{map[string]any{"text": text}}}, "finishReason": "STOP", "index": 0}},
			"usageMetadata": map[string]any{"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
		}
		if strings.Contains(path, "stream") {
			sse([2]any{"", res})
		} else {
			reply(res)
		}
	case strings.HasSuffix(path, "/responses"):
		item := map[string]any{"type": "message", "id": "msg_1", "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": "ok", "annotations": []any{}}}}
		usage := map[string]any{"input_tokens": 1, "output_tokens": 1, "total_tokens": 2,
			"input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens_details": map[string]any{"reasoning_tokens": 0}}
		sse(
			[2]any{"response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": "resp_1", "object": "response", "status": "in_progress", "output": []any{}}}},
			[2]any{"response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0,
				"item": map[string]any{"type": "message", "id": "msg_1", "role": "assistant", "status": "in_progress", "content": []any{}}}},
			[2]any{"response.output_text.delta", map[string]any{"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0, "content_index": 0, "delta": "ok"}},
			[2]any{"response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item}},
			[2]any{"response.completed", map[string]any{"type": "response.completed", "response": map[string]any{
				"id": "resp_1", "object": "response", "status": "completed", "output": []any{item}, "usage": usage}}},
		)
	case strings.Contains(path, "/messages"):
		var in struct {
			Model  string `json:"model"`
			Stream bool   `json:"stream"`
		}
		_ = json.Unmarshal(body, &in)
		usage := map[string]any{"input_tokens": 1, "output_tokens": 1}
		if !in.Stream {
			reply(map[string]any{"id": "msg_1", "type": "message", "role": "assistant", "model": in.Model,
				"content": []any{map[string]any{"type": "text", "text": "ok"}}, "stop_reason": "end_turn", "usage": usage})
			return
		}
		sse(
			[2]any{"message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_1", "type": "message",
				"role": "assistant", "model": in.Model, "content": []any{}, "stop_reason": nil, "usage": usage}}},
			[2]any{"content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}}},
			[2]any{"content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": "ok"}}},
			[2]any{"content_block_stop", map[string]any{"type": "content_block_stop", "index": 0}},
			[2]any{"message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "end_turn"}, "usage": map[string]any{"output_tokens": 1}}},
			[2]any{"message_stop", map[string]any{"type": "message_stop"}},
		)
	default:
		reply(map[string]any{})
	}
}

// reached returns the names found in the first recorded request whose body
// holds marker (the text that shows the server's instructions reached the
// model request), and that request's body.
func reached(reqs []recorded, marker string, names []string) (found []string, body string) {
	for _, r := range reqs {
		if !strings.Contains(r.body, marker) {
			continue
		}
		for _, n := range names {
			// In a JSON body the XML of the block is escaped as <name> or
			// \u003cname\u003e; the name between the tags is the same.
			if strings.Contains(r.body, "name>"+n+"<") || strings.Contains(r.body, "name\\u003e"+n+"\\u003c") {
				found = append(found, n)
			}
		}
		return found, r.body
	}
	return nil, ""
}

// missing lists the names not in found.
func missing(names, found []string) []string {
	have := map[string]bool{}
	for _, f := range found {
		have[f] = true
	}
	var out []string
	for _, n := range names {
		if !have[n] {
			out = append(out, n)
		}
	}
	return out
}

// claudeWaitsForServers makes Claude Code's print mode wait for its MCP
// servers before the first model request, each up to three minutes. By
// default it connects them without blocking (Claude Code 2.1.332, its MCP
// start-up: non-blocking unless MCP_CONNECTION_NONBLOCKING is false;
// MCP_TIMEOUT, in milliseconds, bounds a server's start), so on a loaded
// machine the first request could go out before skillet had answered, and
// the test failed by the load, not by skillet.
var claudeWaitsForServers = []string{"MCP_CONNECTION_NONBLOCKING=0", "MCP_TIMEOUT=180000"}

// TestClaudeCode runs Claude Code (@anthropic-ai/claude-code) in print
// mode with skillet serve as its only MCP server and the model requests
// sent to the recorder, and checks that every skill's name reaches the
// model request: with the instructions fitted to the budget, all 26; with
// no budget, the block is longer than the 4,096 characters Claude Code
// keeps and names are lost.
func TestClaudeCode(t *testing.T) {
	t.Parallel() // a Node client: waits on its processes more than it computes
	claude, skillet := agentBinaries(t, "claude")
	roots, names := agentCorpus(t)
	for _, tt := range []struct {
		name  string
		extra []string
		all   bool
	}{
		{"budget", nil, true},
		{"no-budget", []string{"--instructions-chars", "-1"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := newRecorder(t)
			home, ws := agentHome(t)
			if err := os.MkdirAll(ws, 0o755); err != nil {
				t.Fatal(err)
			}
			config, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"skillet": map[string]any{
				"type": "stdio", "command": skillet, "args": serveArgs(ws, roots, tt.extra...)}}})
			cfg := filepath.Join(home, "mcp.json")
			if err := os.WriteFile(cfg, config, 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := runAgent(t, 3*time.Minute, ws, append([]string{
				"HOME=" + home, "ANTHROPIC_BASE_URL=" + rec.srv.URL, "ANTHROPIC_API_KEY=sk-ant-test-not-a-key",
				"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1",
			}, claudeWaitsForServers...), claude, "-p", "hi", "--mcp-config", cfg, "--strict-mcp-config")
			found, body := reached(rec.requests(), "# MCP Server Instructions", names)
			if body == "" {
				t.Fatalf("no model request carried the server's instructions (claude: %v)\n%s", err, out)
			}
			checkReached(t, "Claude Code", names, found, tt.all)
			if !tt.all && len(found) == len(names) {
				t.Errorf("without a budget every name still reached the model: Claude Code's cap is no longer %d", 4096)
			}
			if !strings.Contains(body, "use_skill") {
				t.Errorf("the model request offers no use_skill tool")
			}
		})
	}
}

// TestGeminiCLI runs Gemini CLI (@google/gemini-cli) non-interactively in
// a trusted folder with skillet serve in its project settings and the API
// sent to the recorder (GOOGLE_GEMINI_BASE_URL), and checks that every
// skill's name reaches a model request. The run is stopped once it has.
func TestGeminiCLI(t *testing.T) {
	t.Parallel() // a Node client: waits on its processes more than it computes
	gemini, skillet := agentBinaries(t, "gemini")
	roots, names := agentCorpus(t)
	rec := newRecorder(t)
	home, ws := agentHome(t)
	writeFiles(t, home, map[string]string{
		".gemini/settings.json": `{"security":{"auth":{"selectedType":"gemini-api-key"}},` +
			`"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false},` +
			`"general":{"disableAutoUpdate":true,"disableUpdateNag":true}}`,
	})
	settings, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"skillet": map[string]any{
		"command": skillet, "args": serveArgs(ws, roots)}}})
	writeFiles(t, ws, map[string]string{".gemini/settings.json": string(settings)})

	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, gemini, "-p", "hi")
	cmd.Dir = ws
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TERM=dumb", "CI=true", "NO_COLOR=1",
		"GEMINI_API_KEY=not-a-key", "GOOGLE_GEMINI_BASE_URL=" + rec.srv.URL, "GEMINI_CLI_TRUST_WORKSPACE=true"}, offline...)
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 5 * time.Second
	ownGroup(cmd) // stopped once the request is seen: with its MCP servers
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	marker := "instructions provided by the tool server 'skillet'"
	var found []string
	var body string
wait:
	for {
		select {
		case <-done:
			break wait
		case <-time.After(500 * time.Millisecond):
			if found, body = reached(rec.requests(), marker, names); body != "" {
				cancel()
				<-done
				break wait
			}
		}
	}
	if body == "" {
		found, body = reached(rec.requests(), marker, names)
	}
	if body == "" {
		t.Fatalf("no model request carried the server's instructions\n%s", out.String())
	}
	checkReached(t, "Gemini CLI", names, found, true)
}

// TestCodex runs Codex (@openai/codex) with codex exec, skillet serve in
// its config.toml and a model provider whose base_url is the recorder
// (Responses API), and checks that every skill's name reaches the model
// request: Codex sends the server's instructions as the description of
// the server's tool namespace.
func TestCodex(t *testing.T) {
	t.Parallel() // a Node client: waits on its processes more than it computes
	codex, skillet := agentBinaries(t, "codex")
	roots, names := agentCorpus(t)
	rec := newRecorder(t)
	home, ws := agentHome(t)
	var args []string
	for _, a := range serveArgs(ws, roots) {
		args = append(args, fmt.Sprintf("%q", a))
	}
	config := fmt.Sprintf(`model_provider = "recorder"
model = "gpt-5"
check_for_update_on_startup = false

[analytics]
enabled = false

[model_providers.recorder]
name = "recorder"
base_url = %q
env_key = "RECORDER_API_KEY"
wire_api = "responses"

[mcp_servers.skillet]
command = %q
args = [%s]
`, rec.srv.URL+"/v1", skillet, strings.Join(args, ", "))
	writeFiles(t, home, map[string]string{".codex/config.toml": config, "project/README.md": "A project.\n"})
	out, err := runAgent(t, 3*time.Minute, ws, []string{
		"HOME=" + home, "CODEX_HOME=" + filepath.Join(home, ".codex"), "RECORDER_API_KEY=not-a-key",
	}, codex, "exec", "--skip-git-repo-check", "hi")
	found, body := reached(rec.requests(), "mcp__skillet", names)
	if body == "" {
		t.Fatalf("no model request carried the skillet tools (codex: %v)\n%s", err, out)
	}
	checkReached(t, "Codex", names, found, true)
}

// inspector runs the official inspector's CLI against skillet serve over
// stdio and returns its output.
func inspector(t *testing.T, dir, skillet string, serve []string, args ...string) (string, error) {
	t.Helper()
	cli := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "inspector", "clients", "cli", "build", "index.js")
	if _, err := os.Stat(cli); err != nil {
		t.Skipf("the inspector's CLI is not at %s: %v", cli, err)
	}
	all := append([]string{cli, skillet}, serve...)
	return runNode(t, dir, append(all, args...)...)
}

// TestInspectorCLI drives skillet serve with the official MCP inspector's
// CLI (@modelcontextprotocol/inspector --cli) on every method, and runs
// its skills/list --verify, the extension's conformance and digest checks,
// on the published collections and on a workspace with a skill whose
// description is over the specification's 1,024 characters (left out of
// skills/list, so the check passes) and one that is not user-invocable
// (no prompt).
func TestInspectorCLI(t *testing.T) {
	t.Parallel() // a Node client: waits on its processes more than it computes
	dir, _ := nodeSetup(t)
	skillet := skilletBinary(t)
	roots, names := agentCorpus(t)
	ws := nodeWorkspace(t)
	writeFiles(t, ws, map[string]string{
		"skills/wordy/SKILL.md":      "---\nname: wordy\ndescription: " + strings.Repeat("word ", 210) + "\n---\nBody.\n",
		"skills/model-only/SKILL.md": "---\nname: model-only\ndescription: For the model only.\nuser-invocable: false\n---\nBody.\n",
		"skills/alpha/.env":          "TOKEN=not-served\n",
	})
	serve := serveArgs(ws, nil)
	// The inspector advertises the Skills Extension, so with --tool auto it
	// is offered no tool (it loads skills itself); --tool always offers it.
	always := serveArgs(ws, nil, "--tool", "always")
	for _, tt := range []struct {
		args  []string
		want  []string
		not   []string
		serve []string
	}{
		{[]string{"--method", "tools/list"}, []string{`"tools": []`}, []string{"use_skill"}, nil},
		{[]string{"--method", "tools/list"}, []string{`"use_skill"`, `"alpha"`}, nil, always},
		{[]string{"--method", "tools/call", "--tool-name", "use_skill", "--tool-arg", "name=alpha"}, []string{"Read references/guide.md", "skill://alpha"}, nil, always},
		{[]string{"--method", "resources/list"}, []string{"skill://alpha/SKILL.md", "skill://alpha/references/guide.md"}, []string{".env"}, nil},
		{[]string{"--method", "resources/read", "--uri", "skill://alpha/references/guide.md"}, []string{"guide"}, nil, nil},
		{[]string{"--method", "resources/templates/list"}, []string{"skill://{name}/{+path}"}, nil, nil},
		{[]string{"--method", "prompts/list"}, []string{`"alpha"`, `"beta"`}, []string{`"model-only"`}, nil},
		{[]string{"--method", "prompts/get", "--prompt-name", "alpha", "--prompt-args", "arguments=the repo"}, []string{"Read references/guide.md", "Request: the repo"}, nil, nil},
	} {
		name := tt.args[1]
		if tt.serve == nil {
			tt.serve = serve
		} else {
			name += "/tool-always"
		}
		t.Run(name, func(t *testing.T) {
			out, err := inspector(t, dir, skillet, tt.serve, append([]string{"--cli"}, tt.args...)...)
			if err != nil {
				t.Fatalf("inspector %v: %v\n%s", tt.args, err, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("inspector %v: no %s in\n%s", tt.args, w, out)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(out, n) {
					t.Errorf("inspector %v: %s in\n%s", tt.args, n, out)
				}
			}
		})
	}
	for _, tt := range []struct {
		name  string
		serve []string
		want  []string // skills that must be verified
		least int      // and at least this many
	}{
		{"workspace", serve, []string{"alpha", "beta", "model-only"}, 3},
		// Every skill of the collections but claude-api, whose
		// description is over 1,024 characters: skills/list leaves it out.
		{"corpus", serveArgs(t.TempDir(), roots), nil, len(names) - 1},
	} {
		t.Run("skills/list --verify/"+tt.name, func(t *testing.T) {
			out, err := inspector(t, dir, skillet, tt.serve, "--cli", "--method", "skills/list", "--verify")
			if err != nil {
				t.Fatalf("skills/list --verify: %v\n%s", err, out)
			}
			outcomes := map[string]string{}
			sc := bufio.NewScanner(strings.NewReader(out))
			sc.Buffer(nil, 16<<20)
			for sc.Scan() {
				var r struct{ Name, Outcome string }
				if json.Unmarshal(sc.Bytes(), &r) == nil && r.Name != "" {
					outcomes[r.Name] = r.Outcome
				}
			}
			for name, o := range outcomes {
				if o != "verified" {
					t.Errorf("%s: %s", name, o)
				}
			}
			for _, n := range tt.want {
				if outcomes[n] != "verified" {
					t.Errorf("%s not verified (%q)", n, outcomes[n])
				}
			}
			if len(outcomes) < tt.least {
				t.Errorf("%d skills verified, want at least %d", len(outcomes), tt.least)
			}
			if _, ok := outcomes["wordy"]; ok {
				t.Error("the skill with a description over 1,024 characters is in skills/list")
			}
			t.Logf("skills/list --verify (%s): %d skills verified", tt.name, len(outcomes))
		})
	}
}

// TestPrintConfigAccepted pastes what skillet serve --print-config prints
// into each installable agent, in an isolated home, and asks the agent to
// list its MCP servers: each must show skillet, started with the printed
// command, and the agents that check health must reach it.
func TestPrintConfigAccepted(t *testing.T) {
	t.Parallel() // a Node client: waits on its processes more than it computes
	bin := agentsSetup(t)
	skillet := skilletBinary(t)
	ws := nodeWorkspace(t)
	printed := func(t *testing.T, client string) string {
		t.Helper()
		out, err := exec.Command(skillet, "serve", "--print-config", client, "-w", ws, "--no-user", "--no-watch").Output()
		if err != nil {
			t.Fatalf("--print-config %s: %v", client, err)
		}
		return string(out)
	}
	t.Run("claude-code", func(t *testing.T) {
		home := t.TempDir()
		env := []string{"HOME=" + home, "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1"}
		line := strings.TrimSpace(printed(t, "claude-code"))
		cmdline, ok := strings.CutPrefix(line, "claude ")
		if !ok {
			t.Fatalf("not a claude command: %s", line)
		}
		// The printed line is for a shell; sh runs it with claude on PATH.
		out, err := runAgent(t, 2*time.Minute, ws, append(env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH")), "sh", "-c", "claude "+cmdline)
		if err != nil {
			t.Fatalf("%s: %v\n%s", line, err, out)
		}
		out, err = runAgent(t, 2*time.Minute, ws, env, filepath.Join(bin, "claude"), "mcp", "list")
		if err != nil || !strings.Contains(out, "skillet: "+skillet+" serve") || !strings.Contains(out, "Connected") {
			t.Errorf("claude mcp list after %s: %v\n%s", line, err, out)
		}
	})
	t.Run("codex", func(t *testing.T) {
		home := t.TempDir()
		writeFiles(t, home, map[string]string{".codex/config.toml": printed(t, "codex")})
		out, err := runAgent(t, 2*time.Minute, ws, []string{"HOME=" + home, "CODEX_HOME=" + filepath.Join(home, ".codex")},
			filepath.Join(bin, "codex"), "mcp", "list")
		if err != nil || !strings.Contains(out, "skillet") || !strings.Contains(out, skillet) || !strings.Contains(out, "enabled") {
			t.Errorf("codex mcp list: %v\n%s", err, out)
		}
	})
	t.Run("gemini", func(t *testing.T) {
		home := t.TempDir()
		proj := filepath.Join(home, "project")
		writeFiles(t, proj, map[string]string{".gemini/settings.json": printed(t, "gemini")})
		out, err := runAgent(t, 2*time.Minute, proj, []string{"HOME=" + home, "GEMINI_CLI_TRUST_WORKSPACE=true"},
			filepath.Join(bin, "gemini"), "mcp", "list")
		if err != nil || !strings.Contains(out, "skillet: "+skillet+" serve") || !strings.Contains(out, "Connected") {
			t.Errorf("gemini mcp list: %v\n%s", err, out)
		}
	})
}
