// Command servestatic is the static baseline of bench/serve.sh: an HTTP
// server on loopback that answers each request bench/serveload sends with
// the bytes "skillet serve --http" answered it with, as serveload -record
// wrote them down (one JSON line per request: the request body, the status,
// the headers but Date and Content-Length, and the answer body). A request
// is looked up by its body, byte for byte; one not recorded gets 404. It does
// no JSON, so what skillet spends above it per request is what building the
// answer costs. Like skillet's own answers it sets no Content-Length and
// writes the body in one Write, so net/http frames both alike: a length for
// an answer of up to 2 KiB, chunked above it.
//
//	servestatic -pool pool.jsonl [-listen 127.0.0.1:0]
//
// It prints "url=http://ADDR/mcp" on stderr once it listens, and serves
// until interrupted.
package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"

	"github.com/skillet-go/skillet/bench/internal/poolfile"
)

// answer is a recorded answer ready to write.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// maxBody bounds the request body read: larger than any request of the
// pool.
const maxBody = 1 << 20

// readPool reads a serveload -record file into answers keyed by request
// body.
func readPool(r io.Reader) (map[string]*answer, error) {
	entries, err := poolfile.Read(r)
	if err != nil {
		return nil, err
	}
	out := map[string]*answer{}
	for _, e := range entries {
		a := &answer{status: e.Status, header: http.Header{}, body: []byte(e.Response)}
		for k, v := range e.Header {
			a.header.Set(k, v)
		}
		out[e.Request] = a
	}
	return out, nil
}

// handler answers a POST whose body is a recorded request with its
// recorded answer, and anything else with 404.
func handler(answers map[string]*answer) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
		a := answers[string(body)]
		if err != nil || r.Method != http.MethodPost || a == nil {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		for k, v := range a.header {
			h[k] = v
		}
		w.WriteHeader(a.status)
		_, _ = w.Write(a.body)
	})
}

func main() {
	poolFile := flag.String("pool", "", "the requests and answers, as serveload -record writes them")
	listen := flag.String("listen", "127.0.0.1:0", "the loopback address to listen on")
	flag.Parse()
	if *poolFile == "" {
		fmt.Fprintln(os.Stderr, "usage: servestatic -pool FILE [-listen 127.0.0.1:0]")
		os.Exit(2)
	}
	if ap, err := netip.ParseAddrPort(*listen); err != nil || !ap.Addr().IsLoopback() {
		fmt.Fprintf(os.Stderr, "servestatic: -listen %q: give a loopback address and port (127.0.0.1:0)\n", *listen)
		os.Exit(2)
	}
	f, err := os.Open(*poolFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, "servestatic:", err)
		os.Exit(1)
	}
	answers, err := readPool(f)
	f.Close()
	if err != nil {
		fmt.Fprintf(os.Stderr, "servestatic: %s: %v\n", *poolFile, err)
		os.Exit(1)
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintln(os.Stderr, "servestatic:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "servestatic: %d answers, url=http://%s/mcp\n", len(answers), ln.Addr())
	srv := &http.Server{Handler: handler(answers)}
	go func() {
		c := make(chan os.Signal, 1)
		signal.Notify(c, os.Interrupt)
		<-c
		srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		fmt.Fprintln(os.Stderr, "servestatic:", err)
		os.Exit(1)
	}
}
