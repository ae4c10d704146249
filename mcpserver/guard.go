package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// The protections of the HTTP server against clients that do not play
// along (docs/serving.md#limits): a client that never reads its
// notification stream, a request body that stalls, connections held open
// and idle, more connections or sessions than a small container can hold.

// Defaults of [HTTPOptions].
const (
	// defaultWriteTimeout is how long a client may take to accept each
	// 64 KiB of an answer or a notification before its connection is
	// closed.
	defaultWriteTimeout = 30 * time.Second
	// defaultReadTimeout bounds reading a request: its header, and then its
	// body.
	defaultReadTimeout = 30 * time.Second
	// defaultIdleTimeout closes a keep-alive connection that carries no
	// request for that long.
	defaultIdleTimeout = 2 * time.Minute
	// defaultMaxConns is how many connections are served at once.
	defaultMaxConns = 512
	// defaultMaxSessions is how many stateful sessions are kept.
	defaultMaxSessions = 1024
	// defaultStreamQueueBytes is how much may wait to be written to one
	// notification stream before the stream is closed.
	defaultStreamQueueBytes = 1 << 20
	// defaultBodyBudget is how many request body bytes all requests may
	// hold at once.
	defaultBodyBudget = 64 << 20
	// defaultMaxConnsPerClient is how many connections one client (one
	// remote address) may hold: a quarter of defaultMaxConns, so no one
	// client takes the last slot.
	defaultMaxConnsPerClient = defaultMaxConns / 4
	// defaultMaxStreamsPerClient is how many notification streams one
	// client may hold open at once.
	defaultMaxStreamsPerClient = 32
	// defaultMaxSessionsPerClient is how many stateful sessions one client
	// may hold: a quarter of defaultMaxSessions.
	defaultMaxSessionsPerClient = defaultMaxSessions / 4
)

// probeReserve is how many connections past MaxConns are let in when every
// connection is busy, to be answered only GET /healthz and GET /readyz
// (anything else gets 503): health and readiness answer whatever the
// other clients hold.
const probeReserve = 16

// writeChunk is how much of an answer one write deadline covers: the
// guard's writes of it (guardedWriter.writeNow), or on a connection Serve
// paces the connection's own (paceConn).
const writeChunk = 64 << 10

// errStreamOverflow closes a notification stream whose client does not
// read it.
var errStreamOverflow = errors.New("the client does not read its stream: too much is waiting")

// guardedWriter bounds how long a write to a client may block. In stream
// mode (a notification stream: the GET of a stateful session, or
// subscriptions/listen), writes are queued, up to a byte limit, and a
// goroutine of the request writes them, so a notification to a client
// that stopped reading never blocks the notifier (a reload, or the next
// session in line): it is queued or, over the limit, the stream is closed.
type guardedWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
	// paced is the request's connection when Serve paces it (paceConn):
	// an answer then goes to net/http in one write.
	paced *paceConn

	stream bool
	cancel context.CancelCauseFunc
	mu     sync.Mutex
	header bool   // the header was passed on
	buf    []byte // written since the last flush
	queued int    // bytes in q
	max    int
	failed error
	closed bool
	until  time.Time // once closed: no write goes on past it
	q      chan []byte
	done   chan struct{}
	onDrop func()
}

func (g *guardedWriter) Header() http.Header { return g.w.Header() }

func (g *guardedWriter) WriteHeader(code int) {
	if !g.stream {
		g.w.WriteHeader(code)
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.header && g.queued == 0 && len(g.buf) == 0 {
		g.header = true
		g.w.WriteHeader(code)
	}
}

func (g *guardedWriter) Write(p []byte) (int, error) {
	if !g.stream {
		return g.writeNow(p)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.header = true
	if g.failed != nil {
		return 0, g.failed
	}
	if g.queued+len(g.buf)+len(p) > g.max {
		g.failLocked(errStreamOverflow)
		return 0, g.failed
	}
	g.buf = append(g.buf, p...)
	return len(p), nil
}

// FlushError sends what was written: at once, or in stream mode to the
// queue.
func (g *guardedWriter) FlushError() error {
	if !g.stream {
		return g.flushNow()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.header = true
	if g.failed != nil {
		return g.failed
	}
	if g.closed {
		return http.ErrHandlerTimeout
	}
	b := g.buf
	g.buf = nil
	select {
	case g.q <- b:
		g.queued += len(b)
		return nil
	default:
		g.failLocked(errStreamOverflow)
		return g.failed
	}
}

func (g *guardedWriter) Flush() { _ = g.FlushError() }

func (g *guardedWriter) failLocked(err error) {
	if g.failed == nil {
		g.failed = err
		if g.cancel != nil { // a stream's, the only writer that fails here
			g.cancel(err)
		}
		if g.onDrop != nil {
			g.onDrop()
		}
	}
}

// deadline is the write deadline of the next chunk.
func (g *guardedWriter) deadline() time.Time {
	d := time.Now().Add(g.timeout)
	if g.stream {
		g.mu.Lock()
		if !g.until.IsZero() && g.until.Before(d) {
			d = g.until
		}
		g.mu.Unlock()
	}
	return d
}

// writeNow writes p, each writeChunk of it under a fresh deadline: in
// one write on a paced connection (paceConn, not a stream's, whose
// deadlines stop at until), else in writes of writeChunk bytes.
func (g *guardedWriter) writeNow(p []byte) (int, error) {
	if g.paced != nil && !g.stream {
		g.paced.pace(g.timeout)
		return g.w.Write(p)
	}
	n := 0
	for len(p) > 0 {
		c := p[:min(len(p), writeChunk)]
		_ = g.rc.SetWriteDeadline(g.deadline())
		m, err := g.w.Write(c)
		n += m
		if err != nil {
			return n, err
		}
		p = p[len(c):]
	}
	return n, nil
}

func (g *guardedWriter) flushNow() error {
	_ = g.rc.SetWriteDeadline(g.deadline())
	return g.rc.Flush()
}

// close sends what is left unflushed and ends the queue; run then writes
// what is queued and returns.
func (g *guardedWriter) close() {
	g.mu.Lock()
	if g.failed == nil && len(g.buf) > 0 {
		select {
		case g.q <- g.buf:
			g.queued += len(g.buf)
		default:
		}
		g.buf = nil
	}
	g.closed = true
	g.until = time.Now().Add(g.timeout)
	close(g.q)
	g.mu.Unlock()
	// A write blocked already keeps the deadline it was given, which is
	// no later than until.
	<-g.done
}

// run writes the queue until it is closed; after a failed write it drops
// the rest.
func (g *guardedWriter) run() {
	defer close(g.done)
	for b := range g.q {
		g.mu.Lock()
		failed := g.failed != nil
		g.mu.Unlock()
		if failed {
			continue
		}
		_, err := g.writeNow(b)
		if err == nil {
			err = g.flushNow()
		}
		g.mu.Lock()
		g.queued -= len(b)
		if err != nil {
			g.failLocked(fmt.Errorf("writing to the client: %w", err))
		}
		g.mu.Unlock()
	}
}

// isStream reports whether a request opens a notification stream.
func isStream(r *http.Request) bool {
	return r.Method == http.MethodGet || header(r.Header, "Mcp-Method") == "subscriptions/listen"
}

// connInfo is what the connection limiter knows of one connection.
type connInfo struct {
	conn net.Conn
	// client is the remote address, without its port (clientOf), until a
	// request on the connection carries a token: then that token's
	// (tokenClient, rekeyConn).
	client string
	// counted says the connection is in its client's count; overflow
	// that it is one of the probeReserve.
	counted, overflow bool
	state             http.ConnState
	since             time.Time // when it entered state
	// body is set while a request body is being read: a connection that
	// stalls there may be closed for a new one.
	body atomic.Bool
}

type connKey struct{}

// connLimiter keeps at most max connections: when one more arrives, the
// one idle longest is closed, else the oldest still sending its request
// (header or body), else the new one. Connections running a request or
// holding a notification stream are never closed for another.
//
// One client (one remote address; with tokens, the token of the
// connection's latest request, rekeyConn) holds at most perClient connections:
// past it, the client's own connection idle longest (else its oldest
// still sending its request) is closed for its new one, else the new one;
// another client's are never closed for it. When every connection is busy
// a new one is still let in, up to probeReserve of them, to be answered
// only the probes (docs/serving.md#fairness).
type connLimiter struct {
	mu        sync.Mutex
	max       int
	perClient int
	conns     map[net.Conn]*connInfo
	byClient  map[string]int
	overflow  int // connections of the probe reserve
	refused   atomic.Int64
	evicted   atomic.Int64
}

func newConnLimiter(max, perClient int) *connLimiter {
	return &connLimiter{max: max, perClient: perClient, conns: map[net.Conn]*connInfo{}, byClient: map[string]int{}}
}

// clientOf is the client of a remote address: its host, without the port.
func clientOf(addr string) string {
	if h, _, err := net.SplitHostPort(addr); err == nil {
		return h
	}
	return addr
}

func (l *connLimiter) connContext(ctx context.Context, c net.Conn) context.Context {
	l.mu.Lock()
	ci := l.conns[c]
	if ci == nil {
		ci = &connInfo{conn: c, state: http.StateNew, since: time.Now()}
		l.conns[c] = ci
	}
	ci.client = clientOf(c.RemoteAddr().String())
	l.mu.Unlock()
	return context.WithValue(ctx, connKey{}, ci)
}

// forgetLocked removes c and its counts.
func (l *connLimiter) forgetLocked(c net.Conn) {
	ci := l.conns[c]
	if ci == nil {
		return
	}
	delete(l.conns, c)
	if ci.counted {
		if l.byClient[ci.client]--; l.byClient[ci.client] <= 0 {
			delete(l.byClient, ci.client)
		}
	}
	if ci.overflow {
		l.overflow--
	}
}

func (l *connLimiter) connState(c net.Conn, st http.ConnState) {
	l.mu.Lock()
	var victim net.Conn
	switch st {
	case http.StateClosed, http.StateHijacked:
		l.forgetLocked(c)
	default:
		ci := l.conns[c]
		if ci == nil {
			ci = &connInfo{conn: c, client: clientOf(c.RemoteAddr().String())}
			l.conns[c] = ci
		}
		ci.state, ci.since = st, time.Now()
		if st == http.StateNew {
			victim = l.admitLocked(ci)
		}
	}
	l.mu.Unlock()
	if victim != nil {
		if victim == c {
			l.refused.Add(1)
		} else {
			l.evicted.Add(1)
		}
		_ = victim.Close()
	}
}

// admitLocked counts a new connection and returns the connection to close
// for it (itself when it may not stay), or nil.
func (l *connLimiter) admitLocked(ci *connInfo) net.Conn {
	ci.counted = true
	l.byClient[ci.client]++
	if l.perClient > 0 && l.byClient[ci.client] > l.perClient {
		victim := l.victimLocked(ci.conn, ci.client)
		if victim != ci.conn {
			return victim
		}
		l.forgetLocked(ci.conn)
		return ci.conn
	}
	if len(l.conns)-l.overflow <= l.max {
		return nil
	}
	victim := l.victimLocked(ci.conn, "")
	if victim != ci.conn {
		return victim
	}
	if l.overflow < probeReserve {
		// Every connection is busy: this one may still ask for a probe.
		ci.overflow = true
		l.overflow++
		return nil
	}
	l.forgetLocked(ci.conn)
	return ci.conn
}

// victimLocked picks the connection to close for newc, among the
// connections of client (all when "").
func (l *connLimiter) victimLocked(newc net.Conn, client string) net.Conn {
	var best *connInfo
	rank := func(ci *connInfo) int {
		switch {
		case ci.state == http.StateIdle:
			return 0
		case ci.state == http.StateNew:
			return 1
		case ci.state == http.StateActive && ci.body.Load():
			return 2
		}
		return -1
	}
	for c, ci := range l.conns {
		if c == newc || (client != "" && ci.client != client) {
			continue
		}
		r := rank(ci)
		if r < 0 {
			continue
		}
		if best == nil || r < rank(best) || (r == rank(best) && ci.since.Before(best.since)) {
			best = ci
		}
	}
	if best == nil {
		return newc
	}
	l.forgetLocked(best.conn)
	return best.conn
}

// rekeyConn counts ci as client's from now on (the token its request
// carries; a connection through a proxy may carry several clients'
// requests in turn): past client's bound, its own connection idle
// longest, else its oldest still sending a request, is closed for it, and
// when all of them are busy it reports false and the request is refused.
func (s *Server) rekeyConn(ci *connInfo, client string) bool {
	l := s.conns.Load()
	if l == nil {
		return true
	}
	l.mu.Lock()
	if l.conns[ci.conn] != ci || !ci.counted || ci.client == client {
		l.mu.Unlock()
		return true
	}
	if l.byClient[ci.client]--; l.byClient[ci.client] <= 0 {
		delete(l.byClient, ci.client)
	}
	ci.client = client
	l.byClient[client]++
	var victim net.Conn
	if l.perClient > 0 && l.byClient[client] > l.perClient {
		victim = l.victimLocked(ci.conn, client)
	}
	l.mu.Unlock()
	switch victim {
	case nil:
		return true
	case ci.conn:
		// Counted as client's until it closes, after this answer.
		l.refused.Add(1)
		return false
	}
	l.evicted.Add(1)
	_ = victim.Close()
	return true
}

// bodyReader bounds reading a request body: a deadline for all of it, a
// share of the server-wide body budget, and the connection marked as
// sending its body meanwhile.
type bodyReader struct {
	r      io.ReadCloser
	header http.Header
	rc     *http.ResponseController
	ci     *connInfo
	budget *atomic.Int64
	max    int64
	held   int64 // charged to the budget
	read   int64
	done   bool
}

// freeBodyBytes is how much of each request body the budget does not
// count.
const freeBodyBytes = 64 << 10

var errBodyBudget = errors.New("the server holds too many request bodies at once; try again")

func (b *bodyReader) Read(p []byte) (int, error) {
	if b.done {
		return 0, io.EOF
	}
	n, err := b.r.Read(p)
	if n > 0 {
		// The first freeBodyBytes of a body are not charged: small
		// requests (nearly all of MCP) always get through, and the
		// connection cap bounds what that costs.
		charge := min(int64(n), b.read+int64(n)-freeBodyBytes)
		b.read += int64(n)
		if charge > 0 {
			b.held += charge
		}
		if charge > 0 && b.budget.Add(charge) > b.max {
			// The rest of the body is not read: the connection closes
			// after the answer.
			b.header.Set("Connection", "close")
			b.done = true
			b.mark(false)
			return 0, errBodyBudget
		}
	}
	if err == io.EOF {
		b.finish()
	} else if err != nil {
		// A body that stalled past its deadline: the connection closes
		// (its deadline stays, for what net/http still reads of it).
		b.header.Set("Connection", "close")
		b.done = true
		b.mark(false)
	}
	return n, err
}

func (b *bodyReader) mark(on bool) {
	if b.ci != nil {
		b.ci.body.Store(on)
	}
}

// finish ends the body's deadline and mark; the budget is given back by
// release, once the request is answered (the body's bytes are held until
// then).
func (b *bodyReader) finish() {
	if b.done {
		return
	}
	b.done = true
	_ = b.rc.SetReadDeadline(time.Time{})
	b.mark(false)
}

func (b *bodyReader) release() {
	b.done = true
	b.mark(false)
	b.budget.Add(-b.held)
	b.held = 0
}

func (b *bodyReader) Close() error { return b.r.Close() }

// guard wraps h with the per-request protections: the body's read
// deadline and budget, and the write deadlines and stream queue.
//
// The client of the per-client bounds is the token that authenticated
// the request when tokens is set (tokenClient), else the remote address
// (clientOf). A request without a valid token takes no per-client slot
// (no stream, and its connection stays its address's): the handler
// refuses it (401).
func (s *Server) guard(h http.Handler, o *HTTPOptions, tokens *tokenSet, budget *atomic.Int64) http.Handler {
	streams := &clientCounter{max: o.MaxStreamsPerClient, n: map[string]int{}}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.guarded(w, r, h, o, tokens, budget, streams)
	})
}

// guarded serves one request of guard's handler h: guard's checks and
// bookkeeping (admit, takeStream), the request's context, body and
// writer, then h. It is a method of its own, not guard's closure, so that
// the standard library's small helpers are inlined into it
// (http.NewResponseController allocated where the closure was inlined
// into the server's handler, a function too big to inline into).
func (s *Server) guarded(w http.ResponseWriter, r *http.Request, h http.Handler, o *HTTPOptions, tokens *tokenSet, budget *atomic.Int64, streams *clientCounter) {
	st := &request{stateless: !o.Stateful}
	st.rc = *http.NewResponseController(w)
	ci, _ := r.Context().Value(connKey{}).(*connInfo)
	client, authed, ok := s.admit(w, r, ci, tokens)
	if !ok {
		return
	}
	stream := isStream(r)
	if authed && stream {
		if !takeStream(w, streams, client) {
			return
		}
		defer streams.give(client)
	}
	// The answers of the request hold their share of the one memory
	// budget until they are written (memory.go).
	st.client = client
	defer func() { s.mem.give(st.hold.n.Load()) }()
	// One copy of the request whose context is the guard's record (its
	// body is replaced by guardBody; the caller's request is not). A
	// notification stream's context is cancelled when the stream is
	// dropped (guardedWriter.failLocked); any other request's is
	// net/http's, which net/http cancels as the handler returns (the
	// SDK's handler cancels its own on return too, cancelOnReturn), so
	// it needs no cancellable context of its own: two allocations and
	// a child registered in net/http's context saved a request.
	st.Context = r.Context()
	var cancel context.CancelCauseFunc
	if stream {
		st.Context, cancel = context.WithCancelCause(st.Context)
	}
	r = r.WithContext(st)
	if st.guardBody(w, r, o, ci, budget) {
		defer st.body.release()
	}
	st.g = guardedWriter{w: w, rc: &st.rc, timeout: o.WriteTimeout, cancel: cancel}
	if ci != nil {
		st.g.paced, _ = ci.conn.(*paceConn)
	}
	if cancel != nil {
		defer cancel(nil)
		s.startStream(&st.g, o)
		defer st.g.close()
	}
	h.ServeHTTP(&st.g, r)
}

// admit runs guard's checks of who sends a request: a connection of the
// probe reserve is answered the probes only (503 else), and with tokens
// the request's token names its client, whose connection count may
// refuse it (429, rekeyConn). client is the token's (tokenClient) or the
// remote address's (clientOf); authed says the request may take
// per-client slots (no tokens, or a valid one). ok false: the request was
// refused and answered.
func (s *Server) admit(w http.ResponseWriter, r *http.Request, ci *connInfo, tokens *tokenSet) (client string, authed, ok bool) {
	if ci != nil && ci.overflow {
		// A connection of the probe reserve: the probes only, and it
		// closes after the answer.
		w.Header().Set("Connection", "close")
		if !isProbe(r) {
			http.Error(w, "the server is busy: every connection is in use; try again", http.StatusServiceUnavailable)
			return "", false, false
		}
	}
	client, authed = clientOf(r.RemoteAddr), tokens == nil
	if tokens != nil && !isProbe(r) {
		if tok, ok := bearerToken(r); ok {
			if i := tokens.match(tok); i >= 0 {
				client, authed = tokenClient(i), true
			}
		}
		if authed && ci != nil && !s.rekeyConn(ci, client) {
			w.Header().Set("Connection", "close")
			w.Header().Set("Retry-After", "5")
			http.Error(w, "too many connections for this token", http.StatusTooManyRequests)
			return "", false, false
		}
	}
	return client, authed, true
}

// takeStream counts a notification stream for client, or answers 429
// and reports false at the client's bound (MaxStreamsPerClient). The
// caller gives it back (clientCounter.give) once the stream ends.
func takeStream(w http.ResponseWriter, streams *clientCounter, client string) bool {
	if streams.take(client) {
		return true
	}
	w.Header().Set("Retry-After", "5")
	http.Error(w, "too many notification streams from this address", http.StatusTooManyRequests)
	return false
}

// guardBody bounds reading r's body (bodyReader: ReadTimeout for all of
// it, a share of the body budget) and reports whether there is one, which
// the caller releases (bodyReader.release) once the request is answered.
// A request without a body has no read deadline: a notification stream
// may stay open as long as its client keeps it.
func (st *request) guardBody(w http.ResponseWriter, r *http.Request, o *HTTPOptions, ci *connInfo, budget *atomic.Int64) bool {
	if r.Body == nil || r.Body == http.NoBody {
		_ = st.rc.SetReadDeadline(time.Time{})
		return false
	}
	_ = st.rc.SetReadDeadline(time.Now().Add(o.ReadTimeout))
	if ci != nil {
		ci.body.Store(true)
	}
	st.body = bodyReader{r: r.Body, header: w.Header(), rc: &st.rc, ci: ci, budget: budget, max: o.BodyBudget}
	r.Body = &st.body
	return true
}

// startStream puts g in stream mode (its writes queued, up to
// StreamQueueBytes) and starts the goroutine that writes the queue; the
// caller closes g (guardedWriter.close) as the request ends.
func (s *Server) startStream(g *guardedWriter, o *HTTPOptions) {
	g.stream = true
	g.max = o.StreamQueueBytes
	g.q = make(chan []byte, 256)
	g.done = make(chan struct{})
	g.onDrop = func() { s.streamsDropped.Add(1) }
	go g.run()
}

// request is what the guard keeps of one HTTP request, made in one
// allocation, and the request's context: the handlers below the guard
// find it there (requestFrom); every other value, the deadline and the
// cancellation are those of the context it wraps (the package's own
// contexts derived from it attach to that one's cancellation directly,
// as they find it through Value).
type request struct {
	context.Context
	// client is the request's client: its token's (tokenClient) when the
	// server has tokens, else its remote address's (clientOf).
	client string
	// stateless says the server is stateless, so that initialize promises
	// no notification it cannot deliver.
	stateless bool
	// hold is what the request's answers hold of the memory budget
	// (memory.go).
	hold answerHold
	rc   http.ResponseController
	body bodyReader
	g    guardedWriter
}

type requestKey struct{}

// Value is st for requestKey, else the wrapped context's value.
func (st *request) Value(key any) any {
	if _, ok := key.(requestKey); ok {
		return st
	}
	return st.Context.Value(key)
}

// requestFrom returns the guard's record of the request of ctx, or nil
// (stdio, or a handler not behind the guard).
func requestFrom(ctx context.Context) *request {
	if st, ok := ctx.(*request); ok {
		return st
	}
	st, _ := ctx.Value(requestKey{}).(*request)
	return st
}

// cancelOnReturn gives h each request with a context of its own that is
// cancelled as h returns, whatever its caller does with the request's
// context after (net/http's server cancels it then too; a caller that
// calls the handler directly may not).
func cancelOnReturn(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		h.ServeHTTP(w, r.WithContext(ctx))
	})
}

// clientFrom returns the client of a request's context, "" when unknown.
func clientFrom(ctx context.Context) string {
	if st := requestFrom(ctx); st != nil {
		return st.client
	}
	return ""
}

// clientCounter counts something each client holds, up to max each (0:
// no bound).
type clientCounter struct {
	mu  sync.Mutex
	max int
	n   map[string]int
}

// take counts one more for client, or reports false at its bound.
func (c *clientCounter) take(client string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.max > 0 && c.n[client] >= c.max {
		return false
	}
	c.n[client]++
	return true
}

func (c *clientCounter) give(client string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n[client]--; c.n[client] <= 0 {
		delete(c.n, client)
	}
}
