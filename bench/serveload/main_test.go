package main

import (
	"strings"
	"testing"
	"time"
)

// TestCheckFlags: the load only goes to loopback, and the client count and
// the duration are bounded, each with an error naming the flag.
func TestCheckFlags(t *testing.T) {
	for _, tt := range []struct {
		url     string
		clients int
		d       time.Duration
		err     string
	}{
		{"http://127.0.0.1:8080/mcp", 32, 30 * time.Second, ""},
		{"http://[::1]:8080/mcp", 1, time.Second, ""},
		{"http://localhost:8080/mcp", maxClients, maxDuration, ""},
		{"http://LOCALHOST:8080/mcp", 1, time.Second, ""},
		{"http://127.0.0.2:8080/mcp", 1, time.Second, ""},
		{"http://10.0.0.1:8080/mcp", 1, time.Second, "only targets a server on this machine"},
		{"http://example.com/mcp", 1, time.Second, "only targets a server on this machine"},
		{"http://0.0.0.0:8080/mcp", 1, time.Second, "only targets a server on this machine"},
		{"https://127.0.0.1:8080/mcp", 1, time.Second, "give http://HOST:PORT/mcp"},
		{"127.0.0.1:8080", 1, time.Second, "give http://HOST:PORT/mcp"},
		{"http://127.0.0.1:8080/mcp", 0, time.Second, "-clients 0: give 1 to 1024"},
		{"http://127.0.0.1:8080/mcp", maxClients + 1, time.Second, "-clients 1025"},
		{"http://127.0.0.1:8080/mcp", 1, 0, "-duration 0s"},
		{"http://127.0.0.1:8080/mcp", 1, maxDuration + time.Second, "at most 10m0s"},
	} {
		err := checkFlags(tt.url, tt.clients, tt.d)
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("checkFlags(%q, %d, %s) = %v, want %q", tt.url, tt.clients, tt.d, err, tt.err)
		}
	}
}
