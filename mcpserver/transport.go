package mcpserver

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillet-go/skillet/internal/mcpline"
)

// Path is where [Server.Handler] answers MCP requests.
const Path = "/mcp"

// HTTPOptions configure [Server.Handler] and [Server.Serve]. A nil
// *HTTPOptions means the zero value; every zero or negative field takes
// the default given beside it, except where a field says otherwise
// (docs/serving.md#limits).
type HTTPOptions struct {
	// Stateful keeps a session per client (Mcp-Session-Id), so the server
	// can push list_changed notifications after a reload. The default,
	// stateless, answers each request on its own: any number of identical
	// instances can sit behind a load balancer (docs/serving.md), and
	// clients learn of changes from ttlMs and by listing again.
	Stateful bool
	// MaxRequestBytes bounds a request body (default, and for any value
	// below 1: the SDK's 4 MiB); a larger request gets 413 and the server
	// goes on.
	MaxRequestBytes int64
	// SessionTimeout closes a stateful session idle for that long, so
	// clients that go away without closing do not hold memory forever
	// (default 30 minutes; negative: never). A session is idle
	// while none of its requests runs; an open notification stream (its
	// GET) is a running request, so a client that listens stays.
	SessionTimeout time.Duration
	// MaxSessions bounds the stateful sessions kept (default
	// 1,024). A new session over it closes the one idle
	// longest; when every session is busy, the new one is refused.
	MaxSessions int
	// ReadTimeout bounds reading a request's header, and then its body
	// (default 30 s).
	ReadTimeout time.Duration
	// WriteTimeout is how long a client may take to accept each 64 KiB of
	// an answer or notification stream before its connection is closed
	// (default 30 s).
	WriteTimeout time.Duration
	// IdleTimeout closes a keep-alive connection without a request for
	// that long (default 2 minutes).
	IdleTimeout time.Duration
	// MaxConns bounds the connections served at once (default
	// 512). One more closes the connection idle longest, else
	// the oldest that is still sending its request, else itself.
	MaxConns int
	// StreamQueueBytes bounds what may wait to be written to one
	// notification stream; a client that lets more pile up loses the
	// stream (it may open it again) and the other clients are not held up
	// (default 1 MiB).
	StreamQueueBytes int
	// BodyBudget bounds the request body bytes all requests hold at once,
	// beyond the first 64 KiB of each (so small requests always pass); a
	// request over it is refused (default 64 MiB).
	BodyBudget int64
	// MaxConnsPerClient bounds the connections of one client (the token
	// of its requests when AuthToken or AuthTokens is set, else its remote
	// address; default 128, negative: no bound): its
	// new connection past it closes its own connection idle longest, else
	// is refused, and never another client's (docs/serving.md#fairness).
	MaxConnsPerClient int
	// MaxStreamsPerClient bounds the notification streams one client
	// holds open at once (default 32, negative: no
	// bound); one more gets 429.
	MaxStreamsPerClient int
	// MaxSessionsPerClient bounds the stateful sessions of one client
	// (default 256, negative: no bound): its new
	// session past it closes its own session idle longest, else is
	// refused, and never another client's.
	MaxSessionsPerClient int
	// AuthToken, when set, is required as "Authorization: Bearer TOKEN" on
	// every request but GET /healthz and GET /readyz (docs/serving.md#auth);
	// a request without it gets 401.
	AuthToken string
	// AuthTokens are more tokens accepted as AuthToken is, one for each
	// member of a team: when any token is set, the client of the
	// per-client bounds is the token a request carries, not its remote
	// address, so clients behind one proxy each get their own
	// (docs/serving.md#fairness).
	AuthTokens []string
}

// defaultSessionTimeout is how long an idle stateful session lives.
const defaultSessionTimeout = 30 * time.Minute

func (o *HTTPOptions) withDefaults() HTTPOptions {
	var r HTTPOptions
	if o != nil {
		r = *o
	}
	if r.MaxRequestBytes < 1 {
		r.MaxRequestBytes = 0 // the SDK's default; a negative value would lift the limit
	}
	zeroDefault(&r.SessionTimeout, defaultSessionTimeout)
	orDefault(&r.MaxSessions, defaultMaxSessions)
	orDefault(&r.ReadTimeout, defaultReadTimeout)
	orDefault(&r.WriteTimeout, defaultWriteTimeout)
	orDefault(&r.IdleTimeout, defaultIdleTimeout)
	orDefault(&r.MaxConns, defaultMaxConns)
	orDefault(&r.StreamQueueBytes, defaultStreamQueueBytes)
	orDefault(&r.BodyBudget, defaultBodyBudget)
	zeroDefault(&r.MaxConnsPerClient, defaultMaxConnsPerClient)
	zeroDefault(&r.MaxStreamsPerClient, defaultMaxStreamsPerClient)
	zeroDefault(&r.MaxSessionsPerClient, defaultMaxSessionsPerClient)
	return r
}

// Handler returns the HTTP handler of the server: streamable HTTP at
// [Path], plus GET /healthz, which answers "ok" for load balancers, and
// GET /readyz and GET /metrics. On every path a request that arrives on a
// loopback address with a Host that is not loopback (DNS rebinding), or
// that a browser marks as cross-origin, gets 403 (docs/serving.md#addresses). Every request has its body read
// under a deadline and a share of a server-wide budget, and its answer
// written under a deadline; a notification stream is written from a
// bounded queue. A stateful handler keeps its sessions within
// HTTPOptions.MaxSessions and SessionTimeout.
func (s *Server) Handler(opts *HTTPOptions) http.Handler {
	o := opts.withDefaults()
	h := s.handler(&o)
	return h
}

func (s *Server) handler(o *HTTPOptions) http.Handler {
	var table *sessionTable
	if o.Stateful {
		table = newSessionTable(o.MaxSessions, o.SessionTimeout)
		table.perClient = o.MaxSessionsPerClient
		s.sessions.Store(table)
	}
	h := http.Handler(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, &mcp.StreamableHTTPOptions{
		Stateless: !o.Stateful,
		// A stateless answer is one JSON body: the server sends nothing
		// else during a request, so an event stream would only add framing.
		JSONResponse:        !o.Stateful,
		Logger:              s.sdkLog,
		MaxRequestBodyBytes: o.MaxRequestBytes,
		// Idle sessions are closed by the session table, which counts an
		// open notification stream as activity (the SDK does not).
	}))
	if table != nil {
		h = s.trackSessions(h, table)
	}
	h = cancelOnReturn(h)
	var fast func(http.ResponseWriter, *http.Request, []byte) bool
	if !o.Stateful {
		sdk := h
		fast = func(w http.ResponseWriter, r *http.Request, body []byte) bool { return s.fastAnswer(w, r, body, sdk) }
	}
	// Requests of a stateless server are marked by the guard (request),
	// so that initialize promises no notification it cannot deliver.
	mcpHandler := parseErrors(h, cmp.Or(o.MaxRequestBytes, int64(mcpline.DefaultMaxLineBytes)), fast)
	cop := http.NewCrossOriginProtection()
	mux := http.NewServeMux()
	mux.Handle(Path, cop.Handler(mcpHandler))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	})
	tokens := newTokenSet(o)
	routes := mcpFirst(mux, mcpHandler, cop.Handler(mcpHandler))
	return s.guard(foldLocalhost(checkHostOrigin(s.teamRoutes(mux, routes, tokens))), o, tokens, &s.bodyBytes)
}

// mcpFirst routes a request for exactly [Path] as mux routes it, without
// mux's pattern matching: to mcp, the MCP handler, through checked (mcp
// behind the standard library's cross-origin protection) when the request
// carries a Sec-Fetch-Site or an Origin header, and straight to mcp when
// it carries neither, for which that protection lets every request
// through (net/http's CrossOriginProtection.Check). Anything else (another
// path, one mux would clean or redirect, an escaped path, CONNECT, the
// request URI "*") goes to mux, where Path is registered too.
// TestMCPFirstIsTheMux holds the two routes to the same answers.
func mcpFirst(mux *http.ServeMux, mcp, checked http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != Path || r.URL.RawPath != "" || r.Method == http.MethodConnect || r.RequestURI == "*" {
			mux.ServeHTTP(w, r)
			return
		}
		r.Pattern = Path // as mux sets it
		if header(r.Header, "Sec-Fetch-Site") != "" || header(r.Header, "Origin") != "" {
			checked.ServeHTTP(w, r)
			return
		}
		mcp.ServeHTTP(w, r)
	})
}

// checkHostOrigin refuses (403), on every path (/mcp, /metrics, /healthz,
// /readyz), a request that a web page could have sent: on a loopback
// address, one whose Host is not loopback (DNS rebinding: a page of
// another name resolved to 127.0.0.1), and on any address, one that a
// browser marks as sent from another origin (Sec-Fetch-Site cross-site
// or same-site, else an Origin whose host is not the request's), whatever
// its method. The SDK checks the Host of /mcp only, and the standard
// library's cross-origin protection lets GET and HEAD through
// (docs/serving.md#addresses). Clients that are not browsers send
// neither header and pass.
func checkHostOrigin(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if localLoopback(r) && !isLoopbackAddr(r.Host) {
			http.Error(w, fmt.Sprintf("Forbidden: invalid Host header %q", clipURI(r.Host)), http.StatusForbidden)
			return
		}
		if crossOrigin(r) {
			http.Error(w, "Forbidden: cross-origin request", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// crossOrigin reports whether a browser marks r as sent by a page of
// another origin.
func crossOrigin(r *http.Request) bool {
	switch header(r.Header, "Sec-Fetch-Site") {
	case "":
	case "same-origin", "none":
		return false
	default:
		return true
	}
	origin := header(r.Header, "Origin")
	if origin == "" {
		return false
	}
	u, err := url.Parse(origin)
	return err != nil || !strings.EqualFold(u.Host, r.Host)
}

// foldLocalhost lower-cases a Host header that names localhost in another
// letter case ("LOCALHOST:8080", as in --http LOCALHOST:8080): host names
// are case-insensitive (RFC 3986, section 3.2.2), but the SDK's
// DNS-rebinding check compares the name with "localhost" byte for byte and
// would answer every such request 403. Only that one name is folded, so the
// check refuses every other name as before.
func foldLocalhost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if host, ok := foldedHost(r.Host); ok {
			r = r.Clone(r.Context())
			r.Host = host
		}
		next.ServeHTTP(w, r)
	})
}

// foldedHost returns the Host header hostport with a host that names
// localhost in another letter case lower-cased, and whether it was. A
// host net.SplitHostPort finds starts at the header's first byte or, after
// a bracket, its second, so a header that starts with neither an l nor a
// bracket is not split at all (about 300 instructions a request;
// FuzzFoldedHost holds it to the split).
func foldedHost(hostport string) (string, bool) {
	if hostport == "" || hostport[0]|0x20 != 'l' && hostport[0] != '[' {
		return hostport, false
	}
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = hostport, ""
	}
	if host == "localhost" || !strings.EqualFold(host, "localhost") {
		return hostport, false
	}
	if port != "" {
		return net.JoinHostPort("localhost", port), true
	}
	return "localhost", true
}

// parseErrors answers a POST whose body is not JSON with the JSON-RPC
// parse error (-32700, "id": null, HTTP 400), where the SDK answers with
// plain text, and a request whose id the answer could not carry as sent
// (mcpline.CheckID: a number the SDK mangles, an integer not in plain
// digits, null) with -32600 and that id as sent (HTTP 400). A body over limit goes on to the SDK, which refuses it
// (413). fast, when not nil, may answer a valid body itself (fastAnswer).
func parseErrors(next http.Handler, limit int64, fast func(http.ResponseWriter, *http.Request, []byte) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasPrefix(header(r.Header, "Content-Type"), "application/json") {
			next.ServeHTTP(w, r)
			return
		}
		body, err := readAtMost(r.Body, limit, r.ContentLength)
		if err != nil {
			http.Error(w, "reading the request body: "+err.Error(), http.StatusBadRequest)
			return
		}
		// A body of at most minRefusedBytes that the fast path answers is
		// valid JSON (the fast path takes only objects of plain strings,
		// plain ids, true, false and such objects, each checked byte by
		// byte, with JSON's whitespace between) that refusedShape would
		// not refuse, so it is answered before either reads it; any
		// other body is checked first (FuzzAnyBodyIsTheSDKs).
		small := int64(len(body)) <= min(limit, minRefusedBytes)
		if small && fast != nil && fast(w, r, body) {
			return
		}
		if int64(len(body)) <= limit && !json.Valid(body) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write(mcpline.ErrorResponse(jsonrpc.ID{}, jsonrpc.CodeParseError, "the request body is not JSON"))
			return
		}
		if int64(len(body)) <= limit && refuseCheaply(w, r, body) {
			return
		}
		// The fast path answers only ids the SDK holds exactly (plainID).
		if !small && fast != nil && int64(len(body)) <= limit && fast(w, r, body) {
			return
		}
		if int64(len(body)) <= limit {
			// The SDK reads a numeric id as a float64 and a null one as
			// absent: an id it would not answer with exactly as sent is
			// refused here, with the id as sent.
			if raw := mcpline.RequestID(body); raw != nil {
				if err := mcpline.CheckID(raw); err != nil {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusBadRequest)
					_, _ = w.Write(mcpline.ErrorResponseRawID(bytes.TrimSpace(raw), jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error()))
					return
				}
			}
		}
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
		next.ServeHTTP(w, r)
	})
}

// readAtMost returns what io.ReadAll(io.LimitReader(r, max+1)) returns,
// read into one buffer: hint+1 bytes when hint (a request's
// Content-Length, -1 when unknown) is from 0 to max, so that a body of
// the length it announced is read without growing the buffer and without
// the LimitReader; else from 512 bytes, grown as append grows it.
func readAtMost(r io.Reader, max, hint int64) ([]byte, error) {
	size := int64(512)
	if hint >= 0 && hint <= max {
		size = hint + 1
	}
	b := make([]byte, 0, size)
	for int64(len(b)) <= max {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		room := b[len(b):cap(b)]
		if left := max + 1 - int64(len(b)); int64(len(room)) > left {
			room = room[:left]
		}
		n, err := r.Read(room)
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
	return b, nil
}

// stateless reports whether ctx is a request's on a stateless server.
func stateless(ctx context.Context) bool {
	st := requestFrom(ctx)
	return st != nil && st.stateless
}

// ErrListenAny is returned by [Listen] for an
// address other machines could reach when that was not asked for.
var ErrListenAny = errors.New("the address is not loopback")

// Listen checks addr (resolveListenAddr) and listens on it: on the
// loopback address a name resolved to, so that the address checked is
// the address bound.
func Listen(ctx context.Context, addr string, listenAny bool) (net.Listener, error) {
	bind, err := resolveListenAddr(ctx, addr, listenAny)
	if err != nil {
		return nil, err
	}
	var lc net.ListenConfig
	return lc.Listen(ctx, "tcp", bind)
}

// lookupNetIP resolves names for resolveListenAddr (a variable for tests).
var lookupNetIP = net.DefaultResolver.LookupNetIP

// resolveListenAddr returns the address to bind for addr.
func resolveListenAddr(ctx context.Context, addr string, listenAny bool) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("%q is not HOST:PORT (for example localhost:8080): %w", addr, err)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return "", fmt.Errorf("%q: the port must be a number from 0 to 65535", addr)
	}
	if listenAny {
		return addr, nil
	}
	refuse := func(why string) error {
		return fmt.Errorf("%w: %q %s; use localhost:%s, or give --listen-any to serve other machines", ErrListenAny, addr, why, port)
	}
	if host == "" {
		return "", refuse("listens on every network interface")
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		switch {
		case ip.WithZone("").IsUnspecified():
			return "", refuse("listens on every network interface")
		case !ip.WithZone("").IsLoopback():
			return "", refuse("is not a loopback address")
		}
		return addr, nil
	}
	// A name: every address it resolves to must be loopback, and the
	// first is bound ("0" and other numeric forms resolve too).
	ips, err := lookupNetIP(ctx, "ip", strings.ToLower(host)) // names are case-insensitive
	if err != nil {
		return "", fmt.Errorf("%q: %w", addr, err)
	}
	if len(ips) == 0 {
		return "", fmt.Errorf("%q: the name resolves to no address", addr)
	}
	for _, ip := range ips {
		ip = ip.Unmap().WithZone("")
		if ip.IsUnspecified() {
			return "", refuse("resolves to " + ip.String() + ", which listens on every network interface")
		}
		if !ip.IsLoopback() {
			return "", refuse("resolves to " + ip.String() + ", which is not a loopback address")
		}
	}
	slices.SortStableFunc(ips, func(a, b netip.Addr) int { // IPv4 first, as net.Listen picks
		return cmpBool(b.Unmap().Is4(), a.Unmap().Is4())
	})
	return net.JoinHostPort(ips[0].Unmap().String(), port), nil
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// Serve answers streamable HTTP on ln until ctx is done, then shuts down
// cleanly: it stops accepting, lets requests in flight finish and their
// answers go out (up to Options.ShutdownTimeout), closes the remaining
// sessions (the notification streams of stateful clients) and returns nil.
// Other errors are the listener's.
func (s *Server) Serve(ctx context.Context, ln net.Listener, opts *HTTPOptions) error {
	o := opts.withDefaults()
	var posts inflight
	conns := newConnLimiter(o.MaxConns, o.MaxConnsPerClient)
	s.conns.Store(conns)
	h := s.handler(&o)
	if t := s.sessions.Load(); t != nil && o.Stateful {
		rctx, stop := context.WithCancel(ctx)
		defer stop()
		go s.reapSessions(rctx, t)
	}
	hs := &http.Server{
		Handler:           countPOSTs(h, &posts),
		ReadHeaderTimeout: o.ReadTimeout,
		IdleTimeout:       o.IdleTimeout,
		ConnState:         conns.connState,
		ConnContext:       conns.connContext,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(paceListener{ln}) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	s.log.Info("shutting down: finishing requests in flight")
	s.stopping.Store(true)
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.opts.ShutdownTimeout)
	defer cancel()
	go func() {
		// Once every request is answered, close the sessions whose
		// notification streams would keep their connections busy.
		_ = posts.wait(sctx)
		for ss := range s.mcp.Sessions() {
			_ = ss.Close()
		}
	}()
	if err := hs.Shutdown(sctx); err != nil {
		s.log.Warn("shutdown timed out; closing the remaining connections", "error", err)
		_ = hs.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// RunStdio serves one client over stdio framing (one JSON-RPC message a
// line) on in and out, as [Server.Run] does; unlike the SDK's
// mcp.StdioTransport, a line that is not JSON or not a JSON-RPC message
// gets an error response (-32700, -32600) and a line over 4 MiB is skipped
// with -32600 instead of ending the session (docs/mcp.md); an id, method
// or URI over its bound is refused from the line as read, as over HTTP
// (docs/serving.md#limits).
func (s *Server) RunStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	return s.Run(ctx, &mcpline.Transport{Reader: in, Writer: out, Refuse: refuseLine})
}

// Run serves one client over t (for example &mcp.StdioTransport{}) until
// the client disconnects (nil) or ctx is done; then it lets the requests
// in flight finish (up to Options.ShutdownTimeout) and their answers go
// out before it closes the session and returns nil.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	// The session's own context outlives ctx, so that answers in flight
	// can still be written after ctx is done.
	var calls inflight
	ss, err := s.mcp.Connect(context.WithoutCancel(ctx), drainTransport{t, &calls, s.opts.ShutdownTimeout}, nil)
	if err != nil {
		return err
	}
	waitc := make(chan error, 1)
	go func() { waitc <- ss.Wait() }()
	select {
	case err := <-waitc:
		if errors.Is(err, io.EOF) {
			err = nil
		}
		return err
	case <-ctx.Done():
	}
	s.log.Info("shutting down: finishing requests in flight")
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.opts.ShutdownTimeout)
	defer cancel()
	if err := calls.wait(wctx); err != nil {
		s.log.Warn("shutdown timed out with requests in flight", "error", err)
	}
	_ = ss.Close() // waits for the answers to be written
	<-waitc
	return nil
}
