package cli

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestAgentsPrintConfig connects Claude Code, Codex and Gemini CLI to
// skillet serve with what serve --print-config prints for each and nothing
// else of skillet's, over stdio and over HTTP to a server that requires a
// token, and checks that every skill's name reaches the model request
// (docs/mcp.md#client-configuration). The printed configuration goes where
// its comment says (Claude Code's line is run by a shell, as a user would;
// Codex's table into ~/.codex/config.toml; Gemini CLI's object into the
// project's .gemini/settings.json, in a folder trusted as the comment
// says); over HTTP the token reaches the client only as the printed lines
// say (the shell reads the token file for Claude Code; $SKILLET_AUTH_TOKEN
// for the others). A client that did not send the token would list no
// skill: the server refuses every request without it.
func TestAgentsPrintConfig(t *testing.T) {
	t.Parallel() // Node clients: they wait on their processes more than they compute
	bin := agentsSetup(t)
	skillet := skilletBinary(t)
	roots, names := agentCorpus(t)
	token := filepath.Join(t.TempDir(), "token")
	const secret = "agents-token-0123456789abcdef0123456789"
	if err := os.WriteFile(token, []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, client := range []string{"claude-code", "codex", "gemini"} {
		exe := map[string]string{"claude-code": "claude", "codex": "codex", "gemini": "gemini"}[client]
		if _, err := os.Stat(filepath.Join(bin, exe)); err != nil {
			t.Logf("%s not installed: %v", exe, err)
			continue
		}
		for _, transport := range []string{"stdio", "http-token"} {
			t.Run(client+"/"+transport, func(t *testing.T) {
				t.Parallel() // each has its own home, workspace, recorder and server
				home, ws := agentHome(t)
				if err := os.MkdirAll(ws, 0o755); err != nil {
					t.Fatal(err)
				}
				args := serveArgs(ws, roots)[1:]
				if transport == "http-token" {
					url, _, _ := startHTTP(t, skillet, append(args, "--auth-token-file", token)...)
					addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
					args = append(args, "--auth-token-file", token, "--http", addr)
				}
				cmd := exec.Command(skillet, append([]string{"serve", "--print-config", client}, args...)...)
				printed, err := cmd.Output()
				if err != nil {
					t.Fatalf("--print-config %s: %v", client, err)
				}
				rec := newRecorder(t)
				env := []string{"HOME=" + home, "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}
				if transport == "http-token" && client != "claude-code" {
					// The printed comment: export SKILLET_AUTH_TOKEN="$(cat FILE)".
					env = append(env, "SKILLET_AUTH_TOKEN="+secret)
				}
				run, marker := applyPrinted(t, client, string(printed), home, ws, rec.srv.URL, env)
				run.args[0] = filepath.Join(bin, run.args[0])
				found, body, out := runUntilReached(t, ws, append(env, run.env...), rec, marker, names, run.args...)
				if body == "" {
					t.Fatalf("no model request carried skillet's instructions or tools\nprinted:\n%s\n%s", printed, out)
				}
				checkReached(t, client+" over "+transport, names, found, true)
			})
		}
	}
}

// agentRun is how an agent is started once its configuration is applied:
// its command line and the environment it adds.
type agentRun struct {
	args []string
	env  []string
}

// applyPrinted puts the configuration --print-config printed for client
// where its comment says, with the agent's model API sent to the
// recorder at base, and returns how to start the agent and the text that
// shows skillet reached its model request.
func applyPrinted(t *testing.T, client, printed, home, ws, base string, env []string) (agentRun, string) {
	t.Helper()
	switch client {
	case "claude-code":
		// Run as printed, by a shell in the project (the local scope is
		// the project's).
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "sh", "-c", strings.TrimSpace(printed))
		cmd.Dir = ws
		cmd.Env = append(append([]string{"LANG=C.UTF-8", "TERM=dumb", "CI=true", "NO_COLOR=1"}, offline...), env...)
		cmd.WaitDelay = 5 * time.Second
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", printed, err, out)
		}
		return agentRun{args: []string{"claude", "-p", "hi"}, env: append([]string{
			"ANTHROPIC_BASE_URL=" + base, "ANTHROPIC_API_KEY=sk-ant-test-not-a-key",
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1"}, claudeWaitsForServers...)}, "# MCP Server Instructions"
	case "codex":
		config := `model_provider = "recorder"
model = "gpt-5"
check_for_update_on_startup = false

[analytics]
enabled = false

[model_providers.recorder]
name = "recorder"
base_url = "` + base + `/v1"
env_key = "RECORDER_API_KEY"
wire_api = "responses"

` + printed
		writeFiles(t, home, map[string]string{".codex/config.toml": config, "project/README.md": "A project.\n"})
		return agentRun{args: []string{"codex", "exec", "--skip-git-repo-check", "hi"}, env: []string{
			"CODEX_HOME=" + filepath.Join(home, ".codex"), "RECORDER_API_KEY=not-a-key"}}, "mcp__skillet"
	case "gemini":
		var settings map[string]any
		if err := json.Unmarshal([]byte(printed), &settings); err != nil {
			t.Fatalf("the printed Gemini CLI settings are not JSON: %v\n%s", err, printed)
		}
		writeFiles(t, home, map[string]string{".gemini/settings.json": `{"security":{"auth":{"selectedType":"gemini-api-key"}},` +
			`"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false},` +
			`"general":{"disableAutoUpdate":true,"disableUpdateNag":true}}`})
		writeFiles(t, ws, map[string]string{".gemini/settings.json": printed})
		// The printed comment: the folder must be trusted, and
		// GEMINI_CLI_TRUST_WORKSPACE=true trusts it in CI.
		run := agentRun{args: []string{"gemini", "-p", "hi"}, env: []string{
			"GEMINI_API_KEY=not-a-key", "GOOGLE_GEMINI_BASE_URL=" + base, "GEMINI_CLI_TRUST_WORKSPACE=true"}}
		return run, "instructions provided by the tool server 'skillet'"
	}
	t.Fatalf("no way to apply the configuration of %s", client)
	return agentRun{}, ""
}

// runUntilReached runs an agent in dir, bounded to 3 minutes, until it
// exits or a model request carrying marker has been recorded (then it is
// stopped), and returns the names found in that request, its body and
// the agent's output.
func runUntilReached(t *testing.T, dir string, env []string, rec *recorder, marker string, names []string, args ...string) (found []string, body, out string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(append([]string{"LANG=C.UTF-8", "TERM=dumb", "CI=true", "NO_COLOR=1"}, offline...), env...)
	var buf syncBuffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	cmd.WaitDelay = 5 * time.Second
	ownGroup(cmd) // stopped once the request is seen: with its MCP servers
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for {
		select {
		case <-done:
			found, body = reached(rec.requests(), marker, names)
			return found, body, buf.String()
		case <-time.After(500 * time.Millisecond):
			if found, body = reached(rec.requests(), marker, names); body != "" {
				cancel()
				<-done
				return found, body, buf.String()
			}
		}
	}
}
