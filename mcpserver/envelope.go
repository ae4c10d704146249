package mcpserver

import (
	"net/http"
	"sync/atomic"
)

// envRoom is the room an envelope leaves before its result: the answer's
// start (answerStart, 22 bytes) and an id of up to 42 bytes.
const envRoom = 64

// resultKey joins an answer's id to its result.
const resultKey = `,"result":`

// envelope is an answer the fast path keeps encoded (a skills/list page, a
// tool's answer, a file's resources/read answer), kept in the JSON-RPC
// answer around it: b is envRoom bytes of room, `,"result":`, the result
// and the closing `}`. A request that takes it (busy) writes the answer's
// start and its id into the room, right before `,"result":`, and writes the
// answer from there in one write: the result is not copied, whatever
// answer the request before it wrote. One request at a time holds an
// envelope; a request that finds it taken, or whose id does not fit the
// room, has the answer made in a pooled buffer instead (writeFast).
type envelope struct {
	b    []byte
	busy atomic.Bool
}

// newEnvelope returns the envelope of the result made of parts.
func newEnvelope(parts ...[]byte) *envelope {
	n := envRoom + len(resultKey) + 1
	for _, p := range parts {
		n += len(p)
	}
	b := make([]byte, envRoom, n)
	b = append(b, resultKey...)
	for _, p := range parts {
		b = append(b, p...)
	}
	return &envelope{b: append(b, '}')}
}

// result is the result e holds, a slice of its bytes.
func (e *envelope) result() []byte { return e.b[envRoom+len(resultKey) : len(e.b)-1] }

// size is what keeping e costs, in bytes.
func (e *envelope) size() int64 { return int64(cap(e.b)) }

// keepEnvelope stores e in *p when its result is at most maxEncodedFile
// bytes and the snapshot's kept bytes stay within maxEncodedBytes, and
// returns what *p then holds: e, or the envelope another request kept
// first, or nil when e was not kept.
func keepEnvelope(sn *snapshot, p *atomic.Pointer[envelope], e *envelope) *envelope {
	if int64(len(e.result())) > maxEncodedFile {
		return nil
	}
	if !chargeKept(sn, e.size()) {
		return nil
	}
	if !p.CompareAndSwap(nil, e) {
		sn.encodedBytes.Add(-e.size())
		return p.Load()
	}
	return e
}

// chargeKept counts n bytes more kept for the snapshot, and reports
// whether they stay within maxEncodedBytes (false: not counted).
func chargeKept(sn *snapshot, n int64) bool {
	if sn.encodedBytes.Add(n) > maxEncodedBytes {
		sn.encodedBytes.Add(-n)
		return false
	}
	return true
}

// writeKept writes the answer of id whose result e holds, as writeFast
// writes it (its two headers, the whole answer in one Write): from e when
// the id fits its room and no other request holds it, else through
// writeFast. e is held until the Write returns: the writers of the fast
// path's answers (net/http's, the guard's outside a stream) keep nothing
// of what they were given once it returns.
func writeKept(w http.ResponseWriter, id []byte, e *envelope) error {
	start := envRoom - len(answerStart) - len(id)
	if start < 0 || !e.busy.CompareAndSwap(false, true) {
		return writeFast(w, id, e.result())
	}
	defer e.busy.Store(false)
	copy(e.b[start:], answerStart)
	copy(e.b[start+len(answerStart):], id)
	h := w.Header()
	h["Content-Type"] = headerJSON
	h["Cache-Control"] = headerNoCache
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(e.b[start:])
	return err
}
