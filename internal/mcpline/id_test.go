package mcpline

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

func TestCheckID(t *testing.T) {
	for _, tt := range []struct {
		raw string
		ok  bool
	}{
		{"", true},
		{"null", false},
		{" null ", false},
		{`"abc"`, true},
		{`"123456789012345678901234"`, true},
		{"0", true},
		{"1", true},
		{"-7", true},
		{"1.0", false},
		{"1e3", false},
		{"-0", false},
		{"-0.0", false},
		{"0e5", false},
		{"01", false},
		{"-01", false},
		{"10", true},
		{"-10", true},
		{"9007199254740992", true},
		{"-9007199254740992", true},
		{"9007199254740993", false},
		{"-9007199254740993", false},
		{"9007199254740993e0", false},
		{"9223372036854775807", false},
		{"123456789012345678901234", false},
		{"1.5", false},
		{"1e-3", false},
		{"1e400", false},
		{"1e999999999", false},
		{"0e999999999", false},
		{"1" + strings.Repeat("0", 100), false},
		{"1." + strings.Repeat("0", 70), false},
		{"1E+2", false},
		{"1000000000000000", true},
		{"0100000000000000", false},
		{"true", true}, // not a number: the SDK refuses it itself
	} {
		err := CheckID(json.RawMessage(tt.raw))
		if (err == nil) != tt.ok {
			t.Errorf("CheckID(%s) = %v, want ok %v", tt.raw, err, tt.ok)
		}
		if err != nil && len(tt.raw) <= 64 && !strings.Contains(err.Error(), "the id "+strings.TrimSpace(tt.raw)+" ") {
			t.Errorf("CheckID(%s): %v does not quote the id", tt.raw, err)
		}
	}
}

// FuzzCheckID: every numeric id CheckID lets through comes back from the
// SDK's reading (float64, then int64) as the same text.
func FuzzCheckID(f *testing.F) {
	for _, s := range []string{"1", "1.5", "9007199254740993", "1e3", "-0", "123456789012345678901234", "1E+2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		var v float64
		if json.Unmarshal([]byte(raw), &v) != nil || CheckID(json.RawMessage(raw)) != nil {
			return
		}
		if got := strconv.FormatInt(int64(v), 10); got != strings.TrimSpace(raw) {
			t.Errorf("CheckID(%s) passed, but the SDK answers with %s", raw, got)
		}
	})
}

// TestBigIDsOnStdio: a request whose id the SDK would mangle is answered
// with -32600 and the id as sent; the session goes on.
func TestBigIDsOnStdio(t *testing.T) {
	in := strings.NewReader(`{"jsonrpc":"2.0","id":123456789012345678901234,"method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}` + "\n")
	var out strings.Builder
	c, err := (&Transport{Reader: in, Writer: &out}).Connect(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	m, err := c.Read(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := m.(*jsonrpc.Request); !ok || r.Method != "ping" || r.ID.Raw() != int64(1<<53) {
		t.Errorf("the request in range was not passed on: %#v", m)
	}
	want := `{"jsonrpc":"2.0","id":123456789012345678901234,"error":{"code":-32600,"message":"invalid request: the id 123456789012345678901234 is a number this server cannot answer with exactly (an integer from -2^53 to 2^53, or a string); send it as a string"}}` + "\n" +
		`{"jsonrpc":"2.0","id":1.5,"error":{"code":-32600,"message":"invalid request: the id 1.5 is a number this server cannot answer with exactly (an integer from -2^53 to 2^53, or a string); send it as a string"}}` + "\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

// TestIDSpellingsOnStdio: an id the answer could not carry as sent (an
// integer not in plain digits, null) is refused with -32600 and the id as
// sent, where the SDK would answer -0 with 0 and never answer null; a line
// that is not JSON (01) is -32700 with id null; each is answered on its own
// and the plain integer after them is passed on.
func TestIDSpellingsOnStdio(t *testing.T) {
	for _, tt := range []struct{ id, want string }{
		{"-0", `{"jsonrpc":"2.0","id":-0,"error":{"code":-32600,"message":"invalid request: the id -0 is an integer not in plain digits, which would come back as 0; send it as 0 or as a string"}}`},
		{"1e3", `{"jsonrpc":"2.0","id":1e3,"error":{"code":-32600,"message":"invalid request: the id 1e3 is an integer not in plain digits, which would come back as 1000; send it as 1000 or as a string"}}`},
		{"-1E+2", `{"jsonrpc":"2.0","id":-1E+2,"error":{"code":-32600,"message":"invalid request: the id -1E+2 is an integer not in plain digits, which would come back as -100; send it as -100 or as a string"}}`},
		{"01", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"the line is not JSON"}}`},
		{"null", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: the id null is not allowed in an MCP request (a string or an integer is; a message without an id is a notification)"}}`},
		{" null ", `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: the id null is not allowed in an MCP request (a string or an integer is; a message without an id is a notification)"}}`},
	} {
		t.Run(tt.id, func(t *testing.T) {
			in := strings.NewReader(`{"jsonrpc":"2.0","id":` + tt.id + `,"method":"ping"}` + "\n" +
				`{"jsonrpc":"2.0","id":0,"method":"ping"}` + "\n")
			var out strings.Builder
			c, err := (&Transport{Reader: in, Writer: &out}).Connect(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			m, err := c.Read(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if r, ok := m.(*jsonrpc.Request); !ok || r.Method != "ping" || r.ID.Raw() != int64(0) {
				t.Errorf("the request with id 0 was not passed on: %#v", m)
			}
			if got := out.String(); got != tt.want+"\n" {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}
