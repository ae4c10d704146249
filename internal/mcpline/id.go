package mcpline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxExactID is 2^53: every integer up to it in magnitude is a float64
// exactly, and the SDK reads a numeric JSON-RPC id as a float64 and
// answers with its int64 conversion (go-sdk v1.8.0, jsonrpc2.MakeID).
const maxExactID = 1 << 53

// CheckID returns an error for a request id this server does not answer
// with exactly as sent, so that the client could not match the answer:
//   - null: JSON-RPC 2.0 allows it but reserves null for the answer to a
//     request whose id could not be read, and MCP requires a string or an
//     integer (https://modelcontextprotocol.io/specification/2025-11-25/basic#requests);
//     the SDK takes a request with "id": null for a notification and never
//     answers it.
//   - a number the SDK cannot hold exactly: one with a fractional part (1.5
//     comes back as 1) or beyond ±2^53 (9007199254740993 comes back as
//     9007199254740992, anything past int64 as -9223372036854775808, so two
//     requests could share an id).
//   - an integer not in its plain spelling: -0, 1.0, 1e3 or 1E+2 come back
//     as 0, 1, 1000 and 100 (the SDK reads a number's value, not its text).
//
// Strings and plain integers from -2^53 to 2^53 (an optional "-" and
// digits without a leading zero) are nil, and so is an absent id (raw is
// nil: a notification) and a value that is no number at all, which the SDK
// refuses itself. raw is the id's JSON.
func CheckID(raw json.RawMessage) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] == '"' {
		return nil
	}
	if bytes.Equal(raw, []byte("null")) {
		return errNullID
	}
	if c := raw[0]; c != '-' && (c < '0' || c > '9') {
		return nil // not a number: the SDK judges it
	}
	if plainInt(raw) {
		return nil // at most 15 digits: below 2^53
	}
	bad := fmt.Errorf("the id %s is a number this server cannot answer with exactly (an integer from -2^53 to 2^53, or a string); send it as a string", clip(raw))
	// A number in range needs no more than 64 characters, nor an exponent
	// past a few hundred; the bounds keep the exact arithmetic below cheap.
	if len(raw) > 64 {
		return bad
	}
	if i := bytes.IndexAny(raw, "eE"); i >= 0 {
		if exp, err := strconv.Atoi(strings.TrimPrefix(string(raw[i+1:]), "+")); err != nil || exp > 400 || exp < -400 {
			return bad
		}
	}
	r, ok := new(big.Rat).SetString(string(raw))
	if !ok {
		return nil // not a number: the SDK judges it
	}
	if !r.IsInt() || new(big.Rat).Abs(r).Cmp(big.NewRat(maxExactID, 1)) > 0 {
		return bad
	}
	if s := r.FloatString(0); s != string(raw) {
		return fmt.Errorf("the id %s is an integer not in plain digits, which would come back as %s; send it as %s or as a string", raw, s, s)
	}
	return nil
}

// errNullID is CheckID's error for "id": null.
var errNullID = errors.New(`the id null is not allowed in an MCP request (a string or an integer is; a message without an id is a notification)`)

// RequestID returns the id of a JSON-RPC request object (one with a
// method) as raw JSON, or nil for anything else (a notification, a
// response, a batch, not JSON).
func RequestID(msg []byte) json.RawMessage {
	var probe struct {
		ID     json.RawMessage `json:"id"`
		Method *string         `json:"method"`
	}
	if json.Unmarshal(msg, &probe) != nil || probe.Method == nil {
		return nil
	}
	return probe.ID
}

// ErrorResponseRawID is [ErrorResponse] with the id written as the raw
// JSON the client sent, byte for byte (an id the SDK would mangle).
func ErrorResponseRawID(id json.RawMessage, code int64, msg string) []byte {
	data, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc.Error  `json:"error"`
	}{"2.0", id, &jsonrpc.Error{Code: code, Message: msg}})
	return data
}

func clip(b []byte) string {
	if len(b) > 64 {
		return string(b[:64]) + "..."
	}
	return string(b)
}

// plainInt reports whether raw is an optional "-" and 1 to 15 digits,
// without a leading zero and other than -0.
func plainInt(raw []byte) bool {
	digits := bytes.TrimPrefix(raw, []byte("-"))
	if len(digits) == 0 || len(digits) > 15 || (digits[0] == '0' && len(raw) > 1) {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
