package mcpserver

import (
	"context"
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
