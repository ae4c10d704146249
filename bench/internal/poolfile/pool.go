// Package poolfile is the file of recorded requests and answers that
// bench/serveload -record writes and that serveload -pool and
// bench/servestatic read: one JSON object per line, an Entry each.
package poolfile

import (
	"bufio"
	"encoding/json"
	"io"
)

// Entry is one recorded request and skillet's answer to it.
type Entry struct {
	Method   string            `json:"method"`
	Name     string            `json:"name,omitempty"` // the Mcp-Name header
	Request  string            `json:"request"`        // the request body, byte for byte
	Status   int               `json:"status"`
	Header   map[string]string `json:"header"` // the answer's, but Date and Content-Length
	Response string            `json:"response"`
}

// maxLine bounds one line of the file (an answer holds a whole file of a
// skill, up to the server's limits).
const maxLine = 64 << 20

// Read returns the entries of a pool file in file order; an error names
// the first line that is not an Entry.
func Read(r io.Reader) ([]*Entry, error) {
	var out []*Entry
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, maxLine)
	for sc.Scan() {
		e := new(Entry)
		if err := json.Unmarshal(sc.Bytes(), e); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, sc.Err()
}
