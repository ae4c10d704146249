package mcpserver

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/skillet-go/skillet/internal/promtext"
	"github.com/skillet-go/skillet/mcpserver/skillsext"
)

// What a server for a team adds (docs/serving.md): a bearer token, health
// and readiness for a load balancer, and Prometheus metrics.

// tokenSet holds the SHA-256 digests of the bearer tokens a server
// accepts (HTTPOptions.AuthToken and AuthTokens), in their order; the
// tokens themselves are not kept.
type tokenSet struct {
	sums [][sha256.Size]byte
}

// newTokenSet returns the set of o's tokens, nil when it has none.
func newTokenSet(o *HTTPOptions) *tokenSet {
	var ts tokenSet
	for _, t := range append([]string{o.AuthToken}, o.AuthTokens...) {
		if t != "" {
			ts.sums = append(ts.sums, sha256.Sum256([]byte(t)))
		}
	}
	if len(ts.sums) == 0 {
		return nil
	}
	return &ts
}

// constantTimeCompare is subtle.ConstantTimeCompare; a test counts the
// digests match compares through it.
var constantTimeCompare = subtle.ConstantTimeCompare

// match returns the index of got among the tokens, or -1. It hashes got
// and compares the digest with every token's, in constant time and with
// no early exit, so neither the time nor anything else tells whether, or
// which, token matched; hashing first makes it constant-time in the
// length of the token too.
func (ts *tokenSet) match(got string) int {
	sum := sha256.Sum256([]byte(got))
	found := -1
	for i := range ts.sums {
		eq := constantTimeCompare(sum[:], ts.sums[i][:])
		found = subtle.ConstantTimeSelect(eq, i, found)
	}
	return found
}

// bearerToken returns the token of r's "Authorization: Bearer TOKEN" header
// as the SDK's auth middleware reads it, and false when there is none.
func bearerToken(r *http.Request) (string, bool) {
	f := strings.Fields(header(r.Header, "Authorization"))
	if len(f) != 2 || !strings.EqualFold(f[0], "bearer") {
		return "", false
	}
	return f[1], true
}

// tokenClient is the client key of the token at index i
// (docs/serving.md#fairness): its position in the token file, never the
// token.
func tokenClient(i int) string {
	return "token " + strconv.Itoa(i+1)
}

// isProbe reports whether r asks for health or readiness, which need no
// token.
func isProbe(r *http.Request) bool {
	return r.Method == http.MethodGet && (r.URL.Path == "/healthz" || r.URL.Path == "/readyz")
}

// requireToken wraps h so that every request must carry
// "Authorization: Bearer TOKEN" with one of ts's tokens, checked by the
// SDK's auth middleware (tokenSet.match); no token is logged.
func requireToken(h http.Handler, ts *tokenSet) http.Handler {
	verify := func(_ context.Context, got string, _ *http.Request) (*auth.TokenInfo, error) {
		if ts.match(got) < 0 {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{Expiration: time.Now().Add(time.Hour)}, nil
	}
	return auth.RequireBearerToken(verify, nil)(h)
}

// metrics are the server's Prometheus metrics, on a registry of its own
// (internal/promtext: the text the Prometheus client wrote, without its
// cost at every start of every command).
type metrics struct {
	reg      promtext.Registry
	methods  *promtext.Labels
	other    int // the index of "other" in methods
	requests *promtext.CounterVec
	errors   *promtext.CounterVec
	latency  *promtext.HistogramVec
	reloads  *promtext.Counter
	failures *promtext.Counter
}

// knownMethods bound the method label: anything else counts as "other".
var knownMethods = []string{
	"initialize", "ping", "server/discover", "notifications/initialized",
	"resources/list", "resources/templates/list", "resources/read",
	"resources/subscribe", "resources/unsubscribe", "subscriptions/listen",
	"prompts/list", "prompts/get", "tools/list", "tools/call",
	"completion/complete", "logging/setLevel",
	skillsext.MethodListSkills, skillsext.MethodGetSkill, skillsext.MethodReadDirectory,
}

func (s *Server) newMetrics() *metrics {
	m := &metrics{methods: promtext.NewLabels("method", append(knownMethods[:len(knownMethods):len(knownMethods)], "other"))}
	m.other = m.methods.Index("other")
	r := &m.reg
	m.requests = r.CounterVec("skillet_mcp_requests_total", "MCP requests received, by method.", m.methods)
	m.errors = r.CounterVec("skillet_mcp_errors_total", "MCP requests answered with an error, by method.", m.methods)
	m.latency = r.HistogramVec("skillet_mcp_request_duration_seconds", "Time to answer an MCP request, by method (encoding and writing excluded).",
		m.methods, []float64{.0001, .0005, .001, .005, .01, .05, .1, .5, 1, 5})
	m.reloads = r.Counter("skillet_reloads_total", "Reloads of the skills from disk that changed what is served.")
	m.failures = r.Counter("skillet_reload_failures_total", "Reloads that failed (the previous snapshot stayed served).")
	snapGauge := func(name, help string, f func(*snapshot) float64) {
		r.GaugeFunc(name, help, func() float64 {
			if sn := s.snap.Load(); sn != nil {
				return f(sn)
			}
			return 0
		})
	}
	snapGauge("skillet_snapshot_skills", "Skills served.", func(sn *snapshot) float64 { return float64(len(sn.skills)) })
	snapGauge("skillet_snapshot_files", "Files served.", func(sn *snapshot) float64 { return float64(len(sn.files)) })
	snapGauge("skillet_snapshot_bytes", "Bytes of the files served, as they are sent.", func(sn *snapshot) float64 { return float64(sn.bytes) })
	r.GaugeFunc("skillet_http_sessions", "Stateful sessions kept.", func() float64 {
		if t := s.sessions.Load(); t != nil {
			return float64(t.len())
		}
		return 0
	})
	r.CounterFunc("skillet_http_streams_dropped_total", "Notification streams closed because their client did not read them.",
		func() float64 { return float64(s.streamsDropped.Load()) })
	r.CounterFunc("skillet_http_connections_evicted_total", "Connections closed to make room for a new one.", func() float64 {
		if l := s.conns.Load(); l != nil {
			return float64(l.evicted.Load())
		}
		return 0
	})
	r.CounterFunc("skillet_http_connections_refused_total", "New connections closed because every connection was busy.", func() float64 {
		if l := s.conns.Load(); l != nil {
			return float64(l.refused.Load())
		}
		return 0
	})
	r.GaugeFunc("skillet_memory_held_bytes", "Bytes held of the memory budget (--max-served-bytes): served files, a reload's new files, answers being written.",
		func() float64 { return float64(s.mem.held.Load()) })
	r.CounterFunc("skillet_reloads_over_budget_total", "Reloads stopped because their new files did not fit the memory budget (the last good snapshot stayed served).",
		func() float64 { return float64(s.mem.overBudget.Load()) })
	r.CounterFunc("skillet_answers_over_budget_total", "Answers refused because the memory budget was taken by answers being written.",
		func() float64 { return float64(s.mem.refused.Load()) })
	r.CounterFunc("skillet_notifications_undelivered_total", "Notifications that reached no stream of their session.",
		func() float64 { return float64(s.undelivered.total.Load()) })
	return m
}

// observe records one answered request.
func (m *metrics) observe(method string, d time.Duration, err error) {
	i := m.methods.Index(method)
	if i < 0 {
		i = m.other
	}
	m.requests.Inc(i)
	if err != nil {
		m.errors.Inc(i)
	}
	m.latency.Observe(i, d.Seconds())
}

// teamRoutes adds /readyz and /metrics to mux (/healthz is there already)
// and returns routes (mux, or a handler that routes as mux does) with the
// token check around everything but the probes. Without a token nothing
// is checked.
func (s *Server) teamRoutes(mux *http.ServeMux, routes http.Handler, tokens *tokenSet) http.Handler {
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if s.snap.Load() == nil || s.stopping.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte("not ready\n"))
			return
		}
		_, _ = w.Write([]byte("ready\n"))
	})
	mux.Handle("GET /metrics", &s.metrics.reg)
	if tokens == nil {
		return routes
	}
	protected := requireToken(routes, tokens)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The probes of a load balancer or kubelet carry no token and
		// learn nothing but "ok" or "ready".
		if isProbe(r) {
			mux.ServeHTTP(w, r)
			return
		}
		protected.ServeHTTP(w, r)
	})
}
