package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestToolCallHoldsNoReloadLock: while a tools/call computes (here, held
// inside the request), a reload can take the exclusive lock: the request
// runs on its pinned snapshot, and the answer is still that snapshot's.
func TestToolCallHoldsNoReloadLock(t *testing.T) {
	ws := newWorkspace(t)
	s := newServer(t, ws, &Options{Tool: ToolAlways})
	cs := connect(t, s, nil, nil)

	inside, release := make(chan struct{}), make(chan struct{})
	beforeHandle = func(_ context.Context, method string) {
		if method == "tools/call" {
			close(inside)
			<-release
		}
	}
	t.Cleanup(func() { beforeHandle = nil })

	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: s.tool.Name(), Arguments: map[string]any{"query": "alpha files"}})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	<-inside
	if !s.mu.TryLock() {
		close(release)
		t.Fatal("a tools/call in progress holds the lock a reload needs")
	}
	s.mu.Unlock()
	// A reload that removes alpha completes while the call is held.
	if err := os.RemoveAll(filepath.Join(ws, "skills", "alpha")); err != nil {
		t.Fatal(err)
	}
	if changed, err := s.Reload(t.Context()); err != nil || !changed {
		t.Fatalf("Reload = %v, %v", changed, err)
	}
	close(release)
	res := <-done
	if res == nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "alpha") {
		t.Errorf("the call, pinned to the snapshot it began on, does not find alpha: %+v", res)
	}
}

// TestMemoryBudget: a small skill folder of hard links to one sparse
// 16 MiB file is counted by the bytes each link would send: past the
// budget the files are not read, and are answered as too large.
func TestMemoryBudget(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{"skills/farm/SKILL.md": skillMD("farm", "Links to one sparse file.", "Body.\n")})
	dir := filepath.Join(ws, "skills", "farm")
	sparse := filepath.Join(dir, "sparse.bin")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(4 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for i := range 20 {
		if err := os.Link(sparse, filepath.Join(dir, fmt.Sprintf("link%02d.bin", i))); err != nil {
			t.Skipf("no hard links here: %v", err)
		}
	}
	s := newServer(t, ws, &Options{MaxServedBytes: 16 << 20})
	sn := s.snap.Load()
	if sn.bytes > 16<<20 {
		t.Errorf("the snapshot holds %d bytes, over its 16 MiB budget", sn.bytes)
	}
	sv := sn.byName["farm"]
	if sv == nil || len(sv.tooLarge) < 17 {
		t.Fatalf("farm: %v files too large, want at least 17 of 21", sv)
	}
	cs := connect(t, s, nil, nil)
	var big string
	for rel := range sv.tooLarge {
		big = "skill://farm/" + rel
		break
	}
	_, err = cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: big})
	wantCode(t, err, codeTooLarge)
	if !strings.Contains(err.Error(), "memory budget") {
		t.Errorf("reading %s: %v", big, err)
	}
}

// TestEscapedTextGoesAsBlob: a text that JSON would blow up ("<" is six
// bytes) is sent as a blob, so the answer stays near the file's size;
// ordinary Markdown stays text.
func TestEscapedTextGoesAsBlob(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	angle := strings.Repeat("<", 1<<20)
	writeTree(t, ws, map[string]string{
		"skills/html/SKILL.md":   skillMD("html", "Angle brackets.", "Body with <b>tags</b> & more.\n"),
		"skills/html/angles.txt": angle,
		"skills/html/page.html":  "<html><body><p>Hello, world. This is a page of text.</p></body></html>\n",
	})
	s := newServer(t, ws, nil)
	cs := connect(t, s, nil, nil)
	res, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "skill://html/angles.txt"})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Contents[0]
	if c.Text != "" || string(c.Blob) != angle {
		t.Fatalf("angles.txt: text %d bytes, blob %d bytes; want it all as a blob", len(c.Text), len(c.Blob))
	}
	wire, _ := json.Marshal(res)
	if len(wire) > 2*len(angle) {
		t.Errorf("a %d-byte file is a %d-byte answer", len(angle), len(wire))
	}
	for _, uri := range []string{"skill://html/SKILL.md", "skill://html/page.html"} {
		res, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: uri})
		if err != nil || res.Contents[0].Text == "" {
			t.Errorf("%s is not served as text: %v", uri, err)
		}
	}
}

// TestTornReadRetried: a file that changes between its stat and its read
// is read again; one that never stops changing is refused, never served
// torn.
func TestTornReadRetried(t *testing.T) {
	ws := t.TempDir()
	writeTree(t, ws, map[string]string{
		"skills/torn/SKILL.md":  skillMD("torn", "A file written while read.", "Body.\n"),
		"skills/torn/notes.txt": "first\n",
	})
	notes := filepath.Join(ws, "skills", "torn", "notes.txt")
	for _, tt := range []struct {
		name   string
		writes int
		served bool
	}{{"settles", 2, true}, {"never settles", 1000, false}} {
		t.Run(tt.name, func(t *testing.T) {
			left := tt.writes
			afterStat = func(f *os.File) {
				if strings.HasSuffix(f.Name(), "notes.txt") && left > 0 {
					left--
					g, err := os.OpenFile(notes, os.O_APPEND|os.O_WRONLY, 0)
					if err != nil {
						t.Fatal(err)
					}
					g.WriteString("more\n")
					g.Close()
				}
			}
			t.Cleanup(func() { afterStat = nil })
			s := newServer(t, ws, nil)
			f := s.snap.Load().files["skill://torn/notes.txt"]
			disk, _ := os.ReadFile(notes)
			switch {
			case tt.served && (f == nil || f.text != string(disk)):
				t.Errorf("served %v, want the settled %q", f, disk)
			case !tt.served && f != nil:
				t.Errorf("a file that never settles is served: %q", f.text)
			}
		})
	}
}
