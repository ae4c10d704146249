package mcpserver

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// inflight counts requests being answered, so a shutdown can wait for them.
type inflight struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n drops to 0; nil when nobody waits
}

func (f *inflight) add() {
	f.mu.Lock()
	f.n++
	f.mu.Unlock()
}

func (f *inflight) done() {
	f.mu.Lock()
	f.n--
	if f.n == 0 && f.idle != nil {
		close(f.idle)
		f.idle = nil
	}
	f.mu.Unlock()
}

// wait returns when no request is in flight, or ctx's error when it is
// done first.
func (f *inflight) wait(ctx context.Context) error {
	f.mu.Lock()
	if f.n == 0 {
		f.mu.Unlock()
		return nil
	}
	if f.idle == nil {
		f.idle = make(chan struct{})
	}
	ch := f.idle
	f.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// drainTransport counts the calls a connection has read and not yet
// answered, so that [Server.Run] can wait until every answer is written
// before it closes the session (closing drops answers not yet written).
// For the same reason, when the client closes its side (EOF on stdin
// after its last request), the end of input is passed on only once the
// calls read before it are answered, or after grace.
type drainTransport struct {
	mcp.Transport
	f     *inflight
	grace time.Duration
}

func (t drainTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &drainConn{Connection: c, f: t.f, grace: t.grace, ids: map[jsonrpc.ID]bool{}}, nil
}

type drainConn struct {
	mcp.Connection
	f     *inflight
	grace time.Duration
	mu    sync.Mutex
	ids   map[jsonrpc.ID]bool
}

func (c *drainConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if errors.Is(err, io.EOF) {
		wctx, cancel := context.WithTimeout(ctx, c.grace)
		_ = c.f.wait(wctx)
		cancel()
		return msg, err
	}
	// subscriptions/listen stays open until the client leaves: it is not
	// waited for.
	if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() && req.Method != "subscriptions/listen" {
		c.mu.Lock()
		if !c.ids[req.ID] {
			c.ids[req.ID] = true
			c.f.add()
		}
		c.mu.Unlock()
	}
	return msg, err
}

func (c *drainConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := c.Connection.Write(ctx, msg)
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.mu.Lock()
		if c.ids[resp.ID] {
			delete(c.ids, resp.ID)
			c.f.done()
		}
		c.mu.Unlock()
	}
	return err
}

func (c *drainConn) Close() error {
	c.mu.Lock()
	for id := range c.ids {
		delete(c.ids, id)
		c.f.done()
	}
	c.mu.Unlock()
	return c.Connection.Close()
}

// countPOSTs counts the HTTP requests being answered, for [Server.Serve]:
// not GET, which a stateful client keeps open for notifications, nor
// subscriptions/listen, which a 2026-07-28 client keeps open for the same
// reason; closing the sessions ends those.
func countPOSTs(h http.Handler, f *inflight) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet || r.Header.Get("Mcp-Method") == "subscriptions/listen" {
			h.ServeHTTP(w, r)
			return
		}
		f.add()
		defer f.done()
		h.ServeHTTP(w, r)
	})
}
