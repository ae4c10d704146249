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
	got map[string]*[][]byte
}

func startCapture() (*capture, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	c := &capture{url: "http://" + ln.Addr().String(), got: map[string]*[][]byte{}}
	c.srv = &http.Server{Handler: http.HandlerFunc(c.serve), ReadHeaderTimeout: 10 * time.Second}
	go c.srv.Serve(ln)
	return c, nil
}

func (c *capture) close() { c.srv.Close() }

// expect returns a fresh token for a run's base URL and a function that
// returns the bodies of the model requests made with it so far, in order.
func (c *capture) expect() (string, func() [][]byte) {
	b := make([]byte, 8)
	rand.Read(b)
	token := hex.EncodeToString(b)
	c.mu.Lock()
	c.got[token] = &[][]byte{}
	c.mu.Unlock()
	return token, func() [][]byte {
		c.mu.Lock()
		defer c.mu.Unlock()
		bodies := *c.got[token]
		delete(c.got, token)
		return bodies
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
		c.mu.Lock()
		if list := c.got[token]; list != nil {
			*list = append(*list, body)
		}
		c.mu.Unlock()
		if req.Stream {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, anthropicStream)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"msg_offline","type":"message","role":"assistant","model":"offline","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`)
		return
	}
	http.NotFound(w, r)
}
