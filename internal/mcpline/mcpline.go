// Package mcpline is the stdio transport of MCP (one JSON-RPC message a
// line) that survives bad input; package mcpserver serves over it in
// Server.RunStdio. See docs/mcp.md.
package mcpline

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxLineBytes is the largest message a [Transport] reads when
// MaxLineBytes is 0.
const DefaultMaxLineBytes = 4 << 20 // 4 MiB, the HTTP transport's default body limit

// Transport is the stdio transport of MCP (one JSON-RPC message per
// line) made to survive bad input: a line that is not JSON or not a
// JSON-RPC message gets an error response (-32700 parse error, -32600
// invalid request) and a line over MaxLineBytes is skipped with -32600,
// where the SDK's own stdio transport ends the session. JSON-RPC batches,
// which MCP dropped in 2025-06-18, get -32600 too, and so does a request
// whose id the answer could not carry as sent (a number the SDK would not
// answer with exactly, an integer not in plain digits, null: [CheckID]),
// with its id as sent.
type Transport struct {
	Reader io.Reader
	Writer io.Writer
	// MaxLineBytes bounds one message (0: DefaultMaxLineBytes).
	MaxLineBytes int
	// Refuse, when set, sees each line that is no batch before it is
	// decoded (the line as read, which may be anything); an answer it
	// returns is written in place of the message's, and the line is
	// dropped. The server refuses there what is too large to decode
	// (docs/serving.md#limits).
	Refuse func(line []byte) []byte
}

// Connect implements [mcp.Transport].
func (t *Transport) Connect(context.Context) (mcp.Connection, error) {
	limit := t.MaxLineBytes
	if limit <= 0 {
		limit = DefaultMaxLineBytes
	}
	c := &lineConn{w: t.Writer, refuse: t.Refuse, in: make(chan lineMsg), closed: make(chan struct{})}
	go c.read(bufio.NewReaderSize(t.Reader, 64<<10), limit)
	return c, nil
}

type lineMsg struct {
	msg jsonrpc.Message
	err error
}

type lineConn struct {
	w         io.Writer
	refuse    func([]byte) []byte
	writeMu   sync.Mutex
	in        chan lineMsg
	closed    chan struct{}
	closeOnce sync.Once
}

// read delivers the messages of r, answering bad lines itself.
func (c *lineConn) read(r *bufio.Reader, limit int) {
	for {
		line, tooLong, err := readLine(r, limit)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			if msg := c.decode(line, tooLong, limit); msg != nil {
				select {
				case c.in <- lineMsg{msg: msg}:
				case <-c.closed:
					return
				}
			}
		}
		if err != nil {
			select {
			case c.in <- lineMsg{err: err}:
			case <-c.closed:
			}
			return
		}
	}
}

// readLine reads up to the next newline. A line over limit is read to its
// end and dropped (tooLong). A long line's buffer doubles as it grows,
// so reading it allocates about twice its length (append grows a large
// slice by a quarter: five times).
func readLine(r *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > limit+2 { // + "\r\n"
				tooLong, line = true, nil
			} else {
				if len(line)+len(chunk) > cap(line) {
					line = append(make([]byte, 0, max(2*cap(line), len(line)+len(chunk))), line...)
				}
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return line, tooLong, err
	}
}

// decode parses one line; for a bad one it writes the error response and
// returns nil.
func (c *lineConn) decode(line []byte, tooLong bool, limit int) jsonrpc.Message {
	var id jsonrpc.ID
	var code int64
	var msg string
	switch {
	case tooLong:
		code, msg = jsonrpc.CodeInvalidRequest, fmt.Sprintf("the message is longer than %d bytes", limit)
	case bytes.HasPrefix(bytes.TrimSpace(line), []byte("[")):
		code, msg = jsonrpc.CodeInvalidRequest, "JSON-RPC batches are not supported (MCP dropped them in 2025-06-18)"
	default:
		if c.refuse != nil {
			if answer := c.refuse(bytes.TrimSpace(line)); answer != nil {
				_ = c.writeRaw(answer)
				return nil
			}
		}
		if raw := RequestID(line); raw != nil {
			if err := CheckID(raw); err != nil {
				_ = c.writeRaw(ErrorResponseRawID(bytes.TrimSpace(raw), jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error()))
				return nil
			}
		}
		m, err := jsonrpc.DecodeMessage(bytes.TrimSpace(line))
		if err == nil {
			return m
		}
		var probe struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(line, &probe) != nil {
			code, msg = jsonrpc.CodeParseError, "the line is not JSON"
			break
		}
		code, msg = jsonrpc.CodeInvalidRequest, "not a JSON-RPC message: "+err.Error()
		var raw any
		if json.Unmarshal(probe.ID, &raw) == nil {
			if v, err := jsonrpc.MakeID(raw); err == nil {
				id = v
			}
		}
	}
	_ = c.writeRaw(ErrorResponse(id, code, msg))
	return nil
}

// ErrorResponse is a JSON-RPC error response. A request whose id could not
// be read is answered with "id": null, as JSON-RPC 2.0 requires (section
// 5), where the SDK's encoder would leave the id out.
func ErrorResponse(id jsonrpc.ID, code int64, msg string) []byte {
	var rid any // null
	if id.IsValid() {
		rid = id.Raw()
	}
	data, _ := json.Marshal(struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      any            `json:"id"`
		Error   *jsonrpc.Error `json:"error"`
	}{"2.0", rid, &jsonrpc.Error{Code: code, Message: msg}})
	return data
}

func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case m := <-c.in:
		return m.msg, m.err
	case <-c.closed:
		return nil, io.EOF
	}
}

func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a message: %w", err)
	}
	return c.writeRaw(data)
}

// writeRaw writes one encoded message and its newline.
func (c *lineConn) writeRaw(data []byte) error {
	data = append(data, '\n')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	select {
	case <-c.closed:
		return io.ErrClosedPipe
	default:
	}
	_, err := c.w.Write(data)
	return err
}

func (c *lineConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

func (c *lineConn) SessionID() string { return "" }
