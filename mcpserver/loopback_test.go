package mcpserver

import "testing"

// TestLoopbackRules: isLoopbackAddr is the SDK's DNS-rebinding rule (the
// fast path must refuse nothing the SDK serves and serve nothing it
// refuses), and the guard's; an IPv4 loopback written as IPv6 and a zone
// count as loopback.
func TestLoopbackRules(t *testing.T) {
	for _, c := range []struct {
		addr string
		want bool
	}{
		{"localhost", true},
		{"localhost:3000", true},
		{"127.0.0.1", true},
		{"127.0.0.2:80", true},
		{"[::1]", true},
		{"[::1]:3000", true},
		{"::1", true},
		{"[::ffff:127.0.0.1]:80", true},
		{"[::1%lo]:80", true},
		{"", false},
		{"evil.com", false},
		{"evil.com:80", false},
		{"localhost.evil.com", false},
		{"LOCALHOST", false}, // foldLocalhost lower-cases it first
		{"10.0.0.1:80", false},
		{"[::ffff:10.0.0.1]", false},
	} {
		if got := isLoopbackAddr(c.addr); got != c.want {
			t.Errorf("isLoopbackAddr(%q) = %v, want %v", c.addr, got, c.want)
		}
	}
}
