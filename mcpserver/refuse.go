package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/skillet-go/skillet/internal/mcpline"
)

// Cheap refusals (docs/serving.md#limits): a request whose id, method or
// URI is far larger than any real one, or a batch, is refused from the
// body as read, by scanning it in place, before the SDK decodes it into
// copies (a 4 MiB URI cost about 80 MiB to refuse that way, and a batch
// of 20,000 pings seconds).
const (
	// maxIDBytes bounds a request id as written.
	maxIDBytes = 1 << 10
	// maxMethodBytes bounds a method name as written.
	maxMethodBytes = 1 << 10
	// maxURIBytes bounds params.uri as written: a skill name (64
	// characters) and a path (PATH_MAX, 4,096 bytes) fit many times over.
	maxURIBytes = 16 << 10
)

// batchCutoff is the first protocol version without JSON-RPC batches.
const batchCutoff = "2025-06-18"

// refuseCheaply answers body (valid JSON, one HTTP request's) itself when
// it must be refused for its shape, and reports whether it did: a batch
// on a protocol without batches (400, the SDK's text), or a message
// refusedShape refuses (400, its error response).
func refuseCheaply(w http.ResponseWriter, r *http.Request, body []byte) bool {
	i := skipSpace(body, 0)
	if i < len(body) && body[i] == '[' {
		if v := r.Header.Get("Mcp-Protocol-Version"); v >= batchCutoff {
			http.Error(w, fmt.Sprintf("JSON-RPC batching is not supported in %s and later (request version: %s)", batchCutoff, clipURI(v)), http.StatusBadRequest)
			return true
		}
		return false
	}
	answer := refusedShape(body)
	if answer == nil {
		return false
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	_, _ = w.Write(answer)
	return true
}

// refuseLine is refusedShape for a line of the stdio transport, which may
// be anything: a line that is not JSON is left to the transport.
func refuseLine(line []byte) []byte {
	if !json.Valid(line) {
		return nil
	}
	return refusedShape(line)
}

// refusedShape returns the error response to msg (valid JSON, one message)
// when its shape is refused, else nil: an id or a method over its bound
// (-32600), a params.uri over its bound (-32602, with the id when it is
// small). It reads msg in place, never decoding a copy. A member counts
// as the SDK's decoder counts it (go-sdk v1.8.0: DecodeMessage in
// internal/jsonrpc2/messages.go and the params of each method, decoded by
// internal/json/json.go's Unmarshal, which is segmentio/encoding's with
// DontMatchCaseInsensitiveStructFields): its name, escapes decoded, is
// exactly "id", "method", "params" or "uri", in that letter case, so
// "ID", "Params" or "paramſ" are not (encoding/json would take them); of
// members of the same name the last counts. TestRefusedNamesAreTheSDKs
// holds that to the SDK itself.
func refusedShape(msg []byte) []byte {
	if len(msg) <= minRefusedBytes {
		return nil // no id, method or uri of msg can be over its bound
	}
	var id, method, params []byte
	eachMember(msg, func(name, v []byte) {
		switch {
		case bytes.Equal(name, nameID):
			id = v
		case bytes.Equal(name, nameMethod):
			method = v
		case bytes.Equal(name, nameParams):
			params = v
		}
	})
	if len(id) > maxIDBytes {
		return mcpline.ErrorResponse(jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: the id is %d bytes; at most %d", len(id), maxIDBytes))
	}
	refuse := func(code int64, text string) []byte {
		if len(id) == 0 {
			return mcpline.ErrorResponse(jsonrpc.ID{}, code, text)
		}
		return mcpline.ErrorResponseRawID(bytes.TrimSpace(id), code, text)
	}
	if len(method) > maxMethodBytes {
		return refuse(jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: the method is %d bytes; at most %d", len(method), maxMethodBytes))
	}
	var uri []byte
	eachMember(params, func(name, v []byte) {
		if bytes.Equal(name, nameURI) {
			uri = v
		}
	})
	if len(uri) > maxURIBytes {
		return refuse(jsonrpc.CodeInvalidParams, fmt.Sprintf("the uri is %d bytes; at most %d (%s)", len(uri), maxURIBytes, clipURI(string(uri[:min(len(uri), 256)]))))
	}
	return nil
}

// The member names refusedShape looks for.
var (
	nameID     = []byte("id")
	nameMethod = []byte("method")
	nameParams = []byte("params")
	nameURI    = []byte("uri")
)

// minRefusedBytes is the least of the bounds refusedShape checks: a
// message no longer than it holds no value over any of them (a value is a
// slice of the message), so it is not read at all.
const minRefusedBytes = min(maxIDBytes, maxMethodBytes, maxURIBytes)

// maxEscapedName bounds the spelling of a member name (quotes included)
// that eachMember decodes: any name of at most (maxEscapedName-2)/6 = 10
// bytes, each written as a six-byte \uXXXX escape, fits, and so do the
// names refusedShape looks for.
const maxEscapedName = 64

// eachMember calls fn with each member of data if it is a JSON object
// (valid JSON), in order, its name and value as written (slices of data,
// not copies). A name with escapes or bytes that are not UTF-8 is decoded
// (into a copy) when its spelling is at most maxEscapedName bytes, so
// that any name of up to 10 bytes is, else passed as nil.
func eachMember(data []byte, fn func(name, value []byte)) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return
	}
	i = skipSpace(data, i+1)
	for i < len(data) && data[i] == '"' {
		end, err := scanString(data, i)
		if err != nil {
			return
		}
		raw := data[i:end]
		var name []byte
		switch {
		case len(raw) > maxEscapedName:
			// Longer than any name looked for, even escaped: not copied.
		case bytes.IndexByte(raw, '\\') >= 0 || !utf8.Valid(raw):
			var decoded string
			_ = json.Unmarshal(raw, &decoded) // as the decoder reads it
			name = []byte(decoded)
		default:
			name = raw[1 : len(raw)-1]
		}
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return
		}
		i = skipSpace(data, i+1)
		vend, err := scanValue(data, i, 0)
		if err != nil {
			return
		}
		fn(name, data[i:vend])
		i = skipSpace(data, vend)
		if i >= len(data) || data[i] != ',' {
			return
		}
		i = skipSpace(data, i+1)
	}
}
