package mcpserver

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fastPair serves one workspace twice over stateless HTTP: with the read
// fast path and without it.
func fastPair(t *testing.T) (fast, sdk *Server, fastURL, sdkURL string) {
	return fastPairWith(t, nil)
}

// fastPairWith is fastPair with the servers' options.
func fastPairWith(t *testing.T, opts *Options) (fast, sdk *Server, fastURL, sdkURL string) {
	t.Helper()
	ws := newWorkspace(t)
	var o1, o2 Options
	if opts != nil {
		o1, o2 = *opts, *opts
	}
	fast = newServer(t, ws, &o1)
	sdk = newServer(t, ws, &o2)
	sdk.noFastPath = true
	f := httptest.NewServer(fast.Handler(nil))
	t.Cleanup(f.Close)
	g := httptest.NewServer(sdk.Handler(nil))
	t.Cleanup(g.Close)
	return fast, sdk, f.URL + Path, g.URL + Path
}

type rawAnswer struct {
	status  int
	ctype   string
	nocache string
	body    string
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
	return rawAnswer{resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"), string(data)}
}

// TestFastReadIsTheSDKs: for every served file, every protocol version and
// every id shape, the fast path answers resources/read with the bytes the
// SDK writes, and requests that are not plain reads get the SDK's own
// answer.
func TestFastReadIsTheSDKs(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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

// fastMeta is the _meta of a 2026-07-28 request.
func fastMeta(v string) string {
	return `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + v + `","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
}

// fastBody is a request of method with the members of params (without
// braces) and, on 2026-07-28, the _meta.
func fastBody(version, id, method, params string) string {
	if version >= "2026" {
		if params != "" {
			params += ","
		}
		params += fastMeta(version)
	}
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `","params":{` + params + `}}`
}

// TestFastPathIsTheSDKs: for every protocol version and id shape, every
// page of skills/list (pages of 2 and the default 100, the first page
// asked with no cursor and with "") and a tools/call of the load tool for
// every served skill (a hidden one's refusal included) get from the fast
// path the status, headers and bytes the SDK gives; requests that are not
// exactly those get the SDK's own answer.
func TestFastPathIsTheSDKs(t *testing.T) {
	t.Parallel()
	for _, pageSize := range []int{2, 0} {
		fast, _, fastURL, sdkURL := fastPairWith(t, &Options{PageSize: pageSize, Tool: ToolAlways})
		sn := fast.snap.Load()
		if sn.tool == nil || len(sn.byName) < 5 {
			t.Fatalf("no tool or only %d skills", len(sn.byName))
		}
		tool := sn.tool.Name
		same := func(version, body string, hdr map[string]string) rawAnswer {
			t.Helper()
			got, exp := post(t, fastURL, version, body, hdr), post(t, sdkURL, version, body, hdr)
			if diff := cmp.Diff(exp, got, cmp.AllowUnexported(rawAnswer{})); diff != "" {
				t.Fatalf("page size %d, %s %s: fast path differs from the SDK (-sdk +fast):\n%s", pageSize, version, body, diff)
			}
			return got
		}
		want := int64(0)
		for _, version := range []string{"2025-06-18", "2025-11-25", "2026-07-28"} {
			for _, id := range []string{"1", "42", `"abc"`, "-7", "9007199254740992"} {
				listHdr := map[string]string{"Mcp-Method": "skills/list"}
				pages := 0
				for _, first := range []string{"", `"cursor":""`} {
					params := first
					for {
						a := same(version, fastBody(version, id, "skills/list", params), listHdr)
						want++
						pages++
						var page struct {
							Result struct {
								Skills     []json.RawMessage `json:"skills"`
								NextCursor string            `json:"nextCursor"`
							} `json:"result"`
						}
						if err := json.Unmarshal([]byte(a.body), &page); err != nil || len(page.Result.Skills) == 0 {
							t.Fatalf("skills/list: %v %s", err, a.body)
						}
						if page.Result.NextCursor == "" {
							break
						}
						params = `"cursor":"` + page.Result.NextCursor + `"`
					}
				}
				if pageSize == 2 && pages < 4 {
					t.Fatalf("only %d pages of 2", pages)
				}
				for name := range sn.byName {
					hdr := map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": tool}
					same(version, fastBody(version, id, "tools/call", `"name":"`+tool+`","arguments":{"name":"`+name+`"}`), hdr)
					// Twice: the second from what the first kept.
					same(version, fastBody(version, id, "tools/call", `"arguments":{"name":"`+name+`"},"name":"`+tool+`"`), hdr)
					want += 2
				}
			}
		}
		if n := fast.fastHits.Load(); n != want {
			t.Errorf("page size %d: the fast path answered %d requests, want %d", pageSize, n, want)
		}
		// Not exactly such requests: all go to the SDK.
		before := fast.fastHits.Load()
		call := func(args string) string {
			return `"name":"` + tool + `","arguments":` + args
		}
		v := "2026-07-28"
		callHdr := map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": tool}
		listHdr := map[string]string{"Mcp-Method": "skills/list"}
		for i, c := range []struct {
			version, body string
			hdr           map[string]string
		}{
			{v, fastBody(v, "1", "tools/call", call(`{"name":"nope"}`)), callHdr},
			{v, fastBody(v, "1", "tools/call", call(`{"name":" alpha"}`)), callHdr},
			{v, fastBody(v, "1", "tools/call", call(`{"name":"\u0061lpha"}`)), callHdr},
			{v, fastBody(v, "1", "tools/call", call(`{"name":"alpha","path":"references/guide.md"}`)), callHdr},
			{v, fastBody(v, "1", "tools/call", call(`{"name":"alpha","name":"beta"}`)), callHdr},
			{v, fastBody(v, "1", "tools/call", call(`{"query":"files"}`)), callHdr},
			{v, fastBody(v, "1", "tools/call", call(`{}`)), callHdr},
			{v, fastBody(v, "1", "tools/call", call(`["alpha"]`)), callHdr},
			{v, fastBody(v, "1", "tools/call", call(`{"name":"alpha"}`)), map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "other"}},
			{v, fastBody(v, "1", "tools/call", call(`{"name":"alpha"}`)), map[string]string{"Mcp-Method": "skills/list"}},
			{v, fastBody(v, "1", "tools/call", `"name":"other","arguments":{"name":"alpha"}`), map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": "other"}},
			{v, fastBody(v, "1", "tools/call", call(`{"name":"alpha"}`)+`,"extra":1`), callHdr},
			{v, fastBody(v, "1.5", "tools/call", call(`{"name":"alpha"}`)), callHdr},
			{v, `{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","params":{` + call(`{"name":"alpha"}`) + `,` + fastMeta(v) + `}}`, callHdr},
			{v, `[` + fastBody(v, "1", "tools/call", call(`{"name":"alpha"}`)) + `]`, callHdr},
			{v, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{` + call(`{"name":"alpha"}`) + `}}`, callHdr},
			{"2025-11-25", fastBody("2025-11-25", "1", "tools/call", call(`{"name":"alpha"}`)+`,`+fastMeta(v)), nil},
			{v, fastBody(v, "1", "skills/list", `"cursor":"nope"`), listHdr},
			{v, fastBody(v, "1", "skills/list", `"cursor":1`), listHdr},
			{v, fastBody(v, "1", "skills/list", `"limit":1`), listHdr},
			{v, fastBody(v, "1", "skills/list", ""), map[string]string{"Mcp-Method": "skills/list", "Mcp-Name": "x"}},
			{v, fastBody(v, "1", "skills/list", ""), nil},
			{v, fastBody("2025-11-25", "1", "skills/list", ""), listHdr},
			{"2025-11-25", `{"jsonrpc":"2.0","id":1,"method":"skills/list"}`, nil},
			{"2025-11-25", `{"jsonrpc":"2.0","id":1,"method":"skills/list","params":null}`, nil},
			{"2025-11-25", `{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{},"Params":{}}`, nil},
			{"2025-11-25", `{"jsonrpc":"2.0","id":1,"method":"skills\/list","params":{}}`, nil},
			{"2025-11-25", `{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{"_meta":{}}}`, nil},
			{"", `{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{}}`, nil},
		} {
			hits := fast.fastHits.Load()
			got, exp := post(t, fastURL, c.version, c.body, c.hdr), post(t, sdkURL, c.version, c.body, c.hdr)
			if diff := cmp.Diff(exp, got, cmp.AllowUnexported(rawAnswer{})); diff != "" {
				t.Errorf("case %d %s: answer differs from the SDK's (-sdk +fast):\n%s", i, c.body, diff)
			}
			if fast.fastHits.Load() != hits {
				t.Errorf("case %d %s: answered by the fast path", i, c.body)
			}
		}
		if n := fast.fastHits.Load() - before; n != 0 {
			t.Errorf("the fast path answered %d requests that are not exactly its own", n)
		}
		// A cursor of this server's making that starts a page anywhere
		// (skill://b sorts between alpha and beta) is answered as the
		// SDK answers it, and the page is not kept.
		kept := sn.encodedBytes.Load()
		same(v, fastBody(v, "1", "skills/list", `"cursor":"`+encodeCursor("skill://b")+`"`), listHdr)
		if fast.fastHits.Load() != before+1 {
			t.Error("a page at a cursor of the server's own making was not answered by the fast path")
		}
		if pageSize == 2 && sn.encodedBytes.Load() != kept {
			t.Error("a page that does not start at a multiple of the page size was kept")
		}
	}
}

// TestObjectMembers: the members of an object as written, in order; not
// an object, too many members, a name with an escape or given twice fail.
func TestObjectMembers(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want []member
		ok   bool
	}{
		{`{}`, []member{}, true},
		{` { "a" : 1 , "b":{"c":[1,"}"]} } `, []member{{[]byte("a"), []byte("1")}, {[]byte("b"), []byte(`{"c":[1,"}"]}`)}}, true},
		{`{"a":"x\"y"}`, []member{{[]byte("a"), []byte(`"x\"y"`)}}, true},
		{`{"a":1,"b":2,"c":3}`, nil, false}, // over the cap of 2
		{`{"a":1,"a":2}`, nil, false},
		{`{"\u0061":1}`, nil, false},
		{`[1]`, nil, false},
		{`"a"`, nil, false},
		{`{"a":1}x`, nil, false},
	} {
		var buf [2]member
		got, ok := objectMembers([]byte(tt.in), buf[:0])
		if ok != tt.ok || ok && !cmp.Equal(got, tt.want, cmp.AllowUnexported(member{})) {
			t.Errorf("objectMembers(%s) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// FuzzObjectMembers: whenever the member scanner splits a JSON object, it
// finds what encoding/json finds: as many members as names (none given
// twice), each with the value as written, and a plain string reads as
// encoding/json reads it.
func FuzzObjectMembers(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"a":1}`, `{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{"cursor":"x"}}`,
		`{"a":1,"a":2}`, `{"a":{"b":[1,2,{"c":"}"}]},"d":"\u00e9"}`, ` {"a" : "x\"y" } `, `{"A":1,"a":2}`, `[1]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		var buf [8]member
		ms, ok := objectMembers(data, buf[:0])
		if !ok {
			return
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("the scanner split %q, which encoding/json does not decode as an object: %v", data, err)
		}
		if len(m) != len(ms) {
			t.Fatalf("%q: %d members, encoding/json finds %d", data, len(ms), len(m))
		}
		for _, mb := range ms {
			if string(m[string(mb.name)]) != string(mb.value) {
				t.Fatalf("%q: member %q is %s, encoding/json finds %s", data, mb.name, mb.value, m[string(mb.name)])
			}
			if s, ok := plainString(mb.value); ok {
				var want string
				if err := json.Unmarshal(mb.value, &want); err != nil || want != string(s) {
					t.Fatalf("%q: plain string %q, encoding/json reads %q (%v)", data, s, want, err)
				}
			}
		}
	})
}

// TestFastPathMetaIsTheSDKs: a 2026-07-28 request's _meta that the SDK
// refuses (a clientInfo or client capabilities member of another type, a
// number it cannot hold, nesting past its depth limit) gets the SDK's
// refusal, not a fast answer; the capabilities real clients send are
// still answered by the fast path, as the SDK answers them.
func TestFastPathMetaIsTheSDKs(t *testing.T) {
	t.Parallel()
	fast, _, fastURL, sdkURL := fastPairWith(t, &Options{Tool: ToolAlways})
	tool := fast.snap.Load().tool.Name
	const v = "2026-07-28"
	info := `{"name":"t","version":"1"}`
	deep := strings.Repeat("[", 1001) + strings.Repeat("]", 1001)
	deepObj := strings.Repeat(`{"a":`, 1001) + "1" + strings.Repeat("}", 1001)
	for i, c := range []struct {
		info, caps string
		fast       bool // answered by the fast path
	}{
		{info, `{}`, true},
		{`{"name":"t","version":"1","title":"T","description":"d","websiteUrl":"https://example.com"}`, `{}`, true},
		{info, `{"roots":{"listChanged":true},"sampling":{"context":{},"tools":{}},"elicitation":{"form":{},"url":{}},"extensions":{"io.modelcontextprotocol/skills":{}},"experimental":{"x":{"y":"z","on":false}}}`, true},
		{info, `{"Roots":{}}`, true},
		{`{"name":"t","version":"1","title":5}`, `{}`, false},
		{`{"name":"t","version":"1","icons":"x"}`, `{}`, false},
		{`{"name":"t","version":"1","x":` + deep + `}`, `{}`, false},
		{info, `{"roots":5}`, false},
		{info, `{"roots":{"listChanged":"yes"}}`, false},
		{info, `{"sampling":"x"}`, false},
		{info, `{"sampling":{"context":1}}`, false},
		{info, `{"sampling":{"context":true}}`, false},
		{info, `{"sampling":{"tools":"x"}}`, false},
		{info, `{"elicitation":{"url":false}}`, false},
		{info, `{"sampling":{"other":true},"elicitation":{"other":"x"},"roots":{"other":{}}}`, true},
		{info, `{"elicitation":{"form":[]}}`, false},
		{info, `{"experimental":[]}`, false},
		{info, `{"extensions":true}`, false},
		{info, `{"x":1e400}`, false},
		{info, `{"x":` + deep + `}`, false},
		{info, `{"x":` + deepObj + `}`, false},
	} {
		meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + v + `","io.modelcontextprotocol/clientInfo":` + c.info + `,"io.modelcontextprotocol/clientCapabilities":` + c.caps + `}`
		for _, r := range []struct {
			method, params string
			hdr            map[string]string
		}{
			{"resources/read", `"uri":"skill://alpha/SKILL.md",`, map[string]string{"Mcp-Method": "resources/read", "Mcp-Name": "skill://alpha/SKILL.md"}},
			{"skills/list", ``, map[string]string{"Mcp-Method": "skills/list"}},
			{"tools/call", `"name":"` + tool + `","arguments":{"name":"alpha"},`, map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": tool}},
		} {
			body := `{"jsonrpc":"2.0","id":1,"method":"` + r.method + `","params":{` + r.params + meta + `}}`
			hits := fast.fastHits.Load()
			got, exp := post(t, fastURL, v, body, r.hdr), post(t, sdkURL, v, body, r.hdr)
			if diff := cmp.Diff(exp, got, cmp.AllowUnexported(rawAnswer{})); diff != "" {
				t.Errorf("case %d %s: answer differs from the SDK's (-sdk +fast):\n%s", i, r.method, diff)
			}
			if answered := fast.fastHits.Load() != hits; answered != c.fast {
				t.Errorf("case %d %s: answered by the fast path %v, want %v", i, r.method, answered, c.fast)
			}
		}
	}
}

// wireAnswer sends a raw HTTP/1.1 request to addr and returns the bytes
// of the answer as they arrive, the Date header taken out.
func wireAnswer(t *testing.T, addr, req string) string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(c)
	if err != nil {
		t.Fatal(err)
	}
	return regexp.MustCompile(`(?m)^Date: [^\r]*\r\n`).ReplaceAllString(string(data), "")
}

// TestFastPathWireIsTheSDKs: answers past net/http's buffer (2 KiB) and
// past one write deadline's share (64 KiB), a file read and a tool's
// answer, and text with HTML characters (<, >, &, which the SDK writes as
// \u003c, \u003e, \u0026 in a file's text), read twice (encoded, then
// kept), go out on the wire as the SDK's do on every protocol: the same
// status line, headers (chunked, no Content-Length of the fast path's
// own), chunk framing and bytes; small ones too. Both through Handler on
// a server of the caller's, where the guard writes each 64 KiB of an
// answer apart (a chunk each), and through Serve, whose connections are
// paced (paceConn), where an answer goes out in one chunk.
func TestFastPathWireIsTheSDKs(t *testing.T) {
	t.Parallel()
	ws := newWorkspace(t)
	writeTree(t, ws, map[string]string{
		"skills/big/SKILL.md":           "---\nname: big\ndescription: Big <b> & bold.\n---\n" + strings.Repeat("a line of text <&> \u00e9 \u2028\n", 400),
		"skills/big/references/huge.md": strings.Repeat("ninety bytes of text, then a newline, repeated; more than 64 KiB in all, in one file ....\n", 1000),
		"skills/big/references/html.md": "<script>alert(1)</script> & more\n",
		"skills/amp/SKILL.md":           "---\nname: amp\ndescription: Use for A & B, <x> and >y.\n---\nBody & <body>.\n",
	})
	for _, serve := range []bool{false, true} {
		fast := newServer(t, ws, &Options{Tool: ToolAlways})
		sdk := newServer(t, ws, &Options{Tool: ToolAlways})
		sdk.noFastPath = true
		var fu, gu string
		if serve {
			fu = strings.TrimSuffix(strings.TrimPrefix(serveHTTP(t, fast, nil), "http://"), Path)
			gu = strings.TrimSuffix(strings.TrimPrefix(serveHTTP(t, sdk, nil), "http://"), Path)
		} else {
			f := httptest.NewServer(fast.Handler(nil))
			defer f.Close()
			g := httptest.NewServer(sdk.Handler(nil))
			defer g.Close()
			fu, gu = strings.TrimPrefix(f.URL, "http://"), strings.TrimPrefix(g.URL, "http://")
		}
		checkFastWire(t, fast, fu, gu, serve)
	}
}

// checkFastWire is TestFastPathWireIsTheSDKs for the fast server at fu
// and the SDK's at gu; paced says Serve serves them, so an answer over
// 64 KiB is one chunk, else one a 64 KiB.
func checkFastWire(t *testing.T, fast *Server, fu, gu string, paced bool) {
	t.Helper()
	tool := fast.snap.Load().tool.Name
	big := 0
	defer func() {
		if big == 0 {
			t.Errorf("no answer over %d bytes", writeChunk)
		}
	}()
	for _, version := range []string{"2025-06-18", "2025-11-25", "2026-07-28"} {
		for _, c := range []struct{ method, params, name string }{
			{"resources/read", `"uri":"skill://alpha/references/guide.md"`, "skill://alpha/references/guide.md"},
			{"resources/read", `"uri":"skill://big/SKILL.md"`, "skill://big/SKILL.md"},
			{"resources/read", `"uri":"skill://big/references/huge.md"`, "skill://big/references/huge.md"},
			{"resources/read", `"uri":"skill://big/references/html.md"`, "skill://big/references/html.md"},
			{"resources/read", `"uri":"skill://amp/SKILL.md"`, "skill://amp/SKILL.md"},
			{"tools/call", `"name":"` + tool + `","arguments":{"name":"big"}`, tool},
			{"tools/call", `"name":"` + tool + `","arguments":{"name":"amp"}`, tool},
			{"skills/list", ``, ""},
		} {
			body := fastBody(version, "1", c.method, c.params)
			hdr := "Mcp-Method: " + c.method + "\r\n"
			if c.name != "" {
				hdr += "Mcp-Name: " + c.name + "\r\n"
			}
			req := func(host string) string {
				return "POST /mcp HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Protocol-Version: " + version + "\r\n" + hdr + "Connection: close\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
			}
			for range 2 {
				hits := fast.fastHits.Load()
				got, exp := wireAnswer(t, fu, req(fu)), wireAnswer(t, gu, req(gu))
				if got != exp {
					t.Errorf("%s %s: the fast path's answer on the wire differs from the SDK's (-sdk +fast):\n%s", version, body, cmp.Diff(exp, got))
				}
				if fast.fastHits.Load() == hits {
					t.Errorf("%s %s: not answered by the fast path", version, body)
				}
				if sizes := chunkSizes(got); sumInts(sizes) > writeChunk {
					big++
					if (len(sizes) == 1) != paced {
						t.Errorf("%s %s: paced %v, the answer's chunks %v", version, body, paced, sizes)
					}
				}
			}
		}
	}
}

func sumInts(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// chunkSizes returns the sizes of the data chunks of an HTTP/1.1 answer
// as it came over the wire, nil when it is not chunked.
func chunkSizes(wire string) []int {
	head, body, ok := strings.Cut(wire, "\r\n\r\n")
	if !ok || !strings.Contains(head, "Transfer-Encoding: chunked") {
		return nil
	}
	var sizes []int
	for {
		line, rest, ok := strings.Cut(body, "\r\n")
		n, err := strconv.ParseInt(line, 16, 64)
		if !ok || err != nil || n == 0 || int(n) > len(rest) {
			return sizes
		}
		sizes = append(sizes, int(n))
		body = strings.TrimPrefix(rest[n:], "\r\n")
	}
}

// TestFastPathServerInfoIsTheSDKs: a server named with HTML characters (an
// embedding program's Options.Name and Version) gets on 2026-07-28 the
// serverInfo the SDK writes in each of the three answers (escaped in a
// read, as mcp.ReadResourceResult's MarshalJSON writes it).
func TestFastPathServerInfoIsTheSDKs(t *testing.T) {
	t.Parallel()
	fast, _, fastURL, sdkURL := fastPairWith(t, &Options{Tool: ToolAlways, Name: "Acme <tools> & co", Version: "1.0 \u2028 é"})
	tool := fast.snap.Load().tool.Name
	const v = "2026-07-28"
	for _, c := range []struct {
		method, params string
		hdr            map[string]string
	}{
		{"resources/read", `"uri":"skill://alpha/SKILL.md"`, map[string]string{"Mcp-Method": "resources/read", "Mcp-Name": "skill://alpha/SKILL.md"}},
		{"skills/list", ``, map[string]string{"Mcp-Method": "skills/list"}},
		{"tools/call", `"name":"` + tool + `","arguments":{"name":"alpha"}`, map[string]string{"Mcp-Method": "tools/call", "Mcp-Name": tool}},
	} {
		body := fastBody(v, "1", c.method, c.params)
		hits := fast.fastHits.Load()
		got, exp := post(t, fastURL, v, body, c.hdr), post(t, sdkURL, v, body, c.hdr)
		if diff := cmp.Diff(exp, got, cmp.AllowUnexported(rawAnswer{})); diff != "" {
			t.Errorf("%s: answer differs from the SDK's (-sdk +fast):\n%s", c.method, diff)
		}
		if fast.fastHits.Load() == hits {
			t.Errorf("%s: not answered by the fast path", c.method)
		}
	}
}

// FuzzFastMetaIsTheSDKs: for any client capabilities and clientInfo in a
// 2026-07-28 read's _meta, the fast path's answer (or its declining) is
// the SDK's: the same status, headers and bytes from the two handlers.
func FuzzFastMetaIsTheSDKs(f *testing.F) {
	for _, s := range [][2]string{
		{`{"name":"t","version":"1"}`, `{}`},
		{`{"name":"t","version":"1","title":5}`, `{"roots":{"listChanged":true},"sampling":{"context":{}},"elicitation":{"form":{}},"extensions":{"io.modelcontextprotocol/skills":{}}}`},
		{`{"name":"t","version":"1","icons":[]}`, `{"roots":5,"experimental":{"a":[1,null]}}`},
		{`{"name":"t","version":"1","websiteUrl":"x"}`, `{"x":1e400,"Roots":"y"}`},
	} {
		f.Add(s[0], s[1])
	}
	fh, sh := fuzzPair(f)
	hdr := map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "resources/read", "Mcp-Name": "skill://alpha/SKILL.md"}
	answer := func(h http.Handler, body string) string { return recorded(h, body, hdr) }
	f.Fuzz(func(t *testing.T, info, caps string) {
		if !json.Valid([]byte(info)) || !json.Valid([]byte(caps)) {
			return
		}
		body := `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"skill://alpha/SKILL.md","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":` + info + `,"io.modelcontextprotocol/clientCapabilities":` + caps + `}}}`
		if got, exp := answer(fh, body), answer(sh, body); got != exp {
			t.Fatalf("clientInfo %s, capabilities %s: the fast path answers\n%s\nthe SDK\n%s", info, caps, got, exp)
		}
	})
}

// TestFastInitIsTheSDKs: a plain initialize of every protocol version
// asked for (known, unknown), with and without the Skills Extension,
// every tool mode and id shape, and clients of different names, gets the
// bytes the SDK writes, before and after a reload changes the
// instructions; the fast path answers all but the first of each kind per
// snapshot, and requests that are not plain go to the SDK.
func TestFastInitIsTheSDKs(t *testing.T) {
	t.Parallel()
	for _, tool := range []ToolMode{ToolAuto, ToolAlways, ToolNever} {
		t.Run(string(tool), func(t *testing.T) {
			ws := newWorkspace(t)
			fast, sdk := newServer(t, ws, &Options{Tool: tool}), newServer(t, ws, &Options{Tool: tool})
			sdk.noFastPath = true
			f := httptest.NewServer(fast.Handler(nil))
			t.Cleanup(f.Close)
			g := httptest.NewServer(sdk.Handler(nil))
			t.Cleanup(g.Close)
			asked := 0
			round := func() {
				for _, version := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "1999-01-01"} {
					for _, caps := range []string{`{}`, `{"roots":{"listChanged":true}}`, `{"extensions":{"io.modelcontextprotocol/skills":{}}}`, `{"extensions":{"other":{}},"sampling":{}}`} {
						for _, id := range []string{"1", `"a-b"`, "-9007199254740992"} {
							for _, client := range []string{`{"name":"x","version":"1"}`, `{"name":"inspector","version":"0.9","title":"Inspector"}`} {
								body := `{"jsonrpc":"2.0","id":` + id + `,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":` + caps + `,"clientInfo":` + client + `}}`
								got, exp := post(t, f.URL+Path, "", body, nil), post(t, g.URL+Path, "", body, nil)
								if diff := cmp.Diff(exp, got, cmp.AllowUnexported(rawAnswer{})); diff != "" {
									t.Fatalf("%s %s id %s: fast path differs from the SDK (-sdk +fast):\n%s", version, caps, id, diff)
								}
								asked++
							}
						}
					}
				}
			}
			round()
			// Three of the four capabilities are one kind (no extension) and
			// the extension's is the other: each version's first initialize
			// of a kind went to the SDK.
			perRound := asked
			firsts := 6 * 2
			if n := fast.fastHits.Load(); n != int64(perRound-firsts) {
				t.Errorf("the fast path answered %d of %d initialize requests, want %d", n, perRound, perRound-firsts)
			}
			// A new skill changes the instructions: both servers reload,
			// and the fast path's answers follow the new snapshot.
			writeTree(t, ws, map[string]string{"skills/zeta/SKILL.md": "---\nname: zeta\ndescription: The skill a reload adds.\n---\nBody.\n"})
			for _, s := range []*Server{fast, sdk} {
				if changed, err := s.Reload(t.Context()); err != nil || !changed {
					t.Fatalf("reload: changed %v, %v", changed, err)
				}
			}
			before := fast.fastHits.Load()
			round()
			if n := fast.fastHits.Load() - before; n != int64(perRound-firsts) {
				t.Errorf("after the reload the fast path answered %d, want %d", n, perRound-firsts)
			}
		})
	}
	// Not plain: the SDK answers, as it would.
	fast, _, fastURL, sdkURL := fastPair(t)
	before := fast.fastHits.Load()
	for _, c := range []struct{ version, body string }{
		{"", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}`},
		{"", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"},"_meta":{}}}`},
		{"", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":1}},"clientInfo":{"name":"x","version":"1"}}}`},
		{"", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":2025,"capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`},
		{"", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"","version":"1"}}}`},
		{"2025-11-25", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`},
		{"", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}`},
	} {
		for range 2 {
			got, exp := post(t, fastURL, c.version, c.body, nil), post(t, sdkURL, c.version, c.body, nil)
			if diff := cmp.Diff(exp, got, cmp.AllowUnexported(rawAnswer{})); diff != "" {
				t.Errorf("%s: differs from the SDK (-sdk +fast):\n%s", c.body, diff)
			}
		}
	}
	if n := fast.fastHits.Load() - before; n != 0 {
		t.Errorf("the fast path answered %d requests that are not plain initialize", n)
	}
}

// TestFastInitKindsBounded: a client asking for a new protocol version in
// each initialize gets the SDK's answer each time once maxInitKinds kinds
// are kept, and no more are kept.
func TestFastInitKindsBounded(t *testing.T) {
	t.Parallel()
	fast, _, fastURL, sdkURL := fastPair(t)
	for i := range 3 * maxInitKinds {
		body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"v` + strconv.Itoa(i) + `","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
		got, exp := post(t, fastURL, "", body, nil), post(t, sdkURL, "", body, nil)
		if diff := cmp.Diff(exp, got, cmp.AllowUnexported(rawAnswer{})); diff != "" {
			t.Fatalf("version v%d: differs from the SDK (-sdk +fast):\n%s", i, diff)
		}
	}
	inits := &fast.fast(fast.snap.Load()).inits
	if n := len(inits.m); n != maxInitKinds {
		t.Errorf("%d initialize results kept, want %d", n, maxInitKinds)
	}
}

// FuzzFastInitIsTheSDKs sends an initialize of any protocol version,
// clientInfo and capabilities to the fast and the SDK-only handler, twice
// to the fast one (the second answer may come from a result kept for an
// earlier input of the same kind), and requires the same status, headers
// and bytes each time.
func FuzzFastInitIsTheSDKs(f *testing.F) {
	for _, s := range [][3]string{
		{"2025-11-25", `{"name":"t","version":"1"}`, `{}`},
		{"2025-06-18", `{"name":"t","version":"1","title":"T"}`, `{"roots":{"listChanged":true},"sampling":{"context":{}},"elicitation":{"form":{}},"extensions":{"io.modelcontextprotocol/skills":{}}}`},
		{"2025-11-25", `{"name":"t","version":"1","icons":[]}`, `{"roots":5,"experimental":{"a":[1,null]}}`},
		{"x", `{"name":"t","version":"1","websiteUrl":"x"}`, `{"extensions":{"io.modelcontextprotocol/skills":1}}`},
		{"2024-11-05", `{"name":"t","version":"1"}`, `{"extensions":{"io.modelcontextprotocol/skills":{},"io.modelcontextprotocol/skills":{}}}`},
	} {
		f.Add(s[0], s[1], s[2])
	}
	fh, sh := fuzzPair(f)
	answer := func(h http.Handler, body string) string { return recorded(h, body, nil) }
	f.Fuzz(func(t *testing.T, version, info, caps string) {
		if !json.Valid([]byte(info)) || !json.Valid([]byte(caps)) {
			return
		}
		v, err := json.Marshal(version)
		if err != nil {
			return
		}
		body := `{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":` + string(v) + `,"capabilities":` + caps + `,"clientInfo":` + info + `}}`
		exp := answer(sh, body)
		for i := range 2 {
			if got := answer(fh, body); got != exp {
				t.Fatalf("answer %d to version %q, clientInfo %s, capabilities %s: the fast path answers\n%s\nthe SDK\n%s", i+1, version, info, caps, got, exp)
			}
		}
	})
}

// fuzzPair serves one workspace twice in process: with the fast path and
// without it.
func fuzzPair(f *testing.F) (fast, sdk http.Handler) {
	ws := newWorkspace(f)
	fs := newServer(f, ws, nil)
	ss := newServer(f, ws, nil)
	ss.noFastPath = true
	return fs.Handler(nil), ss.Handler(nil)
}

// recorded is h's answer to a POST of body to the MCP path with the
// headers a client sends and hdr: its status, headers and bytes.
func recorded(h http.Handler, body string, hdr map[string]string) string {
	req := httptest.NewRequest("POST", "http://localhost"+Path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return fmt.Sprint(rec.Code, rec.Header(), rec.Body.String())
}

// TestHeaderKeysCanonical requires every key the package reads with
// header to be in canonical form, as header does not put it there.
func TestHeaderKeysCanonical(t *testing.T) {
	t.Parallel()
	call := regexp.MustCompile(`\bheader\([^,()]+, "([^"]*)"\)`)
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range call.FindAllSubmatch(data, -1) {
			n++
			if k := string(m[1]); textproto.CanonicalMIMEHeaderKey(k) != k {
				t.Errorf("%s: header key %q is not canonical (%q)", f, k, textproto.CanonicalMIMEHeaderKey(k))
			}
		}
	}
	if n == 0 {
		t.Fatal("no header calls found")
	}
}

// FuzzAnyBodyIsTheSDKs sends any body, JSON or not, with the headers of
// each method the fast path answers, to a server with the fast path and
// one without, and requires the same answer: a small body the fast path
// answers before encoding/json.Valid has read it (parseErrors) must be
// one the SDK answers alike, and anything else must reach the same
// refusal.
func FuzzAnyBodyIsTheSDKs(f *testing.F) {
	ws := newWorkspace(f)
	fs, ss := newServer(f, ws, nil), newServer(f, ws, nil)
	ss.noFastPath = true
	fh, sh := fs.Handler(nil), ss.Handler(nil)
	tool := fs.tool.Name()
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"b","version":"1"},"io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}}}`
	kinds := []map[string]string{
		{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "resources/read", "Mcp-Name": "skill://alpha/SKILL.md"},
		{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "skills/list"},
		{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": tool},
		{},
	}
	for _, s := range []struct {
		kind uint8
		body string
	}{
		{0, `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"skill://alpha/SKILL.md",` + meta + `}}`},
		{0, `{"jsonrpc":"2.0","id":"a","method":"resources/read","params":{"uri":"skill://alpha/SKILL.md\u0001",` + meta + `}}`},
		{0, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":\"skill://alpha/SKILL.md\x01\"," + meta + "}}"},
		{1, `{"jsonrpc":"2.0","id":7,"method":"skills/list","params":{` + meta + `}}`},
		{1, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"skills/list\",\"params\":{" + strings.Replace(meta, `"version":"1"`, "\"version\":\"1\x01\"", 1) + "}}"},
		{1, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"skills/list\",\"params\":{" + strings.Replace(meta, `"roots"`, "\"ro\x1fots\"", 1) + "}}"},
		{1, `{"jsonrpc":"2.0","id":7,"method":"skills/list","params":{"cursor":tru,` + meta + `}}`},
		{2, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"` + tool + `","arguments":{"name":"alpha"},` + meta + `}}`},
		{2, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"` + tool + `","arguments":{"name":"alpha"},` + meta + `}} x`},
		{3, `{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`},
		{3, `[{"jsonrpc":"2.0","id":3,"method":"initialize"}]`},
	} {
		f.Add(s.kind, []byte(s.body))
	}
	f.Fuzz(func(t *testing.T, kind uint8, body []byte) {
		hdr := kinds[int(kind)%len(kinds)]
		// Twice: the second initialize of a kind is the fast path's.
		for range 2 {
			if got, want := recorded(fh, string(body), hdr), recorded(sh, string(body), hdr); got != want {
				t.Fatalf("%q with %v: the fast path answers\n%s\nthe SDK\n%s", body, hdr, got, want)
			}
		}
	})
}
