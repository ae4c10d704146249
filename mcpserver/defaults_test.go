package mcpserver

import (
	"testing"
	"time"
)

// TestDefaults checks that Defaults gives the values a zero Options and
// HTTPOptions mean, which skillet serve shows as its flags' defaults.
func TestDefaults(t *testing.T) {
	t.Parallel()
	o, h := Defaults()
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"InstructionsChars", o.InstructionsChars, 4000},
		{"MaxServedBytes", o.MaxServedBytes, int64(256 << 20)},
		{"PageSize", o.PageSize, 100},
		{"Tool", o.Tool, ToolAuto},
		{"MaxConns", h.MaxConns, 512},
		{"MaxConnsPerClient", h.MaxConnsPerClient, 128},
		{"MaxSessions", h.MaxSessions, 1024},
		{"MaxSessionsPerClient", h.MaxSessionsPerClient, 256},
		{"MaxStreamsPerClient", h.MaxStreamsPerClient, 32},
		{"SessionTimeout", h.SessionTimeout, 30 * time.Minute},
		{"BodyBudget", h.BodyBudget, int64(64 << 20)},
		{"MaxRequestBytes", h.MaxRequestBytes, int64(0)},
	} {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if o.Logger == nil {
		t.Error("Logger is nil")
	}
}
