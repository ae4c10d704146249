//go:build unix

package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/catalog"
)

// TestIndexUntrustedLogged: a server whose catalog's index folder others
// may write logs the index-untrusted warning once, on a line of its own
// (the other warnings are only counted), and serves the skills the walk
// finds.
func TestIndexUntrustedLogged(t *testing.T) {
	t.Parallel()
	ws := newWorkspace(t)
	idx := filepath.Join(t.TempDir(), "index")
	if err := os.Mkdir(idx, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(idx, 0o770); err != nil {
		t.Fatal(err)
	}
	opts := &catalog.Options{Workspace: ws, NoUser: true, NoConfigFile: true}
	catx.UseIndex(opts, idx)
	c, err := catalog.New(t.Context(), opts)
	if err != nil {
		t.Fatal(err)
	}
	var log logBuffer
	s, err := New(t.Context(), c, &Options{Logger: log.logger()})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.snap.Load().skills); n == 0 {
		t.Fatal("no skill served")
	}
	lines := 0
	for l := range strings.Lines(log.String()) {
		if strings.Contains(l, "index-untrusted") {
			lines++
			if !strings.Contains(l, "level=WARN") || !strings.Contains(l, "(mode 0770)") || !strings.Contains(l, idx) {
				t.Errorf("the warning: %s", l)
			}
		}
	}
	if lines != 1 {
		t.Errorf("%d index-untrusted lines, want 1:\n%s", lines, log.String())
	}
}
