//go:build unix

package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// capture is the localhost stand-in for a model API: it keeps the body of
// the first model request of each run (told apart by a token in the URL
// path) and answers every request with a minimal valid reply so the agent
// finishes.
type capture struct {
	url string
	srv *http.Server
	mu  sync.Mutex
	got map[string]*capturedRun
}

// capturedRun is what one agent run sent: the bodies of its model requests, and
// done, closed when one of them holds the run's marker.
type capturedRun struct {
	marker string
	bodies [][]byte
	done   chan struct{}
}

func startCapture() (*capture, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	c := &capture{url: "http://" + ln.Addr().String(), got: map[string]*capturedRun{}}
	c.srv = &http.Server{Handler: http.HandlerFunc(c.serve), ReadHeaderTimeout: 10 * time.Second}
	go c.srv.Serve(ln)
	return c, nil
}

func (c *capture) close() { c.srv.Close() }

// expect returns a fresh token for a run's base URL, a channel closed
// when a request holding marker arrives, and a function that returns the
// bodies of the model requests made with the token so far, in order.
func (c *capture) expect(marker string) (string, <-chan struct{}, func() [][]byte) {
	b := make([]byte, 8)
	rand.Read(b)
	token := hex.EncodeToString(b)
	r := &capturedRun{marker: marker, done: make(chan struct{})}
	c.mu.Lock()
	c.got[token] = r
	c.mu.Unlock()
	return token, r.done, func() [][]byte {
		c.mu.Lock()
		defer c.mu.Unlock()
		delete(c.got, token)
		return r.bodies
	}
}

const anthropicStream = `event: message_start
data: {"type":"message_start","message":{"id":"msg_offline","type":"message","role":"assistant","model":"offline","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ok"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":1}}

event: message_stop
data: {"type":"message_stop"}

`

func (c *capture) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	token, rest, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	if r.Method == http.MethodPost && strings.HasSuffix(rest, "messages") {
		var req struct {
			Stream bool `json:"stream"`
		}
		json.Unmarshal(body, &req)
		c.record(token, body)
		if req.Stream {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, anthropicStream)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"msg_offline","type":"message","role":"assistant","model":"offline","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`)
		return
	}
	if r.Method == http.MethodPost && strings.HasSuffix(rest, "chat/completions") {
		c.record(token, body)
		var req struct {
			Stream bool `json:"stream"`
		}
		json.Unmarshal(body, &req)
		if req.Stream {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, openaiStream)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"offline","object":"chat.completion","created":1,"model":"offline","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`)
		return
	}
	if r.Method == http.MethodGet && strings.HasSuffix(rest, "models") {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"object":"list","data":[{"id":"offline","object":"model"}]}`)
		return
	}
	http.NotFound(w, r)
}

func (c *capture) record(token string, body []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.got[token]
	if r == nil {
		return
	}
	r.bodies = append(r.bodies, body)
	if r.marker != "" && strings.Contains(string(body), r.marker) {
		select {
		case <-r.done:
		default:
			close(r.done)
		}
	}
}

const openaiStream = `data: {"id":"offline","object":"chat.completion.chunk","created":1,"model":"offline","choices":[{"index":0,"delta":{"role":"assistant","content":"ok"},"finish_reason":null}]}

data: {"id":"offline","object":"chat.completion.chunk","created":1,"model":"offline","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}

data: [DONE]

`
