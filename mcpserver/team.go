package mcpserver

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
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
	mux.Handle("GET /metrics", s.metrics)
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
