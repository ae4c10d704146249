package mcpserver

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestAuthToken: with a token, every request but the probes needs it;
// a wrong token or none gets 401, the right one is served, and the log
// never holds the token.
func TestAuthToken(t *testing.T) {
	t.Parallel()
	const token = "s3cret-Token_value"
	var log syncBuffer
	s := newServer(t, newWorkspace(t), &Options{Logger: newTextLogger(&log)})
	endpoint := serveHTTP(t, s, &HTTPOptions{AuthToken: token})
	base := strings.TrimSuffix(endpoint, Path)
	do := func(method, path, auth, body string) (int, string) {
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	for _, tt := range []struct {
		method, path, auth string
		want               int
	}{
		{"POST", Path, "", 401},
		{"POST", Path, "Bearer wrong", 401},
		{"POST", Path, "Bearer " + token + "x", 401},
		{"POST", Path, "Basic " + token, 401},
		{"POST", Path, "Bearer " + token, 200},
		{"GET", "/metrics", "", 401},
		{"GET", "/metrics", "Bearer " + token, 200},
		{"GET", "/healthz", "", 200},
		{"GET", "/readyz", "", 200},
	} {
		if got, body := do(tt.method, tt.path, tt.auth, ping); got != tt.want {
			t.Errorf("%s %s with %q: %d %q, want %d", tt.method, tt.path, tt.auth, got, body, tt.want)
		}
	}
	// The SDK's client with the token works end to end.
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: &http.Client{Transport: bearer{token}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if _, err := cs.ListResources(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(log.String(), token) {
		t.Errorf("the token is in the log:\n%s", log.String())
	}
}

type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestMetrics: /metrics counts requests by method, errors, and the
// snapshot's size, and /readyz turns unready while shutting down.
func TestMetrics(t *testing.T) {
	t.Parallel()
	s := newServer(t, newWorkspace(t), nil)
	endpoint := serveHTTP(t, s, nil)
	base := strings.TrimSuffix(endpoint, Path)
	rawCall(t, endpoint, "2025-11-25", "resources/list", nil)
	rawCall(t, endpoint, "2025-11-25", "resources/read", map[string]any{"uri": "skill://nope/SKILL.md"})
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	text := string(b)
	for _, want := range []string{
		`skillet_mcp_requests_total{method="resources/list"} 1`,
		`skillet_mcp_errors_total{method="resources/read"} 1`,
		`skillet_mcp_request_duration_seconds_count{method="resources/list"} 1`,
		"skillet_snapshot_skills 6",
		"skillet_reloads_total 1",
		"skillet_reload_failures_total 0",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if !strings.Contains(text, "skillet_snapshot_bytes ") || !strings.Contains(text, "skillet_snapshot_files ") {
		t.Errorf("/metrics lacks the snapshot size:\n%.3000s", text)
	}
	s.stopping.Store(true)
	resp, err = http.Get(base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("/readyz while stopping: %d", resp.StatusCode)
	}
	s.stopping.Store(false)
}

func newTextLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// TestHostOriginEveryPath: every path (/mcp, /metrics, /healthz, /readyz)
// refuses a request with a Host that is not loopback on a loopback
// address (DNS rebinding) and one a browser marks as cross-origin, GET
// included, before the token is looked at; the same request with a
// loopback Host and no browser headers is served. A server on the
// shared machine is reachable by every local page otherwise.
func TestHostOriginEveryPath(t *testing.T) {
	t.Parallel()
	const token = "0123456789abcdef0123456789abcdef"
	s := newServer(t, newWorkspace(t), nil)
	endpoint := serveHTTP(t, s, &HTTPOptions{AuthToken: token})
	base := strings.TrimSuffix(endpoint, Path)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(base, "http://"))
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	type req struct{ method, path string }
	paths := []req{{"POST", Path}, {"GET", Path}, {"GET", "/metrics"}, {"GET", "/healthz"}, {"GET", "/readyz"}}
	for _, tt := range []struct {
		name    string
		headers map[string]string
		refused bool
	}{
		{"loopback host", map[string]string{"Host": "localhost:" + port}, false},
		{"loopback address host", map[string]string{"Host": "127.0.0.1:" + port}, false},
		{"same origin", map[string]string{"Origin": "http://localhost:" + port, "Host": "localhost:" + port, "Sec-Fetch-Site": "same-origin"}, false},
		{"rebinding host", map[string]string{"Host": "evil.example:" + port}, true},
		{"rebinding host, same-origin by the browser", map[string]string{"Host": "evil.example:" + port, "Origin": "http://evil.example:" + port, "Sec-Fetch-Site": "same-origin"}, true},
		{"cross-site fetch", map[string]string{"Sec-Fetch-Site": "cross-site"}, true},
		{"same-site fetch", map[string]string{"Sec-Fetch-Site": "same-site"}, true},
		{"foreign origin", map[string]string{"Origin": "http://evil.example"}, true},
		{"null origin", map[string]string{"Origin": "null"}, true},
	} {
		for _, p := range paths {
			r, _ := http.NewRequest(p.method, base+p.path, strings.NewReader(ping))
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Accept", "application/json, text/event-stream")
			r.Header.Set("Authorization", "Bearer "+token)
			for k, v := range tt.headers {
				if k == "Host" {
					r.Host = v
				} else {
					r.Header.Set(k, v)
				}
			}
			resp, err := http.DefaultClient.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			// GET /mcp of a stateless server is 405: served, not refused.
			if got := resp.StatusCode == http.StatusForbidden; got != tt.refused {
				t.Errorf("%s: %s %s: HTTP %d, refused %v, want %v", tt.name, p.method, p.path, resp.StatusCode, got, tt.refused)
			}
		}
	}
	// The token still guards /metrics.
	r, _ := http.NewRequest("GET", base+"/metrics", nil)
	if resp, err := http.DefaultClient.Do(r); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("/metrics without the token: %v %v, want 401", resp.StatusCode, err)
	}
}
