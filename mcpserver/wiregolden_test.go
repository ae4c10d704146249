package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/skillet-go/skillet/internal/mcpline"
)

var updateWire = flag.Bool("update", false, "rewrite the server section of testdata/wire/*.txtar")

// TestWireGoldens drives the server with the raw JSON-RPC lines of each
// testdata/wire/*.txtar file over the stdio framing (internal/mcpline) and
// compares every line the server writes with the file's "server" section,
// as the SDK's conformance tests do. The archive's files under ws/ are the
// workspace; "client" holds one client message per line; the workspace's
// path is written $WORK. An "options" section may set the line limit,
// the tool mode, or "transport http": then each line is POSTed to a
// stateless HTTP handler and the answers (status and body) are compared,
// which pins the read fast path's bytes too. Run with -update to rewrite the server sections
// after an intended change of the wire, and review the diff.
func TestWireGoldens(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("testdata/wire/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata/wire/*.txtar")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			ws := t.TempDir()
			var client []byte
			var opts wireOptions
			want, hasServer := []byte(nil), false
			for _, f := range ar.Files {
				switch {
				case f.Name == "client":
					client = f.Data
				case f.Name == "options":
					opts = parseWireOptions(t, file, f.Data)
				case f.Name == "server":
					want, hasServer = f.Data, true
				case strings.HasPrefix(f.Name, "ws/"):
					writeTree(t, ws, map[string]string{strings.TrimPrefix(f.Name, "ws/"): string(f.Data)})
				default:
					t.Fatalf("%s: unknown section %q", file, f.Name)
				}
			}
			got := runWire(t, ws, client, opts)
			if *updateWire {
				kept := ar.Files[:0]
				for _, f := range ar.Files {
					if f.Name != "server" {
						kept = append(kept, f)
					}
				}
				ar.Files = append(kept, txtar.File{Name: "server", Data: got})
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if !hasServer {
				t.Fatalf("%s has no server section: run with -update", file)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: the server's lines differ (run go test ./mcpserver -run TestWireGoldens -update if the change is intended)\n%s",
					file, lineDiff(string(want), string(got)))
			}
		})
	}
}

// wireOptions are what an archive's "options" section may set, one
// "key value" a line: max-line-bytes (the stdio line limit) and tool
// (auto, always, never).
type wireOptions struct {
	maxLineBytes int
	tool         ToolMode
	// http: each client line is POSTed to a stateless streamable HTTP
	// handler (protocol 2025-11-25) instead of written to stdio; the
	// server section holds "STATUS BODY" per request and, last, how many
	// answers the read fast path wrote. maxRequestBytes bounds a body.
	http            bool
	maxRequestBytes int64
}

func parseWireOptions(t *testing.T, file string, data []byte) wireOptions {
	t.Helper()
	var o wireOptions
	for line := range strings.Lines(string(data)) {
		key, value, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch key {
		case "":
		case "max-line-bytes":
			n, err := strconv.Atoi(value)
			if err != nil || n <= 0 {
				t.Fatalf("%s: max-line-bytes %q", file, value)
			}
			o.maxLineBytes = n
		case "tool":
			mode, ok := ParseToolMode(value)
			if !ok {
				t.Fatalf("%s: tool %q", file, value)
			}
			o.tool = mode
		case "transport":
			if value != "http" && value != "stdio" {
				t.Fatalf("%s: transport %q (stdio or http)", file, value)
			}
			o.http = value == "http"
		case "max-request-bytes":
			n, err := strconv.ParseInt(value, 10, 64)
			if err != nil || n <= 0 {
				t.Fatalf("%s: max-request-bytes %q", file, value)
			}
			o.maxRequestBytes = n
		default:
			t.Fatalf("%s: unknown option %q", file, key)
		}
	}
	return o
}

// runWire sends each client line to a server on ws and returns what the
// server wrote, one message per line, with ws replaced by $WORK. After a
// request it waits for the response with the same id (notifications the
// server sends meanwhile are kept in order); after a line that is not a
// JSON-RPC object, or one over the line limit, for the one error response
// it gets.
func runWire(t *testing.T, ws string, client []byte, opts wireOptions) []byte {
	t.Helper()
	s := newServer(t, ws, &Options{Tool: opts.tool})
	if opts.http {
		return runWireHTTP(t, s, ws, client, opts)
	}
	limit := opts.maxLineBytes
	if limit == 0 {
		limit = mcpline.DefaultMaxLineBytes
	}
	cr, cw := io.Pipe()
	sr, sw := io.Pipe()
	ss, err := s.MCP().Connect(t.Context(), &mcpline.Transport{Reader: cr, Writer: sw, MaxLineBytes: limit}, nil)
	if err != nil {
		t.Fatal(err)
	}
	lines := make(chan []byte, 64)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(sr)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			lines <- append([]byte(nil), sc.Bytes()...)
		}
	}()
	defer func() {
		cw.Close()
		ss.Close()
		sw.Close()
	}()
	var out bytes.Buffer
	next := func() []byte {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("the server closed its output")
			}
			out.Write(bytes.ReplaceAll(l, []byte(jsonPath(ws)), []byte("$WORK")))
			out.WriteByte('\n')
			return l
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer from the server; so far:\n%s", out.String())
			return nil
		}
	}
	for _, line := range bytes.Split(client, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if _, err := cw.Write(append(line, '\n')); err != nil {
			t.Fatal(err)
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if len(line) > limit || json.Unmarshal(line, &msg) != nil || (msg.Method == "" && msg.ID == nil) {
			next() // one error response
			continue
		}
		if msg.ID == nil {
			continue // a notification: no answer
		}
		for {
			var resp struct {
				ID json.RawMessage `json:"id"`
			}
			l := next()
			if json.Unmarshal(l, &resp) == nil && bytes.Equal(resp.ID, msg.ID) {
				break
			}
		}
	}
	return out.Bytes()
}

// runWireHTTP POSTs each client line to a stateless handler of s, as a
// sessionless client of protocol 2025-11-25 does, and returns "STATUS
// BODY" per line (a notification's 202 has no body), then the count of
// answers the read fast path wrote.
func runWireHTTP(t *testing.T, s *Server, ws string, client []byte, opts wireOptions) []byte {
	t.Helper()
	srv := httptest.NewServer(s.Handler(&HTTPOptions{MaxRequestBytes: opts.maxRequestBytes}))
	defer srv.Close()
	var out bytes.Buffer
	for _, line := range bytes.Split(client, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		a := post(t, srv.URL+Path, "2025-11-25", string(line), nil)
		fmt.Fprintf(&out, "%d %s\n", a.status, strings.ReplaceAll(strings.TrimSuffix(a.body, "\n"), jsonPath(ws), "$WORK"))
	}
	fmt.Fprintf(&out, "# fast path answers: %d\n", s.fastHits.Load())
	return out.Bytes()
}

// jsonPath is p as it appears inside a JSON string.
func jsonPath(p string) string {
	b, _ := json.Marshal(filepath.ToSlash(p))
	return string(b[1 : len(b)-1])
}

// lineDiff shows the first differing line of two texts, with context.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + itoa(i+1) + ":\n- " + a + "\n+ " + b
		}
	}
	return "(equal)"
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}
