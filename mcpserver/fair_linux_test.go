package mcpserver

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Fairness (docs/serving.md#fairness): one client, here the loopback
// address 127.0.0.2 (Linux answers every 127.0.0.0/8 address), cannot take
// what the others need; the honest client is 127.0.0.1.

// from dials from the loopback address ip.
func from(ip string) *net.Dialer {
	return &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
}

// sessionFrom opens a stateful session from the dialer's address.
func sessionFrom(t *testing.T, endpoint string, d *net.Dialer) (string, int) {
	t.Helper()
	resp, _ := dialRaw(t, endpoint, d).post("", initMsg)
	return resp.Header.Get("Mcp-Session-Id"), resp.StatusCode
}

// waitIdle waits until every connection the server holds is idle
// between requests (net/http marks one idle a moment after its answer).
func waitIdle(t *testing.T, s *Server, n int) {
	t.Helper()
	waitFor(t, "the connections idle", func() bool {
		l := s.conns.Load()
		l.mu.Lock()
		defer l.mu.Unlock()
		idle := 0
		for _, ci := range l.conns {
			if ci.state == http.StateIdle {
				idle++
			}
		}
		return idle == n && len(l.conns) == n
	})
}

// getRaw sends GET path on rc and returns the status and body.
func getRaw(t *testing.T, rc *rawClient, path string) (int, string, string) {
	t.Helper()
	if _, err := fmt.Fprintf(rc.conn, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", path, rc.host); err != nil {
		t.Fatal(err)
	}
	_ = rc.conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(rc.br, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	conn := resp.Header.Get("Connection")
	if resp.Close {
		conn = "close"
	}
	return resp.StatusCode, string(b), conn
}

// TestStreamsPerClient: a client past its notification streams gets 429;
// another client still opens one.
func TestStreamsPerClient(t *testing.T) {
	t.Parallel()
	s := newServer(t, newWorkspace(t), nil)
	endpoint := serveHTTP(t, s, &HTTPOptions{Stateful: true, MaxStreamsPerClient: 2})
	attacker := from("127.0.0.2")
	for range 2 {
		id, _ := sessionFrom(t, endpoint, attacker)
		openStream(t, endpoint, id, attacker)
	}
	id, _ := sessionFrom(t, endpoint, attacker)
	rc := dialRaw(t, endpoint, attacker)
	fmt.Fprintf(rc.conn, "GET %s HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\nMcp-Session-Id: %s\r\n\r\n", Path, rc.host, id)
	resp, err := http.ReadResponse(rc.br, nil)
	if err != nil || resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("a third stream from one client: %v %v, want 429", resp, err)
	}
	honest := rawSession(t, endpoint)
	openStream(t, endpoint, honest, nil)
}

// TestConnsPerClient: a client whose connections are all busy (open
// streams) and at its bound gets its next connection refused, and never
// closes another client's; the other client is served.
func TestConnsPerClient(t *testing.T) {
	t.Parallel()
	s := newServer(t, newWorkspace(t), nil)
	endpoint := serveHTTP(t, s, &HTTPOptions{Stateful: true, MaxConns: 8, MaxConnsPerClient: 3, MaxStreamsPerClient: -1})
	honest := rawSession(t, endpoint)
	hs := openStream(t, endpoint, honest, nil) // busy: a victim only if the limiter were unfair
	attacker := from("127.0.0.2")
	var ids []string
	for range 3 {
		id, code := sessionFrom(t, endpoint, attacker) // each on its own connection, idle after
		if code != 200 {
			t.Fatalf("initialize from the attacker: %d", code)
		}
		ids = append(ids, id)
	}
	// The honest client's stream stays busy; the other four go idle.
	waitFor(t, "the initialize connections idle", func() bool {
		l := s.conns.Load()
		l.mu.Lock()
		defer l.mu.Unlock()
		idle := 0
		for _, ci := range l.conns {
			if ci.state == http.StateIdle {
				idle++
			}
		}
		return idle == 4
	})
	// The attacker's idle connections make room for its streams.
	for _, id := range ids {
		openStream(t, endpoint, id, attacker)
	}
	waitFor(t, "the attacker's idle connections closed", func() bool {
		l := s.conns.Load()
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.byClient["127.0.0.2"] == 3 && l.evicted.Load() == 3
	})
	// Every connection of the attacker is busy: its next one is refused.
	rc := dialRaw(t, endpoint, attacker)
	_ = rc.conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	if _, err := io.Copy(io.Discard, rc.br); err != nil && !strings.Contains(err.Error(), "reset") {
		t.Fatalf("the attacker's fourth connection: %v, want closed", err)
	}
	if n := s.conns.Load().refused.Load(); n < 1 {
		t.Errorf("%d connections refused, want at least 1", n)
	}
	// The honest client's stream is open and it is served.
	if got := sessionStatus(t, endpoint, honest); got != 200 {
		t.Errorf("the honest client: %d", got)
	}
	_ = hs
}

// TestProbesWhenFull: with every connection busy, a new connection is
// answered GET /healthz and GET /readyz (and closed after), and anything
// else 503.
func TestProbesWhenFull(t *testing.T) {
	t.Parallel()
	s := newServer(t, newWorkspace(t), nil)
	endpoint := serveHTTP(t, s, &HTTPOptions{Stateful: true, MaxConns: 2, MaxConnsPerClient: -1, MaxStreamsPerClient: -1})
	attacker := from("127.0.0.2")
	var ids []string
	for range 2 {
		id, _ := sessionFrom(t, endpoint, attacker)
		ids = append(ids, id)
	}
	waitIdle(t, s, 2) // so that each stream's connection closes one of them
	for _, id := range ids {
		openStream(t, endpoint, id, attacker)
	}
	waitFor(t, "two busy connections", func() bool { return s.conns.Load().len() == 2 })
	for _, p := range []string{"/healthz", "/readyz"} {
		code, body, conn := getRaw(t, dialRaw(t, endpoint, nil), p)
		if code != 200 || conn != "close" {
			t.Errorf("%s with every connection busy: %d %q (Connection: %q), want 200 and close", p, code, body, conn)
		}
	}
	resp, body := dialRaw(t, endpoint, nil).post("", `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a request with every connection busy: %d %q, want 503", resp.StatusCode, body)
	}
}

// TestSessionsPerClient: a burst of sessions from one client closes only
// its own idle sessions, never another client's idle one.
func TestSessionsPerClient(t *testing.T) {
	t.Parallel()
	s := newServer(t, newWorkspace(t), nil)
	endpoint := serveHTTP(t, s, &HTTPOptions{Stateful: true, MaxSessions: 4, MaxSessionsPerClient: 2})
	honest := rawSession(t, endpoint)
	attacker := from("127.0.0.2")
	var ids []string
	for range 10 {
		id, code := sessionFrom(t, endpoint, attacker)
		if code != 200 {
			t.Fatalf("initialize from the attacker: %d", code)
		}
		ids = append(ids, id)
	}
	if got := sessionStatus(t, endpoint, honest); got != 200 {
		t.Errorf("the honest idle session answers %d after a burst from another client, want 200", got)
	}
	if got := sessionStatus(t, endpoint, ids[0]); got != http.StatusNotFound {
		t.Errorf("the attacker's first session answers %d, want 404 (closed for its own later ones)", got)
	}
	if n := s.sessions.Load().len(); n > 3 {
		t.Errorf("%d sessions kept, want at most 3 (the attacker's 2 and the honest one)", n)
	}
}
