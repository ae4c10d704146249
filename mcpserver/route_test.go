package mcpserver

import (
	"bufio"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestMCPFirstIsTheMux: mcpFirst answers every request as the mux it
// stands in front of: the MCP path with and without the cross-origin
// headers, by every method, and the paths mux cleans, redirects, refuses
// or sends elsewhere (another letter case, a trailing slash, dots, an
// escaped letter, a query, CONNECT, the request URI "*", the probes).
func TestMCPFirstIsTheMux(t *testing.T) {
	t.Parallel()
	mcp := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "mcp %s %s pattern=%q", r.Method, r.URL, r.Pattern)
	})
	cop := http.NewCrossOriginProtection()
	mux := http.NewServeMux()
	mux.Handle(Path, cop.Handler(mcp))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "ok pattern=%q", r.Pattern)
	})
	routed := mcpFirst(mux, mcp, cop.Handler(mcp))
	headers := []map[string]string{
		{},
		{"Origin": "http://127.0.0.1:8080"},
		{"Origin": "http://evil.example"},
		{"Origin": "http://LOCALHOST:8080"},
		{"Sec-Fetch-Site": "cross-site"},
		{"Sec-Fetch-Site": "same-origin"},
		{"Sec-Fetch-Site": "none"},
		{"Sec-Fetch-Site": "same-site", "Origin": "http://127.0.0.1:8080"},
	}
	lines := []string{}
	for _, m := range []string{"POST", "GET", "DELETE", "HEAD", "OPTIONS", "PUT"} {
		for _, target := range []string{Path, Path + "/", "/MCP", "//mcp", "/./mcp", "/x/../mcp", "/mc%70", Path + "?a=1", "/healthz", "/nothing"} {
			lines = append(lines, m+" "+target)
		}
	}
	lines = append(lines, "OPTIONS *", "CONNECT 127.0.0.1:8080")
	n := 0
	for _, line := range lines {
		for _, hdr := range headers {
			raw := line + " HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"
			for k, v := range hdr {
				raw += k + ": " + v + "\r\n"
			}
			answer := func(h http.Handler) string {
				r, err := http.ReadRequest(bufio.NewReader(strings.NewReader(raw + "\r\n")))
				if err != nil {
					t.Fatalf("%q: %v", raw, err)
				}
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				return fmt.Sprintf("%d %v %s", w.Code, w.Header(), w.Body)
			}
			got, want := answer(routed), answer(mux)
			if got != want {
				t.Errorf("%q: mcpFirst answers\n%s\nthe mux\n%s", raw, got, want)
			}
			if strings.HasPrefix(want, "200") && strings.Contains(want, "mcp ") {
				n++
			}
		}
	}
	if n == 0 {
		t.Error("no request reached the MCP handler")
	}
}
