package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillet-go/skillet/internal/mcpline"
	"github.com/skillet-go/skillet/mcpserver/skillsext"
)

func TestCheckListenAddr(t *testing.T) {
	// Names resolve through a fake resolver, so the test needs no DNS.
	names := map[string][]netip.Addr{
		"localhost": {netip.MustParseAddr("::1"), netip.MustParseAddr("127.0.0.1")},
		"loop6":     {netip.MustParseAddr("::1")},
		"mixed":     {netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("10.0.0.7")},
		"lan":       {netip.MustParseAddr("192.168.1.5")},
		"zero":      {netip.MustParseAddr("0.0.0.0")},
		"mapped":    {netip.MustParseAddr("::ffff:127.0.0.1")},
	}
	old := lookupNetIP
	lookupNetIP = func(_ context.Context, _, host string) ([]netip.Addr, error) {
		if ips, ok := names[host]; ok {
			return ips, nil
		}
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	t.Cleanup(func() { lookupNetIP = old })
	for _, tt := range []struct {
		addr      string
		listenAny bool
		ok        bool
		any       bool
		bind      string
	}{
		{"localhost:8080", false, true, false, "127.0.0.1:8080"},
		{"LOCALHOST:8080", false, true, false, "127.0.0.1:8080"},
		{"LocalHost:8080", false, true, false, "127.0.0.1:8080"},
		{"loop6:8080", false, true, false, "[::1]:8080"},
		{"mapped:8080", false, true, false, "127.0.0.1:8080"},
		{"127.0.0.1:0", false, true, false, "127.0.0.1:0"},
		{"127.0.0.2:0", false, true, false, "127.0.0.2:0"},
		{"[::1]:8080", false, true, false, "[::1]:8080"},
		{"[::1%lo]:8080", false, true, false, "[::1%lo]:8080"},
		{"192.168.1.5:8080", false, false, true, ""},
		{":8080", false, false, true, ""},
		{"0.0.0.0:8080", false, false, true, ""},
		{"[::]:8080", false, false, true, ""},
		{"[::%lo]:8080", false, false, true, ""},
		{"[::%eth0]:8080", false, false, true, ""},
		{"[fe80::1%eth0]:8080", false, false, true, ""},
		{"[::ffff:0.0.0.0]:8080", false, false, true, ""},
		{"[::ffff:10.1.2.3]:8080", false, false, true, ""},
		{"lan:8080", false, false, true, ""},
		{"mixed:8080", false, false, true, ""},
		{"zero:8080", false, false, true, ""},
		{"0:8080", false, false, false, ""}, // a name that does not resolve here
		{":8080", true, true, false, ":8080"},
		{"0.0.0.0:8080", true, true, false, "0.0.0.0:8080"},
		{"[::%lo]:8080", true, true, false, "[::%lo]:8080"},
		{"lan:8080", true, true, false, "lan:8080"},
		{"localhost", false, false, false, ""},
		{"8080", false, false, false, ""},
		{"localhost:http", false, false, false, ""},
		{"localhost:70000", false, false, false, ""},
	} {
		bind, err := resolveListenAddr(context.Background(), tt.addr, tt.listenAny)
		if (err == nil) != tt.ok || errors.Is(err, ErrListenAny) != tt.any || bind != tt.bind {
			t.Errorf("resolveListenAddr(%q, %v) = %q, %v", tt.addr, tt.listenAny, bind, err)
		}
		if err := checkListenAddr(tt.addr, tt.listenAny); (err == nil) != tt.ok {
			t.Errorf("checkListenAddr(%q, %v) = %v", tt.addr, tt.listenAny, err)
		}
	}
}

// TestHostLetterCase: a Host that names localhost in another letter case
// (a client given http://LOCALHOST:PORT/mcp) is served, through the SDK
// and on the fast path, as localhost is; other names are still refused by
// the DNS-rebinding check.
func TestHostLetterCase(t *testing.T) {
	t.Parallel()
	s := newServer(t, newWorkspace(t), nil)
	endpoint := serveHTTP(t, s, nil)
	_, port, _ := net.SplitHostPort(strings.TrimSuffix(strings.TrimPrefix(endpoint, "http://"), Path))
	read := `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"skill://alpha/references/guide.md"}}`
	for _, tt := range []struct {
		host string
		want int
	}{
		{"LOCALHOST:" + port, http.StatusOK},
		{"LocalHost:" + port, http.StatusOK},
		{"LOCALHOST", http.StatusOK},
		{"localhost:" + port, http.StatusOK},
		{"LOCALHOST.evil.example:" + port, http.StatusForbidden},
		{"evil.example:" + port, http.StatusForbidden},
	} {
		before := s.fastHits.Load()
		rc := dialRaw(t, endpoint, nil)
		rc.host = tt.host
		resp, body := rc.post("", `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
		if resp.StatusCode != tt.want {
			t.Errorf("ping with Host %q: %d %q, want %d", tt.host, resp.StatusCode, body, tt.want)
		}
		req, _ := http.NewRequest("POST", endpoint, strings.NewReader(read))
		req.Host = tt.host
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		hr, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(hr.Body)
		hr.Body.Close()
		if hr.StatusCode != tt.want || (tt.want == 200 && !strings.Contains(string(b), "Step one.")) {
			t.Errorf("resources/read with Host %q: %d %q, want %d", tt.host, hr.StatusCode, b, tt.want)
		}
		if hits := s.fastHits.Load() - before; (tt.want == 200) != (hits == 1) {
			t.Errorf("Host %q: the fast path answered %d reads", tt.host, hits)
		}
	}
}

// TestListenZoneLoopbackOnly binds "[::%lo]" only with listenAny: without
// it, the address that binds every interface is refused before anything
// listens.
func TestListenZoneLoopbackOnly(t *testing.T) {
	t.Parallel()
	ln, err := Listen(context.Background(), "[::%lo]:0", false)
	if err == nil {
		ln.Close()
		t.Fatalf("Listen([::%%lo]:0) bound %v without listenAny", ln.Addr())
	}
	if !errors.Is(err, ErrListenAny) || !strings.Contains(err.Error(), "every network interface") {
		t.Errorf("Listen([::%%lo]:0) = %v, want ErrListenAny", err)
	}
	ln, err = Listen(context.Background(), "127.0.0.1:0", false)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if ip := ln.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
		t.Errorf("bound %v", ip)
	}
}

// serveHTTP runs s.Serve on a loopback port until the test ends and
// returns the endpoint URL.
func serveHTTP(t *testing.T, s *Server, opts *HTTPOptions) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln, opts) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return "http://" + ln.Addr().String() + Path
}

func connectHTTP(t *testing.T, url, version string, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, copts)
	registerClient(t, c)
	cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// rawCall posts one JSON-RPC request the way a client of the given
// protocol version does, without a session, and returns the HTTP status and
// the JSON-RPC response (from a JSON or an event-stream body).
func rawCall(t *testing.T, url, version, method string, params map[string]any) (int, map[string]any) {
	t.Helper()
	if params == nil {
		params = map[string]any{}
	}
	if version >= skillsext.ProtocolCacheable {
		params["_meta"] = map[string]any{
			mcp.MetaKeyProtocolVersion:    version,
			mcp.MetaKeyClientInfo:         map[string]any{"name": "raw", "version": "1"},
			mcp.MetaKeyClientCapabilities: map[string]any{},
		}
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req, _ := http.NewRequestWithContext(t.Context(), "POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", version)
	req.Header.Set("Mcp-Method", method)
	switch method {
	case "resources/read":
		req.Header.Set("Mcp-Name", fmt.Sprint(params["uri"]))
	case "tools/call", "prompts/get":
		req.Header.Set("Mcp-Name", fmt.Sprint(params["name"]))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for line := range strings.Lines(string(data)) {
			if rest, ok := strings.CutPrefix(line, "data: "); ok {
				data = []byte(rest)
			}
		}
	}
	var msg map[string]any
	if err := json.Unmarshal(data, &msg); err != nil {
		return resp.StatusCode, map[string]any{"raw": string(data)}
	}
	return resp.StatusCode, msg
}

func errorCode(msg map[string]any) float64 {
	e, _ := msg["error"].(map[string]any)
	code, _ := e["code"].(float64)
	return code
}

func TestHTTPStateless(t *testing.T) {
	t.Parallel()
	ws := newWorkspace(t)
	s := newServer(t, ws, nil)
	url := serveHTTP(t, s, nil)
	for _, version := range []string{legacy, skillsext.ProtocolCacheable} {
		t.Run(version, func(t *testing.T) {
			cs := connectHTTP(t, url, version, nil)
			if got := cs.InitializeResult().ProtocolVersion; got != version {
				t.Errorf("negotiated %s, want %s", got, version)
			}
			entries := allSkills(t, cs)
			if len(entries) != 4 {
				t.Errorf("%d skills listed, want 4", len(entries))
			}
			res, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "skill://alpha/assets/logo.png"})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(res.Contents[0].Blob, pngBytes) {
				t.Errorf("logo.png read back as %q", res.Contents[0].Blob)
			}
			if _, err := getSkill(t.Context(), cs, "skill://nope/SKILL.md"); err == nil {
				t.Error("skills/get of an unknown skill succeeded")
			}

			// The same errors on the wire, as a client of another SDK sees them.
			for _, tt := range []struct {
				method string
				params map[string]any
			}{
				{skillsext.MethodGetSkill, map[string]any{"uri": "skill://nope/SKILL.md"}},
				{skillsext.MethodListSkills, map[string]any{"cursor": "bogus"}},
				{skillsext.MethodReadDirectory, map[string]any{"uri": "skill://alpha/SKILL.md"}},
				{"resources/read", map[string]any{"uri": "skill://alpha/../../outside/secret.txt"}},
				{"resources/read", map[string]any{"uri": "skill://alpha/%2e%2e/%2e%2e/outside/secret.txt"}},
			} {
				status, msg := rawCall(t, url, version, tt.method, tt.params)
				if errorCode(msg) != jsonrpc.CodeInvalidParams {
					t.Errorf("%s %v: HTTP %d, %v; want error -32602", tt.method, tt.params, status, msg)
				}
				if strings.Contains(fmt.Sprint(msg), "SECRET") {
					t.Errorf("%s %v: bytes from outside the skill: %v", tt.method, tt.params, msg)
				}
			}
			status, msg := rawCall(t, url, version, skillsext.MethodListSkills, nil)
			result, _ := msg["result"].(map[string]any)
			if status != 200 || result == nil {
				t.Fatalf("raw skills/list: HTTP %d %v", status, msg)
			}
			_, hasTTL := result["ttlMs"]
			if cacheable := version >= skillsext.ProtocolCacheable; hasTTL != cacheable || (result["resultType"] == "complete") != cacheable {
				t.Errorf("raw skills/list on %s: ttlMs present %v, resultType %v", version, hasTTL, result["resultType"])
			}
		})
	}
}

// TestHTTPBadInput: malformed JSON-RPC, an oversized body, a foreign Host
// and a client that hangs up mid-request each get an answer (or nothing)
// and leave the server answering the next client.
func TestHTTPBadInput(t *testing.T) {
	t.Parallel()
	s := newServer(t, newWorkspace(t), nil)
	url := serveHTTP(t, s, &HTTPOptions{MaxRequestBytes: 4096})
	healthy := func() {
		t.Helper()
		status, msg := rawCall(t, url, legacy, skillsext.MethodGetSkill, map[string]any{"uri": "skill://alpha/SKILL.md"})
		if status != 200 || msg["result"] == nil {
			t.Fatalf("the server no longer answers: HTTP %d %v", status, msg)
		}
	}
	healthy()
	post := func(body string, header map[string]string) int {
		t.Helper()
		req, _ := http.NewRequestWithContext(t.Context(), "POST", url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		if h := header["Host"]; h != "" {
			req.Host = h
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, tt := range []struct {
		name   string
		body   string
		header map[string]string
		want   int
	}{
		{"not JSON", "{this is not json", nil, http.StatusBadRequest},
		{"not JSON-RPC", `{"hello":"world"}`, nil, http.StatusBadRequest},
		{"empty", "", nil, http.StatusBadRequest},
		{"oversized", `{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{"cursor":"` + strings.Repeat("x", 8192) + `"}}`, nil, http.StatusRequestEntityTooLarge},
		{"foreign host", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, map[string]string{"Host": "evil.example"}, http.StatusForbidden},
	} {
		if got := post(tt.body, tt.header); got != tt.want {
			t.Errorf("%s: HTTP %d, want %d", tt.name, got, tt.want)
		}
		healthy()
	}

	// A client that sends half a request and hangs up.
	conn, err := net.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(url, "http://"), Path))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":\"2.0\",", Path)
	conn.Close()
	healthy()

	// A client that gives up while its request is being answered.
	ctx, cancel := context.WithCancel(t.Context())
	c := mcp.NewClient(&mcp.Implementation{Name: "quitter", Version: "1"}, nil)
	registerClient(t, c)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() { _, err := listSkills(ctx, cs, ""); errc <- err }()
	cancel()
	<-errc
	cs.Close()
	healthy()

	resp, err := http.Get(strings.TrimSuffix(url, Path) + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "ok\n" {
		t.Errorf("/healthz: %d %q", resp.StatusCode, body)
	}
}

// TestHTTPStatefulNotifications: a stateful session hears of a reload.
func TestHTTPStatefulNotifications(t *testing.T) {
	t.Parallel()
	ws := newWorkspace(t)
	s := newServer(t, ws, nil)
	url := serveHTTP(t, s, &HTTPOptions{Stateful: true})
	n := newNotes()
	cs := connectHTTP(t, url, legacy, n.options())
	if cs.ID() == "" {
		t.Error("stateful server gave no session id")
	}
	writeTree(t, ws, map[string]string{"skills/delta/SKILL.md": skillMD("delta", "Added later.", "Delta.\n")})
	if changed, err := s.Reload(t.Context()); err != nil || !changed {
		t.Fatalf("Reload = %v, %v", changed, err)
	}
	await(t, n.resources, "resources/list_changed over stateful HTTP")
	if _, err := getSkill(t.Context(), cs, "skill://delta/SKILL.md"); err != nil {
		t.Fatal(err)
	}
}

// slowMethod registers test/slow, which blocks until release is closed,
// and returns a channel that receives once per call started.
func slowMethod(t *testing.T, s *Server, release chan struct{}) chan struct{} {
	started := make(chan struct{}, 10)
	err := mcp.AddReceivingCustomMethod(s.MCP(), "test/slow", func(ctx context.Context, _ *mcp.ServerSession, _ *skillsext.ListSkillsParams) (*skillsext.ListSkillsResult, error) {
		started <- struct{}{}
		<-release
		return &skillsext.ListSkillsResult{Skills: []*skillsext.SkillEntry{}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return started
}

// TestServeShutdown: when Serve's context ends, a request in flight is
// answered before the server stops.
func TestServeShutdown(t *testing.T) {
	t.Parallel()
	s := newServer(t, newWorkspace(t), nil)
	release := make(chan struct{})
	started := slowMethod(t, s, release)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln, &HTTPOptions{Stateful: true}) }()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	if err := mcp.AddSendingCustomMethod[*skillsext.ListSkillsParams, *skillsext.ListSkillsResult](c, "test/slow"); err != nil {
		t.Fatal(err)
	}
	cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: "http://" + ln.Addr().String() + Path}, &mcp.ClientSessionOptions{ProtocolVersion: legacy})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	callErr := make(chan error, 1)
	go func() {
		_, err := mcp.CallCustomMethod[*skillsext.ListSkillsParams, *skillsext.ListSkillsResult](t.Context(), cs, "test/slow", &skillsext.ListSkillsParams{})
		callErr <- err
	}()
	<-started
	cancel()
	// Once the shutdown has begun, Serve waits for the request: it has
	// not returned while the handler is held.
	waitFor(t, "the shutdown to begin", s.stopping.Load)
	select {
	case err := <-done:
		t.Fatalf("Serve returned (%v) with a request in flight", err)
	default:
	}
	close(release)
	if err := <-callErr; err != nil {
		t.Errorf("the request in flight failed: %v", err)
	}
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
	// The port is closed.
	if c, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second); err == nil {
		c.Close()
		t.Error("still listening after shutdown")
	}
}

// TestServeShutdownListening: clients holding notification streams open
// (a stateful GET, a 2026-07-28 subscriptions/listen) do not hold the
// shutdown until its timeout.
func TestServeShutdownListening(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		stateful bool
		version  string
	}{{"stateful", true, legacy}, {"stateless-listen", false, skillsext.ProtocolCacheable}} {
		t.Run(tt.name, func(t *testing.T) {
			var lb logBuffer
			s := newServer(t, newWorkspace(t), &Options{Logger: lb.logger(), ShutdownTimeout: 5 * time.Second})
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- s.Serve(ctx, ln, &HTTPOptions{Stateful: tt.stateful}) }()
			cs := connectHTTP(t, "http://"+ln.Addr().String()+Path, tt.version, newNotes().options())
			if _, err := listSkills(t.Context(), cs, ""); err != nil {
				t.Fatal(err)
			}
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Serve: %v", err)
			}
			if strings.Contains(lb.String(), "timed out") {
				t.Errorf("the shutdown waited for the notification stream:\n%s", lb.String())
			}
		})
	}
}

// TestRunShutdown: the same for one session (stdio).
func TestRunShutdown(t *testing.T) {
	t.Parallel()
	var log syncBuffer
	s := newServer(t, newWorkspace(t), &Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	release := make(chan struct{})
	started := slowMethod(t, s, release)
	st, ct := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, st) }()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	if err := mcp.AddSendingCustomMethod[*skillsext.ListSkillsParams, *skillsext.ListSkillsResult](c, "test/slow"); err != nil {
		t.Fatal(err)
	}
	cs, err := c.Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	callErr := make(chan error, 1)
	go func() {
		_, err := mcp.CallCustomMethod[*skillsext.ListSkillsParams, *skillsext.ListSkillsResult](t.Context(), cs, "test/slow", &skillsext.ListSkillsParams{})
		callErr <- err
	}()
	<-started
	cancel()
	waitFor(t, "the shutdown to begin", func() bool { return strings.Contains(log.String(), "shutting down") })
	select {
	case err := <-done:
		t.Fatalf("Run returned (%v) with a request in flight", err)
	default:
	}
	close(release)
	if err := <-callErr; err != nil {
		t.Errorf("the request in flight failed: %v", err)
	}
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
}

// TestLineTransportBadInput: over stdio, a line that is not JSON, not
// JSON-RPC, a batch or over the size limit gets an error response and the
// session goes on answering.
func TestLineTransportBadInput(t *testing.T) {
	t.Parallel()
	s := newServer(t, newWorkspace(t), nil)
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`this is not json`,
		``,
		`{"jsonrpc":"2.0","id":3,"method":5}`,
		`[{"jsonrpc":"2.0","id":4,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":5,"method":"skills/list","params":{"cursor":"` + strings.Repeat("x", 2000) + `"}}`,
		`{"jsonrpc":"2.0","id":6,"method":"skills/get","params":{"uri":"skill://alpha/SKILL.md"}}`,
		`{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{"uri":"skill://alpha/../../outside/secret.txt"}}`,
	}
	pr, pw := io.Pipe()
	out := &syncWriter{lines: make(chan string, 100)}
	done := make(chan error, 1)
	go func() { done <- s.Run(t.Context(), &mcpline.Transport{Reader: pr, Writer: out, MaxLineBytes: 1024}) }()
	go io.WriteString(pw, strings.Join(lines, "\n")+"\n")
	var answers []map[string]any
	for len(answers) < 7 {
		select {
		case line := <-out.lines:
			var msg map[string]any
			if err := json.Unmarshal([]byte(line), &msg); err != nil {
				t.Fatalf("stdout holds a line that is not JSON: %q", line)
			}
			answers = append(answers, msg)
		case <-time.After(20 * time.Second):
			t.Fatalf("answers so far: %v", answers)
		}
	}
	byID := map[any]map[string]any{}
	var nullID []float64
	for _, a := range answers {
		if id, has := a["id"]; !has {
			t.Errorf("an answer without an id member (JSON-RPC wants \"id\": null): %v", a)
		} else if id == nil {
			nullID = append(nullID, errorCode(a))
			continue
		}
		byID[a["id"]] = a
	}
	for id, code := range map[float64]float64{3: jsonrpc.CodeInvalidRequest, 7: jsonrpc.CodeInvalidParams} {
		if got := errorCode(byID[id]); got != code {
			t.Errorf("id %v: %v, want error %v", id, byID[id], code)
		}
	}
	if byID[6.0]["result"] == nil {
		t.Errorf("the request after the bad lines got %v", byID[6.0])
	}
	// The line that is not JSON, the batch and the oversized line have no
	// id to answer.
	slices.Sort(nullID)
	if want := []float64{jsonrpc.CodeParseError, jsonrpc.CodeInvalidRequest, jsonrpc.CodeInvalidRequest}; !slices.Equal(nullID, slices.Sorted(slices.Values(want))) {
		t.Errorf("answers without id: %v, want %v", nullID, want)
	}
	if strings.Contains(fmt.Sprint(answers), "SECRET") {
		t.Errorf("bytes from outside the skill: %v", answers)
	}
	pw.Close()
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
}

// syncWriter passes each complete line written to it on a channel.
type syncWriter struct {
	buf   []byte
	lines chan string
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.buf = append(s.buf, p...)
	for {
		i := bytes.IndexByte(s.buf, '\n')
		if i < 0 {
			break
		}
		s.lines <- string(s.buf[:i])
		s.buf = s.buf[i+1:]
	}
	return len(p), nil
}

func (s *syncWriter) Close() error { return nil }

// TestHTTPProtocolFit: a stateless legacy session is promised no
// notification (a stateful one is), the cache fields appear only on
// protocol 2026-07-28, a body that is not JSON gets -32700 with "id":
// null, and resources/templates/list offers the file template.
func TestHTTPProtocolFit(t *testing.T) {
	t.Parallel()
	s := newServer(t, newWorkspace(t), nil)
	stateless := serveHTTP(t, s, nil)
	stateful := serveHTTP(t, s, &HTTPOptions{Stateful: true})
	for _, tt := range []struct {
		url  string
		want bool
	}{{stateless, false}, {stateful, true}} {
		caps := connectHTTP(t, tt.url, legacy, nil).InitializeResult().Capabilities
		if got := caps.Resources.ListChanged || caps.Resources.Subscribe || caps.Prompts.ListChanged || caps.Tools.ListChanged; got != tt.want {
			t.Errorf("%s: notifications promised %v, want %v (%+v %+v %+v)", tt.url, got, tt.want, caps.Resources, caps.Prompts, caps.Tools)
		}
	}
	// The shared capabilities were not changed for the next client.
	if caps := connect(t, s, nil, nil).InitializeResult().Capabilities; !caps.Resources.ListChanged || !caps.Resources.Subscribe {
		t.Errorf("stdio-like session after a stateless one: %+v", caps.Resources)
	}

	for _, version := range []string{legacy, skillsext.ProtocolCacheable} {
		for _, method := range []string{"resources/list", "resources/templates/list", "prompts/list", "tools/list"} {
			_, msg := rawCall(t, stateless, version, method, nil)
			result, _ := msg["result"].(map[string]any)
			if result == nil {
				t.Fatalf("%s %s: %v", version, method, msg)
			}
			_, ttl := result["ttlMs"]
			_, scope := result["cacheScope"]
			if want := version >= skillsext.ProtocolCacheable; ttl != want || scope != want {
				t.Errorf("%s %s: ttlMs %v, cacheScope %v; want %v", version, method, ttl, scope, want)
			}
			if method == "resources/templates/list" {
				tpls, _ := result["resourceTemplates"].([]any)
				if len(tpls) != 1 || tpls[0].(map[string]any)["uriTemplate"] != fileTemplate {
					t.Errorf("resources/templates/list: %v", result)
				}
			}
		}
		_, msg := rawCall(t, stateless, version, "resources/read", map[string]any{"uri": "skill://alpha/SKILL.md"})
		result, _ := msg["result"].(map[string]any)
		if _, ttl := result["ttlMs"]; result == nil || ttl != (version >= skillsext.ProtocolCacheable) {
			t.Errorf("%s resources/read: %v", version, msg)
		}
	}

	for _, body := range []string{"not json", `{"jsonrpc":"2.0","id":1,`, "\x00"} {
		req, _ := http.NewRequestWithContext(t.Context(), "POST", stateless, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var msg map[string]any
		if err := json.Unmarshal(data, &msg); err != nil {
			t.Fatalf("body %q: HTTP %d %q is not JSON", body, resp.StatusCode, data)
		}
		if id, has := msg["id"]; !has || id != nil || errorCode(msg) != jsonrpc.CodeParseError || resp.StatusCode != 400 {
			t.Errorf("body %q: HTTP %d %s; want 400 with -32700 and \"id\": null", body, resp.StatusCode, data)
		}
	}
}

// TestLineTransportAskedVersion: a stdio client that asks for 2026-07-28
// (or a later version) in initialize is answered 2025-11-25, and its
// session's results then carry none of 2026-07-28's ttlMs, cacheScope
// and resultType (docs/mcp.md#protocol-versions-and-transports), as a
// client that asked for 2025-11-25 gets.
func TestLineTransportAskedVersion(t *testing.T) {
	t.Parallel()
	for _, asked := range []string{"2025-11-25", "2026-07-28", "2027-01-01"} {
		t.Run(asked, func(t *testing.T) {
			s := newServer(t, newWorkspace(t), nil)
			lines := []string{
				`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + asked + `","capabilities":{"extensions":{"io.modelcontextprotocol/skills":{}}},"clientInfo":{"name":"raw","version":"1"}}}`,
				`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
				`{"jsonrpc":"2.0","id":2,"method":"skills/list","params":{}}`,
				`{"jsonrpc":"2.0","id":3,"method":"skills/get","params":{"uri":"skill://alpha/SKILL.md"}}`,
				`{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"skill://alpha/SKILL.md"}}`,
				`{"jsonrpc":"2.0","id":5,"method":"resources/list","params":{}}`,
			}
			pr, pw := io.Pipe()
			out := &syncWriter{lines: make(chan string, 100)}
			done := make(chan error, 1)
			go func() { done <- s.Run(t.Context(), &mcpline.Transport{Reader: pr, Writer: out}) }()
			go io.WriteString(pw, strings.Join(lines, "\n")+"\n")
			for n := 0; n < 5; n++ {
				var msg struct {
					ID     int                        `json:"id"`
					Result map[string]json.RawMessage `json:"result"`
				}
				select {
				case line := <-out.lines:
					if err := json.Unmarshal([]byte(line), &msg); err != nil {
						t.Fatalf("not JSON: %q", line)
					}
				case <-time.After(20 * time.Second):
					t.Fatalf("%d answers only", n)
				}
				if msg.Result == nil {
					t.Fatalf("answer %d has no result", msg.ID)
				}
				if msg.ID == 1 {
					if got := string(msg.Result["protocolVersion"]); got != `"2025-11-25"` {
						t.Errorf("initialize answered %s, want 2025-11-25", got)
					}
					continue
				}
				for _, k := range []string{"ttlMs", "cacheScope", "resultType"} {
					if v, ok := msg.Result[k]; ok {
						t.Errorf("answer %d on a 2025-11-25 session carries %s: %s", msg.ID, k, v)
					}
				}
			}
			pw.Close()
			<-done
		})
	}
}

// TestReadAtMost holds readAtMost to io.ReadAll(io.LimitReader(r, max+1)):
// the same bytes and error for bodies shorter than, as long as and longer
// than the bound, read whole, a byte at a time and ending in an error, with
// a Content-Length that is right, too small, too large or unknown.
func TestReadAtMost(t *testing.T) {
	t.Parallel()
	errCut := errors.New("cut")
	readers := map[string]func(data []byte) io.Reader{
		"whole":        func(d []byte) io.Reader { return bytes.NewReader(d) },
		"one byte":     func(d []byte) io.Reader { return iotest.OneByteReader(bytes.NewReader(d)) },
		"data and EOF": func(d []byte) io.Reader { return iotest.DataErrReader(bytes.NewReader(d)) },
		"error": func(d []byte) io.Reader {
			return io.MultiReader(bytes.NewReader(d), iotest.ErrReader(errCut))
		},
	}
	for _, size := range []int{0, 1, 300, 511, 512, 513, 1000, 1024, 1025, 1026, 5000} {
		data := bytes.Repeat([]byte("x"), size)
		for _, hint := range []int64{-1, 0, int64(size), int64(size) - 1, int64(size) + 7, 1 << 20} {
			for name, mk := range readers {
				const max = 1024
				want, wantErr := io.ReadAll(io.LimitReader(mk(data), max+1))
				got, err := readAtMost(mk(data), max, hint)
				if !bytes.Equal(got, want) || !errors.Is(err, wantErr) && err != wantErr {
					t.Errorf("%d bytes, hint %d, %s: %d bytes, %v; want %d bytes, %v", size, hint, name, len(got), err, len(want), wantErr)
				}
			}
		}
	}
}
