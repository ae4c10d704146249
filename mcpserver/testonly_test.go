package mcpserver

import "context"

// What only the tests call: reference implementations the tests hold the
// package's code to, and helpers of the tests, moved out of the package's
// non-test files.

// skills returns the names of the served skills, sorted, and how many of
// them are served through the extension's skills/list.
func (s *Server) skills() (names []string, extension int) {
	sn := s.snap.Load()
	for _, sv := range sn.skills {
		names = append(names, sv.name)
	}
	return names, len(sn.entries)
}

// len is how many connections l holds; 0 before Serve has stored its
// limiter (s.conns is nil until then: a test that dials right after
// serveHTTP may ask first, as TestConnectionCap did under load in a full
// run).
func (l *connLimiter) len() int {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.conns)
}

// next returns how many events have happened and a channel that is
// closed at the next one.
func (p *passes) next() (int, <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ch == nil {
		p.ch = make(chan struct{})
	}
	return p.n, p.ch
}

// checkListenAddr checks an --http address: HOST:PORT with a port (0 picks
// a free one). Unless listenAny is set, HOST must be a loopback address
// (127.0.0.0/8, ::1, with or without a zone) or a name every address of
// which is loopback (localhost); anything else, an address that listens
// on every interface (":PORT", "0.0.0.0", "[::]", "[::%lo]", "0") or one
// of another interface ("[fe80::1%eth0]", a LAN address, a name that
// resolves elsewhere), gets an error wrapping [ErrListenAny]. Servers bind
// to localhost by default, as gopls's MCP server does.
func checkListenAddr(addr string, listenAny bool) error {
	_, err := resolveListenAddr(context.Background(), addr, listenAny)
	return err
}
