package mcpserver

import (
	"bytes"
	"encoding/binary"
	"sync/atomic"
	"unicode/utf8"

	"github.com/skillet-go/skillet/internal/swar"
)

// The fast path's reading of a request (docs/performance.md#serving): one
// pass over the body that finds the method, the id, the params' members
// and checks the 2026-07-28 _meta where it stands, each nested object read
// once. TestOnePassIsTwoPass and FuzzOnePassIsTwoPass hold it to the
// reading it replaced, which split each object into members and then read
// each member's value again (so _meta was read four times).

// fastRequest is a request the fast path may answer: its method, its id
// as the SDK would write it back, and its params other than _meta.
type fastRequest struct {
	method string
	id     []byte
	params []member
}

// maxMembers bounds the members of an object the scanner reads, as the
// fixed arrays it keeps their names in.
const maxMembers = 16

// scanMembers reads the object at data[i] (after any white space there),
// calling value for each member with its name (a slice of data) and the
// index of its value; value returns the index after the value, or false.
// It fails on anything but an object, on more than max members (max at
// most maxMembers), on a name with an escape, a control byte or bytes
// that are not UTF-8, and on a name given twice (decoders differ on which
// one counts). It returns the index after the object.
func scanMembers(data []byte, i, max int, value func(name []byte, j int) (int, bool)) (int, bool) {
	if i >= len(data) || data[i] != '{' {
		return 0, false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return i + 1, true
	}
	var names [maxMembers][]byte
	n := 0
	for {
		end, err := scanString(data, i)
		if err != nil || n == max {
			return 0, false
		}
		name := data[i+1 : end-1]
		if !plainText(name) {
			return 0, false
		}
		for _, seen := range names[:n] {
			if string(seen) == string(name) {
				return 0, false
			}
		}
		names[n] = name
		n++
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return 0, false
		}
		i = skipSpace(data, i+1)
		if i >= len(data) {
			return 0, false
		}
		vend, ok := value(name, i)
		if !ok {
			return 0, false
		}
		i = skipSpace(data, vend)
		if i < len(data) && data[i] == ',' {
			i = skipSpace(data, i+1)
			continue
		}
		if i < len(data) && data[i] == '}' {
			return i + 1, true
		}
		return 0, false
	}
}

// plainText reports whether b, the inside of a JSON string, holds no
// escape, no control byte (which JSON has no raw form of) and only valid
// UTF-8 (decoders read other bytes as U+FFFD), so that every decoder
// reads it as written.
func plainText(b []byte) bool {
	// Eight bytes at a time while none is a control byte, a backslash or
	// above ASCII (swar: a word is flagged only when one of its bytes
	// is); from the first word flagged, byte by byte. A request's
	// strings are its names, its method, its URI and its client's
	// identity: this took about a tenth of a request's instructions byte
	// by byte.
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		if swar.ControlOrHigh(x)|swar.Zero(x^(swar.Ones*'\\')) != 0 {
			break
		}
	}
	b = b[i:] // what came before is ASCII: valid UTF-8 on its own
	ascii := true
	for _, c := range b {
		if c < 0x20 || c == '\\' {
			return false
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	return ascii || utf8.Valid(b)
}

// scanPlainString returns the index after the plain string (plainText)
// at data[i] and its text.
func scanPlainString(data []byte, i int) (int, []byte, bool) {
	end, err := scanString(data, i)
	if err != nil || !plainText(data[i+1:end-1]) {
		return 0, nil, false
	}
	return end, data[i+1 : end-1], true
}

// parseFastRequest reads a body that is exactly one request object: the
// members jsonrpc ("2.0"), id, method and params, spelled exactly
// (encoding/json would match names in another letter case), params an
// object of at most four members holding, when perRequest, a _meta of
// exactly the protocol version (the header's), a clientInfo with a name
// and a version, and an object of client capabilities (scanMeta), and
// none otherwise. The params it returns are those other than _meta, in
// buf.
func parseFastRequest(body []byte, version string, perRequest bool, buf []member, metas *metaMemo) (fastRequest, bool) {
	var req fastRequest
	var rpc, hasParams, meta bool
	params := buf[:0]
	param := func(name []byte, k int) (int, bool) {
		if string(name) == "_meta" {
			meta = true
			return metas.scan(body, k, version, perRequest)
		}
		end, err := scanValue(body, k, 0)
		if err != nil || len(params) == cap(params) {
			return 0, false
		}
		params = append(params, member{name, body[k:end]})
		return end, true
	}
	end, ok := scanMembers(body, skipSpace(body, 0), 4, func(name []byte, j int) (int, bool) {
		switch string(name) {
		case "jsonrpc":
			rpc = len(body)-j >= 5 && string(body[j:j+5]) == `"2.0"`
			return j + 5, rpc
		case "id":
			end, err := scanValue(body, j, 0)
			if err != nil {
				return 0, false
			}
			id, ok := plainID(body[j:end])
			req.id = id
			return end, ok
		case "method":
			end, m, ok := scanPlainString(body, j)
			req.method = fastMethod(m)
			return end, ok && req.method != ""
		case "params":
			hasParams = true
			return scanMembers(body, j, 4, param)
		}
		return 0, false
	})
	if !ok || skipSpace(body, end) != len(body) || !rpc || req.id == nil || req.method == "" ||
		!hasParams || meta != perRequest {
		return fastRequest{}, false
	}
	req.params = params
	return req, true
}

// The members of a 2026-07-28 request's _meta.
const (
	metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"
	metaClientInfo      = "io.modelcontextprotocol/clientInfo"
	metaCapabilities    = "io.modelcontextprotocol/clientCapabilities"
)

// scanMeta reads the _meta of a 2026-07-28 request at data[i], when
// perRequest, and returns the index after it: it holds exactly what a
// client must send and nothing the fast path would have to act on, the
// protocol version of the header, a clientInfo (scanClientInfo) and
// client capabilities (scanCaps). Before 2026-07-28 no _meta is taken.
func scanMeta(data []byte, i int, version string, perRequest bool) (int, bool) {
	if !perRequest {
		return 0, false
	}
	n := 0
	end, ok := scanMembers(data, i, 3, func(name []byte, j int) (int, bool) {
		n++
		switch string(name) {
		case metaProtocolVersion:
			end, v, ok := scanPlainString(data, j)
			return end, ok && string(v) == version
		case metaClientInfo:
			return scanClientInfo(data, j)
		case metaCapabilities:
			return scanCaps(data, j)
		}
		return 0, false
	})
	return end, ok && n == 3
}

// metaMemo remembers the last few _meta objects scanMeta took, byte for
// byte with the protocol version it took each for: a client sends the
// same _meta (its version, identity and capabilities) with every request,
// and reading it was about a fifth of the fast path's instructions a
// request. A _meta that begins the rest of a body byte for byte is taken
// as it was, without reading it again: scanMeta looks at no byte past the
// object it takes and decides on nothing but its bytes and the version,
// so it would take it again, up to the same end (TestMetaMemoIsScanMeta,
// FuzzMetaMemoIsScanMeta). Each slot holds one _meta of at most
// maxMemoMeta bytes; a _meta taken that no slot holds replaces the
// oldest, so what a client sends cannot make it grow. A nil memo reads
// every _meta.
type metaMemo struct {
	slots [metaMemoSlots]atomic.Pointer[memoMeta]
	next  atomic.Uint32
}

// memoMeta is one _meta scanMeta took for version.
type memoMeta struct {
	version string
	raw     []byte
}

const (
	// metaMemoSlots is how many _meta objects a server remembers: as
	// many kinds of client as send to it at once, commonly one or two.
	metaMemoSlots = 8
	// maxMemoMeta bounds a remembered _meta (a client's is about 200
	// bytes).
	maxMemoMeta = 512
)

// scan is scanMeta(data, i, version, perRequest), answered from the memo
// when data[i:] begins with a _meta taken before for version.
func (m *metaMemo) scan(data []byte, i int, version string, perRequest bool) (int, bool) {
	if m == nil || !perRequest {
		return scanMeta(data, i, version, perRequest)
	}
	rest := data[i:]
	for k := range m.slots {
		if e := m.slots[k].Load(); e != nil && e.version == version && bytes.HasPrefix(rest, e.raw) {
			return i + len(e.raw), true
		}
	}
	end, ok := scanMeta(data, i, version, perRequest)
	if ok && end-i <= maxMemoMeta {
		e := &memoMeta{version: version, raw: bytes.Clone(data[i:end])}
		m.slots[(m.next.Add(1)-1)%metaMemoSlots].Store(e)
	}
	return end, ok
}

// scanClientInfo reads a client's clientInfo at data[i], one the fast
// path takes, and returns the index after it: the SDK decodes it into an
// mcp.Implementation and refuses the request when a member has another
// type, so only its string members are taken, each a plain string, and a
// name and a version that are not empty.
func scanClientInfo(data []byte, i int) (int, bool) {
	var name, version bool
	end, ok := scanMembers(data, i, 8, func(n []byte, j int) (int, bool) {
		switch string(n) {
		case "name", "version", "title", "description", "websiteUrl":
		default:
			return 0, false
		}
		end, v, ok := scanPlainString(data, j)
		switch string(n) {
		case "name":
			name = len(v) != 0
		case "version":
			version = len(v) != 0
		}
		return end, ok
	})
	return end, ok && name && version
}

// maxPlainDepth bounds the nesting of a client's capabilities the fast
// path takes; the SDK refuses a body nested deeper than 1,000.
const maxPlainDepth = 8

// The member rules of scanPlainObject: which members of an object must
// have which type.
const (
	anyMembers         = iota
	capsMembers        // a ClientCapabilities
	rootsMembers       // its roots
	samplingMembers    // its sampling
	elicitationMembers // its elicitation
)

// scanCaps reads a request's client capabilities at data[i], ones the
// SDK decodes without error, and returns the index after them: objects,
// booleans and plain strings only (no number, which the SDK may fail to
// hold, no null, no array), nested at most maxPlainDepth deep, where each
// member of the SDK's ClientCapabilities has its type (experimental and
// extensions objects, roots an object whose listChanged is a boolean,
// sampling an object whose context and tools are objects, elicitation one
// whose form and url are).
func scanCaps(data []byte, i int) (int, bool) { return scanPlainObject(data, i, 0, capsMembers) }

// scanPlainObject reads, at data[i], an object of at most 16 members of
// plain values (scanPlainValue) that follow the member rule of kind, and
// returns the index after it.
func scanPlainObject(data []byte, i, depth, kind int) (int, bool) {
	if depth >= maxPlainDepth {
		return 0, false
	}
	return scanMembers(data, i, 16, func(name []byte, j int) (int, bool) {
		sub := anyMembers
		switch kind {
		case capsMembers:
			switch string(name) {
			case "experimental", "extensions":
			case "roots":
				sub = rootsMembers
			case "sampling":
				sub = samplingMembers
			case "elicitation":
				sub = elicitationMembers
			default:
				return scanPlainValue(data, j, depth+1, anyMembers)
			}
			if data[j] != '{' {
				return 0, false
			}
		case rootsMembers:
			if string(name) == "listChanged" && data[j] != 't' && data[j] != 'f' {
				return 0, false
			}
		case samplingMembers:
			if (string(name) == "context" || string(name) == "tools") && data[j] != '{' {
				return 0, false
			}
		case elicitationMembers:
			if (string(name) == "form" || string(name) == "url") && data[j] != '{' {
				return 0, false
			}
		}
		return scanPlainValue(data, j, depth+1, sub)
	})
}

// scanPlainValue reads true, false, a plain string or a plain object
// (scanPlainObject, with the member rule kind) at data[i] and returns the
// index after it.
func scanPlainValue(data []byte, i, depth, kind int) (int, bool) {
	switch rest := data[i:]; {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		return i + 4, true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		return i + 5, true
	case rest[0] == '"':
		end, _, ok := scanPlainString(data, i)
		return end, ok
	}
	return scanPlainObject(data, i, depth, kind)
}

// plainCaps reports whether raw, an initialize's client capabilities, is
// one the SDK decodes without error (scanCaps).
func plainCaps(raw []byte) bool {
	end, ok := scanCaps(raw, 0)
	return ok && end == len(raw)
}

// plainClientInfo reports whether raw, an initialize's clientInfo, is one
// the fast path takes (scanClientInfo).
func plainClientInfo(raw []byte) bool {
	end, ok := scanClientInfo(raw, 0)
	return ok && end == len(raw)
}
