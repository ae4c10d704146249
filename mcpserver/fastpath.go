package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillet-go/skillet/mcpserver/skillsext"
)

// The stateless read fast path (docs/performance.md#serving). Reading a
// bundled file is most of what a deployed server does, and through the SDK
// each read costs a temporary session, a request decoded into the SDK's
// types, the result encoded and then compacted twice more on its way into
// the JSON-RPC envelope. A stateless server answers a plain resources/read
// of a served file itself instead: the result is encoded once and the
// envelope written around it, from the snapshot in hand. Everything else,
// and every request that is not exactly that (other methods, batches,
// session or unknown protocol headers, a Host the SDK's DNS-rebinding check
// would refuse, odd ids, unknown URIs), goes to the SDK as before.
// TestFastReadIsTheSDKs holds the two to the same bytes.

// fastVersions are the protocol versions whose resources/read answer the
// fast path writes: true for those whose requests carry their own _meta
// (protocolVersion, clientInfo, clientCapabilities) and whose results carry
// serverInfo and the cache fields.
var fastVersions = map[string]bool{"2025-06-18": false, "2025-11-25": false, skillsext.ProtocolCacheable: true}

// parseFastRequest returns the URI and id of a body that is exactly one
// resources/read request object: the keys jsonrpc ("2.0"), id, method and
// params, spelled exactly (encoding/json would match keys in another
// letter case), and params holding uri alone, or (perRequest) uri and a
// _meta of exactly the protocol version (the header's), a clientInfo with
// a name and a version, and an object of client capabilities.
func parseFastRequest(body []byte, version string, perRequest bool) (uri string, id json.RawMessage, ok bool) {
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil || len(top) != 4 {
		return "", nil, false
	}
	var jsonrpc, method string
	if json.Unmarshal(top["jsonrpc"], &jsonrpc) != nil || jsonrpc != "2.0" ||
		json.Unmarshal(top["method"], &method) != nil || method != "resources/read" || top["id"] == nil {
		return "", nil, false
	}
	var params map[string]json.RawMessage
	want := 1
	if perRequest {
		want = 2
	}
	if json.Unmarshal(top["params"], &params) != nil || len(params) != want || params["uri"] == nil {
		return "", nil, false
	}
	if json.Unmarshal(params["uri"], &uri) != nil {
		return "", nil, false
	}
	if perRequest && !plainMeta(params["_meta"], version) {
		return "", nil, false
	}
	return uri, top["id"], true
}

// plainMeta reports whether a 2026-07-28 request's _meta holds exactly
// what a client must send and nothing the fast path would have to act on.
func plainMeta(raw json.RawMessage, version string) bool {
	var meta map[string]json.RawMessage
	if json.Unmarshal(raw, &meta) != nil || len(meta) != 3 {
		return false
	}
	var pv string
	if json.Unmarshal(meta["io.modelcontextprotocol/protocolVersion"], &pv) != nil || pv != version {
		return false
	}
	var info map[string]json.RawMessage
	var name, ver string
	if json.Unmarshal(meta["io.modelcontextprotocol/clientInfo"], &info) != nil ||
		json.Unmarshal(info["name"], &name) != nil || name == "" || json.Unmarshal(info["version"], &ver) != nil || ver == "" {
		return false
	}
	var caps map[string]json.RawMessage
	return json.Unmarshal(meta["io.modelcontextprotocol/clientCapabilities"], &caps) == nil && caps != nil
}

// fastRead answers body, a stateless POST to the MCP path that
// parseErrors has read, when it is a plain resources/read of a served
// file, and reports whether it did.
func (s *Server) fastRead(w http.ResponseWriter, r *http.Request, body []byte) bool {
	version := r.Header.Get("Mcp-Protocol-Version")
	perRequest, known := fastVersions[version]
	if s.noFastPath || !known || r.Method != http.MethodPost ||
		r.Header.Get("Mcp-Session-Id") != "" || !acceptsBoth(r.Header.Values("Accept")) {
		return false
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return false
	}
	// The SDK refuses a loopback connection that names another host.
	if la, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && la != nil && isLoopbackAddr(la.String()) && !isLoopbackAddr(r.Host) {
		return false
	}
	if !bytes.Contains(body, []byte(`"resources/read"`)) {
		return false
	}
	uri, rawID, ok := parseFastRequest(body, version, perRequest)
	if !ok {
		return false
	}
	if perRequest && (r.Header.Get("Mcp-Method") != "resources/read" || r.Header.Get("Mcp-Name") != uri) {
		return false
	}
	id, ok := plainID(rawID)
	if !ok {
		return false
	}
	start := time.Now()
	sn := s.snap.Load()
	c, f, err := contents(sn, uri)
	if err != nil {
		return false // the SDK writes the error
	}
	elem, ok := encodedContents(sn, c, f)
	if !ok {
		return false
	}
	buf := fastBufs.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= 1<<20 {
			buf.Reset()
			fastBufs.Put(buf)
		}
	}()
	buf.Reset()
	buf.WriteString(`{"jsonrpc":"2.0","id":`)
	buf.Write(id)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if perRequest {
		// 2026-07-28: the server's identity, the cache fields and the
		// result type around the contents, as the SDK and decorate write
		// them.
		buf.WriteString(`,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":`)
		if enc.Encode(&mcp.Implementation{Name: s.opts.Name, Version: s.opts.Version}) != nil {
			return false
		}
		buf.Truncate(buf.Len() - 1)
		fmt.Fprintf(buf, `},"ttlMs":%d,"cacheScope":"public","contents":[`, int(s.opts.CacheTTL/time.Millisecond))
	} else {
		// Before: the contents alone, without the cache fields
		// (withoutCacheFields).
		buf.WriteString(`,"result":{"contents":[`)
	}
	buf.Write(elem)
	if perRequest {
		buf.WriteString(`],"resultType":"complete"}}`)
	} else {
		buf.WriteString(`]}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(buf.Bytes())
	s.metrics.observe("resources/read", time.Since(start), err)
	s.fastHits.Add(1)
	return true
}

var fastBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Bounds of the fast path's encoded contents: a file's element is kept
// once made when it is at most maxEncodedFile bytes and at most twice the
// file's size plus its URI (so text full of escapes is encoded per
// request instead), and while the elements kept since the snapshot was
// made hold at most maxEncodedBytes (a file carried into the next snapshot
// keeps its element, so what is kept is at most twice the bytes served).
const (
	maxEncodedFile  = 1 << 20
	maxEncodedBytes = 32 << 20
)

// encodedContents returns the JSON of the contents element c of file f, as
// the SDK encodes it (encoding/json, HTML characters unescaped), kept on
// the file within the bounds above.
func encodedContents(sn *snapshot, c *mcp.ResourceContents, f *file) ([]byte, bool) {
	if p := f.encoded.Load(); p != nil {
		return *p, true
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(c) != nil {
		return nil, false
	}
	out := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
	n := int64(len(out))
	if n <= maxEncodedFile && n <= 2*f.size+int64(len(f.uri))+256 {
		if sn.encodedBytes.Add(n) <= maxEncodedBytes {
			if !f.encoded.CompareAndSwap(nil, &out) {
				sn.encodedBytes.Add(-n)
			}
		} else {
			sn.encodedBytes.Add(-n)
		}
	}
	return out, true
}

// plainID returns a request id as the SDK would write it back: a decimal
// integer of at most 2^53 in magnitude (the SDK holds numeric ids as
// float64; larger ones go on to be refused, mcpline.CheckID), or a
// string of printable ASCII without escapes. Any other id is left to the
// SDK.
func plainID(raw json.RawMessage) ([]byte, bool) {
	if len(raw) == 0 {
		return nil, false
	}
	if raw[0] == '"' {
		if len(raw) < 2 || raw[len(raw)-1] != '"' {
			return nil, false
		}
		for _, c := range raw[1 : len(raw)-1] {
			if c < 0x20 || c >= 0x7f || c == '\\' || c == '"' || c == '<' || c == '>' || c == '&' {
				return nil, false
			}
		}
		return raw, true
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil || n > 1<<53 || n < -(1<<53) || (len(raw) > 1 && raw[0] == '0') || strings.HasPrefix(string(raw), "-0") || raw[0] == '+' {
		return nil, false
	}
	return raw, true
}

// acceptsBoth reports whether the Accept values name both application/json
// and text/event-stream exactly (the SDK's condition for a POST; wildcards
// and parameters are left to the SDK to judge).
func acceptsBoth(values []string) bool {
	var j, e bool
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			switch strings.TrimSpace(part) {
			case "application/json":
				j = true
			case "text/event-stream":
				e = true
			}
		}
	}
	return j && e
}

// isLoopbackAddr reports whether a host or host:port is a loopback name or
// address, by the same rule as the SDK's DNS-rebinding check (so the fast
// path never answers what the SDK would refuse with 403).
func isLoopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = strings.Trim(addr, "[]")
	}
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}
