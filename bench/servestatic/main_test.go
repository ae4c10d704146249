package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestAnswersRecordedBytes: a recorded request, looked up by its body byte
// for byte, gets the recorded status, headers and body, framed as net/http
// frames skillet's answers (a length up to 2 KiB, chunked above it);
// a request not recorded, another method or a body differing by one byte
// gets 404.
func TestAnswersRecordedBytes(t *testing.T) {
	big := strings.Repeat("x", 3000)
	pool := `{"method":"skills/list","request":"{\"id\":1,\"jsonrpc\":\"2.0\",\"method\":\"skills/list\"}","status":200,"header":{"Content-Type":"application/json","X-Extra":"1"},"response":"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"skills\":[]}}"}
{"method":"resources/read","name":"skill://a/SKILL.md","request":"{\"id\":2}","status":400,"header":{"Content-Type":"application/json"},"response":"{\"error\":{}}"}
{"method":"resources/read","name":"skill://b/SKILL.md","request":"{\"id\":3}","status":200,"header":{"Content-Type":"application/json"},"response":"` + big + `"}
`
	answers, err := readPool(strings.NewReader(pool))
	if err != nil {
		t.Fatal(err)
	}
	if len(answers) != 3 {
		t.Fatalf("%d answers, want 3", len(answers))
	}
	srv := httptest.NewServer(handler(answers))
	defer srv.Close()
	for _, tt := range []struct {
		method, body string
		status       int
		ctype, extra string
		want         string
	}{
		{"POST", `{"id":1,"jsonrpc":"2.0","method":"skills/list"}`, 200, "application/json", "1", `{"jsonrpc":"2.0","id":1,"result":{"skills":[]}}`},
		{"POST", `{"id":2}`, 400, "application/json", "", `{"error":{}}`},
		{"POST", `{"id":3}`, 200, "application/json", "", big},
		{"POST", `{"id":1,"jsonrpc":"2.0","method":"skills/list"} `, 404, "text/plain; charset=utf-8", "", "404 page not found\n"},
		{"PUT", `{"id":2}`, 404, "text/plain; charset=utf-8", "", "404 page not found\n"},
	} {
		req, _ := http.NewRequest(tt.method, srv.URL+"/mcp", strings.NewReader(tt.body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tt.status || string(data) != tt.want || resp.Header.Get("Content-Type") != tt.ctype || resp.Header.Get("X-Extra") != tt.extra {
			t.Errorf("%s %s: %d %q %q %q, want %d %q %q %q", tt.method, tt.body, resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("X-Extra"), data,
				tt.status, tt.ctype, tt.extra, tt.want)
		}
		chunked := len(resp.TransferEncoding) == 1 && resp.TransferEncoding[0] == "chunked"
		if resp.StatusCode != 404 {
			if big := len(tt.want) > 2048; big != chunked || !big && resp.ContentLength != int64(len(tt.want)) {
				t.Errorf("%s: Content-Length %d, chunked %v, for a body of %d bytes", tt.body, resp.ContentLength, chunked, len(tt.want))
			}
		}
	}
}
