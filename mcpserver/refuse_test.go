package mcpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestRefuseCheaply: oversized ids, methods and URIs, their names spelled
// as the SDK's decoder reads them (escapes, not another letter case), and
// batches on a protocol without them are refused by the server itself;
// requests within the bounds, members the SDK does not read as id or uri,
// and a batch on 2025-03-26, go on to the SDK as before.
func TestRefuseCheaply(t *testing.T) {
	t.Parallel()
	s := newServer(t, newWorkspace(t), nil)
	endpoint := serveHTTP(t, s, nil)
	big := func(n int) string { return strings.Repeat("a", n) }
	read := func(id, uriName, uri string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"resources/read","params":{"` + uriName + `":"` + uri + `"}}`
	}
	for _, tt := range []struct {
		name, version, body string
		status              int
		want                string // in the answer
	}{
		{"uri at the bound", "2025-11-25", read("1", "uri", "skill://"+big(maxURIBytes-10)), 200, `"code":-32602,"message":"no skill`},
		{"uri over the bound", "2025-11-25", read("1", "uri", "skill://"+big(maxURIBytes)), 400, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"the uri is 16394 bytes; at most 16384`},
		{"URI in capitals is not uri", "2025-11-25", read("7", "URI", "skill://"+big(1<<20)), 200, `"id":7,"error":{"code":-32602,"message":"invalid skill URI \"\"`},
		{"uri escaped", "2025-11-25", read(`"x"`, `\u0075ri`, "skill://"+big(1<<20)), 400, `"id":"x","error":{"code":-32602`},
		{"id over the bound", "2025-11-25", read(`"`+big(maxIDBytes)+`"`, "uri", "skill://alpha/SKILL.md"), 400, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: the id is 1026 bytes; at most 1024"}}`},
		{"Id in another case is not id", "2025-11-25", `{"jsonrpc":"2.0","Id":"` + big(1<<20) + `","method":"ping"}`, 400, `invalid request: missing id for "ping"`},
		{"id at the bound", "2025-11-25", read(`"`+big(maxIDBytes-2)+`"`, "uri", "skill://alpha/SKILL.md"), 200, `"contents"`},
		{"method over the bound", "2025-11-25", `{"jsonrpc":"2.0","id":3,"method":"` + big(maxMethodBytes) + `"}`, 400, `"id":3,"error":{"code":-32600,"message":"invalid request: the method is 1026 bytes`},
		{"batch", "2025-11-25", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, 400, "JSON-RPC batching is not supported in 2025-06-18 and later (request version: 2025-11-25)"},
		{"a long name that is not uri", "2025-11-25", read("1", big(1<<20), "x"), 200, `"error"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", endpoint, strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", tt.version)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.status || !strings.Contains(string(b), tt.want) {
				t.Errorf("HTTP %d %.300s\nwant %d with %q", resp.StatusCode, b, tt.status, tt.want)
			}
		})
	}
}

// TestRefuseCheaplyStdio: over stdio, oversized ids, methods and URIs are
// refused from the line as read, with the same answers as over HTTP (the
// SDK, which decodes copies first, says nothing of sizes), and the
// session goes on; a URI within its bound, a "URI" member (which the
// SDK does not read as uri), a line that is not JSON and a ping reach
// their usual answers.
func TestRefuseCheaplyStdio(t *testing.T) {
	t.Parallel()
	s := newServer(t, newWorkspace(t), nil)
	big := func(n int) string { return strings.Repeat("a", n) }
	read := func(id, uriName, uri string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"resources/read","params":{"` + uriName + `":"` + uri + `"}}`
	}
	cases := []struct{ line, want string }{
		{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, `"id":1,"result"`},
		{read("2", "uri", "skill://"+big(maxURIBytes)), `{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"the uri is 16394 bytes; at most 16384`},
		{read("3", "URI", "skill://"+big(1<<20)), `"id":3,"error":{"code":-32602,"message":"invalid skill URI \"\"`},
		{read("7", `\u0075ri`, "skill://"+big(1<<20)), `"id":7,"error":{"code":-32602,"message":"the uri is 1048586 bytes`},
		{read(`"`+big(1<<20)+`"`, "uri", "skill://alpha/SKILL.md"), `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: the id is 1048578 bytes; at most 1024"}}`},
		{`{"jsonrpc":"2.0","id":4,"method":"` + big(maxMethodBytes) + `"}`, `"id":4,"error":{"code":-32600,"message":"invalid request: the method is 1026 bytes`},
		{read("5", "uri", "skill://"+big(maxURIBytes-10)), `"id":5,"error":{"code":-32602,"message":"no skill`},
		{`not json ` + big(1<<20), `"id":null,"error":{"code":-32700`},
		{`{"jsonrpc":"2.0","id":6,"method":"ping"}`, `{"jsonrpc":"2.0","id":6,"result":{}}`},
	}
	var in strings.Builder
	for i, c := range cases {
		in.WriteString(c.line + "\n")
		if i == 0 {
			in.WriteString(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
		}
	}
	var out bytes.Buffer
	if err := s.RunStdio(t.Context(), strings.NewReader(in.String()), &out); err != nil {
		t.Fatal(err)
	}
	answers := strings.Split(strings.TrimSpace(out.String()), "\n")
	for _, c := range cases {
		if !slices.ContainsFunc(answers, func(a string) bool { return strings.Contains(a, c.want) }) {
			t.Errorf("no answer with %q to %.80s...; answers:\n%.2000s", c.want, c.line, out.String())
		}
	}
	if len(answers) != len(cases) {
		t.Errorf("%d answers to %d requests", len(answers), len(cases))
	}
}

// FuzzEachMember: for any JSON object, eachMember reports every member an
// encoding/json decode finds whose name is short (at most
// shortMemberName bytes, which no spelling, escaped or not, makes longer
// than maxEscapedName), with the same value.
func FuzzEachMember(f *testing.F) {
	for _, s := range []string{`{"id":1,"method":"ping"}`, `{"\u0069d":"x","params":{"uri":"skill://a/b"}}`, `{"a":[1,{"b":2}],"c":"\"}"}`, `{}`, `[1]`, `{"ID":null}`, `{"` + strings.Repeat(`\u0061`, 10) + `":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want map[string]json.RawMessage
		if json.Unmarshal(data, &want) != nil {
			return
		}
		got := map[string][]byte{}
		eachMember(data, func(name, v []byte) {
			if len(name) != 0 {
				got[string(name)] = v // the last one wins, as in encoding/json
			}
		})
		for name, v := range got {
			w, ok := want[name]
			if !ok {
				t.Fatalf("eachMember found %q, which encoding/json does not", name)
			}
			var a, b bytes.Buffer
			if json.Compact(&a, v) != nil || json.Compact(&b, w) != nil || a.String() != b.String() {
				t.Fatalf("member %q: %s, encoding/json %s", name, v, w)
			}
		}
		for name := range want {
			if _, ok := got[name]; !ok && len(name) <= shortMemberName && name != "" && !bytes.Contains(data, []byte(`\u0000`)) {
				t.Fatalf("eachMember missed %q in %s", name, data)
			}
		}
	})
}

// shortMemberName is the longest name, in bytes, that eachMember reports
// however it is spelled: each byte at most a six-byte \uXXXX escape, in
// quotes. A bound of 30 here made FuzzEachMember fail on a name of eleven
// escaped letters (68 bytes as written, testdata escapedlongname), which
// eachMember rightly passes over.
const shortMemberName = (maxEscapedName - 2) / 6

// TestLookedForNamesAreShort: every name refusedShape looks for is one
// eachMember reports however it is spelled.
func TestLookedForNamesAreShort(t *testing.T) {
	t.Parallel()
	for _, n := range [][]byte{nameID, nameMethod, nameParams, nameURI} {
		if len(n) > shortMemberName {
			t.Errorf("%q is %d bytes: escaped, eachMember would pass it over (at most %d)", n, len(n), shortMemberName)
		}
	}
}
