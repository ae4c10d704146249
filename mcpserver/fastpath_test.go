package mcpserver

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fastPair serves one workspace twice over stateless HTTP: with the read
// fast path and without it.
func fastPair(t *testing.T) (fast, sdk *Server, fastURL, sdkURL string) {
	t.Helper()
	ws := newWorkspace(t)
	fast = newServer(t, ws, nil)
	sdk = newServer(t, ws, nil)
	sdk.noFastPath = true
	f := httptest.NewServer(fast.Handler(nil))
	t.Cleanup(f.Close)
	g := httptest.NewServer(sdk.Handler(nil))
	t.Cleanup(g.Close)
	return fast, sdk, f.URL + Path, g.URL + Path
}

type rawAnswer struct {
	status int
	ctype  string
	body   string
}

func post(t *testing.T, url, version, body string, header map[string]string) rawAnswer {
	t.Helper()
	req, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if version != "" {
		req.Header.Set("Mcp-Protocol-Version", version)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return rawAnswer{resp.StatusCode, resp.Header.Get("Content-Type"), string(data)}
}

// TestFastReadIsTheSDKs: for every served file, every protocol version and
// every id shape, the fast path answers resources/read with the bytes the
// SDK writes, and requests that are not plain reads get the SDK's own
// answer.
func TestFastReadIsTheSDKs(t *testing.T) {
	fast, _, fastURL, sdkURL := fastPair(t)
	var uris []string
	for u := range fast.snap.Load().files {
		uris = append(uris, u)
	}
	if len(uris) < 8 {
		t.Fatalf("only %d served files", len(uris))
	}
	meta := func(v string) string {
		return `,"_meta":{"io.modelcontextprotocol/protocolVersion":"` + v + `","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
	}
	want := int64(0)
	for _, version := range []string{"2025-06-18", "2025-11-25", "2026-07-28"} {
		for _, id := range []string{"1", "42", `"abc"`, "-7", "9007199254740992", "-9007199254740992"} {
			for _, uri := range uris {
				params := `{"uri":"` + uri + `"}`
				if version >= "2026" {
					params = `{"uri":"` + uri + `"` + meta(version) + `}`
				}
				body := `{"jsonrpc":"2.0","id":` + id + `,"method":"resources/read","params":` + params + `}`
				hdr := map[string]string{"Mcp-Method": "resources/read", "Mcp-Name": uri}
				got, exp := post(t, fastURL, version, body, hdr), post(t, sdkURL, version, body, hdr)
				if diff := cmp.Diff(exp, got, cmp.AllowUnexported(rawAnswer{})); diff != "" {
					t.Fatalf("%s id %s %s: fast path differs from the SDK (-sdk +fast):\n%s", version, id, uri, diff)
				}
				want++
			}
		}
	}
	if n := fast.fastHits.Load(); n != want {
		t.Errorf("the fast path answered %d reads, want %d", n, want)
	}
	// Not plain reads: all go to the SDK, and answer as it does.
	before := fast.fastHits.Load()
	u := uris[0]
	for i, c := range []struct{ version, body string }{
		{"2025-11-25", `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"skill://nope/SKILL.md"}}`},
		{"2025-11-25", `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"skill://alpha/../x"}}`},
		{"2025-11-25", `{"jsonrpc":"2.0","id":1.5,"method":"resources/read","params":{"uri":"` + u + `"}}`},
		{"2025-11-25", `{"jsonrpc":"2.0","id":01,"method":"resources/read","params":{"uri":"` + u + `"}}`},
		{"2025-11-25", `{"jsonrpc":"2.0","ID":1,"method":"resources/read","params":{"uri":"` + u + `"}}`},
		{"2025-11-25", `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"` + u + `","_meta":{}}}`},
		{"2025-11-25", `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"` + u + `"},"x":1}`},
		{"2025-11-25", `[{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"` + u + `"}}]`},
		{"2025-11-25", `{"jsonrpc":"2.0","method":"resources/read","params":{"uri":"` + u + `"}}`},
		{"2025-11-25", `{"jsonrpc":"2.0","id":"a\u003cb","method":"resources/read","params":{"uri":"` + u + `"}}`},
		{"2025-11-25", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
		{"1999-01-01", `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"` + u + `"}}`},
		{"2026-07-28", `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"` + u + `"}}`},
		{"2026-07-28", `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"` + u + `"` + meta("2025-11-25") + `}}`},
		{"2026-07-28", `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"` + u + `","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t"},"io.modelcontextprotocol/clientCapabilities":{}}}}`},
		{"2026-07-28", `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"` + u + `","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}}}`},
		{"", `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"` + u + `"}}`},
	} {
		hdr := map[string]string{"Mcp-Method": "resources/read", "Mcp-Name": u}
		got, exp := post(t, fastURL, c.version, c.body, hdr), post(t, sdkURL, c.version, c.body, hdr)
		if diff := cmp.Diff(exp, got, cmp.AllowUnexported(rawAnswer{})); diff != "" {
			t.Errorf("case %d %s: answer differs from the SDK's (-sdk +fast):\n%s", i, c.body, diff)
		}
	}
	ok := `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"` + u + `"` + meta("2026-07-28") + `}}`
	for i, hdr := range []map[string]string{
		nil,
		{"Mcp-Method": "resources/read"},
		{"Mcp-Method": "tools/call", "Mcp-Name": u},
		{"Mcp-Method": "resources/read", "Mcp-Name": u + "x"},
	} {
		got, exp := post(t, fastURL, "2026-07-28", ok, hdr), post(t, sdkURL, "2026-07-28", ok, hdr)
		if diff := cmp.Diff(exp, got, cmp.AllowUnexported(rawAnswer{})); diff != "" {
			t.Errorf("headers %d %v: answer differs from the SDK's (-sdk +fast):\n%s", i, hdr, diff)
		}
	}
	if n := fast.fastHits.Load() - before; n != 0 {
		t.Errorf("the fast path answered %d requests that are not plain reads", n)
	}
}

// TestFastReadForeignHost: a loopback server asked with another Host is
// refused by the SDK's DNS-rebinding check, fast path or not.
func TestFastReadForeignHost(t *testing.T) {
	fast, _, fastURL, _ := fastPair(t)
	var u string
	for u = range fast.snap.Load().files {
		break
	}
	req, _ := http.NewRequest("POST", fastURL, strings.NewReader(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":%q}}`, u)))
	req.Host = "evil.example"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("foreign Host: HTTP %d, want 403", resp.StatusCode)
	}
	if n := fast.fastHits.Load(); n != 0 {
		t.Errorf("the fast path answered %d requests with a foreign Host", n)
	}
}

// TestBigIDs: a numeric id the SDK would not answer with exactly (it reads
// ids as float64: 2^53+1 comes back as 2^53, anything past int64 as
// -2^63, 1.5 as 1), an integer not in plain digits and null are refused
// over HTTP with -32600 and the id as sent, fast path or not, for a read
// and for any other method; the largest id it holds exactly is answered
// with itself.
func TestBigIDs(t *testing.T) {
	fast, _, fastURL, sdkURL := fastPair(t)
	var u string
	for u = range fast.snap.Load().files {
		break
	}
	for _, id := range []string{"123456789012345678901234", "-123456789012345678901234", "9223372036854775807", "9007199254740993", "1.5"} {
		for _, body := range []string{
			`{"jsonrpc":"2.0","id":` + id + `,"method":"resources/read","params":{"uri":"` + u + `"}}`,
			`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`,
		} {
			for _, url := range []string{fastURL, sdkURL} {
				a := post(t, url, "2025-11-25", body, nil)
				want := `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32600,"message":"invalid request: the id ` + id + ` is a number this server cannot answer with exactly (an integer from -2^53 to 2^53, or a string); send it as a string"}}`
				if a.status != http.StatusBadRequest || a.body != want {
					t.Errorf("%s: %d %s\nwant 400 %s", body, a.status, a.body, want)
				}
			}
		}
	}
	if n := fast.fastHits.Load(); n != 0 {
		t.Errorf("the fast path answered %d requests with ids the SDK mangles", n)
	}
	// An integer not in plain digits comes back from the SDK in another
	// spelling (-0 as 0, 1e3 as 1000), and the SDK takes "id": null for a
	// notification (answering 400 in plain text): both are refused as sent.
	for _, tt := range []struct{ id, msg string }{
		{"-0", "the id -0 is an integer not in plain digits, which would come back as 0; send it as 0 or as a string"},
		{"1e3", "the id 1e3 is an integer not in plain digits, which would come back as 1000; send it as 1000 or as a string"},
		{"1.0", "the id 1.0 is an integer not in plain digits, which would come back as 1; send it as 1 or as a string"},
		{"null", "the id null is not allowed in an MCP request (a string or an integer is; a message without an id is a notification)"},
	} {
		for _, body := range []string{
			`{"jsonrpc":"2.0","id":` + tt.id + `,"method":"resources/read","params":{"uri":"` + u + `"}}`,
			`{"jsonrpc":"2.0","id":` + tt.id + `,"method":"ping"}`,
		} {
			for _, url := range []string{fastURL, sdkURL} {
				a := post(t, url, "2025-11-25", body, nil)
				want := `{"jsonrpc":"2.0","id":` + tt.id + `,"error":{"code":-32600,"message":"invalid request: ` + tt.msg + `"}}`
				if a.status != http.StatusBadRequest || a.body != want {
					t.Errorf("%s: %d %s\nwant 400 %s", body, a.status, a.body, want)
				}
			}
		}
	}
	if n := fast.fastHits.Load(); n != 0 {
		t.Errorf("the fast path answered %d requests with ids not in plain digits", n)
	}
	for _, id := range []string{"9007199254740992", "-9007199254740992"} {
		for _, url := range []string{fastURL, sdkURL} {
			a := post(t, url, "2025-11-25", `{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`, nil)
			if a.status != 200 || a.body != `{"jsonrpc":"2.0","id":`+id+`,"result":{}}` {
				t.Errorf("ping id %s: %d %s", id, a.status, a.body)
			}
		}
	}
}
