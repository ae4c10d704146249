package mcpserver

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"math/bits"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillet-go/skillet/internal/swar"
)

// The SDK writes ttlMs and cacheScope on the results of resources/list,
// resources/templates/list, resources/read, prompts/list and tools/list
// whatever the protocol, but only protocol 2026-07-28 defines them
// (SEP-2549, caching). On earlier protocols the server sends those results
// without the two keys. The fix belongs in the SDK:
// docs/upstream/go-sdk-cache-fields.md is the issue and patch to send, and
// this file goes once a release carries it.

// legacyResult is a result sent on a protocol before 2026-07-28: the
// SDK's result, encoded without the cache fields. Embedding the result
// keeps it an mcp.Result.
type legacyResult struct {
	mcp.Result
}

// MarshalJSON writes the result without its top-level ttlMs and
// cacheScope, nor the resultType the SDK sets for a client that asked for
// 2026-07-28 in initialize though the session speaks 2025-11-25.
func (r legacyResult) MarshalJSON() ([]byte, error) {
	data, err := json.Marshal(r.Result)
	if err != nil {
		return nil, err
	}
	return dropKeys(data, "ttlMs", "cacheScope", "resultType"), nil
}

// withoutCacheFields wraps the results that carry the cache fields.
func withoutCacheFields(res mcp.Result) mcp.Result {
	switch res.(type) {
	case *mcp.ListResourcesResult, *mcp.ListResourceTemplatesResult, *mcp.ReadResourceResult,
		*mcp.ListPromptsResult, *mcp.ListToolsResult:
		return legacyResult{res}
	}
	return res
}

var errJSON = errors.New("not a JSON object")

// dropKeys returns the JSON object data without the top-level members
// named keys (names compared as written, unescaped names only), or data
// itself when it is not a well-formed object. It copies each kept member
// once and decodes nothing.
func dropKeys(data []byte, keys ...string) []byte {
	out, err := dropMembers(data, keys)
	if err != nil {
		return data
	}
	return out
}

func dropMembers(data []byte, keys []string) ([]byte, error) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, errJSON
	}
	out := make([]byte, 0, len(data))
	out = append(out, '{')
	i++
	kept, first := 0, true
	for {
		i = skipSpace(data, i)
		if i >= len(data) {
			return nil, errJSON
		}
		if data[i] == '}' && first {
			i++
			break
		}
		first = false
		start := i
		end, err := scanString(data, i)
		if err != nil {
			return nil, err
		}
		name := string(data[start+1 : end-1])
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return nil, errJSON
		}
		i = skipSpace(data, i+1)
		vend, err := scanValue(data, i, 0)
		if err != nil {
			return nil, err
		}
		drop := false
		for _, k := range keys {
			if name == k {
				drop = true
			}
		}
		if !drop {
			if kept > 0 {
				out = append(out, ',')
			}
			out = append(out, data[start:vend]...)
			kept++
		}
		i = skipSpace(data, vend)
		if i < len(data) && data[i] == ',' {
			i++
			continue
		}
		if i < len(data) && data[i] == '}' {
			i++
			break
		}
		return nil, errJSON
	}
	if skipSpace(data, i) != len(data) {
		return nil, errJSON
	}
	return append(out, '}'), nil
}

func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// scanString returns the index after the string starting at data[i]: the
// first quote after it that no backslash escapes. Eight bytes are passed
// over at once while none of them is a quote or a backslash
// (internal/swar), so most of a request's strings are read a word at a
// time; TestScanString and FuzzScanString hold it to the byte loop.
func scanString(data []byte, i int) (int, error) {
	if i >= len(data) || data[i] != '"' {
		return 0, errJSON
	}
	for i++; i < len(data); i++ {
		for i+8 <= len(data) {
			x := binary.LittleEndian.Uint64(data[i:])
			if m := swar.Zero(x^(swar.Ones*'"')) | swar.Zero(x^(swar.Ones*'\\')); m != 0 {
				i += bits.TrailingZeros64(m) / 8 // the first such byte: the lowest flag is exact
				break
			}
			i += 8
		}
		if i >= len(data) {
			break
		}
		switch data[i] {
		case '\\':
			i++
		case '"':
			return i + 1, nil
		}
	}
	return 0, errJSON
}

// scanValue returns the index after the value starting at data[i].
func scanValue(data []byte, i, depth int) (int, error) {
	if i >= len(data) || depth > 10000 {
		return 0, errJSON
	}
	switch c := data[i]; c {
	case '"':
		return scanString(data, i)
	case '{', '[':
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		i = skipSpace(data, i+1)
		if i < len(data) && data[i] == closing {
			return i + 1, nil
		}
		for {
			if c == '{' {
				end, err := scanString(data, i)
				if err != nil {
					return 0, err
				}
				i = skipSpace(data, end)
				if i >= len(data) || data[i] != ':' {
					return 0, errJSON
				}
				i = skipSpace(data, i+1)
			}
			end, err := scanValue(data, i, depth+1)
			if err != nil {
				return 0, err
			}
			i = skipSpace(data, end)
			if i >= len(data) {
				return 0, errJSON
			}
			if data[i] == closing {
				return i + 1, nil
			}
			if data[i] != ',' {
				return 0, errJSON
			}
			i = skipSpace(data, i+1)
		}
	default:
		j := i
		for j < len(data) && data[j] != ',' && data[j] != '}' && data[j] != ']' &&
			data[j] != ' ' && data[j] != '\t' && data[j] != '\n' && data[j] != '\r' {
			j++
		}
		if j == i || !json.Valid(data[i:j]) {
			return 0, errJSON
		}
		return j, nil
	}
}
