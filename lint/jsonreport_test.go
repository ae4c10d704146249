package lint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/benchtree/tree"
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/testcorpus"
	"github.com/skillet-go/skillet/skill"
)

// TestWriteJSONIsEncodingJSON: the one-pass WriteJSON writes exactly what
// encoding/json writes for the same report, over the corpus (with and
// without the compatibility report), a generated tree, an empty report and
// hard strings.
func TestWriteJSONIsEncodingJSON(t *testing.T) {
	t.Parallel()
	gen := t.TempDir()
	if _, err := tree.Generate(gen, &tree.Options{N: 50, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	var reports []*Report
	for _, o := range []*Options{
		{Catalog: &catalog.Options{Workspace: t.TempDir(), NoConfigFile: true, NoUser: true}, Targets: []string{testcorpus.Dir(t)}},
		{Catalog: &catalog.Options{Workspace: t.TempDir(), NoConfigFile: true, NoUser: true}, Targets: []string{testcorpus.Dir(t)}, Compat: true},
		{Catalog: &catalog.Options{Workspace: gen, NoConfigFile: true, NoUser: true}},
	} {
		r, err := Run(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		reports = append(reports, r)
	}
	hard := "q\"b\\s\n\t\x01\x7f\xff<&>\u2028é"
	reports = append(reports, &Report{}, &Report{Workspace: "/w" + hard, Compat: []*Compat{},
		Files: []*File{{Path: "/w/a" + hard, Name: hard}, {Path: "/w/b", Diagnostics: []skill.Diagnostic{
			{Code: "c", Severity: skill.SeverityError, Message: hard, Line: 1, Column: -2, Related: "/r" + hard},
			{Code: "d", Severity: skill.SeverityWarning, Message: ""},
		}}},
		Counts: Counts{Files: 1, Skills: 2, Errors: 3, Warnings: 4}})
	// A compatibility report with every member empty and set, and hard
	// strings in each.
	reports = append(reports, &Report{Workspace: "/w", Files: []*File{}, Compat: []*Compat{
		{Path: "/w/a" + hard, Name: hard, Hosts: []HostCompat{
			{Host: hard, Verdict: verdictLoads},
			{Host: "h", Verdict: verdictLoadsChanged, Name: hard, Description: hard, Changes: []string{hard, ""}},
			{Host: "h", Verdict: verdictLoadsChanged, Changes: []string{}},
			{Host: "h", Verdict: verdictNotLoaded, Reason: hard, Remedy: hard},
			{Verdict: verdictNotLoaded, Description: "d", Remedy: "r"},
		}, Breaks: []Break{{Host: hard, Rule: HostRule(hard), Message: hard}, {}}},
		{Path: "/w/b"},
		{Path: "/w/c", Hosts: []HostCompat{}, Breaks: []Break{}},
	}})
	for i, r := range reports {
		var got, want bytes.Buffer
		if err := r.WriteJSON(&got); err != nil {
			t.Fatal(err)
		}
		if err := r.writeJSONEncoded(&want); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("report %d: WriteJSON differs from encoding/json:\n%s\nwant\n%s", i, got.String(), want.String())
		}
		if i < 3 && len(r.Files) == 0 {
			t.Errorf("report %d has no files", i)
		}
	}
}

// failAfter is a writer that takes n bytes and then fails.
type failAfter struct{ n int }

func (f *failAfter) Write(b []byte) (int, error) {
	if len(b) > f.n {
		k := f.n
		f.n = 0
		return k, errors.New("disk full")
	}
	f.n -= len(b)
	return len(b), nil
}

// largestWrite passes writes on to w and keeps the size of the largest.
type largestWrite struct {
	w   *bytes.Buffer
	max int
}

func (l *largestWrite) Write(b []byte) (int, error) {
	l.max = max(l.max, len(b))
	return l.w.Write(b)
}

// TestWriteJSONLarge: a report of many files and their compatibility, written in many pieces,
// gets exactly the bytes of encoding/json; a write that fails at any
// point is the error WriteJSON returns.
func TestWriteJSONLarge(t *testing.T) {
	t.Parallel()
	r := &Report{Workspace: "/w", Counts: Counts{Files: 3, Skills: 2, Errors: 1}}
	hard := "q\"b\\s\n\t\x01\xff\u2028é"
	for i := range 1297 {
		f := &File{Path: fmt.Sprintf("/w/s%05d/SKILL.md", i), Name: fmt.Sprint("s", i)}
		for k := range i % 4 {
			msg := "the body links to \"references/guide.md\", which does not exist"
			if k == 2 {
				msg = hard + fmt.Sprint(i)
			}
			f.Diagnostics = append(f.Diagnostics, skill.Diagnostic{Code: diagcode.BrokenReference, Severity: skill.SeverityWarning,
				Path: f.Path, Line: k + 1, Column: i, Message: msg, Related: map[bool]string{true: "/r" + hard}[k == 1]})
		}
		r.Files = append(r.Files, f)
		c := &Compat{Path: f.Path, Name: f.Name, Breaks: []Break{}}
		for _, h := range hostProfiles() {
			c.Hosts = append(c.Hosts, HostCompat{Host: h.Name, Verdict: verdictNotLoaded, Reason: "it reads no " + hard, Remedy: "move it"})
		}
		r.Compat = append(r.Compat, c)
	}
	var want bytes.Buffer
	if err := r.writeJSONEncoded(&want); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	w := &largestWrite{w: &got}
	if err := r.WriteJSON(w); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("WriteJSON differs from encoding/json")
	}
	// The report is written in pieces of about 32 KiB, the compatibility
	// report too: it is not held whole in memory.
	if w.max > 64<<10 || got.Len() < 1<<20 {
		t.Errorf("WriteJSON of %d bytes wrote a piece of %d bytes, want at most 64 KiB", got.Len(), w.max)
	}
	for _, n := range []int{0, 10, 40 << 10, want.Len() / 2, want.Len() - 1} {
		if err := r.WriteJSON(&failAfter{n: n}); err == nil || err.Error() != "disk full" {
			t.Errorf("a write failing after %d bytes: WriteJSON returned %v", n, err)
		}
	}
}
