package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// nodeSetup finds node and npm and installs the clients of
// testdata/node/package.json into a cache folder outside the repository
// ($SKILLET_NODE_DIR, else the user cache folder), once per version of
// that file. It skips the test, with the reason, when node or npm is
// missing or the clients are not installed (see npmInstall).
func nodeSetup(t *testing.T) (dir string, major int) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the Node clients are not run")
	}
	if raceEnabled {
		// They drive a separately built skillet, so the race detector adds
		// nothing; the run without it covers them.
		t.Skip("-race: the Node clients run in the test run without the race detector")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not found: the MCP clients from the npm registry are not run (install Node 20 or later)")
	}
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm not found: the MCP clients from the npm registry are not run")
	}
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		t.Skipf("node --version: %v", err)
	}
	version := strings.TrimSpace(string(out))
	major, _ = strconv.Atoi(strings.SplitN(strings.TrimPrefix(version, "v"), ".", 2)[0])
	if major < 20 {
		t.Skipf("node %s is older than 20, which the clients need", version)
	}
	t.Logf("node %s", version)

	dir = npmInstall(t, "testdata/node/package.json", "node-clients-", os.Getenv("SKILLET_NODE_DIR"))
	client, err := os.ReadFile("testdata/node/client.mjs")
	if err != nil {
		t.Fatal(err)
	}
	// Written through a rename: tests that run in parallel may be reading
	// it.
	if have, err := os.ReadFile(filepath.Join(dir, "client.mjs")); err != nil || string(have) != string(client) {
		tmp, err := os.CreateTemp(dir, ".client-*.mjs")
		if err != nil {
			t.Fatal(err)
		}
		_, werr := tmp.Write(client)
		if cerr := tmp.Close(); werr != nil || cerr != nil {
			t.Fatal(werr, cerr)
		}
		if err := os.Rename(tmp.Name(), filepath.Join(dir, "client.mjs")); err != nil {
			t.Fatal(err)
		}
	}
	return dir, major
}

// npmInstall installs the packages of the package.json at pkgPath into a
// cache folder outside the repository (dir, else the user cache folder's
// skillet/PREFIX-HASH), once per version of that file, and returns the
// folder. It skips the test when they are not installed yet, unless
// SKILLET_NPM_INSTALL=1 asks it to install them, and when npm install
// fails (the registry cannot be reached). .ci/run installs the same folders
// (.ci/node-install.sh) before the tests.
func npmInstall(t *testing.T, pkgPath, prefix, dir string) string {
	t.Helper()
	pkg, err := os.ReadFile(pkgPath)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(pkg)
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			cache = os.TempDir()
		}
		dir = filepath.Join(cache, "skillet", prefix+hex.EncodeToString(sum[:6]))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	stamp := filepath.Join(dir, ".installed")
	if have, err := os.ReadFile(stamp); err != nil || string(have) != string(pkg) {
		if os.Getenv("SKILLET_NPM_INSTALL") != "1" {
			// A test run never waits on the registry: the packages are
			// installed beforehand, by .ci/run or by hand.
			t.Skipf("the npm packages of %s are not installed in %s: run bash .ci/node-install.sh (CI does), or set SKILLET_NPM_INSTALL=1 to install them from the test", pkgPath, dir)
		}
		if err := os.WriteFile(filepath.Join(dir, "package.json"), pkg, 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), 8*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "npm", "install", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("npm install of %s failed (is the npm registry reachable?): %v\n%s", pkgPath, err, out)
		}
		if err := os.WriteFile(stamp, pkg, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// conformanceCLI returns the conformance suite's entry point. Before Node
// 22 the published build dies at import, as it imports fs.globSync, which
// only the client scenarios use; a copy without that import (it throws if
// ever called) lets the server scenarios run (docs/mcp.md#skills-extension).
func conformanceCLI(t *testing.T, dir string, major int) string {
	t.Helper()
	dist := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "conformance", "dist")
	entry := filepath.Join(dist, "index.js")
	if major >= 22 {
		return entry
	}
	src, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	if strings.Count(s, "globSync as a,") != 1 {
		t.Skip("the conformance build no longer imports globSync as expected; run it on Node 22 or later")
	}
	s = strings.Replace(s, "globSync as a,", "", 1)
	shebang, rest, _ := strings.Cut(s, "\n")
	s = shebang + "\nconst a=()=>{throw new Error(\"fs.globSync needs Node 22\")};\n" + rest
	patched := filepath.Join(dist, "index.node20.js")
	if err := os.WriteFile(patched, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("node %d < 22: running the conformance suite without its globSync import", major)
	return patched
}

// nodeWorkspace has a skill with folders first in name order (the
// directory scenario explores the first listed skill), a binary file, a
// hidden skill and a skill outside the extension.
func nodeWorkspace(t *testing.T) string {
	ws := t.TempDir()
	writeFiles(t, ws, map[string]string{
		"skills/alpha/SKILL.md":             "---\nname: alpha\ndescription: Alpha does things.\nmetadata:\n  version: \"1.10\"\n---\nRead references/guide.md.\n",
		"skills/alpha/references/guide.md":  "guide\n",
		"skills/alpha/references/deep/x.md": "deep\n",
		"skills/alpha/assets/logo.bin":      "\x89P\x00\xff\xfe",
		"skills/beta/SKILL.md":              "---\nname: beta\ndescription: Only by hand.\ndisable-model-invocation: true\n---\nBeta steps.\n",
		"skills/colon/SKILL.md":             "---\nname: colon\ndescription: Use when: the YAML needs repair\n---\nRepaired.\n",
		"skills/crlf/SKILL.md":              "\ufeff---\r\nname: crlf\r\ndescription: CRLF and a BOM.\r\n---\r\nBody.\r\n",
	})
	return ws
}

var closing = regexp.MustCompile(`(?m)^(\d+) passed, (\d+) failed$`)

// runNode runs a node script, bounded in time, and returns its output.
func runNode(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestNodeSDKClient drives skillet serve with a client on the official
// TypeScript SDK (@modelcontextprotocol/sdk from the npm registry), over
// stdio and over streamable HTTP.
func TestNodeSDKClient(t *testing.T) {
	t.Parallel() // a Node client: waits on its processes more than it computes
	dir, _ := nodeSetup(t)
	bin := skilletBinary(t)
	ws := nodeWorkspace(t)
	url, _, _ := startHTTP(t, bin, "-w", ws, "--no-user", "--no-watch")
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"stdio", []string{"client.mjs", "stdio", bin, ws}},
		{"http", []string{"client.mjs", "http", url}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := runNode(t, dir, tt.args...)
			m := closing.FindStringSubmatch(out)
			if err != nil || m == nil || m[2] != "0" {
				t.Fatalf("TypeScript SDK client over %s: %v\n%s", tt.name, err, out)
			}
			t.Logf("TypeScript SDK client over %s: %s passed, 0 failed", tt.name, m[1])
		})
	}
}

var conformanceResult = regexp.MustCompile(`Passed: (\d+)/(\d+), (\d+) failed, (\d+) warnings`)

// TestConformanceSkills runs the official MCP conformance suite's SEP-2640
// server scenarios against skillet serve --http, on protocol 2026-07-28
// and on 2025-11-25 (where the cache-field checks are skipped).
func TestConformanceSkills(t *testing.T) {
	t.Parallel() // a Node client: waits on its processes more than it computes
	dir, major := nodeSetup(t)
	cli := conformanceCLI(t, dir, major)
	bin := skilletBinary(t)
	url, _, _ := startHTTP(t, bin, "-w", nodeWorkspace(t), "--no-user", "--no-watch")
	for _, scenario := range []string{"sep-2640-skills-enumeration", "sep-2640-skills-manifest", "sep-2640-skills-directory"} {
		for _, version := range []string{"", "2025-11-25"} {
			name := scenario + "/" + version
			if version == "" {
				name = scenario + "/2026-07-28"
			}
			t.Run(name, func(t *testing.T) {
				args := []string{cli, "server", "--url", url, "--scenario", scenario}
				if version != "" {
					args = append(args, "--spec-version", version, "--force")
				}
				out, err := runNode(t, dir, args...)
				m := conformanceResult.FindStringSubmatch(out)
				if err != nil || m == nil || m[3] != "0" || m[4] != "0" {
					t.Fatalf("conformance %s: %v\n%s", name, err, out)
				}
				t.Logf("conformance %s: passed %s/%s, 0 failed, 0 warnings", name, m[1], m[2])
			})
		}
	}
}

// TestInspectorPrintConfig runs what skillet serve --print-config inspector
// prints, as printed (sh, with the inspector's mcp-inspector on PATH),
// over stdio and over streamable HTTP with a token: each must list the
// workspace's skills, and over HTTP the printed line alone must carry the
// token (the inspector refuses the server without it).
func TestInspectorPrintConfig(t *testing.T) {
	t.Parallel() // a Node client: waits on its processes more than it computes
	dir, _ := nodeSetup(t)
	bin := skilletBinary(t)
	ws := nodeWorkspace(t)
	token := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(token, []byte("inspector-token-0123456789abcdef0123\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	url, _, _ := startHTTP(t, bin, "-w", ws, "--no-user", "--no-watch", "--auth-token-file", token)
	addr := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/mcp")
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"stdio", []string{"-w", ws, "--no-user", "--no-watch"}},
		{"http-token", []string{"-w", ws, "--no-user", "--no-watch", "--http", addr, "--auth-token-file", token}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			printed, err := exec.Command(bin, append([]string{"serve", "--print-config", "inspector"}, tt.args...)...).Output()
			if err != nil {
				t.Fatalf("--print-config inspector: %v", err)
			}
			line := strings.TrimSpace(string(printed))
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
			defer cancel()
			run := func(line string) (string, error) {
				cmd := exec.CommandContext(ctx, "sh", "-c", line)
				cmd.Dir = t.TempDir()
				cmd.Env = append(os.Environ(), "PATH="+filepath.Join(dir, "node_modules", ".bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
				out, err := cmd.CombinedOutput()
				return string(out), err
			}
			out, err := run(line)
			if err != nil || !strings.Contains(out, `"uri": "skill://alpha/SKILL.md"`) {
				t.Fatalf("%s: %v\n%s", line, err, out)
			}
			if tt.name == "http-token" {
				// Without the printed header the same line is refused.
				bare, _, _ := strings.Cut(line, " --header ")
				out, err := run(bare)
				if err == nil || strings.Contains(out, "skill://alpha") || !strings.Contains(out, "auth") {
					t.Errorf("without the token: %s: %v\n%s", bare, err, out)
				}
			}
			t.Logf("%s: the skills listed", line)
		})
	}
}
