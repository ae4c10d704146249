package lint

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/skillsref"
	"github.com/skillet-go/skillet/skill"
)

// referenceData is where package skillsref keeps the reference validator's
// recorded verdicts and the generated cases.
var referenceData = filepath.Join("..", "internal", "skillsref", "testdata")

// recordedViolations reads the validate verdicts recorded from the
// reference validator: folder (relative to its root) to its messages, each
// shortened with skillsref.Brief.
func recordedViolations(t *testing.T, name string) map[string][]string {
	t.Helper()
	f, err := os.Open(filepath.Join(referenceData, "reference", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r struct {
			Dir, Cmd, Stderr, Crash string
			Exit                    int
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r.Cmd != "validate" || r.Crash != "" || r.Exit == 2 {
			continue
		}
		var msgs []string
		if r.Exit != 0 {
			_, list, _ := strings.Cut(r.Stderr, "\n  - ")
			for _, m := range strings.Split(strings.TrimSuffix(list, "\n"), "\n  - ") {
				msgs = append(msgs, skillsref.Brief(m))
			}
		}
		out[r.Dir] = msgs
	}
	return out
}

// strictErrors lints root with --strict and returns, per skill folder
// (relative to root), the messages of its errors about the file's content,
// and the content findings at other levels (which must be none). Errors
// about the workspace (duplicate-name: a second copy does not load) are
// not the file's violations, nor is empty-body, the one rule strict mode
// adds to the reference's (a skill with no body is refused).
func strictErrors(t *testing.T, root string) (map[string][]string, []skill.Diagnostic) {
	t.Helper()
	r, err := Run(context.Background(), &Options{
		Catalog: &catalog.Options{Workspace: t.TempDir(), NoConfigFile: true, NoUser: true, Strict: true},
		Targets: []string{root},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	var stray []skill.Diagnostic
	for _, f := range r.Files {
		if !f.Skill || f.Flat {
			continue
		}
		rel, err := filepath.Rel(root, filepath.Dir(f.Path))
		if err != nil {
			t.Fatal(err)
		}
		msgs := []string{}
		for _, d := range f.Diagnostics {
			switch {
			case d.Severity == skill.SeverityError && contentRule(d.Code):
				msgs = append(msgs, d.Message)
			case contentRule(d.Code):
				stray = append(stray, d)
			}
		}
		got[filepath.ToSlash(rel)] = msgs
	}
	return got, stray
}

// compareStrict checks, folder by folder, that lint --strict's errors are
// exactly the reference validator's recorded violations (as a multiset:
// lint sorts its findings by position).
func compareStrict(t *testing.T, got map[string][]string, want map[string][]string) int {
	t.Helper()
	n := 0
	for dir, msgs := range got {
		w, ok := want[dir]
		if !ok {
			continue // a crash of the reference, or a file it does not see
		}
		n++
		w = slices.Clone(w)
		slices.Sort(w)
		slices.Sort(msgs)
		if len(w) == 0 {
			w = []string{}
		}
		if diff := cmp.Diff(w, msgs); diff != "" {
			t.Errorf("%s: lint --strict errors differ from validate's violations (-validate +lint):\n%s", dir, diff)
		}
	}
	return n
}

// TestStrictIsValidate asserts that lint --strict reports, for every skill
// folder of the generated cases and of the corpus, exactly the violations
// the reference validator reported (testdata of package skillsref), as
// errors, and no other finding about the file's content.
func TestStrictIsValidate(t *testing.T) {
	t.Parallel()
	t.Run("generated", func(t *testing.T) {
		ar, err := txtar.ParseFile(filepath.Join(referenceData, "generated.txtar"))
		if err != nil {
			t.Fatal(err)
		}
		root := filepath.Join(t.TempDir(), "cases")
		for _, f := range ar.Files {
			name, data := f.Name, f.Data
			if n, ok := strings.CutSuffix(name, ".q"); ok {
				s, err := strconv.Unquote(strings.TrimSpace(string(data)))
				if err != nil {
					t.Fatal(err)
				}
				name, data = n, []byte(s)
			}
			writeTree(t, root, map[string]string{name: string(data)})
		}
		got, stray := strictErrors(t, root)
		for _, d := range stray {
			t.Errorf("under --strict a content finding must be an error: %s", d)
		}
		if n := compareStrict(t, got, recordedViolations(t, "generated.jsonl")); n < 110 {
			t.Errorf("only %d generated folders compared", n)
		} else {
			t.Logf("generated: %d skill folders, lint --strict errors = validate violations", n)
		}
	})
	t.Run("corpus", func(t *testing.T) {
		corpus := corpusDir(t)
		got, stray := strictErrors(t, corpus)
		for _, d := range stray {
			t.Errorf("under --strict a content finding must be an error: %s", d)
		}
		if n := compareStrict(t, got, recordedViolations(t, "corpus.jsonl")); n < 440 {
			t.Errorf("only %d corpus folders compared", n)
		} else {
			t.Logf("corpus: %d skill folders, lint --strict errors = validate violations", n)
		}
	})
}
