package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// watchdog fails the test when ch is not closed or sent on within a
// generous bound: the protection under test makes it immediate, its
// absence makes it never happen.
func watchdog[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(30 * time.Second):
		t.Fatalf("%s never happened", what)
	}
	var zero T
	return zero
}

// rawClient speaks HTTP/1.1 over one loopback connection it controls.
type rawClient struct {
	t    *testing.T
	host string
	conn net.Conn
	br   *bufio.Reader
}

func dialRaw(t *testing.T, endpoint string, d *net.Dialer) *rawClient {
	t.Helper()
	u, err := url.Parse(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	if d == nil {
		d = &net.Dialer{}
	}
	c, err := d.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &rawClient{t: t, host: u.Host, conn: c, br: bufio.NewReader(c)}
}

// post sends one JSON-RPC message and reads the answer's header and
// (JSON or event stream) body.
func (rc *rawClient) post(session string, msg string) (*http.Response, string) {
	rc.t.Helper()
	req := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n", Path, rc.host, len(msg))
	if session != "" {
		req += "Mcp-Session-Id: " + session + "\r\n"
	}
	if _, err := io.WriteString(rc.conn, req+"\r\n"+msg); err != nil {
		rc.t.Fatal(err)
	}
	resp, err := http.ReadResponse(rc.br, nil)
	if err != nil {
		rc.t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

const initMsg = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

// rawSession initializes a stateful session and returns its ID.
func rawSession(t *testing.T, endpoint string) string {
	t.Helper()
	rc := dialRaw(t, endpoint, nil)
	resp, body := rc.post("", initMsg)
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || id == "" {
		t.Fatalf("initialize: %d %q", resp.StatusCode, body)
	}
	if resp, body := rc.post(id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); resp.StatusCode != http.StatusAccepted {
		t.Fatalf("initialized: %d %q", resp.StatusCode, body)
	}
	return id
}

// openStream opens the session's GET notification stream on a connection
// of its own and reads its header; the caller decides whether to read on.
func openStream(t *testing.T, endpoint, session string, d *net.Dialer) *rawClient {
	t.Helper()
	rc := dialRaw(t, endpoint, d)
	req := fmt.Sprintf("GET %s HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\nMcp-Session-Id: %s\r\n\r\n", Path, rc.host, session)
	if _, err := io.WriteString(rc.conn, req); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(rc.br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("GET stream: %d", resp.StatusCode)
	}
	return rc
}

// sessionStatus is the status of a ping in the session: 200 while it
// lives, 404 once it is closed.
func sessionStatus(t *testing.T, endpoint, session string) int {
	t.Helper()
	resp, _ := dialRaw(t, endpoint, nil).post(session, `{"jsonrpc":"2.0","id":9,"method":"ping"}`)
	return resp.StatusCode
}

// TestStalledRequests: a header or a body that stops arriving gets the
// connection closed after the read timeout, and a keep-alive connection
// without a request is closed after the idle timeout; the server answers
// others meanwhile.
func TestStalledRequests(t *testing.T) {
	t.Parallel()
	s := newServer(t, newWorkspace(t), nil)
	endpoint := serveHTTP(t, s, &HTTPOptions{ReadTimeout: 100 * time.Millisecond, IdleTimeout: 100 * time.Millisecond})
	for _, tt := range []struct{ name, send string }{
		{"header", "POST /mcp HTTP/1.1\r\nHost: x\r\nContent-"},
		{"body", "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\":"},
		{"idle", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rc := dialRaw(t, endpoint, nil)
			if tt.name == "idle" {
				if resp, _ := rc.post("", `{"jsonrpc":"2.0","id":1,"method":"ping"}`); resp.StatusCode != 200 {
					t.Fatalf("ping: %d", resp.StatusCode)
				}
			} else if _, err := io.WriteString(rc.conn, tt.send); err != nil {
				t.Fatal(err)
			}
			closed := make(chan error, 1)
			go func() {
				_, err := io.Copy(io.Discard, rc.br) // returns once the server closes
				closed <- err
			}()
			watchdog(t, closed, "closing the stalled connection")
		})
	}
	_, res := rawCall(t, endpoint, "2025-11-25", "resources/list", nil)
	if res["result"] == nil {
		t.Errorf("the server no longer answers: %v", res)
	}
}

// TestBodyBudget: request bodies that together pass the budget are
// refused, and the budget is given back once answered.
func TestBodyBudget(t *testing.T) {
	t.Parallel()
	s := newServer(t, newWorkspace(t), nil)
	endpoint := serveHTTP(t, s, &HTTPOptions{BodyBudget: 2 << 10})
	big := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"pad":"` + strings.Repeat("x", freeBodyBytes+4<<10) + `"}}}`
	resp, body := dialRaw(t, endpoint, nil).post("", big)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "too many request bodies") {
		t.Errorf("a body over the budget: %d %q", resp.StatusCode, body)
	}
	if got := s.bodyBytes.Load(); got != 0 {
		t.Errorf("%d body bytes still held after the answer", got)
	}
	if resp, body := dialRaw(t, endpoint, nil).post("", `{"jsonrpc":"2.0","id":1,"method":"ping"}`); resp.StatusCode != 200 {
		t.Errorf("a small body after: %d %q", resp.StatusCode, body)
	}
}

// TestConnectionCap: one connection over the cap closes the oldest of
// those that have sent nothing (none is idle here), and is served.
func TestConnectionCap(t *testing.T) {
	t.Parallel()
	s := newServer(t, newWorkspace(t), nil)
	endpoint := serveHTTP(t, s, &HTTPOptions{MaxConns: 3, ReadTimeout: time.Hour})
	var silent []*rawClient
	for range 3 {
		silent = append(silent, dialRaw(t, endpoint, nil))
		// Accepted in order, so the first is the oldest.
		waitFor(t, "counting the silent connection", func() bool { return s.conns.Load().len() >= len(silent) })
	}
	c := dialRaw(t, endpoint, nil)
	if resp, body := c.post("", `{"jsonrpc":"2.0","id":1,"method":"ping"}`); resp.StatusCode != 200 {
		t.Fatalf("a request over the cap: %d %q", resp.StatusCode, body)
	}
	closed := make(chan error, 1)
	go func() { _, err := io.Copy(io.Discard, silent[0].br); closed <- err }()
	watchdog(t, closed, "closing the oldest silent connection")
	if n := s.conns.Load().evicted.Load(); n != 1 {
		t.Errorf("%d connections evicted, want 1", n)
	}
}

// TestSessionsAliveWhileListening: a session idle past the timeout is
// closed, one whose notification stream is open is not.
func TestSessionsAliveWhileListening(t *testing.T) {
	t.Parallel()
	s := newServer(t, newWorkspace(t), nil)
	endpoint := serveHTTP(t, s, &HTTPOptions{Stateful: true, SessionTimeout: time.Hour})
	listening, idle := rawSession(t, endpoint), rawSession(t, endpoint)
	openStream(t, endpoint, listening, nil)
	table := s.sessions.Load()
	var mu sync.Mutex
	later := time.Now().Add(2 * time.Hour)
	table.mu.Lock()
	table.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return later }
	table.mu.Unlock()
	if n := table.reap(s.liveSessions); n != 1 {
		t.Errorf("reap closed %d sessions, want 1 (the idle one)", n)
	}
	if got := sessionStatus(t, endpoint, idle); got != http.StatusNotFound {
		t.Errorf("the idle session answers %d after its timeout, want 404", got)
	}
	if got := sessionStatus(t, endpoint, listening); got != 200 {
		t.Errorf("the session with an open stream answers %d, want 200", got)
	}
}

// TestSessionCap: a new session over the cap closes the one idle longest;
// when every session is busy (listening), the new one is refused.
func TestSessionCap(t *testing.T) {
	t.Parallel()
	s := newServer(t, newWorkspace(t), nil)
	endpoint := serveHTTP(t, s, &HTTPOptions{Stateful: true, MaxSessions: 3})
	a := rawSession(t, endpoint)
	b := rawSession(t, endpoint)
	c := rawSession(t, endpoint)
	if got := sessionStatus(t, endpoint, a); got != 200 { // a is now the most recent
		t.Fatalf("a: %d", got)
	}
	d := rawSession(t, endpoint) // closes b, idle longest
	for id, want := range map[string]int{a: 200, b: 404, c: 200, d: 200} {
		if got := sessionStatus(t, endpoint, id); got != want {
			t.Errorf("session %s answers %d, want %d", id, got, want)
		}
	}
	for _, id := range []string{a, c, d} {
		openStream(t, endpoint, id, nil)
	}
	resp, body := dialRaw(t, endpoint, nil).post("", initMsg)
	if !strings.Contains(body, "as many sessions as it may") {
		t.Errorf("a fourth session while three listen: %d %q", resp.StatusCode, body)
	}
	for _, id := range []string{a, c, d} {
		if got := sessionStatus(t, endpoint, id); got != 200 {
			t.Errorf("listening session %s answers %d after the refusal", id, got)
		}
	}
}

// TestUndeliveredLoggedOncePerReload: a reload with many sessions that
// hold no stream logs one line, not one per session and notification.
func TestUndeliveredLoggedOncePerReload(t *testing.T) {
	t.Parallel()
	ws := newWorkspace(t)
	var log syncBuffer
	s := newServer(t, ws, &Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
	s.undelivered.mu.Lock()
	s.undelivered.burst = time.Hour // flushed by hand below
	s.undelivered.mu.Unlock()
	endpoint := serveHTTP(t, s, &HTTPOptions{Stateful: true})
	const n = 40
	for range n {
		rawSession(t, endpoint)
	}
	if err := os.WriteFile(filepath.Join(ws, "skills", "beta", "SKILL.md"), []byte("---\nname: beta\ndescription: Changed.\n---\nNew.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if changed, err := s.Reload(t.Context()); err != nil || !changed {
		t.Fatalf("Reload = %v, %v", changed, err)
	}
	// The SDK sends list_changed shortly after, from a timer: wait for
	// every session's prompts, resources and tools notification.
	waitFor(t, "counting the undelivered notifications", func() bool { return s.undelivered.total.Load() >= 2*n })
	s.undelivered.flush()
	text := log.String()
	if c := strings.Count(text, "notifications not delivered"); c != 1 {
		t.Errorf("%d summary lines, want 1:\n%s", c, text)
	}
	if strings.Contains(text, "calling notifications/") {
		t.Errorf("per-session lines logged:\n%.2000s", text)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestRequestContext: the guard's record is the request's context. It is
// found there and through contexts derived from it, carries the wrapped
// context's values, and a context derived from it is cancelled with the
// wrapped one (context's own propagation, through Value); the SDK's
// handler gets a context cancelled as it returns (cancelOnReturn), as the
// guard's own cancellable context was before every request had one.
func TestRequestContext(t *testing.T) {
	type key struct{}
	type other struct{}
	parent, cancelParent := context.WithCancel(context.WithValue(context.Background(), key{}, "v"))
	st := &request{Context: parent, client: "c"}
	child, cancelChild := context.WithCancel(st)
	defer cancelChild()
	for _, ctx := range []context.Context{st, child, context.WithValue(child, other{}, 1)} {
		if got := requestFrom(ctx); got != st {
			t.Fatalf("requestFrom(%v) = %p, want %p", ctx, got, st)
		}
		if got := ctx.Value(key{}); got != "v" {
			t.Fatalf("the wrapped context's value through %v: %v", ctx, got)
		}
	}
	if requestFrom(parent) != nil {
		t.Fatal("requestFrom found a record in a context without one")
	}
	cancelParent()
	watchdog(t, child.Done(), "a context derived from the record cancelled with the wrapped one")
	if !errors.Is(context.Cause(child), context.Canceled) {
		t.Fatalf("cause %v", context.Cause(child))
	}

	var seen context.Context
	h := cancelOnReturn(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		seen = r.Context()
		if seen.Err() != nil || requestFrom(seen) != st {
			t.Errorf("inside the handler: err %v, record %p", seen.Err(), requestFrom(seen))
		}
	}))
	live := &request{Context: context.Background()}
	st = live
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/mcp", nil).WithContext(live))
	if seen == nil || seen.Err() == nil {
		t.Fatal("the handler's context is not cancelled once it returned")
	}
}

// TestStreamContextCancelledOnDrop: a notification stream has a context
// of its own, cancelled with errStreamOverflow when its client stops
// reading (failLocked); any other request's writer has none to cancel.
func TestStreamContextCancelledOnDrop(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	g := &guardedWriter{stream: true, cancel: cancel}
	g.failLocked(errStreamOverflow)
	if !errors.Is(context.Cause(ctx), errStreamOverflow) {
		t.Fatalf("the stream's context: cause %v", context.Cause(ctx))
	}
	plain := &guardedWriter{}
	plain.failLocked(errStreamOverflow) // no context to cancel: must not panic
	if plain.failed != errStreamOverflow {
		t.Fatalf("failed %v", plain.failed)
	}
}
