package mcpserver

import (
	"context"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionTable keeps the stateful sessions within bounds: a session is
// idle while no request of it is running (an open notification stream
// counts as running, so a client that listens is alive), one idle longer
// than timeout is closed, and when a new session would pass max, the one
// idle longest is closed first; when none is idle, the new one is refused.
type sessionTable struct {
	mu      sync.Mutex
	max     int
	timeout time.Duration // 0: never expire
	byID    map[string]*sessionEntry
	now     func() time.Time // time.Now but in tests
	// lastReap is when reap last ran; a request after a while runs it, so
	// a Handler without Serve expires sessions too.
	lastReap time.Time
	// counters since the server started
	expired, evicted, refused int64
	// perClient bounds the sessions of one client (0: no bound).
	perClient int
}

type sessionEntry struct {
	ss     *mcp.ServerSession
	client string    // the client that opened it (clientOf), "" unknown
	refs   int       // requests of the session running now
	last   time.Time // when the last one ended (or the session began)
}

func newSessionTable(max int, timeout time.Duration) *sessionTable {
	return &sessionTable{max: max, timeout: timeout, byID: map[string]*sessionEntry{}, now: time.Now, lastReap: time.Now()}
}

// errTooManySessions refuses an initialize when every session is busy.
var errTooManySessions = &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
	Message: "the server holds as many sessions as it may, all of them busy; try again later"}

// add registers a session that is initializing. It returns
// errTooManySessions when the table is full of busy sessions; otherwise the
// session idle longest is closed when the table is over max.
func (t *sessionTable) add(ss *mcp.ServerSession, client string) error {
	id := ss.ID()
	if id == "" {
		return nil
	}
	t.mu.Lock()
	if e := t.byID[id]; e != nil {
		e.ss = ss
		t.mu.Unlock()
		return nil
	}
	var victim *mcp.ServerSession
	// A client at its own bound makes room among its own sessions only,
	// so a burst from one client never closes another's.
	own := ""
	if t.perClient > 0 && client != "" {
		n := 0
		for _, e := range t.byID {
			if e.client == client {
				n++
			}
		}
		if n >= t.perClient {
			own = client
		}
	}
	if own != "" || len(t.byID) >= t.max {
		var oldestID string
		var oldest *sessionEntry
		for vid, e := range t.byID {
			if own != "" && e.client != own {
				continue
			}
			if e.refs == 0 && e.ss != nil && (oldest == nil || e.last.Before(oldest.last)) {
				oldestID, oldest = vid, e
			}
		}
		if oldest == nil {
			t.refused++
			t.mu.Unlock()
			return errTooManySessions
		}
		delete(t.byID, oldestID)
		victim = oldest.ss
		t.evicted++
	}
	// The initialize request itself is running: the HTTP layer counted it
	// under the new ID only if the client sent one, which it cannot have.
	t.byID[id] = &sessionEntry{ss: ss, client: client, refs: 1, last: t.now()}
	t.mu.Unlock()
	if victim != nil {
		_ = victim.Close()
	}
	return nil
}

// begin and end bracket a request of the session id.
func (t *sessionTable) begin(id string) {
	t.mu.Lock()
	if e := t.byID[id]; e != nil {
		e.refs++
	}
	t.mu.Unlock()
}

func (t *sessionTable) end(id string, closed bool) {
	t.mu.Lock()
	if e := t.byID[id]; e != nil {
		if closed {
			delete(t.byID, id)
		} else if e.refs > 0 {
			e.refs--
			e.last = t.now()
		}
	}
	t.mu.Unlock()
}

// endInit ends the initialize request of a new session, whose ID the
// response carries.
func (t *sessionTable) endInit(id string) { t.end(id, false) }

// reap closes the sessions idle longer than the timeout and forgets those
// the SDK no longer holds (closed by their clients). It returns how many
// it closed.
func (t *sessionTable) reap(live func() map[string]bool) int {
	alive := live()
	now := t.now()
	var victims []*mcp.ServerSession
	t.mu.Lock()
	t.lastReap = now
	for id, e := range t.byID {
		switch {
		case e.ss != nil && !alive[id] && now.Sub(e.last) > time.Second:
			delete(t.byID, id)
		case t.timeout > 0 && e.refs == 0 && now.Sub(e.last) > t.timeout:
			delete(t.byID, id)
			victims = append(victims, e.ss)
			t.expired++
		}
	}
	t.mu.Unlock()
	for _, ss := range victims {
		_ = ss.Close()
	}
	return len(victims)
}

func (t *sessionTable) len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.byID)
}

// reapEvery is how often the sessions are reaped.
func (t *sessionTable) reapEvery() time.Duration {
	every := time.Minute
	if t.timeout > 0 {
		every = min(every, max(t.timeout/4, 10*time.Millisecond))
	}
	return every
}

// due reports whether a reap is due, and if so counts it as begun.
func (t *sessionTable) due() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if now := t.now(); now.Sub(t.lastReap) >= t.reapEvery() {
		t.lastReap = now
		return true
	}
	return false
}

// liveSessions returns the IDs of the sessions the SDK holds.
func (s *Server) liveSessions() map[string]bool {
	m := map[string]bool{}
	for ss := range s.mcp.Sessions() {
		if id := ss.ID(); id != "" {
			m[id] = true
		}
	}
	return m
}

// reapSessions runs the table's reaper until ctx is done, and logs one line
// per round that closed anything.
func (s *Server) reapSessions(ctx context.Context, t *sessionTable) {
	tick := time.NewTicker(t.reapEvery())
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if !t.due() {
				continue
			}
			if n := t.reap(s.liveSessions); n > 0 {
				s.log.Info("idle sessions closed", "closed", n, "timeout", t.timeout, "sessions", t.len())
			}
		}
	}
}

// trackSessions counts the requests of each stateful session, so that the
// table knows which are idle.
func (s *Server) trackSessions(h http.Handler, t *sessionTable) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if t.due() {
			go func() {
				if n := t.reap(s.liveSessions); n > 0 {
					s.log.Info("idle sessions closed", "closed", n, "timeout", t.timeout, "sessions", t.len())
				}
			}()
		}
		id := r.Header.Get("Mcp-Session-Id")
		if id == "" {
			h.ServeHTTP(w, r)
			if id := w.Header().Get("Mcp-Session-Id"); id != "" {
				t.endInit(id)
			}
			return
		}
		t.begin(id)
		h.ServeHTTP(w, r)
		t.end(id, r.Method == http.MethodDelete)
	})
}

// undeliveredLog turns the SDK's warning per session that a notification
// did not reach it (a session without a notification stream, or whose
// stream was closed) into one line per burst: a reload notifies every
// session, and thousands of lines would say one thing.
type undeliveredLog struct {
	log     *slog.Logger
	mu      sync.Mutex
	byKind  map[string]int
	pending bool
	total   atomic.Int64
	burst   time.Duration // how long one burst is gathered; 0: a second
}

func (u *undeliveredLog) add(method string) {
	u.total.Add(1)
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.byKind == nil {
		u.byKind = map[string]int{}
	}
	u.byKind[method]++
	if !u.pending {
		u.pending = true
		d := u.burst
		if d == 0 {
			d = time.Second
		}
		time.AfterFunc(d, u.flush)
	}
}

func (u *undeliveredLog) flush() {
	u.mu.Lock()
	counts := u.byKind
	u.byKind, u.pending = nil, false
	u.mu.Unlock()
	args := []any{}
	total := 0
	for _, m := range slices.Sorted(maps.Keys(counts)) {
		args = append(args, m, counts[m])
		total += counts[m]
	}
	u.log.Info("notifications not delivered (sessions without an open stream)", append([]any{"count", total}, args...)...)
}

// undeliveredFilter passes the SDK's log on, except the per-session
// "calling notifications/...: ..." warnings, which it counts.
type undeliveredFilter struct {
	h slog.Handler
	u *undeliveredLog
}

const undeliveredPrefix = "calling notifications/"

func (f *undeliveredFilter) Enabled(ctx context.Context, l slog.Level) bool {
	return l == slog.LevelWarn || f.h.Enabled(ctx, l)
}

func (f *undeliveredFilter) Handle(ctx context.Context, r slog.Record) error {
	if rest, ok := strings.CutPrefix(r.Message, undeliveredPrefix); ok {
		method, _, _ := strings.Cut(rest, ":")
		f.u.add("notifications/" + method)
		return nil
	}
	if !f.h.Enabled(ctx, r.Level) {
		return nil
	}
	return f.h.Handle(ctx, r)
}

func (f *undeliveredFilter) WithAttrs(as []slog.Attr) slog.Handler {
	return &undeliveredFilter{h: f.h.WithAttrs(as), u: f.u}
}

func (f *undeliveredFilter) WithGroup(g string) slog.Handler {
	return &undeliveredFilter{h: f.h.WithGroup(g), u: f.u}
}
