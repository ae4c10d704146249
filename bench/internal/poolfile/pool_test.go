package poolfile

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRead: what json.Marshal writes of entries, a line each, reads back
// as the same entries in the same order; a line that is not an entry is
// an error.
func TestRead(t *testing.T) {
	want := []*Entry{
		{Method: "skills/list", Request: `{"id":1}`, Status: 200, Header: map[string]string{"Content-Type": "application/json"}, Response: `{"result":{}}`},
		{Method: "resources/read", Name: "skill://a/SKILL.md", Request: `{"id":2}`, Status: 400, Header: map[string]string{}, Response: "x\ny"},
	}
	var b strings.Builder
	for _, e := range want {
		line, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	got, err := Read(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("read back (-want +got):\n%s", d)
	}
	if _, err := Read(strings.NewReader(b.String() + "not json\n")); err == nil {
		t.Error("a line that is not an entry read without an error")
	}
}
