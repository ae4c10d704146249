package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"skillet": func() { os.Exit(Main()) },
	})
}

// TestScripts runs the testdata/script/*.txtar scenarios against the real
// command. Run with -update to rewrite the expected outputs in place.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		UpdateScripts:       *update,
	})
}

// TestExamplesClean checks that the bundled examples load with no
// diagnostic at all, and that the README's command finds all three.
func TestExamplesClean(t *testing.T) {
	var out, errb bytes.Buffer
	ws, _ := filepath.Abs("../../examples")
	code := Run(context.Background(), []string{"list", "-w", ws, "--no-user", "--json"}, &IO{Out: &out, Err: &errb})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got listJSONOut
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Diagnostics) != 0 {
		t.Errorf("the examples have diagnostics: %+v", got.Diagnostics)
	}
	var names []string
	hidden := 0
	for _, s := range got.Skills {
		names = append(names, s.Name)
		if s.Hidden {
			hidden++
		}
	}
	if len(names) != 3 || hidden != 1 {
		t.Errorf("examples: %v (%d hidden), want three skills, one hidden", names, hidden)
	}
	if errb.Len() != 0 {
		t.Errorf("stderr: %s", errb.String())
	}
}
