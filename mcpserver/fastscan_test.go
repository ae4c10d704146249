package mcpserver

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// The reading of a request that the one-pass scanner (fastscan.go)
// replaced, kept as its reference: each object split into its members
// (objectMembers, which checks each value with scanValue), then each
// member's value read again, so that a 2026-07-28 _meta was read four
// times. TestOnePassIsTwoPass and FuzzOnePassIsTwoPass require the two to
// take the same requests and find the same method, id and params.

// twoPassRequest reads a body that is exactly one request object: the
// members jsonrpc ("2.0"), id, method and params, spelled exactly
// (encoding/json would match names in another letter case), params an
// object holding, when perRequest, a _meta of exactly the protocol version
// (the header's), a clientInfo with a name and a version, and an object of
// client capabilities.
func twoPassRequest(body []byte, version string, perRequest bool, buf []member) (fastRequest, bool) {
	var top [4]member
	ms, ok := objectMembers(body, top[:0])
	if !ok || len(ms) != 4 || string(get(ms, "jsonrpc")) != `"2.0"` {
		return fastRequest{}, false
	}
	m, ok := plainString(get(ms, "method"))
	method := fastMethod(m)
	if !ok || method == "" {
		return fastRequest{}, false
	}
	id, ok := plainID(get(ms, "id"))
	if !ok {
		return fastRequest{}, false
	}
	raw := get(ms, "params")
	if raw == nil {
		return fastRequest{}, false
	}
	params, ok := objectMembers(raw, buf)
	if !ok {
		return fastRequest{}, false
	}
	if perRequest {
		meta := get(params, "_meta")
		if meta == nil || !twoPassMeta(meta, version) {
			return fastRequest{}, false
		}
		kept := params[:0]
		for _, m := range params {
			if string(m.name) != "_meta" {
				kept = append(kept, m)
			}
		}
		params = kept
	} else if get(params, "_meta") != nil {
		return fastRequest{}, false
	}
	return fastRequest{method: method, id: id, params: params}, true
}

// twoPassMeta reports whether a 2026-07-28 request's _meta holds exactly
// what a client must send and nothing the fast path would have to act on.
func twoPassMeta(raw []byte, version string) bool {
	var buf [3]member
	meta, ok := objectMembers(raw, buf[:0])
	if !ok || len(meta) != 3 {
		return false
	}
	if pv, ok := plainString(get(meta, "io.modelcontextprotocol/protocolVersion")); !ok || string(pv) != version {
		return false
	}
	return twoPassClientInfo(get(meta, "io.modelcontextprotocol/clientInfo")) &&
		twoPassCaps(get(meta, "io.modelcontextprotocol/clientCapabilities"))
}

// twoPassClientInfo reports whether raw, a client's clientInfo, is one the
// fast path takes: the SDK decodes it into an mcp.Implementation and
// refuses the request when a member has another type, so only its string
// members are taken, each a plain string, and a name and a version that
// are not empty.
func twoPassClientInfo(raw []byte) bool {
	var ibuf [8]member
	info, ok := objectMembers(raw, ibuf[:0])
	if !ok {
		return false
	}
	for _, m := range info {
		switch string(m.name) {
		case "name", "version", "title", "description", "websiteUrl":
			if _, ok := plainString(m.value); !ok {
				return false
			}
		default:
			return false
		}
	}
	if name, ok := plainString(get(info, "name")); !ok || len(name) == 0 {
		return false
	}
	ver, ok := plainString(get(info, "version"))
	return ok && len(ver) != 0
}

// twoPassCaps reports whether raw, a 2026-07-28 request's client
// capabilities, is one the SDK decodes without error: objects, booleans
// and plain strings only (no number, which the SDK may fail to hold, no
// null, no array), nested at most maxPlainDepth deep, where each member
// of the SDK's ClientCapabilities has its type (experimental and
// extensions objects, roots an object whose listChanged is a boolean,
// sampling an object whose context and tools are objects, elicitation one
// whose form and url are).
func twoPassCaps(raw []byte) bool {
	return twoPassObject(raw, 0, func(name, v []byte) bool {
		switch string(name) {
		case "experimental", "extensions":
			return v[0] == '{'
		case "roots":
			return twoPassObject(v, 1, func(name, v []byte) bool {
				return string(name) != "listChanged" || string(v) == "true" || string(v) == "false"
			})
		case "sampling":
			return twoPassObject(v, 1, func(name, v []byte) bool {
				return string(name) != "context" && string(name) != "tools" || v[0] == '{'
			})
		case "elicitation":
			return twoPassObject(v, 1, func(name, v []byte) bool {
				return string(name) != "form" && string(name) != "url" || v[0] == '{'
			})
		}
		return true
	})
}

// twoPassObject reports whether raw is an object of at most 16 members of
// plain values (twoPassValue) for each of which field, when not nil, holds.
func twoPassObject(raw []byte, depth int, field func(name, v []byte) bool) bool {
	if depth >= maxPlainDepth || len(raw) == 0 || raw[0] != '{' {
		return false
	}
	var buf [16]member
	ms, ok := objectMembers(raw, buf[:0])
	if !ok {
		return false
	}
	for _, m := range ms {
		if !twoPassValue(m.value, depth+1) || field != nil && !field(m.name, m.value) {
			return false
		}
	}
	return true
}

// twoPassValue reports whether raw is true, false, a plain string or a
// plain object (twoPassObject).
func twoPassValue(raw []byte, depth int) bool {
	switch {
	case string(raw) == "true" || string(raw) == "false":
		return true
	case len(raw) > 0 && raw[0] == '"':
		_, ok := plainString(raw)
		return ok
	}
	return twoPassObject(raw, depth, nil)
}

// meta is the _meta member of a 2026-07-28 request with clientInfo info
// and client capabilities caps.
func meta(info, caps string) string {
	return `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":` + info + `,"io.modelcontextprotocol/clientCapabilities":` + caps + `}`
}

// onePassSeeds are request bodies near the fast path's edge: each method,
// with and without _meta, members missing, doubled, unknown or of another
// type, capabilities at every rule, nesting at the depth bound.
func onePassSeeds() []string {
	m := meta(`{"name":"b","version":"1"}`, `{}`)
	deep := `{"a":{"a":{"a":{"a":{"a":{"a":{"a":true}}}}}}}`
	deeper := `{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":true}}}}}}}}`
	seeds := []string{
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{` + m + `}}`,
		` {"jsonrpc" : "2.0" , "id" : "x-1" , "method" : "resources/read" , "params" : { "uri" : "skill://a/SKILL.md" , ` + m + ` } } `,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","arguments":{"name":"a"},` + m + `}}`,
		`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"},"x":1}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{"cursor":"c",` + m + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{"a":1,"b":2,"c":3,` + m + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{"a":1,"b":2,"c":3,"d":4}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list"}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{` + m + `},"x":1}`,
		`{"jsonrpc":"2.0","id":1,"id":2,"method":"skills/list","params":{` + m + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{` + m + `,` + m + `}}`,
		`{"jsonrpc":"2.00","id":1,"method":"skills/list","params":{` + m + `}}`,
		`{"jsonrpc":"2.0" ,"id":01,"method":"skills/list","params":{` + m + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills\/list","params":{` + m + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":{` + m + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":[]}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{` + m + `}} x`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{` + meta(`{"name":"b","version":"1","title":"t","description":"d","websiteUrl":"w"}`, `{"roots":{"listChanged":true},"sampling":{"context":{},"tools":{}},"elicitation":{"form":{},"url":{}},"experimental":{"x":"y"},"extensions":{"io.modelcontextprotocol/skills":{}},"other":false}`) + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{` + meta(`{"name":"","version":"1"}`, `{}`) + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{` + meta(`{"name":"b","version":"1","icons":[]}`, `{}`) + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{` + meta(`{"name":"b","version":1}`, `{}`) + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{` + meta(`{"name":"b","version":"1"}`, `{"roots":{"listChanged":"true"}}`) + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{` + meta(`{"name":"b","version":"1"}`, `{"roots":true}`) + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{` + meta(`{"name":"b","version":"1"}`, `{"sampling":{"tools":true}}`) + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{` + meta(`{"name":"b","version":"1"}`, `{"elicitation":{"url":"u"}}`) + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{` + meta(`{"name":"b","version":"1"}`, `{"experimental":1}`) + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{` + meta(`{"name":"b","version":"1"}`, `{"x":null,"y":[]}`) + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{` + meta(`{"name":"b","version":"1"}`, deep) + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{` + meta(`{"name":"b","version":"1"}`, deeper) + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{` + meta(`{"name":"b","version":"1"}`, `{"a":truex}`) + `}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientInfo":{"name":"b","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"b","version":"1"}}}}`,
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"skills/list\",\"params\":{\"cursor\":\"a\x01\"," + m + "}}",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"skills/list\",\"params\":{" + meta(`{"name":"b\xff","version":"1"}`, `{}`) + "}}",
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"skills/list\",\"params\":{" + meta(`{"name":"\u00e9","version":"1"}`, `{"\u00e9":"é"}`) + "}}",
	}
	return seeds
}

// sameParse reports whether the two readings of body agree, for the
// header version and whether it is a 2026-07-28 one.
func sameParse(t *testing.T, body []byte, version string, perRequest bool) {
	t.Helper()
	var b1, b2 [4]member
	got, gok := parseFastRequest(body, version, perRequest, b1[:0], nil)
	want, wok := twoPassRequest(body, version, perRequest, b2[:0])
	if gok != wok {
		t.Fatalf("%q (%s): one pass takes it %v, two passes %v", body, version, gok, wok)
	}
	if gok && !cmp.Equal(got, want, cmp.AllowUnexported(fastRequest{}, member{})) {
		t.Fatalf("%q (%s): one pass reads %+v, two passes %+v", body, version, got, want)
	}
}

// TestOnePassIsTwoPass: on each seed, for 2026-07-28 and for an earlier
// version and no version, the one-pass reading takes the request when
// the two-pass one did, with the same method, id and params; and the
// seeds that are the fast path's own requests are taken.
func TestOnePassIsTwoPass(t *testing.T) {
	t.Parallel()
	taken := 0
	for _, s := range onePassSeeds() {
		for _, v := range []string{"2026-07-28", "2025-11-25", ""} {
			sameParse(t, []byte(s), v, newFields(v))
			var buf [4]member
			if _, ok := parseFastRequest([]byte(s), v, newFields(v), buf[:0], nil); ok {
				taken++
			}
		}
	}
	if taken < 8 {
		t.Errorf("%d seeds taken: the seeds no longer reach the fast path", taken)
	}
}

// FuzzOnePassIsTwoPass: for any body, the one-pass reading and the
// two-pass one agree (TestOnePassIsTwoPass). What the fast path answers
// of a body is FuzzAnyBodyIsTheSDKs's to check: a param's value (a
// cursor, a URI) is only split off here, and read as a plain string where
// it is used.
func FuzzOnePassIsTwoPass(f *testing.F) {
	for _, s := range onePassSeeds() {
		f.Add([]byte(s), true)
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, body []byte, perRequest bool) {
		v := "2025-11-25"
		if perRequest {
			v = "2026-07-28"
		}
		sameParse(t, body, v, perRequest)
	})
}

// plainTextRule is what plainText decides, said another way (not the byte
// loop plainText ends with): valid UTF-8 in which no character is below
// U+0020 or a backslash. TestPlainText and FuzzPlainText hold the
// word-at-a-time plainText to it.
func plainTextRule(b []byte) bool {
	return utf8.Valid(b) && !bytes.ContainsFunc(b, func(r rune) bool { return r < 0x20 || r == '\\' })
}

// plainTextSeeds: every byte value at every offset of two words and the
// tail, after plain text and after another byte that is caught (whose
// borrow must not hide or invent one), and UTF-8 sequences cut at a word's
// edge.
func plainTextSeeds() [][]byte {
	var out [][]byte
	for v := 0; v < 256; v++ {
		for _, n := range []int{1, 7, 8, 9, 16, 19} {
			for pos := 0; pos < n; pos++ {
				b := []byte(strings.Repeat("a", n))
				b[pos] = byte(v)
				out = append(out, b)
				if pos > 0 {
					c := bytes.Clone(b)
					c[0] = 0x1f
					out = append(out, c)
				}
			}
		}
	}
	for _, s := range []string{"skill://skill-creator/SKILL.md", "io.modelcontextprotocol/clientInfo",
		"1234567é", "12345678é", "1234567\xc3", "1234567\xc3\xa9abcdefgh", "abcdefg\xe2\x82\xac", "abcdefgh\xff",
		"\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f", "        ", "abc\\\"defgh", ""} {
		out = append(out, []byte(s))
	}
	return out
}

// TestPlainText: the word-at-a-time plainText decides as the rule does.
func TestPlainText(t *testing.T) {
	for _, b := range plainTextSeeds() {
		if got, want := plainText(b), plainTextRule(b); got != want {
			t.Fatalf("plainText(%q) = %v, want %v", b, got, want)
		}
	}
}

// FuzzPlainText: the same for any bytes.
func FuzzPlainText(f *testing.F) {
	for _, b := range plainTextSeeds()[:64] {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := plainText(b), plainTextRule(b); got != want {
			t.Fatalf("plainText(%q) = %v, want %v", b, got, want)
		}
	})
}

// sameWithMemo requires parseFastRequest of body through memo to decide
// and read as it does without one.
func sameWithMemo(t *testing.T, memo *metaMemo, body []byte, version string, perRequest bool) {
	t.Helper()
	var b1, b2 [4]member
	got, gok := parseFastRequest(body, version, perRequest, b1[:0], memo)
	want, wok := parseFastRequest(body, version, perRequest, b2[:0], nil)
	if gok != wok || gok && !cmp.Equal(got, want, cmp.AllowUnexported(fastRequest{}, member{})) {
		t.Fatalf("%q (%s): with the memo %v %+v, without %v %+v", body, version, gok, got, wok, want)
	}
}

// TestMetaMemoIsScanMeta: with a memo warmed by every seed before it (so
// a _meta taken for one body meets others that begin alike, cut short,
// with another version or with more after it), each seed is read as
// without a memo, once cold and once warm.
func TestMetaMemoIsScanMeta(t *testing.T) {
	memo := &metaMemo{}
	seeds := onePassSeeds()
	m := meta(`{"name":"b","version":"1"}`, `{}`)
	seeds = append(seeds,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{`+m+`}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{`+m+`,"cursor":"x"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{`+m+`,"_meta":{}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{`+m+`}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{`+m[:len(m)-1]+`,"x":1}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{`+m[:len(m)-1]+`}}`,
	)
	hits := 0
	for round := 0; round < 2; round++ {
		for _, s := range seeds {
			for _, v := range []string{"2026-07-28", "2025-11-25", "2026-07-29", ""} {
				sameWithMemo(t, memo, []byte(s), v, newFields(v) || v == "2026-07-29")
			}
		}
	}
	var rest [4]member
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{` + m + `}}`)
	i := bytes.Index(body, []byte(`{"io.`))
	for k := range memo.slots {
		if e := memo.slots[k].Load(); e != nil && bytes.HasPrefix(body[i:], e.raw) {
			hits++
		}
	}
	if _, ok := parseFastRequest(body, "2026-07-28", true, rest[:0], memo); !ok || hits == 0 {
		t.Fatalf("a client's _meta taken (%v) is not remembered (%d slots hold it)", ok, hits)
	}
}

// TestMetaMemoBounded: a memo holds at most metaMemoSlots _meta objects,
// each at most maxMemoMeta bytes, whatever clients send.
func TestMetaMemoBounded(t *testing.T) {
	memo := &metaMemo{}
	for n := range 100 {
		name := fmt.Sprintf("client-%d", n)
		if n%10 == 0 {
			name = strings.Repeat("x", maxMemoMeta) // a _meta over the bound
		}
		body := `{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{` + meta(`{"name":"`+name+`","version":"1"}`, `{}`) + `}}`
		var buf [4]member
		if _, ok := parseFastRequest([]byte(body), "2026-07-28", true, buf[:0], memo); !ok {
			t.Fatalf("%s: not taken", body)
		}
	}
	for k := range memo.slots {
		e := memo.slots[k].Load()
		if e == nil || len(e.raw) > maxMemoMeta || bytes.Contains(e.raw, []byte("xxxx")) {
			t.Fatalf("slot %d: %v", k, e)
		}
	}
}

// FuzzMetaMemoIsScanMeta: after the memo has taken the _meta of a, b is
// read as without a memo (a and b as bodies or as a _meta object put in
// a request).
func FuzzMetaMemoIsScanMeta(f *testing.F) {
	obj := strings.TrimPrefix(meta(`{"name":"b","version":"1"}`, `{}`), `"_meta":`)
	f.Add([]byte(obj), []byte(obj))
	f.Add([]byte(obj), []byte(obj[:len(obj)-1]+`,"x":true}`))
	f.Add([]byte(obj), []byte(obj[:len(obj)-2]))
	for _, s := range onePassSeeds()[:8] {
		f.Add([]byte(obj), []byte(s))
		f.Add([]byte(s), []byte(s))
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		memo := &metaMemo{}
		for _, body := range [][]byte{a, b} {
			for _, v := range []string{"2026-07-28", "2025-11-25"} {
				sameWithMemo(t, memo, body, v, newFields(v))
				inParams := append([]byte(`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{"_meta":`), body...)
				sameWithMemo(t, memo, append(inParams, "}}"...), v, newFields(v))
			}
		}
	})
}
