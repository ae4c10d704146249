package agentx_test

import (
	"testing"

	"github.com/skillet-go/skillet/agent"
	"github.com/skillet-go/skillet/internal/agentx"
)

// TestGet: agent registers its SetToolHooks for agent.ToolOptions, and
// Get with another type argument panics (the MCP server, which calls it
// when it is initialized, would fail at its start, in every test).
func TestGet(t *testing.T) {
	if agentx.Get[agent.ToolOptions]() == nil {
		t.Fatal("agent registered no SetToolHooks")
	}
	defer func() {
		if recover() == nil {
			t.Error("Get[agent.SessionOptions] did not panic")
		}
	}()
	agentx.Get[agent.SessionOptions]()
}
