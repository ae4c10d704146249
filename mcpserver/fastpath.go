package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/skillet-go/skillet/mcpserver/skillsext"
)

// The stateless fast path (docs/performance.md#serving). What a deployed
// server answers most is reading a bundled file, listing the skills and
// loading one through the tool, and through the SDK each such answer costs
// a temporary session, the request decoded into the SDK's types, and the
// result encoded and then compacted twice more on its way into the
// JSON-RPC envelope, a tool result's text (a whole SKILL.md) included. A
// stateless server answers these requests itself instead, when they are
// exactly
//
//   - resources/read of a served file,
//   - skills/list, first page or a page at a cursor this server made,
//   - tools/call of the load tool with {"name": NAME} of a served skill,
//   - initialize, from the result the SDK wrote for its kind (fastInit),
//
// from the snapshot in hand: a file's contents element, a page of
// skills/list and a tool result are encoded once per snapshot and kept
// (within maxEncodedBytes) in the JSON-RPC answer around them (envelope),
// into which a request writes only its id.
// Everything else, and every request that is not exactly that (other
// methods, other arguments, batches, session or unknown protocol headers,
// a Host the SDK's DNS-rebinding check would refuse, odd ids, keys spelled
// twice or with escapes, strings with escapes, unknown URIs and names,
// cursors this server did not make), goes to the SDK as before.
// TestFastPathIsTheSDKs and TestFastReadIsTheSDKs hold the two to the same
// bytes.

// fastVersions are the protocol versions whose answers the fast path
// writes. Those for which newFields holds are perRequest: their requests
// carry their own _meta (protocolVersion, clientInfo, clientCapabilities)
// and their results serverInfo and the cache fields.
var fastVersions = map[string]bool{"2025-06-18": true, "2025-11-25": true, skillsext.ProtocolCacheable: true}

// member is one member of a JSON object, as written: both are slices of
// the request body, not copies, so splitting a request allocates nothing.
type member struct {
	name  []byte
	value []byte
}

// objectMembers splits data, a JSON object already known to be valid
// JSON, into its members in order, into buf (at most cap(buf) members).
// It fails on anything but an object, on more members than that, on a
// name with an escape or with bytes that are not UTF-8, and on a name given
// twice (decoders differ on which one counts).
func objectMembers(data []byte, buf []member) ([]member, bool) {
	out := buf[:0]
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return out, skipSpace(data, i+1) == len(data)
	}
	for {
		end, err := scanString(data, i)
		if err != nil || bytes.IndexByte(data[i:end], '\\') >= 0 || len(out) == cap(out) {
			return nil, false
		}
		name := data[i+1 : end-1]
		if !utf8.Valid(name) || hasControl(name) {
			return nil, false // decoders read it as U+FFFD; JSON has no raw control bytes
		}
		for _, m := range out {
			if bytes.Equal(m.name, name) {
				return nil, false
			}
		}
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return nil, false
		}
		i = skipSpace(data, i+1)
		vend, err := scanValue(data, i, 0)
		if err != nil {
			return nil, false
		}
		out = append(out, member{name, data[i:vend]})
		i = skipSpace(data, vend)
		if i < len(data) && data[i] == ',' {
			i = skipSpace(data, i+1)
			continue
		}
		if i < len(data) && data[i] == '}' {
			return out, skipSpace(data, i+1) == len(data)
		}
		return nil, false
	}
}

// get returns the value of the member named name.
func get(ms []member, name string) []byte {
	for _, m := range ms {
		if string(m.name) == name {
			return m.value
		}
	}
	return nil
}

// plainString returns the text of a JSON string value that holds no
// escape, no control byte and only valid UTF-8, so that every decoder
// reads the bytes as written: a slice of raw, not a copy.
func plainString(raw []byte) ([]byte, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return nil, false
	}
	in := raw[1 : len(raw)-1]
	return in, plainText(in)
}

// hasControl reports whether b holds a byte below 0x20, which a JSON
// string may not hold unescaped: a name or plain string the fast path
// takes is valid JSON text without encoding/json.Valid's word on it
// (parseErrors).
func hasControl(b []byte) bool {
	for _, c := range b {
		if c < 0x20 {
			return true
		}
	}
	return false
}

// fastMethods are the methods the fast path answers, so that a request's
// method is one of these strings, not a copy of the body's bytes.
var fastMethods = [...]string{"initialize", "resources/read", skillsext.MethodListSkills, "tools/call"}

// fastMethod returns the method of fastMethods spelled b, or "".
func fastMethod(b []byte) string {
	for _, m := range fastMethods {
		if string(b) == m {
			return m
		}
	}
	return ""
}

// fastAnswer answers body, a stateless POST to the MCP path that
// parseErrors has read, when it is a request the fast path answers, and
// reports whether it did. sdk is the SDK's handler, which answers the
// first initialize of each kind (fastInit).
func (s *Server) fastAnswer(w http.ResponseWriter, r *http.Request, body []byte, sdk http.Handler) bool {
	version := header(r.Header, "Mcp-Protocol-Version")
	known, perRequest := fastVersions[version], newFields(version)
	if version == "" {
		known = true // initialize only, below
	}
	if s.noFastPath || !known || r.Method != http.MethodPost ||
		header(r.Header, "Mcp-Session-Id") != "" || !acceptsBoth(r.Header["Accept"]) {
		return false
	}
	if ct := header(r.Header, "Content-Type"); ct != "application/json" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			return false
		}
	}
	// The SDK refuses a loopback connection that names another host, and
	// so does checkHostOrigin, in front of every path, before the request
	// comes here (TestFastReadForeignHost).
	// Requests at debug level are logged one by one, by the middleware.
	if s.log.Enabled(r.Context(), slog.LevelDebug) {
		return false
	}
	var buf [4]member
	req, ok := parseFastRequest(body, version, perRequest, buf[:0], &s.metas)
	if !ok {
		return false
	}
	// On 2026-07-28 the headers name the method and its target.
	if perRequest && header(r.Header, "Mcp-Method") != req.method {
		return false
	}
	// initialize is the request a client sends before it has a version
	// to name, and the only one the fast path answers without one.
	if (version == "") != (req.method == "initialize") {
		return false
	}
	if req.method == "initialize" {
		return s.fastInit(w, r, req, body, sdk)
	}
	start := time.Now()
	var err error
	switch req.method {
	case "resources/read":
		ok, err = s.fastRead(w, r, req, perRequest)
	case skillsext.MethodListSkills:
		ok, err = s.fastList(w, r, req, perRequest)
	case "tools/call":
		ok, err = s.fastCall(w, r, req, perRequest)
	default:
		return false
	}
	if !ok {
		return false
	}
	s.metrics.observe(req.method, time.Since(start), err)
	s.fastHits.Add(1)
	return true
}

// fastRead answers a plain resources/read of a served file.
func (s *Server) fastRead(w http.ResponseWriter, r *http.Request, req fastRequest, perRequest bool) (bool, error) {
	if len(req.params) != 1 {
		return false, nil
	}
	uri, ok := plainString(get(req.params, "uri"))
	if !ok || perRequest && (header(r.Header, "Mcp-Name") != string(uri)) {
		return false, nil
	}
	sn := s.snap.Load()
	f := sn.files[string(uri)]
	if f == nil {
		return false, nil // the SDK writes the error
	}
	// Charged before the contents are encoded: the encoding is the
	// answer's first copy (a file over maxEncodedFile is encoded for each
	// request; 16 MiB are 21 MiB of JSON), so a burst of readers of a big
	// file is refused before it allocates. A request handed to the SDK
	// after all gives it back, to be charged there (memory.go).
	var prefix []byte
	if perRequest {
		// 2026-07-28: the server's identity, the cache fields and the
		// result type around the contents, as the SDK and decorate write
		// them.
		if prefix = s.fastPrefix(sn); prefix == nil {
			return false, nil
		}
	}
	if s.chargeAnswer(r.Context(), f.size, false) != nil {
		return false, nil // the SDK refuses it
	}
	elem, e, ok := encodedContents(sn, f, prefix, perRequest)
	if !ok {
		s.refundAnswer(r.Context(), f.size, false)
		return false, nil
	}
	if e != nil {
		return true, writeKept(w, req.id, e)
	}
	if perRequest {
		return true, writeFast(w, req.id, prefix, contentsOpen, elem, contentsCloseComplete)
	}
	// Before: the contents alone, without the cache fields
	// (withoutCacheFields).
	return true, writeFast(w, req.id, resultContentsOpen, elem, resultContentsClose)
}

// The fixed parts of a read's answer around its contents element, made
// once (writeFast's buffers recognise a part by where its bytes are).
var (
	contentsOpen          = []byte(`"contents":[`)
	contentsCloseComplete = []byte(`],"resultType":"complete"}`)
	resultContentsOpen    = []byte(`{"contents":[`)
	resultContentsClose   = []byte(`]}`)
)

// fastList answers skills/list of the first page or of a page at a
// cursor this server made.
func (s *Server) fastList(w http.ResponseWriter, r *http.Request, req fastRequest, perRequest bool) (bool, error) {
	if perRequest && header(r.Header, "Mcp-Name") != "" {
		return false, nil
	}
	cursor := ""
	switch len(req.params) {
	case 0:
	case 1:
		c, ok := plainString(get(req.params, "cursor"))
		if !ok {
			return false, nil
		}
		cursor = string(c)
	default:
		return false, nil
	}
	after, err := decodeCursor(cursor)
	if err != nil {
		return false, nil
	}
	sn := s.snap.Load()
	i := sort.Search(len(sn.entries), func(i int) bool { return sn.entries[i].uri > after })
	res, e, ok := s.listPage(sn, i, perRequest)
	if !ok {
		return false, nil
	}
	if e != nil {
		return true, writeKept(w, req.id, e)
	}
	return true, writeFast(w, req.id, res)
}

// fastCall answers tools/call of the load tool with {"name": NAME} of a
// served skill.
func (s *Server) fastCall(w http.ResponseWriter, r *http.Request, req fastRequest, perRequest bool) (bool, error) {
	sn := s.snap.Load()
	if sn.tool == nil || len(req.params) != 2 {
		return false, nil
	}
	tool, ok := plainString(get(req.params, "name"))
	if !ok || string(tool) != sn.tool.Name || perRequest && header(r.Header, "Mcp-Name") != string(tool) {
		return false, nil
	}
	args := get(req.params, "arguments")
	var buf [1]member
	ms, ok := objectMembers(args, buf[:0])
	if !ok || len(ms) != 1 || string(ms[0].name) != "name" {
		return false, nil
	}
	name, ok := plainString(ms[0].value)
	if !ok {
		return false, nil
	}
	sv := sn.byName[string(name)]
	if sv == nil {
		return false, nil
	}
	res, e, ok := s.toolAnswer(r.Context(), sn, sv.name, perRequest)
	if !ok {
		return false, nil
	}
	if e != nil {
		return true, writeKept(w, req.id, e)
	}
	return true, writeFast(w, req.id, res)
}

// fastState is what the fast path keeps encoded for a snapshot: the
// skills/list pages that start at a multiple of the page size and the
// tool's answer for each served skill, each for protocol 2026-07-28
// ([1]) and before ([0]), each in its envelope.
type fastState struct {
	prefix []byte // the 2026-07-28 result's start, up to its contents
	pages  [][2]atomic.Pointer[envelope]
	tools  map[string]*[2]atomic.Pointer[envelope]
	inits  initResults // initialize results, by kind (fastInit)
}

// fast returns the snapshot's fastState, made on first use.
func (s *Server) fast(sn *snapshot) *fastState {
	sn.fastOnce.Do(func() {
		fs := &fastState{
			pages: make([][2]atomic.Pointer[envelope], len(sn.entries)/s.opts.PageSize+1),
			tools: make(map[string]*[2]atomic.Pointer[envelope], len(sn.byName)),
		}
		for name := range sn.byName {
			fs.tools[name] = new([2]atomic.Pointer[envelope])
		}
		// json.Marshal, as mcp.ReadResourceResult's MarshalJSON writes
		// the serverInfo (<, > and & escaped).
		if info, err := json.Marshal(s.impl()); err == nil {
			var b bytes.Buffer
			b.WriteString(`{"_meta":{"io.modelcontextprotocol/serverInfo":`)
			b.Write(info)
			b.WriteString(`},"ttlMs":` + strconv.Itoa(int(s.opts.CacheTTL/time.Millisecond)) + `,"cacheScope":"public",`)
			fs.prefix = b.Bytes()
		}
		sn.fast = fs
	})
	return sn.fast
}

// fastPrefix is the start of a 2026-07-28 resources/read result.
func (s *Server) fastPrefix(sn *snapshot) []byte { return s.fast(sn).prefix }

// impl is the serverInfo the SDK sends.
func (s *Server) impl() *mcp.Implementation {
	return &mcp.Implementation{Name: s.opts.Name, Version: s.opts.Version}
}

// encodeResult encodes a result as the SDK does (encoding/json, HTML
// characters unescaped but where a type's own MarshalJSON escapes them).
func encodeResult(v any) ([]byte, bool) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return nil, false
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), true
}

// listPage returns the skills/list result of the page starting at entry
// i, as listSkills builds it and the SDK encodes it; a page at a multiple
// of the page size is kept, in its envelope, returned too (nil: not kept).
func (s *Server) listPage(sn *snapshot, i int, perRequest bool) ([]byte, *envelope, bool) {
	v := 0
	if perRequest {
		v = 1
	}
	var slot *atomic.Pointer[envelope]
	if i%s.opts.PageSize == 0 {
		fs := s.fast(sn)
		slot = &fs.pages[i/s.opts.PageSize][v]
		if e := slot.Load(); e != nil {
			return e.result(), e, true
		}
	}
	end := min(i+s.opts.PageSize, len(sn.entries))
	res := &skillsext.ListSkillsResult{Skills: make([]*skillsext.SkillEntry, 0, end-i)}
	for _, sv := range sn.entries[i:end] {
		res.Skills = append(res.Skills, sv.entry)
	}
	if end < len(sn.entries) {
		res.NextCursor = encodeCursor(sn.entries[end-1].uri)
	}
	if perRequest {
		ttl := int(s.opts.CacheTTL / time.Millisecond)
		res.ResultType, res.TTLMs, res.CacheScope = "complete", &ttl, "public"
		res.Meta = mcp.Meta{mcp.MetaKeyServerInfo: s.impl()}
	}
	out, ok := encodeResult(res)
	if ok && slot != nil {
		if e := keepEnvelope(sn, slot, newEnvelope(out)); e != nil {
			return e.result(), e, true
		}
	}
	return out, nil, ok
}

// toolResultComplete decodes into a CallToolResult with the result type
// "complete", which the SDK sets on 2026-07-28 and offers no setter for.
var toolResultComplete = []byte(`{"content":[],"resultType":"complete"}`)

// toolAnswer returns the tools/call result of the load tool for
// {"name": name}, as callTool builds it and the SDK encodes it, kept per
// snapshot. The tool reads only the snapshot, so its answer for a name is
// the same for the snapshot's life; it is worked out under a context that
// is not cancelled, so a client gone does not leave a "cancelled" answer
// behind. The envelope it is kept in is returned too (nil: not kept).
func (s *Server) toolAnswer(ctx context.Context, sn *snapshot, name string, perRequest bool) ([]byte, *envelope, bool) {
	v := 0
	if perRequest {
		v = 1
	}
	slot := &s.fast(sn).tools[name][v]
	if e := slot.Load(); e != nil {
		return e.result(), e, true
	}
	args, err := json.Marshal(map[string]string{"name": name})
	if err != nil {
		return nil, nil, false
	}
	ctx = context.WithValue(context.WithoutCancel(ctx), snapKey{}, sn)
	tr := s.tool.Call(ctx, args)
	var res mcp.CallToolResult
	if perRequest {
		if json.Unmarshal(toolResultComplete, &res) != nil {
			return nil, nil, false
		}
		res.Meta = mcp.Meta{mcp.MetaKeyServerInfo: s.impl()}
	}
	res.Content = []mcp.Content{&mcp.TextContent{Text: tr.Text}}
	res.IsError = tr.IsError
	out, ok := encodeResult(&res)
	if ok {
		if e := keepEnvelope(sn, slot, newEnvelope(out)); e != nil {
			return e.result(), e, true
		}
	}
	return out, nil, ok
}

// The answer's headers, as the SDK writes them.
var (
	headerJSON    = []string{"application/json"}
	headerNoCache = []string{"no-cache, no-transform"}
)

// writeFast writes the JSON-RPC answer of id whose result is the
// concatenation of parts, as the SDK writes an answer: its two headers and
// the whole answer in one Write (each Write of the guarded writer sets a
// deadline and reaches the connection on its own), and no Content-Length
// of its own, so net/http frames it as it frames the SDK's: a
// Content-Length it works out up to its 2 KiB buffer, chunked beyond, in
// one chunk on a connection Serve paces (paceConn), else one chunk per
// write deadline's share of 64 KiB (TestFastPathWireIsTheSDKs).
//
// writeKept writes an answer the fast path keeps in its envelope without
// this copy; writeFast writes the others (a page at a cursor, an answer
// not kept, a file read by another protocol's kind than the first, an
// answer whose envelope another request holds).
//
// The answer is made in a pooled buffer (a skills/list page is about 100
// KB, so the buffer is kept for the next answer up to maxPooledAnswer).
func writeFast(w http.ResponseWriter, id []byte, parts ...[]byte) error {
	bp := fastBufs.Get().(*[]byte)
	b := append((*bp)[:0], answerStart...)
	b = append(b, id...)
	b = append(b, `,"result":`...)
	for _, p := range parts {
		b = append(b, p...)
	}
	b = append(b, '}')
	h := w.Header()
	h["Content-Type"] = headerJSON
	h["Cache-Control"] = headerNoCache
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(b)
	if cap(b) <= maxPooledAnswer {
		*bp = b
		fastBufs.Put(bp)
	}
	return err
}

// answerStart is the start of every answer writeFast writes, up to its id.
const answerStart = `{"jsonrpc":"2.0","id":`

// maxPooledAnswer bounds the buffers kept for the next answer.
const maxPooledAnswer = 1 << 20

var fastBufs = sync.Pool{New: func() any { return new([]byte) }}

// Bounds of the fast path's encoded answers: a file's contents element,
// a skills/list page or a tool answer is kept once made when it is at most
// maxEncodedFile bytes (and a file's at most twice the file's size plus
// its URI, so text full of escapes is encoded per request instead), and
// while the answers kept since the snapshot was made hold at most
// maxEncodedBytes (a file carried into the next snapshot keeps its
// element, so what is kept is at most twice the bytes served).
const (
	maxEncodedFile  = 1 << 20
	maxEncodedBytes = 32 << 20
)

// encodedContents returns the JSON of the contents element of file f (what
// contents makes of it), as the SDK encodes it (mcp.ReadResourceResult's
// MarshalJSON is json.Marshal: <, > and & in a file's text go out as
// \u003c, \u003e and \u0026), kept on the file within the bounds above
// in the envelope of the answer of the kind of the request that read it
// first (perRequest, with prefix: fastRead's parts), which it returns when
// the request is of that kind (nil: the answer is made of the parts). One
// envelope a file, so a file keeps its element once, whatever the kinds
// of the requests that read it.
func encodedContents(sn *snapshot, f *file, prefix []byte, perRequest bool) ([]byte, *envelope, bool) {
	if k := f.encoded.Load(); k != nil {
		if k.perRequest != perRequest {
			return k.elem, nil, true
		}
		return k.elem, k.e, true
	}
	c, _, err := contents(sn, f.uri)
	if err != nil {
		return nil, nil, false
	}
	out, err := json.Marshal(c)
	if err != nil {
		return nil, nil, false
	}
	if n := int64(len(out)); n > 2*f.size+int64(len(f.uri))+256 || n > maxEncodedFile {
		return out, nil, true
	}
	var e *envelope
	head := len(resultContentsOpen)
	if perRequest {
		e, head = newEnvelope(prefix, contentsOpen, out, contentsCloseComplete), len(prefix)+len(contentsOpen)
	} else {
		e = newEnvelope(resultContentsOpen, out, resultContentsClose)
	}
	if !chargeKept(sn, e.size()) {
		return out, nil, true
	}
	k := &keptContents{e: e, elem: e.result()[head : head+len(out)], perRequest: perRequest}
	if !f.encoded.CompareAndSwap(nil, k) {
		sn.encodedBytes.Add(-e.size())
		return encodedContents(sn, f, prefix, perRequest)
	}
	return k.elem, e, true
}

// keptContents is a file's contents element as the fast path keeps it: a
// slice of the envelope of a resources/read answer, of protocol 2026-07-28
// (perRequest) or before.
type keptContents struct {
	e          *envelope
	elem       []byte
	perRequest bool
}

// header returns the first value of the header key, as h.Get(key) does
// without putting key in canonical form again on every request: key must
// be canonical already (TestHeaderKeysCanonical).
func header(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// plainID returns a request id as the SDK would write it back: a decimal
// integer of at most 2^53 in magnitude (the SDK holds numeric ids as
// float64; larger ones go on to be refused, mcpline.CheckID), or a
// string of printable ASCII without escapes. Any other id is left to the
// SDK.
func plainID(raw []byte) ([]byte, bool) {
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
	if len(values) == 1 && values[0] == "application/json, text/event-stream" {
		return true // what clients send, read without splitting it
	}
	var j, e bool
	for _, v := range values {
		for part := range strings.SplitSeq(v, ",") {
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
// (netip's IsLoopback takes an IPv4 address written as IPv6, and a zone,
// as the address.) The guard's check of every path (checkHostOrigin) uses
// it too.
func isLoopbackAddr(addr string) bool {
	// The Host a local client sends, "127.0.0.1:PORT" or
	// "localhost:PORT": net.SplitHostPort finds that host whenever the
	// rest holds no colon and no bracket (it checks no port), so it is
	// loopback without splitting and parsing it, a thousand instructions
	// a request.
	for _, local := range [...]string{"127.0.0.1:", "localhost:"} {
		if rest, ok := strings.CutPrefix(addr, local); ok && !strings.ContainsAny(rest, ":[]") {
			return true
		}
	}
	// net.SplitHostPort fails (missing port) without a colon, or with a
	// bracket that closes at the end, and its error is an allocation: a
	// Host header without a port takes the error's branch without one.
	host := strings.Trim(addr, "[]")
	noPort := strings.IndexByte(addr, ':') < 0 ||
		strings.HasPrefix(addr, "[") && strings.IndexByte(addr, ']') == len(addr)-1
	if !noPort {
		h, _, err := net.SplitHostPort(addr)
		if err == nil {
			host = h
		}
	}
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// localLoopback reports whether r arrived on a loopback address: what
// isLoopbackAddr says of the String of the connection's local address
// (http.LocalAddrContextKey), false when there is none. A TCP address
// without a zone is judged from its IP, as net.IP.IsLoopback judges it
// (an IPv4 address in 127.0.0.0/8, also written as IPv6, or ::1), without
// writing it out: TCPAddr.String allocates on every request. Any other
// address goes through its String (TestLocalLoopbackIsTheString).
func localLoopback(r *http.Request) bool {
	la, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || la == nil {
		return false
	}
	if t, ok := la.(*net.TCPAddr); ok && t != nil && t.Zone == "" &&
		(len(t.IP) == net.IPv4len || len(t.IP) == net.IPv6len) {
		return t.IP.IsLoopback()
	}
	return isLoopbackAddr(la.String())
}
