package cli

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillet-go/skillet/mcpserver/skillsext"
)

// skilletBinary is the skillet command the end-to-end tests start: this
// test binary, which TestMain (testscript.Main) copies into a folder it puts
// first on PATH under the name skillet, and which runs Main when started by
// that name. It is the same code cmd/skillet runs, without a go build of
// its own (3.8 s of wall time warm, more under load).
func skilletBinary(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("skillet")
	if err != nil {
		t.Fatalf("skillet is not on PATH (TestMain puts it there): %v", err)
	}
	first, _, _ := strings.Cut(os.Getenv("PATH"), string(os.PathListSeparator))
	if filepath.Dir(bin) != first {
		t.Fatalf("skillet found at %s, not in the folder TestMain put first on PATH (%s)", bin, first)
	}
	return bin
}

// e2eWorkspace is a workspace with two skills, one with a bundled file.
func e2eWorkspace(t *testing.T) string {
	ws := t.TempDir()
	writeFiles(t, ws, map[string]string{
		"skills/release/SKILL.md":             "---\nname: release\ndescription: Cut a release.\n---\nRead references/steps.md.\n",
		"skills/release/references/steps.md":  "1. Tag.\n2. Push.\n",
		"skills/private/SKILL.md":             "---\nname: private\ndescription: Only by hand.\ndisable-model-invocation: true\n---\nSteps.\n",
		"skills/release/assets/icon.bin":      "\x00\x01\xfe\xff",
		"skills/release/references/notes.txt": "notes\n",
	})
	return ws
}

func e2eClient(t *testing.T, n *e2eNotes) *mcp.Client {
	opts := &mcp.ClientOptions{}
	if n != nil {
		opts.ResourceListChangedHandler = func(context.Context, *mcp.ResourceListChangedRequest) { n.resources <- struct{}{} }
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, opts)
	if err := skillsext.Register(c); err != nil {
		t.Fatal(err)
	}
	return c
}

type e2eNotes struct{ resources chan struct{} }

// exercise runs the same checks over any transport.
func exercise(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	ctx := t.Context()
	caps := cs.InitializeResult().Capabilities
	if _, ok := caps.Extensions[skillsext.ExtensionID]; !ok || caps.Resources == nil {
		t.Fatalf("capabilities %+v", caps)
	}
	list, err := mcp.CallCustomMethod[*skillsext.ListSkillsParams, *skillsext.ListSkillsResult](ctx, cs, skillsext.MethodListSkills, &skillsext.ListSkillsParams{})
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, e := range list.Skills {
		uris = append(uris, e.URI)
	}
	if !slices.Equal(uris, []string{"skill://private/SKILL.md", "skill://release/SKILL.md"}) {
		t.Fatalf("skills/list: %v", uris)
	}
	release := list.Skills[1]
	if len(release.Resources.Files) != 4 {
		t.Errorf("release manifest: %+v", release.Resources.Files)
	}
	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://release/references/steps.md"})
	if err != nil || res.Contents[0].Text != "1. Tag.\n2. Push.\n" {
		t.Fatalf("resources/read: %+v, %v", res, err)
	}
	res, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://release/assets/icon.bin"})
	if err != nil || string(res.Contents[0].Blob) != "\x00\x01\xfe\xff" {
		t.Fatalf("binary resources/read: %+v, %v", res, err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skill://release/../private/SKILL.md"}); err == nil {
		t.Error("a URI with .. was read")
	}
	dir, err := mcp.CallCustomMethod[*skillsext.ReadDirectoryParams, *skillsext.ReadDirectoryResult](ctx, cs, skillsext.MethodReadDirectory, &skillsext.ReadDirectoryParams{URI: "skill://release/references"})
	if err != nil || len(dir.Resources) != 2 {
		t.Fatalf("resources/directory/read: %+v, %v", dir, err)
	}
	tr, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "use_skill", Arguments: map[string]any{"name": "release"}})
	if err != nil || tr.IsError || !strings.Contains(tr.Content[0].(*mcp.TextContent).Text, "Base directory for this skill: skill://release") {
		t.Fatalf("tools/call: %+v, %v", tr, err)
	}
	if !strings.Contains(cs.InitializeResult().Instructions, "<location>skill://release/SKILL.md</location>") {
		t.Errorf("instructions: %s", cs.InitializeResult().Instructions)
	}
	p, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "private"})
	if err != nil || !strings.Contains(p.Messages[0].Content.(*mcp.TextContent).Text, "Steps.") {
		t.Fatalf("prompts/get: %+v, %v", p, err)
	}
}

// TestServeStdioE2E starts the built skillet serve as a subprocess and
// talks to it over stdio with the SDK's client, edits a skill on disk and
// hears of it.
func TestServeStdioE2E(t *testing.T) {
	t.Parallel()
	bin := skilletBinary(t)
	ws := e2eWorkspace(t)
	cmd := exec.Command(bin, "serve", "-w", ws, "--no-user", "--log-level", "debug")
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	n := &e2eNotes{resources: make(chan struct{}, 100)}
	cs, err := e2eClient(t, n).Connect(t.Context(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	exercise(t, cs)

	// Live reload reaches the connected client.
	if err := os.WriteFile(filepath.Join(ws, "skills", "release", "references", "steps.md"), []byte("1. Tag.\n2. Push.\n3. Announce.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A reload may catch the file half written; the next one serves it
	// whole.
	for i := 0; ; i++ {
		select {
		case <-n.resources:
		case <-time.After(30 * time.Second):
			t.Fatalf("no resources/list_changed after an edit; stderr:\n%s", stderr.String())
		}
		res, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "skill://release/references/steps.md"})
		if err == nil && strings.Contains(res.Contents[0].Text, "Announce") {
			break
		}
		if i == 10 {
			t.Fatalf("after the edit: %+v, %v", res, err)
		}
	}
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	if !strings.Contains(stderr.String(), `msg="serving MCP over stdio"`) {
		t.Errorf("stderr lacks the start line:\n%s", stderr.String())
	}
}

var urlLine = regexp.MustCompile(`url=(http://\S+)`)

// startHTTP starts skillet serve --http localhost:0 and returns the
// endpoint it logs, the process and its stderr so far.
func startHTTP(t *testing.T, bin string, args ...string) (string, *exec.Cmd, *syncBuffer) {
	t.Helper()
	return startHTTPURL(t, bin, urlLine, args...)
}

// startHTTPURL is startHTTP with the URL found by urlLine's first group.
func startHTTPURL(t *testing.T, bin string, urlLine *regexp.Regexp, args ...string) (string, *exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--http", "localhost:0"}, args...)...)
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	buf := &syncBuffer{eof: make(chan struct{})}
	found := make(chan string, 1)
	go func() {
		defer close(buf.eof)
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			buf.add(sc.Text() + "\n")
			if m := urlLine.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
		}
	}()
	select {
	case url := <-found:
		return url, cmd, buf
	case <-time.After(60 * time.Second):
		t.Fatalf("no url logged; stderr:\n%s", buf.String())
		return "", nil, nil
	}
}

// TestServeHTTPE2E does the same over streamable HTTP, stateless and
// stateful, and stops the server with SIGINT.
func TestServeHTTPE2E(t *testing.T) {
	t.Parallel()
	bin := skilletBinary(t)
	for _, tt := range []struct {
		name    string
		args    []string
		version string
	}{
		{"stateless", nil, "2026-07-28"},
		{"stateless-legacy", nil, "2025-11-25"},
		{"stateful", []string{"--stateful"}, "2025-11-25"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ws := e2eWorkspace(t)
			url, cmd, stderr := startHTTP(t, bin, append([]string{"-w", ws, "--no-user"}, tt.args...)...)
			n := &e2eNotes{resources: make(chan struct{}, 100)}
			cs, err := e2eClient(t, n).Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: tt.version})
			if err != nil {
				t.Fatal(err)
			}
			if got := cs.InitializeResult().ProtocolVersion; got != tt.version {
				t.Errorf("negotiated %s, want %s", got, tt.version)
			}
			exercise(t, cs)
			if tt.name == "stateful" {
				if err := os.WriteFile(filepath.Join(ws, "skills", "release", "SKILL.md"), []byte("---\nname: release\ndescription: Cut a release, edited.\n---\nRead references/steps.md.\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				select {
				case <-n.resources:
				case <-time.After(30 * time.Second):
					t.Fatalf("no resources/list_changed pushed over stateful HTTP; stderr:\n%s", stderr.String())
				}
			}
			cs.Close()
			if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			select {
			case <-stderr.eof: // the process closed its stderr: all of it is read
			case <-time.After(30 * time.Second):
				t.Fatalf("stderr still open 30s after SIGINT; stderr:\n%s", stderr.String())
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("exit after SIGINT: %v; stderr:\n%s", err, stderr.String())
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("still running 30s after SIGINT; stderr:\n%s", stderr.String())
			}
			if !strings.Contains(stderr.String(), "shutting down") {
				t.Errorf("stderr lacks the shutdown line:\n%s", stderr.String())
			}
		})
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
	// eof, when not nil, is closed once the process's stderr is read to
	// its end (startHTTP): only then may the test call Wait, which closes
	// the pipe and would lose what is not read yet.
	eof chan struct{}
}

func (s *syncBuffer) add(x string) {
	s.mu.Lock()
	s.b.WriteString(x)
	s.mu.Unlock()
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.add(string(p))
	return len(p), nil
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// writeFiles writes each file of files (paths relative to dir, "/"
// separators), making folders as needed.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestParseToken(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in, want string
		ok       bool
	}{
		{"s3cret-token\n", "s3cret-token", true},
		{"  \tabc~!  ", "abc~!", true},
		{"", "", false},
		{" \n\t", "", false},
		{"two words", "", false},
		{"tab\tinside", "", false},
		{"caf\u00e9", "", false},
		{"nul\x00", "", false},
	} {
		if got, ok := parseToken(tt.in); got != tt.want || ok != tt.ok {
			t.Errorf("parseToken(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// TestSplitTokens: a token file holds one token a line, blank lines and
// # comments skipped; a short, duplicate or unprintable token, or none,
// is refused with the line it is on, and the error never shows a token.
func TestSplitTokens(t *testing.T) {
	t.Parallel()
	a, b := strings.Repeat("a1", 16), strings.Repeat("b2", 20)
	for _, tt := range []struct {
		name, in string
		want     []string
		err      string
	}{
		{"one", a + "\n", []string{a}, ""},
		{"one, no newline, spaces", "  " + a + "\t", []string{a}, ""},
		{"two with comments", "# alice\n" + a + "\n\n  # bob\n" + b + "\r\n", []string{a, b}, ""},
		{"empty", "", nil, "is empty"},
		{"only comments", "# nobody\n\n", nil, "is empty"},
		{"short", a + "\n" + a[:31] + "\n", nil, "on line 2 has 31 characters; use at least 32"},
		{"duplicate", a + "\n# again\n" + a + "\n", nil, "on line 3 is the one on line 1"},
		{"duplicate after trimming", a + "\n " + a + " \n", nil, "on line 2 is the one on line 1"},
		{"two on one line", a + " " + b + "\n", nil, "on line 1 holds characters other than printable ASCII"},
		{"not ASCII", a + "\u00e9\n", nil, "on line 1 holds characters other than printable ASCII"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := splitTokens(tt.in)
			if tt.err == "" {
				if err != nil || !slices.Equal(got, tt.want) {
					t.Errorf("splitTokens = %q, %v; want %q", got, err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("splitTokens = %q, %v; want an error saying %q", got, err, tt.err)
			}
			if strings.Contains(err.Error(), a[:16]) || strings.Contains(err.Error(), b[:16]) {
				t.Errorf("the error shows a token: %v", err)
			}
		})
	}
}

// TestServeTLS serves HTTPS with --tls-cert and --tls-key (a certificate
// made here for 127.0.0.1 and localhost, on loopback): the logged URL is
// https://, an MCP client that trusts the certificate lists the skills,
// the probes answer over TLS, and plain HTTP on the same port is refused.
// With -q the URL line is still logged (the only line that gives the port).
func TestServeTLS(t *testing.T) {
	t.Parallel()
	bin := skilletBinary(t)
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	pool := writeTestCert(t, certFile, keyFile)
	ws := e2eWorkspace(t)
	url, _, stderr := startHTTPURL(t, bin, regexp.MustCompile(`url=(https://\S+)`),
		"-q", "-w", ws, "--no-user", "--tls-cert", certFile, "--tls-key", keyFile)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(t.Context(),
		&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: client}, nil)
	if err != nil {
		t.Fatalf("connect over TLS: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	res, err := cs.ListResources(t.Context(), nil)
	if err != nil || len(res.Resources) == 0 {
		t.Fatalf("resources/list over TLS: %v %v", res, err)
	}
	base := strings.TrimSuffix(url, "/mcp")
	resp, err := client.Get(base + "/healthz")
	if err != nil || resp.StatusCode != 200 || resp.TLS == nil {
		t.Fatalf("/healthz over TLS: %v %v", resp, err)
	}
	resp.Body.Close()
	plain := &http.Client{Timeout: 10 * time.Second}
	if resp, err := plain.Get("http://" + strings.TrimPrefix(base, "https://") + "/healthz"); err == nil {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == 200 && string(b) == "ok\n" {
			t.Error("plain HTTP was served on the TLS port")
		}
	}
}

// writeTestCert writes a self-signed certificate for 127.0.0.1, ::1 and
// localhost and its key (PEM), and returns a pool that trusts it.
func writeTestCert(t *testing.T, certFile, keyFile string) *x509.CertPool {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "skillet test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA: true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return pool
}

// TestServeNoSkillsWarns: a server that finds no skill, in a workspace
// with a skill folder outside every root, logs one warning, before the URL
// line, naming the file and the --root that would read it.
func TestServeNoSkillsWarns(t *testing.T) {
	t.Parallel()
	bin := skilletBinary(t)
	ws := t.TempDir()
	writeFiles(t, ws, map[string]string{"docs/my-skill/SKILL.md": "---\nname: my-skill\ndescription: Do it.\n---\nBody.\n"})
	_, _, stderr := startHTTP(t, bin, "-w", ws, "--no-user", "--no-watch")
	out := stderr.String()
	if strings.Count(out, "no skill is served") != 1 || !strings.Contains(out, "docs/my-skill/SKILL.md") ||
		!strings.Contains(out, "--root "+filepath.Join(ws, "docs")) || !strings.Contains(out, "level=WARN") {
		t.Errorf("no warning naming the skill and its --root:\n%s", out)
	}
}

// FuzzSplitTokens: whatever a token file holds, splitTokens either
// returns tokens that are each printable ASCII, at least minTokenChars
// long, given once and found on a line of their own, or an error that
// shows none of the file's lines that could be a token.
func FuzzSplitTokens(f *testing.F) {
	a := strings.Repeat("a1", 16)
	for _, s := range []string{"", a, "# x\n" + a + "\n\n" + a + "b\r\n", a + "\n" + a, "short\n", a + "\u00e9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		toks, err := splitTokens(raw)
		if err != nil {
			if toks != nil {
				t.Fatalf("tokens %q with error %v", toks, err)
			}
			for _, line := range strings.Split(raw, "\n") {
				// A line of 16 characters or more without white space:
				// no word of the error's own text is that long.
				if l := strings.TrimSpace(line); len(l) >= 16 && !strings.ContainsAny(l, " \t") && strings.Contains(err.Error(), l) {
					t.Fatalf("the error %q shows a line of the file", err)
				}
			}
			return
		}
		lines := map[string]bool{}
		for _, line := range strings.Split(raw, "\n") {
			lines[strings.TrimSpace(line)] = true
		}
		seen := map[string]bool{}
		for _, tok := range toks {
			if p, ok := parseToken(tok); !ok || p != tok || len(tok) < minTokenChars || seen[tok] || !lines[tok] {
				t.Fatalf("token %q of %q: not a valid, single, whole line", tok, raw)
			}
			seen[tok] = true
		}
	})
}
