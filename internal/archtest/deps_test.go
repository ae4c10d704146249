package archtest

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// libraryModules are the modules a program that imports skill, catalog and
// agent compiles: skillet and six others (docs/ARCHITECTURE.md#the-public-api).
// golang.org/x/sync is internal/pool's errgroup, the one worker pool.
var libraryModules = []string{
	"github.com/google/jsonschema-go",
	"github.com/rivo/uniseg",
	module,
	"go.yaml.in/yaml/v4",
	"golang.org/x/sync",
	"golang.org/x/sys",
	"golang.org/x/text",
}

// TestLibraryDeps keeps the import of the agent-facing packages light: the
// modules of `go list -deps` for skill, catalog and agent (what a program
// importing the three compiles, tests excluded) must be exactly
// libraryModules on Linux, and among them on macOS and Windows, so no SDK,
// MCP, CLI or watcher library enters them.
func TestLibraryDeps(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	for _, goos := range []string{"linux", "darwin", "windows"} {
		cmd := exec.Command("go", "list", "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}", "./skill", "./catalog", "./agent")
		cmd.Dir = root
		cmd.Env = append(cmd.Environ(), "GOOS="+goos, "GOARCH=amd64")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list (%s): %v", goos, err)
		}
		var mods []string
		for _, m := range strings.Fields(string(out)) {
			if !slices.Contains(mods, m) {
				mods = append(mods, m)
			}
		}
		slices.Sort(mods)
		// Elsewhere than Linux a module may drop out (x/sys on Windows);
		// none may come in.
		ok := slices.Equal(mods, libraryModules)
		if goos != "linux" {
			ok = !slices.ContainsFunc(mods, func(m string) bool { return !slices.Contains(libraryModules, m) })
		}
		if !ok {
			t.Errorf("GOOS=%s: skill, catalog and agent compile the modules\n\t%s\nwant\n\t%s",
				goos, strings.Join(mods, "\n\t"), strings.Join(libraryModules, "\n\t"))
		}
	}
}

// notLinked are packages the skillet command must not link, with why:
// every linked package's initialisation runs at every start, whichever
// command (docs/performance.md#start-up).
var notLinked = map[string]string{
	// 0.08 ms and 15 KB at every start; list's live heap is read from
	// ReadMemStats instead (internal/cli/listgc.go).
	"runtime/metrics": "internal/cli's liveHeap reads runtime.ReadMemStats",
	// goldmark's own package builds a default converter at init, its HTML
	// renderer tables: 33 KB in 124 allocations at every start; lint
	// needs only the parser (lint/body.go's newMarkdownParser).
	"github.com/yuin/goldmark":               "lint builds goldmark's parser alone",
	"github.com/yuin/goldmark/renderer/html": "lint builds goldmark's parser alone",
}

// TestNotLinked keeps notLinked out of `go list -deps ./cmd/skillet`.
func TestNotLinked(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("go", "list", "-deps", "./cmd/skillet")
	cmd.Dir = repoRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if why, ok := notLinked[p]; ok {
			t.Errorf("cmd/skillet links %s (%s)", p, why)
		}
	}
}
