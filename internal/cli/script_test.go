//go:build unix

package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/skillet-go/skillet/internal/testtmp"
)

// TestMain lets the test binary run as the skillet command inside
// testscript scripts, and lays the tests' temporary folders out on a
// memory file system when there is one (internal/testtmp): the scripts'
// work folders too.
func TestMain(m *testing.M) {
	testscript.Main(testtmp.M(m), map[string]func(){
		"skillet": func() { os.Exit(Main()) },
	})
}

// TestScripts runs the CLI scripts in testdata/script: one txtar archive
// per scenario, with the files it needs and the commands and output it
// expects.
func TestScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, testscript.Params{
		Dir:           filepath.Join("testdata", "script"),
		UpdateScripts: *update, // go test -update rewrites expected outputs in place
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"writef": cmdWritef,
			"mkfifo": cmdMkfifo,
		},
	})
}

// cmdWritef writes a file from parts given as Go string literal bodies
// (escapes such as \n, \r and \xff are interpreted); a part that is a
// number repeats the part before it that many times in all:
//
//	writef skills/x/SKILL.md '---\nname: x\n' 'line\n' 600
func cmdWritef(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: writef FILE PART [COUNT] ...")
	}
	var b strings.Builder
	prev := ""
	for _, a := range args[1:] {
		if n, err := strconv.Atoi(a); err == nil {
			b.WriteString(strings.Repeat(prev, max(n-1, 0)))
			continue
		}
		s, err := strconv.Unquote(`"` + strings.ReplaceAll(a, `"`, `\"`) + `"`)
		ts.Check(err)
		b.WriteString(s)
		prev = s
	}
	p := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(filepath.Dir(p), 0o755))
	ts.Check(os.WriteFile(p, []byte(b.String()), 0o644))
}

// cmdMkfifo makes a named pipe.
func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mkfifo PATH")
	}
	p := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(filepath.Dir(p), 0o755))
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		ts.Fatalf("%v", fmt.Errorf("mkfifo: %w", err))
	}
}
