package mcpserver

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
)

// TestLoopbackRules: isLoopbackAddr is the SDK's DNS-rebinding rule (the
// fast path must refuse nothing the SDK serves and serve nothing it
// refuses), and the guard's; an IPv4 loopback written as IPv6 and a zone
// count as loopback.
func TestLoopbackRules(t *testing.T) {
	t.Parallel()
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

// TestLocalLoopbackIsTheString: localLoopback, which judges a TCP address
// from its IP, says what isLoopbackAddr says of the address's String (the
// SDK's rule) for every kind of local address: IPv4 and IPv6, IPv4 written
// as IPv6, zones, an IP of another length, none, a nil address, other
// networks.
func TestLocalLoopbackIsTheString(t *testing.T) {
	t.Parallel()
	addrs := []net.Addr{
		&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1).To4(), Port: 8080},
		&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080},
		&net.TCPAddr{IP: net.IPv4(127, 9, 9, 9), Port: 1},
		&net.TCPAddr{IP: net.IPv4(10, 0, 0, 1), Port: 8080},
		&net.TCPAddr{IP: net.IPv4(10, 0, 0, 1).To4(), Port: 8080},
		&net.TCPAddr{IP: net.IPv6loopback, Port: 8080},
		&net.TCPAddr{IP: net.IPv6loopback, Port: 8080, Zone: "lo"},
		&net.TCPAddr{IP: net.ParseIP("fe80::1"), Port: 8080, Zone: "eth0"},
		&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1).To4(), Port: 8080, Zone: "lo"},
		&net.TCPAddr{IP: net.ParseIP("::127.0.0.1"), Port: 8080},
		&net.TCPAddr{IP: net.ParseIP("::ffff:10.0.0.1"), Port: 8080},
		&net.TCPAddr{IP: net.IPv6zero, Port: 8080},
		&net.TCPAddr{IP: net.IPv4zero, Port: 8080},
		&net.TCPAddr{Port: 8080},
		&net.TCPAddr{IP: net.IP{127, 0, 1}, Port: 8080},
		(*net.TCPAddr)(nil),
		&net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080},
		&net.UnixAddr{Name: "/tmp/s", Net: "unix"},
	}
	for i := range 256 {
		addrs = append(addrs, &net.TCPAddr{IP: net.IP{byte(i), 0, 0, 1}, Port: 80},
			&net.TCPAddr{IP: net.IP{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, byte(i >> 4), byte(i)}, Port: 80},
			&net.TCPAddr{IP: net.IP{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, byte(i), byte(i), 0, 0, 1}, Port: 80})
	}
	for _, a := range addrs {
		r := httptest.NewRequest("POST", "http://127.0.0.1:8080"+Path, nil)
		r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, a))
		if got, want := localLoopback(r), isLoopbackAddr(a.String()); got != want {
			t.Errorf("%#v (%s): localLoopback %v, isLoopbackAddr of its String %v", a, a, got, want)
		}
	}
	if localLoopback(httptest.NewRequest("POST", Path, nil)) {
		t.Error("a request with no local address is on a loopback address")
	}
}

// TestLoopbackChecksAllocateNothing: the Host and local-address checks
// that every request passes (checkHostOrigin, fastAnswer) allocate
// nothing for a loopback server's usual Hosts, with a port or without.
func TestLoopbackChecksAllocateNothing(t *testing.T) {
	r := httptest.NewRequest("POST", "http://127.0.0.1:8080"+Path, nil)
	r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}))
	hosts := []string{"127.0.0.1:8080", "localhost:8080", "[::1]:8080", "127.0.0.1", "localhost", "[::1]"}
	got := testing.AllocsPerRun(100, func() {
		for _, h := range hosts {
			if !localLoopback(r) || !isLoopbackAddr(h) {
				t.Fatalf("%s: not loopback", h)
			}
		}
	})
	if got != 0 {
		t.Errorf("%.0f allocations for the checks of %d Hosts, want 0", got, len(hosts))
	}
}

// FuzzLoopbackAddr: isLoopbackAddr, which passes over net.SplitHostPort
// where it would fail for want of a port, says what the SDK's rule says:
// the host net.SplitHostPort finds, or the address without its brackets.
func FuzzLoopbackAddr(f *testing.F) {
	for _, s := range []string{"127.0.0.1:8080", "[::1]", "[::1]:80", "[a]:b]", "[a]b]", "localhost", "a:b]", "[::1%lo]", ":", "[", "]",
		"127.0.0.1:", "127.0.0.1:x", "127.0.0.1:8080:1", "127.0.0.1:[1]", "127.0.0.1:]", "localhost:", "localhost:80:80",
		"localhost:[", "127.0.0.10:80", "127.0.0.1", "localhost"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, addr string) {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			host = strings.Trim(addr, "[]")
		}
		ip, perr := netip.ParseAddr(host)
		want := host == "localhost" || perr == nil && ip.IsLoopback()
		if got := isLoopbackAddr(addr); got != want {
			t.Fatalf("isLoopbackAddr(%q) = %v, the SDK's rule %v", addr, got, want)
		}
	})
}

// FuzzFoldedHost: foldedHost, which splits only a Host that starts with
// an l or a bracket, folds as splitting every Host did.
func FuzzFoldedHost(f *testing.F) {
	for _, s := range []string{"LOCALHOST:8080", "LOCALHOST", "localhost:80", "[LOCALHOST]:80", "[LocalHost]", "Localhost:",
		"127.0.0.1:8080", "LOCALHOST.evil.example:80", "lOcAlHoSt:1:2", "[::1]:80", "", "L", "["} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, hostport string) {
		host, port, err := net.SplitHostPort(hostport)
		if err != nil {
			host, port = hostport, ""
		}
		want, wantOK := hostport, false
		if host != "localhost" && strings.EqualFold(host, "localhost") {
			want, wantOK = "localhost", true
			if port != "" {
				want = net.JoinHostPort("localhost", port)
			}
		}
		if got, ok := foldedHost(hostport); got != want || ok != wantOK {
			t.Fatalf("foldedHost(%q) = %q, %v; splitting every Host: %q, %v", hostport, got, ok, want, wantOK)
		}
	})
}
