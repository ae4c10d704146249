package main

import (
	"flag"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/skillet-go/skillet/internal/cli"
)

var update = flag.Bool("update", false, "rewrite the expected files in testdata/script")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"skillet": func() { os.Exit(cli.Main()) },
	})
}

// TestScripts runs the txtar scripts in testdata/script against the real
// command (the test binary re-runs itself as skillet).
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		UpdateScripts:       *update,
	})
}
