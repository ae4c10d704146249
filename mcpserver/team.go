package mcpserver

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/skillet-go/skillet/mcpserver/skillsext"
)

// What a server for a team adds (docs/serving.md): a bearer token, health
// and readiness for a load balancer, and Prometheus metrics.

// requireToken wraps h so that every request must carry
// "Authorization: Bearer TOKEN", checked by the SDK's auth middleware; the
// comparison takes the same time whatever the token sent, and neither
// token is logged.
func requireToken(h http.Handler, token string) http.Handler {
	want := sha256.Sum256([]byte(token))
	verify := func(_ context.Context, got string, _ *http.Request) (*auth.TokenInfo, error) {
		// Hashing first makes the comparison constant-time in the
		// length of the token too.
		sum := sha256.Sum256([]byte(got))
		if subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{Expiration: time.Now().Add(time.Hour)}, nil
	}
	return auth.RequireBearerToken(verify, nil)(h)
}

// metrics are the server's Prometheus metrics, on a registry of its own.
type metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	errors   *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	reloads  prometheus.Counter
	failures prometheus.Counter
}

// knownMethods bounds the method label: anything else counts as "other".
var knownMethods = map[string]bool{
	"initialize": true, "ping": true, "server/discover": true, "notifications/initialized": true,
	"resources/list": true, "resources/templates/list": true, "resources/read": true,
	"resources/subscribe": true, "resources/unsubscribe": true, "subscriptions/listen": true,
	"prompts/list": true, "prompts/get": true, "tools/list": true, "tools/call": true,
	"completion/complete": true, "logging/setLevel": true,
	skillsext.MethodListSkills: true, skillsext.MethodGetSkill: true, skillsext.MethodReadDirectory: true,
}

func methodLabel(m string) string {
	if knownMethods[m] {
		return m
	}
	return "other"
}

func (s *Server) newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "skillet_mcp_requests_total", Help: "MCP requests received, by method.",
		}, []string{"method"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "skillet_mcp_errors_total", Help: "MCP requests answered with an error, by method.",
		}, []string{"method"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "skillet_mcp_request_duration_seconds", Help: "Time to answer an MCP request, by method (encoding and writing excluded).",
			Buckets: []float64{.0001, .0005, .001, .005, .01, .05, .1, .5, 1, 5},
		}, []string{"method"}),
		reloads: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "skillet_reloads_total", Help: "Reloads of the skills from disk that changed what is served.",
		}),
		failures: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "skillet_reload_failures_total", Help: "Reloads that failed (the previous snapshot stayed served).",
		}),
	}
	snapGauge := func(name, help string, f func(*snapshot) float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 {
			if sn := s.snap.Load(); sn != nil {
				return f(sn)
			}
			return 0
		})
	}
	counterFunc := func(name, help string, f func() float64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help}, f)
	}
	m.reg.MustRegister(m.requests, m.errors, m.latency, m.reloads, m.failures,
		snapGauge("skillet_snapshot_skills", "Skills served.", func(sn *snapshot) float64 { return float64(len(sn.skills)) }),
		snapGauge("skillet_snapshot_files", "Files served.", func(sn *snapshot) float64 { return float64(len(sn.files)) }),
		snapGauge("skillet_snapshot_bytes", "Bytes of the files served, as they are sent.", func(sn *snapshot) float64 { return float64(sn.bytes) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "skillet_http_sessions", Help: "Stateful sessions kept."}, func() float64 {
			if t := s.sessions.Load(); t != nil {
				return float64(t.len())
			}
			return 0
		}),
		counterFunc("skillet_http_streams_dropped_total", "Notification streams closed because their client did not read them.",
			func() float64 { return float64(s.streamsDropped.Load()) }),
		counterFunc("skillet_http_connections_evicted_total", "Connections closed to make room for a new one.", func() float64 {
			if l := s.conns.Load(); l != nil {
				return float64(l.evicted.Load())
			}
			return 0
		}),
		counterFunc("skillet_http_connections_refused_total", "New connections closed because every connection was busy.", func() float64 {
			if l := s.conns.Load(); l != nil {
				return float64(l.refused.Load())
			}
			return 0
		}),
		counterFunc("skillet_notifications_undelivered_total", "Notifications that reached no stream of their session.",
			func() float64 { return float64(s.undelivered.total.Load()) }),
	)
	return m
}

// observe records one answered request.
func (m *metrics) observe(method string, d time.Duration, err error) {
	l := methodLabel(method)
	m.requests.WithLabelValues(l).Inc()
	if err != nil {
		m.errors.WithLabelValues(l).Inc()
	}
	m.latency.WithLabelValues(l).Observe(d.Seconds())
}

// teamRoutes adds /readyz and /metrics to mux (/healthz is there already)
// and returns the handler with the token check around everything but the
// probes. Without a token nothing is checked.
func (s *Server) teamRoutes(mux *http.ServeMux, o *HTTPOptions) http.Handler {
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if s.snap.Load() == nil || s.stopping.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte("not ready\n"))
			return
		}
		_, _ = w.Write([]byte("ready\n"))
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{}))
	if o.AuthToken == "" {
		return mux
	}
	protected := requireToken(mux, o.AuthToken)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The probes of a load balancer or kubelet carry no token and
		// learn nothing but "ok" or "ready".
		if r.Method == http.MethodGet && (r.URL.Path == "/healthz" || r.URL.Path == "/readyz") {
			mux.ServeHTTP(w, r)
			return
		}
		protected.ServeHTTP(w, r)
	})
}
