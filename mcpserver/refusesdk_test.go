package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// nameSpellings returns spellings of the member name n as written in a
// JSON object (without the quotes): n itself; every mix of upper and
// lower case; each letter, then all of them, as a \uXXXX escape (lower
// and upper hex digits); each letter that has one replaced by a
// character that Unicode folds to it or to its other case (ſ U+017F for
// s, K U+212A for k, ı U+0131 and İ U+0130 for i), raw and escaped; and n
// with a NUL, a space, a byte that is not UTF-8 or an escaped surrogate
// half added.
func nameSpellings(n string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for mask := range 1 << len(n) {
		b := []byte(n)
		for i := range b {
			if mask&(1<<i) != 0 {
				b[i] = byte(unicode.ToUpper(rune(b[i])))
			}
		}
		add(string(b))
	}
	escape := func(r rune, hex string) string { return fmt.Sprintf(`\u`+hex, r) }
	for _, hex := range []string{"%04x", "%04X"} {
		all := ""
		for i, r := range n {
			add(n[:i] + escape(r, hex) + n[i+1:])
			add(n[:i] + escape(unicode.ToUpper(r), hex) + n[i+1:])
			all += escape(r, hex)
		}
		add(all)
	}
	folds := map[byte][]rune{'s': {'\u017f'}, 'k': {'\u212a'}, 'i': {'\u0131', '\u0130'}}
	for i := range len(n) {
		for _, r := range folds[n[i]] {
			add(n[:i] + string(r) + n[i+1:])
			add(n[:i] + escape(r, "%04x") + n[i+1:])
		}
	}
	for _, tail := range []string{`\u0000`, " ", "\xff", `\ud800`} {
		add(n + tail)
		add(tail + n)
	}
	return out
}

// TestRefusedNamesAreTheSDKs: refusedShape refuses a message for an
// oversized id, method or params.uri exactly when the SDK's own decoder
// (go-sdk v1.8.0, whose messages and params go through its
// internal/json.Unmarshal) reads the oversized member as that field. Each
// spelling of each name (nameSpellings) is tried alone and as a duplicate
// of the plain name with a small value, before it and after it. The SDK's
// reading of id and method is jsonrpc.DecodeMessage's; of params and uri,
// what an SDK server's resources/read handler receives over a stream of
// lines (mcp.IOTransport), the SDK's whole path.
func TestRefusedNamesAreTheSDKs(t *testing.T) {
	t.Parallel()
	bigID := `"` + strings.Repeat("i", maxIDBytes) + `"`
	bigMethod := `"` + strings.Repeat("m", maxMethodBytes) + `"`
	bigURI := "skill://" + strings.Repeat("u", maxURIBytes)
	type msgCase struct {
		field, spelling, order, msg string
		code                        int64 // the refusal's code when the SDK reads the big value
	}
	var cases []msgCase
	orders := map[string]func(v, plain string) string{
		"alone":       func(v, _ string) string { return v },
		"plain after": func(v, plain string) string { return v + "," + plain },
		"plain first": func(v, plain string) string { return plain + "," + v },
	}
	for _, order := range []string{"alone", "plain after", "plain first"} {
		join := orders[order]
		for _, sp := range nameSpellings("id") {
			m := `{"jsonrpc":"2.0",` + join(`"`+sp+`":`+bigID, `"id":7`) + `,"method":"ping"}`
			cases = append(cases, msgCase{"id", sp, order, m, jsonrpc.CodeInvalidRequest})
		}
		for _, sp := range nameSpellings("method") {
			m := `{"jsonrpc":"2.0","id":7,` + join(`"`+sp+`":`+bigMethod, `"method":"ping"`) + `}`
			cases = append(cases, msgCase{"method", sp, order, m, jsonrpc.CodeInvalidRequest})
		}
		for _, sp := range nameSpellings("params") {
			m := `{"jsonrpc":"2.0","id":7,"method":"resources/read",` + join(`"`+sp+`":{"uri":"`+bigURI+`"}`, `"params":{"uri":"skill://s"}`) + `}`
			cases = append(cases, msgCase{"params", sp, order, m, jsonrpc.CodeInvalidParams})
		}
		for _, sp := range nameSpellings("uri") {
			m := `{"jsonrpc":"2.0","id":7,"method":"resources/read","params":{` + join(`"`+sp+`":"`+bigURI+`"`, `"uri":"skill://s"`) + `}}`
			cases = append(cases, msgCase{"uri", sp, order, m, jsonrpc.CodeInvalidParams})
		}
	}
	var reads []string
	for _, c := range cases {
		if c.field == "params" || c.field == "uri" {
			reads = append(reads, c.msg)
		}
	}
	uris := sdkReadURIs(t, reads)
	refusedBy := map[bool]int{}
	for _, c := range cases {
		if !json.Valid([]byte(c.msg)) {
			t.Fatalf("%s %q %s: the message is not JSON", c.field, c.spelling, c.order)
		}
		var sdk bool
		switch c.field {
		case "id", "method":
			msg, err := jsonrpc.DecodeMessage([]byte(c.msg))
			req, ok := msg.(*jsonrpc.Request)
			if ok && err == nil {
				id, _ := json.Marshal(req.ID.Raw())
				sdk = c.field == "id" && string(id) == bigID || c.field == "method" && `"`+req.Method+`"` == bigMethod
			}
		default:
			sdk = uris[c.msg] == bigURI
		}
		refusedBy[sdk]++
		got := refusedShape([]byte(c.msg))
		switch {
		case sdk && got == nil:
			t.Errorf("%s spelled %q (%s): the SDK reads the oversized value as %s, refusedShape lets it through", c.field, c.spelling, c.order, c.field)
		case !sdk && got != nil:
			t.Errorf("%s spelled %q (%s): the SDK does not read the oversized value as %s, refusedShape refuses: %.120s", c.field, c.spelling, c.order, c.field, got)
		case sdk && !strings.Contains(string(got), fmt.Sprintf(`"code":%d,`, c.code)):
			t.Errorf("%s spelled %q (%s): refused with %.120s, want code %d", c.field, c.spelling, c.order, got, c.code)
		}
	}
	if refusedBy[true] == 0 || refusedBy[false] == 0 {
		t.Fatalf("of %d messages the SDK read the oversized value in %d: the cases do not tell the two apart", len(cases), refusedBy[true])
	}
	t.Logf("%d messages: the SDK reads the oversized value of %d, not of %d", len(cases), refusedBy[true], refusedBy[false])
}

// sdkReadURIs sends each of msgs (resources/read requests with id 7, one
// line each, after an initialize) to a server of the SDK alone over
// mcp.IOTransport and returns, by message, the uri its resources/read
// handler received ("" when it was not called).
func sdkReadURIs(t *testing.T, msgs []string) map[string]string {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "sdk", Version: "1"}, nil)
	s.AddResourceTemplate(&mcp.ResourceTemplate{Name: "any", URITemplate: "skill://{+rest}"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: "x"}}}, nil
		})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, &mcp.IOTransport{Reader: inR, Writer: outW, MaxLineLength: -1}) }()
	defer func() {
		cancel()
		inW.Close()
		outR.Close()
		<-done
	}()
	lines := bufio.NewReader(outR)
	send := func(line string) {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	recv := func() map[string]json.RawMessage {
		b, err := lines.ReadBytes('\n')
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%v: %.200s", err, b)
		}
		return m
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	recv()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	got := map[string]string{}
	for _, m := range msgs {
		send(m) // one at a time: every answer carries id 7
		var res struct {
			Contents []struct{ URI string } `json:"contents"`
		}
		if r, ok := recv()["result"]; ok {
			if err := json.Unmarshal(r, &res); err != nil || len(res.Contents) != 1 {
				t.Fatalf("the SDK's answer to %.100s: %v %.200s", m, err, r)
			}
			got[m] = res.Contents[0].URI
		}
	}
	return got
}
