package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Path is where [Server.Handler] answers MCP requests.
const Path = "/mcp"

// HTTPOptions configure [Server.Handler] and [Server.Serve]. A nil
// *HTTPOptions means the zero value: stateless, default body limit.
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
	// (default DefaultSessionTimeout; negative: never).
	SessionTimeout time.Duration
}

// DefaultSessionTimeout is how long an idle stateful session lives.
const DefaultSessionTimeout = 30 * time.Minute

// Handler returns the HTTP handler of the server: streamable HTTP at
// [Path] with the SDK's DNS-rebinding protection on (a request that
// arrives on a loopback address with a Host that is not loopback gets 403)
// and the standard library's cross-origin protection, plus GET /healthz,
// which answers "ok" for load balancers.
func (s *Server) Handler(opts *HTTPOptions) http.Handler {
	if opts == nil {
		opts = &HTTPOptions{}
	}
	maxBody := opts.MaxRequestBytes
	if maxBody < 1 {
		maxBody = 0 // the SDK's default; a negative value would lift the limit
	}
	timeout := opts.SessionTimeout
	switch {
	case timeout == 0:
		timeout = DefaultSessionTimeout
	case timeout < 0:
		timeout = 0
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.mcp }, &mcp.StreamableHTTPOptions{
		Stateless: !opts.Stateful,
		// A stateless answer is one JSON body: the server sends nothing
		// else during a request, so an event stream would only add framing.
		JSONResponse:        !opts.Stateful,
		Logger:              s.sdkLog,
		MaxRequestBodyBytes: maxBody,
		SessionTimeout:      timeout,
	})
	mux := http.NewServeMux()
	mux.Handle(Path, http.NewCrossOriginProtection().Handler(h))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	})
	return mux
}

// ErrListenAny is returned by [CheckListenAddr] and [Listen] for an
// address other machines could reach when that was not asked for.
var ErrListenAny = errors.New("the address is not loopback")

// CheckListenAddr checks an --http address: HOST:PORT with a port (0 picks
// a free one). Unless listenAny is set, HOST must be a loopback address
// (127.0.0.0/8, ::1, with or without a zone) or a name every address of
// which is loopback (localhost); anything else, an address that listens
// on every interface (":PORT", "0.0.0.0", "[::]", "[::%lo]", "0") or one
// of another interface ("[fe80::1%eth0]", a LAN address, a name that
// resolves elsewhere), gets an error wrapping [ErrListenAny]. Servers bind
// to localhost by default, as gopls's MCP server does.
func CheckListenAddr(addr string, listenAny bool) error {
	_, err := resolveListenAddr(context.Background(), addr, listenAny)
	return err
}

// Listen checks addr as [CheckListenAddr] does and listens on it: on the
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
	ips, err := lookupNetIP(ctx, "ip", host)
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
	var posts inflight
	hs := &http.Server{
		Handler:           countPOSTs(s.Handler(opts), &posts),
		ReadHeaderTimeout: 10 * time.Second,
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	s.log.Info("shutting down: finishing requests in flight")
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
