package mcpserver

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// memSkill writes the skill NAME with one bundled file data.txt of size
// bytes of the letter c.
func memSkill(t *testing.T, ws, name string, size int, c string) {
	t.Helper()
	writeTree(t, ws, map[string]string{
		"skills/" + name + "/SKILL.md": "---\nname: " + name + "\ndescription: Holds data. Use when testing memory.\n---\nRead data.txt.\n",
		"skills/" + name + "/data.txt": strings.Repeat(c, size),
	})
}

// TestMemoryFollowsSnapshots: what the server holds of its budget is, after
// every reload, exactly the bytes of the files it serves, each counted
// once however many snapshots share it: files added, rewritten, kept and
// removed give back what they held.
func TestMemoryFollowsSnapshots(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	memSkill(t, ws, "one", 1000, "a")
	memSkill(t, ws, "two", 2000, "b")
	s := newServer(t, ws, &Options{MaxServedBytes: 1 << 20})
	check := func(step string) {
		t.Helper()
		sn := s.snap.Load()
		if got, want := s.mem.held.Load(), uniqueBytes(sn); got != want || want != sn.held {
			t.Fatalf("%s: held %d, the snapshot's files %d (charged %d)", step, got, want, sn.held)
		}
	}
	check("start")
	for i, step := range []func(){
		func() { memSkill(t, ws, "three", 3000, "c") },
		func() { memSkill(t, ws, "one", 1500, "d") },
		func() { _ = os.RemoveAll(filepath.Join(ws, "skills", "two")) },
		func() { writeTree(t, ws, map[string]string{"skills/three/SKILL.md": "---\nname: three\n"}) }, // no longer loads: kept
		func() {},
	} {
		step()
		if _, err := s.Reload(t.Context()); err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("step %d", i))
	}
}

// TestReloadOverBudget: a reload whose rewritten files do not fit beside
// the ones served keeps serving the last good snapshot, says so (log,
// skillet_reloads_over_budget_total) and gives back what it read; once the
// files fit, the next reload serves them.
func TestReloadOverBudget(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	memSkill(t, ws, "big", 60<<10, "a")
	var log logBuffer
	s := newServer(t, ws, &Options{MaxServedBytes: 100 << 10, Logger: log.logger()})
	held := s.mem.held.Load()
	memSkill(t, ws, "big", 60<<10, "b") // 60 KiB beside 60 KiB: over 100 KiB
	_, err := s.Reload(t.Context())
	if !errors.Is(err, errOverBudget) {
		t.Fatalf("reload: %v, want errOverBudget", err)
	}
	if f := s.snap.Load().files[skillURI("big", "data.txt")]; f == nil || f.text[0] != 'a' {
		t.Fatal("the last good snapshot is not served")
	}
	if got := s.mem.held.Load(); got != held {
		t.Errorf("held %d after the stopped reload, want %d as before", got, held)
	}
	if s.mem.overBudget.Load() != 1 || !strings.Contains(log.String(), "reload stopped") {
		t.Errorf("over budget %d, log %q", s.mem.overBudget.Load(), log.String())
	}
	memSkill(t, ws, "big", 30<<10, "c") // fits beside the 60 KiB served
	if _, err := s.Reload(t.Context()); err != nil {
		t.Fatal(err)
	}
	if f := s.snap.Load().files[skillURI("big", "data.txt")]; f == nil || f.text[0] != 'c' {
		t.Fatal("the rewritten file is not served once it fits")
	}
	if got, want := s.mem.held.Load(), uniqueBytes(s.snap.Load()); got != want {
		t.Errorf("held %d, want the snapshot's %d", got, want)
	}
}

// TestAnswersInFlightCharged: an answer is charged to the budget while it is
// written and given back after; when answers in flight hold the budget, a
// big file's read is refused (-32603, on the fast path and through the SDK
// alike) while a small one is still answered from the part kept for
// them.
func TestAnswersInFlightCharged(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	memSkill(t, ws, "big", 2<<20, "a")
	memSkill(t, ws, "small", 100, "b")
	for _, sdk := range []bool{false, true} {
		s := newServer(t, ws, &Options{MaxServedBytes: 32 << 20})
		s.noFastPath = sdk
		ts := httptest.NewServer(s.Handler(nil))
		defer ts.Close()
		read := func(name string) string {
			return post(t, ts.URL+Path, "2025-11-25", readMsgFor(name), nil).body
		}
		held := s.mem.held.Load()
		if got := read("big"); !strings.Contains(got, `"contents"`) {
			t.Fatalf("sdk %v: the big file is not served: %.200s", sdk, got)
		}
		if got := s.mem.held.Load(); got != held {
			t.Fatalf("sdk %v: held %d after the answer, want %d", sdk, got, held)
		}
		// Answers in flight take all but 1 MiB.
		taken := s.mem.max - held - 1<<20
		s.mem.take(taken, 0)
		if got := read("big"); !strings.Contains(got, "-32603") || !strings.Contains(got, "memory budget") {
			t.Errorf("sdk %v: a big read past the budget: %.200s", sdk, got)
		}
		if got := read("small"); !strings.Contains(got, `"contents"`) {
			t.Errorf("sdk %v: a small read is refused: %.200s", sdk, got)
		}
		s.mem.give(taken)
		if got := read("big"); !strings.Contains(got, `"contents"`) {
			t.Errorf("sdk %v: the big file is not served once the budget is free: %.200s", sdk, got)
		}
		if s.mem.refused.Load() == 0 {
			t.Errorf("sdk %v: no refusal counted", sdk)
		}
	}
}

func readMsgFor(name string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"skill://` + name + `/data.txt"}}`
}

// TestRefusedAnswerNotEncoded holds the fast path to charging an answer
// before it encodes the file: a read the budget cannot hold is refused
// having allocated little, not after a copy of the file's JSON (24
// readers of a 16 MiB file held 550-590 MB live, past the budget, while
// all but three were refused: bench/attack big-readers).
func TestRefusedAnswerNotEncoded(t *testing.T) {
	ws := t.TempDir()
	const size = 4 << 20
	memSkill(t, ws, "big", size, "a")
	s := newServer(t, ws, &Options{MaxServedBytes: 64 << 20})
	h := s.Handler(nil)
	read := func() (string, uint64) {
		req := httptest.NewRequest(http.MethodPost, Path, strings.NewReader(readMsgFor("big")))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		rec := httptest.NewRecorder()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		h.ServeHTTP(rec, req)
		runtime.ReadMemStats(&after)
		return rec.Body.String(), after.TotalAlloc - before.TotalAlloc
	}
	if got, alloc := read(); !strings.Contains(got, `"contents"`) {
		t.Fatalf("the big file is not served: %.200s", got)
	} else if alloc < size {
		t.Fatalf("a served read of %d bytes allocated %d: the measure does not see the encoding", size, alloc)
	}
	held := s.mem.held.Load()
	taken := s.mem.max - held - 1<<20
	s.mem.take(taken, 0)
	defer s.mem.give(taken)
	got, alloc := read()
	if !strings.Contains(got, "-32603") || !strings.Contains(got, "memory budget") {
		t.Fatalf("a big read past the budget: %.200s", got)
	}
	if alloc > size/4 {
		t.Errorf("a refused read of a %d-byte file allocated %d bytes: encoded before it was charged", size, alloc)
	}
	if got := s.mem.held.Load(); got != held+taken {
		t.Errorf("held %d after the refusal, want %d", got, held+taken)
	}
}
