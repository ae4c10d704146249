package mcpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/skillet-go/skillet/mcpserver/skillsext"
)

// The stateless fast path's initialize (docs/performance.md#serving).
// Every request of a stateless client on a protocol before 2026-07-28 may
// begin with initialize, and through the SDK each one costs a temporary
// session and several decodes of the request, each with a buffer of its
// own (about 370 KB allocated per initialize). Its result depends on
// nothing the client sends but the protocol version it asks for and
// whether it declares the Skills Extension (which instructions it gets,
// decorate), and on the snapshot (the instructions). So the fast path lets
// the SDK answer the first plain initialize of each such kind per
// snapshot, keeps the result the SDK wrote, and answers the next ones of
// that kind with it: the bytes are the SDK's own, and only the id differs.
// A plain initialize is exactly {protocolVersion, capabilities,
// clientInfo}, each as the SDK decodes without error (plainCaps,
// plainClientInfo), with no Mcp-Protocol-Version header and no _meta.

// maxInitKinds bounds the initialize results kept per snapshot (they also
// count towards maxEncodedBytes): a client choosing a new protocol version
// string for each request gets the SDK's answer every time once they are
// kept, never a memory that grows. Real clients ask for one of a handful of
// versions, with or without the extension.
const maxInitKinds = 32

// initKind is what an initialize result depends on besides the snapshot.
type initKind struct {
	version   string // the protocol version asked for, as sent
	extension bool   // the client declares the Skills Extension
}

// initResults are the initialize results the SDK wrote for a snapshot,
// by kind.
type initResults struct {
	mu sync.Mutex
	m  map[initKind][]byte
}

func (ir *initResults) get(k initKind) ([]byte, bool) {
	ir.mu.Lock()
	defer ir.mu.Unlock()
	res, ok := ir.m[k]
	return res, ok
}

func (ir *initResults) room() bool {
	ir.mu.Lock()
	defer ir.mu.Unlock()
	return len(ir.m) < maxInitKinds
}

// put keeps res for k while there is room, and while the snapshot's kept
// answers stay within maxEncodedBytes.
func (ir *initResults) put(sn *snapshot, k initKind, res []byte) {
	ir.mu.Lock()
	defer ir.mu.Unlock()
	if _, ok := ir.m[k]; ok || len(ir.m) >= maxInitKinds {
		return
	}
	if n := int64(len(res)); sn.encodedBytes.Add(n) > maxEncodedBytes {
		sn.encodedBytes.Add(-n)
		return
	}
	if ir.m == nil {
		ir.m = map[initKind][]byte{}
	}
	ir.m[k] = res
}

// plainInit returns the kind of a plain initialize's params (above).
func plainInit(params []member) (initKind, bool) {
	if len(params) != 3 {
		return initKind{}, false
	}
	v, ok := plainString(get(params, "protocolVersion"))
	if !ok || len(v) == 0 || len(v) > 64 {
		return initKind{}, false
	}
	caps := get(params, "capabilities")
	if caps == nil || !plainCaps(caps) || !plainClientInfo(get(params, "clientInfo")) {
		return initKind{}, false
	}
	var cbuf [16]member
	cs, _ := objectMembers(caps, cbuf[:0]) // plainCaps read it
	ext := false
	if e := get(cs, "extensions"); e != nil {
		var ebuf [16]member
		es, _ := objectMembers(e, ebuf[:0])
		ext = get(es, skillsext.ExtensionID) != nil
	}
	return initKind{version: string(v), extension: ext}, true
}

// fastInit answers a plain initialize from the result the SDK wrote for
// its kind in this snapshot, or lets the SDK answer it and keeps that
// result. It reports whether the request was answered (false: the caller
// hands it to the SDK).
func (s *Server) fastInit(w http.ResponseWriter, r *http.Request, req fastRequest, body []byte, sdk http.Handler) bool {
	kind, ok := plainInit(req.params)
	if !ok || sdk == nil {
		return false
	}
	sn := s.snap.Load()
	results := &s.fast(sn).inits
	if res, ok := results.get(kind); ok {
		start := time.Now()
		err := writeFast(w, req.id, res)
		s.metrics.observe(req.method, time.Since(start), err)
		s.fastHits.Add(1)
		return true
	}
	if !results.room() {
		return false
	}
	// The SDK answers this one, and what it wrote is kept when it is the
	// plain answer writeFast would write around it.
	tee := &teeWriter{ResponseWriter: w, limit: maxEncodedFile}
	r2 := r.Clone(r.Context())
	r2.Body = io.NopCloser(bytes.NewReader(body))
	sdk.ServeHTTP(tee, r2)
	if res, ok := tee.result(req.id); ok {
		results.put(sn, kind, res)
	}
	return true
}

// teeWriter passes an answer on to the client and keeps a copy of its
// status, headers and first limit bytes.
type teeWriter struct {
	http.ResponseWriter
	limit  int
	status int
	header http.Header
	body   bytes.Buffer
	over   bool
}

func (t *teeWriter) WriteHeader(code int) {
	if t.status == 0 {
		t.status = code
		t.header = t.ResponseWriter.Header().Clone()
	}
	t.ResponseWriter.WriteHeader(code)
}

func (t *teeWriter) Write(p []byte) (int, error) {
	if t.status == 0 {
		t.WriteHeader(http.StatusOK)
	}
	if t.body.Len()+len(p) <= t.limit {
		t.body.Write(p)
	} else {
		t.over = true
	}
	return t.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (t *teeWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }

// result returns the JSON-RPC result of the answer kept, when the answer
// is exactly what writeFast writes around it for id: status 200, only its
// two headers with their values, and the body {"jsonrpc":"2.0","id":ID,
// "result":RESULT} with nothing before or after.
func (t *teeWriter) result(id []byte) ([]byte, bool) {
	if t.over || t.status != http.StatusOK || len(t.header) != 2 ||
		!slices.Equal(t.header["Content-Type"], headerJSON) || !slices.Equal(t.header["Cache-Control"], headerNoCache) {
		return nil, false
	}
	prefix := append(append([]byte(`{"jsonrpc":"2.0","id":`), id...), `,"result":`...)
	b := t.body.Bytes()
	if !bytes.HasPrefix(b, prefix) || !bytes.HasSuffix(b, []byte("}")) {
		return nil, false
	}
	res := b[len(prefix) : len(b)-1]
	if len(res) == 0 || res[0] != '{' || !json.Valid(res) {
		return nil, false
	}
	return bytes.Clone(res), true
}
