package mcpserver

import (
	"crypto/subtle"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Per-token fairness (docs/serving.md#fairness): with tokens, the client
// of the per-client bounds is the token, so members behind one proxy (here
// all on 127.0.0.1, one remote address) each get their own.

var (
	tokenA = strings.Repeat("a1", 16)
	tokenB = strings.Repeat("b2", 20)
)

// tokenRequest sends one request with the bearer token tok ("" for none)
// on a connection of its own, which stays open (a stream goes on), and
// returns the answer's header and the client.
func tokenRequest(t *testing.T, endpoint, tok, method, session, msg string) (*http.Response, *rawClient) {
	t.Helper()
	rc := dialRaw(t, endpoint, nil)
	req := fmt.Sprintf("%s %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n", method, Path, rc.host)
	if tok != "" {
		req += "Authorization: Bearer " + tok + "\r\n"
	}
	if session != "" {
		req += "Mcp-Session-Id: " + session + "\r\n"
	}
	if method == http.MethodPost {
		req += fmt.Sprintf("Content-Length: %d\r\n", len(msg))
	}
	if _, err := io.WriteString(rc.conn, req+"\r\n"+msg); err != nil {
		t.Fatal(err)
	}
	_ = rc.conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(rc.br, nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = rc.conn.SetReadDeadline(time.Time{})
	return resp, rc
}

// tokenSession initializes a stateful session with tok and returns its ID.
func tokenSession(t *testing.T, endpoint, tok string) string {
	t.Helper()
	resp, _ := tokenRequest(t, endpoint, tok, http.MethodPost, "", initMsg)
	id := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != 200 || id == "" {
		t.Fatalf("initialize with token %.4s…: %d", tok, resp.StatusCode)
	}
	return id
}

// sessionsIdle reports whether no request of a stateful session is
// running.
func sessionsIdle(s *Server) bool {
	t := s.sessions.Load()
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, e := range t.byID {
		if e.refs > 0 {
			return false
		}
	}
	return true
}

// tokenStream opens the session's notification stream with tok and
// returns the status.
func tokenStream(t *testing.T, endpoint, tok, session string) int {
	t.Helper()
	resp, _ := tokenRequest(t, endpoint, tok, http.MethodGet, session, "")
	return resp.StatusCode
}

// tokenPing is the status of a ping in the session with tok: 200 while
// it lives, 404 once it is closed.
func tokenPing(t *testing.T, endpoint, tok, session string) int {
	t.Helper()
	resp, _ := tokenRequest(t, endpoint, tok, http.MethodPost, session, `{"jsonrpc":"2.0","id":9,"method":"ping"}`)
	return resp.StatusCode
}

// TestPerTokenBounds: two tokens from one remote address each get their
// own connections, streams and sessions; one token past its bound is
// refused (or closes its own idle session) and the other is served as if
// it were alone. A request without a valid token takes no slot. Keyed by
// address, as before tokens were told apart, each case fails.
func TestPerTokenBounds(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		o    HTTPOptions
		run  func(t *testing.T, s *Server, endpoint string)
	}{
		{"streams", HTTPOptions{MaxStreamsPerClient: 2}, func(t *testing.T, _ *Server, endpoint string) {
			// Requests with no token or a wrong one are refused and
			// take no stream.
			for _, tok := range []string{"", "wrong", tokenA + "x"} {
				if code := tokenStream(t, endpoint, tok, "x"); code != http.StatusUnauthorized {
					t.Errorf("a stream with token %q: %d, want 401", tok, code)
				}
			}
			for range 2 {
				if code := tokenStream(t, endpoint, tokenA, tokenSession(t, endpoint, tokenA)); code != 200 {
					t.Fatalf("a stream of A within its bound: %d", code)
				}
			}
			if code := tokenStream(t, endpoint, tokenA, tokenSession(t, endpoint, tokenA)); code != http.StatusTooManyRequests {
				t.Errorf("A's third stream: %d, want 429", code)
			}
			for range 2 {
				if code := tokenStream(t, endpoint, tokenB, tokenSession(t, endpoint, tokenB)); code != 200 {
					t.Errorf("a stream of B while A is at its bound: %d, want 200", code)
				}
			}
		}},
		{"sessions", HTTPOptions{MaxSessionsPerClient: 2}, func(t *testing.T, s *Server, endpoint string) {
			// Each initialize ends (its session idle, its time taken)
			// before the next begins: the answer reaches the client a
			// moment before the server counts the request done, and which
			// session is idle longest is what the test asks.
			session := func(tok string) string {
				id := tokenSession(t, endpoint, tok)
				waitFor(t, "the initialize done", func() bool { return sessionsIdle(s) })
				return id
			}
			b1 := session(tokenB)
			a := []string{session(tokenA), session(tokenA), session(tokenA)}
			if code := tokenPing(t, endpoint, tokenA, a[0]); code != http.StatusNotFound {
				t.Errorf("A's oldest session after its third: %d, want 404 (closed for A's new one)", code)
			}
			for _, id := range a[1:] {
				if code := tokenPing(t, endpoint, tokenA, id); code != 200 {
					t.Errorf("A's newer sessions: %d, want 200", code)
				}
			}
			if code := tokenPing(t, endpoint, tokenB, b1); code != 200 {
				t.Errorf("B's session after A's burst: %d, want 200", code)
			}
			b2 := tokenSession(t, endpoint, tokenB)
			if code := tokenPing(t, endpoint, tokenB, b1); code != 200 {
				t.Errorf("B's first session after its second: %d, want 200", code)
			}
			_ = b2
		}},
		{"connections", HTTPOptions{MaxConnsPerClient: 2, MaxStreamsPerClient: -1}, func(t *testing.T, s *Server, endpoint string) {
			// Two streams hold A's two connections busy; each
			// initialize's connection, idle once answered, is closed for
			// A's next.
			for range 2 {
				id := tokenSession(t, endpoint, tokenA)
				waitFor(t, "the initialize connection idle", func() bool { return idleConns(s) == 1 })
				if code := tokenStream(t, endpoint, tokenA, id); code != 200 {
					t.Fatalf("a stream of A within its bound: %d", code)
				}
			}
			waitFor(t, "A's idle initialize connections closed", func() bool {
				l := s.conns.Load()
				l.mu.Lock()
				defer l.mu.Unlock()
				return l.byClient[tokenClient(0)] == 2
			})
			resp, rc := tokenRequest(t, endpoint, tokenA, http.MethodPost, "", initMsg)
			if resp.StatusCode != http.StatusTooManyRequests || !resp.Close {
				t.Errorf("A's third connection with both busy: %d (close %v), want 429 and closed", resp.StatusCode, resp.Close)
			}
			_ = rc
			// B as A did: each initialize's connection idle before B's
			// stream takes another (a connection counts as busy until its
			// answer is written).
			for range 2 {
				id := tokenSession(t, endpoint, tokenB)
				waitFor(t, "B's initialize connection idle", func() bool { return idleConns(s) == 1 })
				if code := tokenStream(t, endpoint, tokenB, id); code != 200 {
					t.Errorf("a stream of B while A's connections are all busy: %d, want 200", code)
				}
			}
			if n := s.conns.Load().refused.Load(); n != 1 {
				t.Errorf("%d requests refused, want 1 (A's)", n)
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t, newWorkspace(t), nil)
			o := tt.o
			o.Stateful, o.AuthTokens = true, []string{tokenA, tokenB}
			tt.run(t, s, serveHTTP(t, s, &o))
		})
	}
}

// idleConns is how many connections the server holds idle between
// requests.
func idleConns(s *Server) int {
	l := s.conns.Load()
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, ci := range l.conns {
		if ci.state == http.StateIdle {
			n++
		}
	}
	return n
}

// TestTokenMatch: each token is found at its index, and near misses
// (a prefix, a longer one, another case, empty) at none.
func TestTokenMatch(t *testing.T) {
	t.Parallel()
	ts := newTokenSet(&HTTPOptions{AuthToken: tokenA, AuthTokens: []string{tokenB, "c3" + tokenA}})
	for _, tt := range []struct {
		got  string
		want int
	}{
		{tokenA, 0}, {tokenB, 1}, {"c3" + tokenA, 2},
		{tokenA[:31], -1}, {tokenA + "1", -1}, {strings.ToUpper(tokenA), -1}, {"", -1},
	} {
		if i := ts.match(tt.got); i != tt.want {
			t.Errorf("match(%.8q…) = %d, want %d", tt.got, i, tt.want)
		}
	}
	if newTokenSet(&HTTPOptions{}) != nil {
		t.Error("a set without tokens is not nil")
	}
}

// TestTokenMatchComparesEvery: matching the first of 512 tokens, the
// last, or none compares the digest with every token's, and nothing else
// differs between them (a loop that stopped at the match would compare
// one digest for the first). BenchmarkTokenMatch gives the times.
func TestTokenMatchComparesEvery(t *testing.T) {
	toks := make([]string, 512)
	for i := range toks {
		toks[i] = fmt.Sprintf("%064x", i+1)
	}
	ts := newTokenSet(&HTTPOptions{AuthTokens: toks})
	calls := 0
	constantTimeCompare = func(x, y []byte) int { calls++; return subtle.ConstantTimeCompare(x, y) }
	defer func() { constantTimeCompare = subtle.ConstantTimeCompare }()
	for _, tt := range []struct {
		got  string
		want int
	}{{toks[0], 0}, {toks[255], 255}, {toks[511], 511}, {strings.Repeat("z", 64), -1}, {"", -1}} {
		calls = 0
		if i := ts.match(tt.got); i != tt.want || calls != len(toks) {
			t.Errorf("match(%.8q…) = %d after %d comparisons; want %d after %d", tt.got, i, calls, tt.want, len(toks))
		}
	}
}

// BenchmarkTokenMatch: the time to match the first of 512 tokens, the last,
// and none (go test -run X -bench TokenMatch ./mcpserver): alike, as no
// comparison stops early.
func BenchmarkTokenMatch(b *testing.B) {
	toks := make([]string, 512)
	for i := range toks {
		toks[i] = fmt.Sprintf("%064x", i+1)
	}
	ts := newTokenSet(&HTTPOptions{AuthTokens: toks})
	for _, bc := range []struct{ name, got string }{{"first", toks[0]}, {"last", toks[511]}, {"none", strings.Repeat("z", 64)}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				ts.match(bc.got)
			}
		})
	}
}
