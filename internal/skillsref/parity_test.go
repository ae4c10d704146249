package skillsref_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/skillet-go/skillet/internal/cli"
	"github.com/skillet-go/skillet/internal/testcorpus"
	"github.com/skillet-go/skillet/internal/textsafe"
)

var update = flag.Bool("update", false, "rewrite testdata/reference/skillet-crashes.jsonl")

// A record is one run of the reference validator, as testdata/record.sh
// writes it: the command, the folder (relative to the root it ran in), the
// exit code and both streams, with the root's absolute path as $ROOT.
// Crash is the exception's last line when the reference crashed.
type record struct {
	Dir    string `json:"dir"`
	Cmd    string `json:"cmd"`
	Exit   int    `json:"exit"`
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	Crash  string `json:"crash,omitempty"`
}

var progName = strings.NewReplacer("Usage: skills-ref ", "Usage: skillet ", "Try 'skills-ref ", "Try 'skillet ")

func (r record) key() string { return r.Cmd + " " + r.Dir }

func readRecords(t *testing.T, file string) []record {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []record
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		recs = append(recs, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return recs
}

// extractCases writes the folders of testdata/generated.txtar under a new
// temporary folder and returns it. A file named NAME.q holds NAME's bytes as
// one Go-quoted string.
func extractCases(t *testing.T) string {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", "generated.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(t.TempDir(), "cases")
	for _, f := range ar.Files {
		name, data := f.Name, f.Data
		if n, ok := strings.CutSuffix(name, ".q"); ok {
			s, err := strconv.Unquote(strings.TrimSpace(string(data)))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			name, data = n, []byte(s)
		}
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// tally counts agreement with the reference, for exit codes and for the
// exact output (both streams), per command.
type tally struct {
	runs, exits, messages map[string]int // runs where the reference did not crash
	crashes, clear        int            // runs where it crashed; those where skillet said its recorded message
	escaped               int            // runs whose expected output was escaped for the terminal
}

func newTally() *tally {
	return &tally{runs: map[string]int{}, exits: map[string]int{}, messages: map[string]int{}}
}

func (ta *tally) String() string {
	var b strings.Builder
	var runs, exits, msgs int
	for _, cmd := range []string{"validate", "read-properties", "to-prompt"} {
		fmt.Fprintf(&b, "%s: exit %d/%d, messages %d/%d; ", cmd, ta.exits[cmd], ta.runs[cmd], ta.messages[cmd], ta.runs[cmd])
		runs += ta.runs[cmd]
		exits += ta.exits[cmd]
		msgs += ta.messages[cmd]
	}
	fmt.Fprintf(&b, "all: exit %d/%d (%.1f%%), messages %d/%d (%.1f%%); reference crashes %d, skillet's clear error as recorded %d; control characters escaped in %d",
		exits, runs, 100*float64(exits)/float64(max(runs, 1)), msgs, runs, 100*float64(msgs)/float64(max(runs, 1)), ta.crashes, ta.clear, ta.escaped)
	return b.String()
}

// runSkillet runs one skillet command in the current folder, as the
// reference was run, and returns it with the root's path as $ROOT.
func runSkillet(t *testing.T, root string, r record) record {
	var out, errb bytes.Buffer
	code := cli.Run(t.Context(), []string{r.Cmd, r.Dir}, &cli.IO{In: strings.NewReader(""), Out: &out, Err: &errb})
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	clean := func(s string) string { return strings.ReplaceAll(s, real, "$ROOT") }
	return record{Dir: r.Dir, Cmd: r.Cmd, Exit: code, Stdout: clean(out.String()), Stderr: clean(errb.String())}
}

// compare runs skillet on every record and fails on each disagreement.
// Where the reference crashed, skillet must exit 1 with a clear message
// of its own, which is kept in crashes (testdata/reference/skillet-crashes.jsonl).
func compare(t *testing.T, root string, recs []record, crashes map[string]record, got map[string]record) *tally {
	t.Chdir(root)
	ta := newTally()
	for _, want := range recs {
		// The program's own name is the one difference by design.
		want.Stderr = progName.Replace(want.Stderr)
		g := runSkillet(t, root, want)
		if want.Crash != "" {
			ta.crashes++
			got[g.key()] = record{Dir: g.Dir, Cmd: g.Cmd, Exit: g.Exit, Stdout: g.Stdout, Stderr: g.Stderr, Crash: want.Crash}
			if g.Exit != 1 || g.Stderr == "" || strings.Contains(g.Stderr, "panic") || strings.Contains(g.Stderr, "goroutine") {
				t.Errorf("%s: the reference crashes (%s); skillet must exit 1 with a clear error, got exit %d\n%s", want.key(), want.Crash, g.Exit, g.Stderr)
				continue
			}
			if c, ok := crashes[want.key()]; !*update && (!ok || c.Stdout != g.Stdout || c.Stderr != g.Stderr) {
				t.Errorf("%s: the reference crashes (%s); skillet says\n%s%s\nwant (skillet-crashes.jsonl; -update to rewrite)\n%s%s", want.key(), want.Crash, g.Stdout, g.Stderr, c.Stdout, c.Stderr)
				continue
			}
			ta.clear++
			if want.Cmd == "validate" {
				t.Logf("%s: reference crashes (%s); skillet says %q", want.key(), want.Crash, strings.TrimSpace(g.Stdout+g.Stderr))
			}
			continue
		}
		ta.runs[want.Cmd]++
		// skillet escapes control characters and escape sequences from a
		// skill folder in every command's text output (docs/lint.md#reference-parity);
		// the reference prints them raw.
		if out, errs := textsafe.EscapeBlock(want.Stdout), textsafe.EscapeBlock(want.Stderr); out != want.Stdout || errs != want.Stderr {
			want.Stdout, want.Stderr = out, errs
			ta.escaped++
		}
		if g.Exit == want.Exit {
			ta.exits[want.Cmd]++
		}
		if g.Exit == want.Exit && g.Stdout == want.Stdout && g.Stderr == want.Stderr {
			ta.messages[want.Cmd]++
			continue
		}
		t.Errorf("%s: skillet differs from the reference\n got exit %d\n stdout %q\n stderr %q\nwant exit %d\n stdout %q\n stderr %q",
			want.key(), g.Exit, g.Stdout, g.Stderr, want.Exit, want.Stdout, want.Stderr)
	}
	return ta
}

// TestReferenceParity runs skillet validate, read-properties and to-prompt
// on every generated case and every skill folder of the corpus and compares
// exit code, stdout and stderr byte for byte with the verdicts recorded from
// the reference validator (testdata/record.sh). The corpus part is skipped
// when the corpus is absent.
func TestReferenceParity(t *testing.T) {
	crashFile := filepath.Join("testdata", "reference", "skillet-crashes.jsonl")
	crashes := map[string]record{}
	if _, err := os.Stat(crashFile); err == nil {
		for _, r := range readRecords(t, crashFile) {
			crashes[r.key()] = r
		}
	}
	generated := readRecords(t, filepath.Join("testdata", "reference", "generated.jsonl"))
	corpusRecs := readRecords(t, filepath.Join("testdata", "reference", "corpus.jsonl"))
	got := map[string]record{}
	var order []string
	for _, r := range append(generated, corpusRecs...) {
		if r.Crash != "" {
			order = append(order, r.key())
		}
	}
	t.Run("generated", func(t *testing.T) {
		ta := compare(t, extractCases(t), generated, crashes, got)
		t.Logf("generated set, %d folders: %s", len(generated)/3, ta)
	})
	t.Run("corpus", func(t *testing.T) {
		dir := testcorpus.Dir(t)
		ta := compare(t, dir, corpusRecs, crashes, got)
		t.Logf("corpus, %d folders: %s", len(corpusRecs)/3, ta)
	})
	if *update {
		var b bytes.Buffer
		for _, k := range order {
			if r, ok := got[k]; ok {
				line, _ := json.Marshal(r)
				b.Write(line)
				b.WriteByte('\n')
			}
		}
		if err := os.WriteFile(crashFile, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
