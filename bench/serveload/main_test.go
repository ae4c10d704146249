package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestCheckFlags: the load only goes to loopback, and the client count and
// the duration are bounded, each with an error naming the flag.
func TestCheckFlags(t *testing.T) {
	for _, tt := range []struct {
		url     string
		clients int
		d       time.Duration
		err     string
	}{
		{"http://127.0.0.1:8080/mcp", 32, 30 * time.Second, ""},
		{"http://[::1]:8080/mcp", 1, time.Second, ""},
		{"http://localhost:8080/mcp", maxClients, maxDuration, ""},
		{"http://LOCALHOST:8080/mcp", 1, time.Second, ""},
		{"http://127.0.0.2:8080/mcp", 1, time.Second, ""},
		{"http://10.0.0.1:8080/mcp", 1, time.Second, "only targets a server on this machine"},
		{"http://example.com/mcp", 1, time.Second, "only targets a server on this machine"},
		{"http://0.0.0.0:8080/mcp", 1, time.Second, "only targets a server on this machine"},
		{"https://127.0.0.1:8080/mcp", 1, time.Second, "give http://HOST:PORT/mcp"},
		{"127.0.0.1:8080", 1, time.Second, "give http://HOST:PORT/mcp"},
		{"http://127.0.0.1:8080/mcp", 0, time.Second, "-clients 0: give 1 to 1024"},
		{"http://127.0.0.1:8080/mcp", maxClients + 1, time.Second, "-clients 1025"},
		{"http://127.0.0.1:8080/mcp", 1, 0, "-duration 0s"},
		{"http://127.0.0.1:8080/mcp", 1, maxDuration + time.Second, "at most 10m0s"},
	} {
		err := checkFlags(tt.url, tt.clients, tt.d)
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("checkFlags(%q, %d, %s) = %v, want %q", tt.url, tt.clients, tt.d, err, tt.err)
		}
	}
}

// TestParseStat: utime + stime are fields 14 and 15 of /proc/PID/stat,
// counted after a command name that may hold spaces and parentheses.
func TestParseStat(t *testing.T) {
	for _, tt := range []struct {
		stat string
		want int64
		err  bool
	}{
		{"1234 (skillet) S 1 1234 1234 0 -1 4194560 5000 0 0 0 250 75 0 0 20 0 9 0 100 0 0", 325, false},
		{"1234 (a b) (c)) R 1 1 1 0 -1 0 0 0 0 0 7 3 0 0 20 0 1 0 1 0 0", 10, false},
		{"1234 skillet S 1", 0, true},
		{"1234 (skillet) S 1 2 3", 0, true},
		{"1234 (skillet) S 1 1234 1234 0 -1 4194560 5000 0 0 0 x 75 0 0", 0, true},
	} {
		got, err := parseStat([]byte(tt.stat))
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("parseStat(%q) = %d, %v; want %d, error %v", tt.stat, got, err, tt.want, tt.err)
		}
	}
}

// TestCPUPerRequest: ticks of 10 ms spread over the requests, in µs, and
// the ratio of two servers round by round.
func TestCPUPerRequest(t *testing.T) {
	for _, tt := range []struct {
		ticks int64
		n     int
		want  float64
	}{
		{100, 1000, 1000}, // 1 s over 1000 requests
		{3, 600, 50},
		{0, 10, 0},
		{-1, 10, -1},
		{5, 0, -1},
	} {
		if got := cpuPerRequest(tt.ticks, tt.n); got != tt.want {
			t.Errorf("cpuPerRequest(%d, %d) = %v, want %v", tt.ticks, tt.n, got, tt.want)
		}
	}
	ph := func(ticks int64, n int) phase { return phase{cpuTicks: ticks, samples: make([]sample, n)} }
	a := []phase{ph(100, 1000), ph(60, 300), ph(-1, 10)}
	b := []phase{ph(10, 500), ph(10, 100), ph(10, 100)}
	got := cpuRatios(a, b)
	want := []float64{5, 2}
	if !slices.Equal(got, want) {
		t.Errorf("cpuRatios = %v, want %v", got, want)
	}
}

// TestSpread: median, min and max; an even count's median is the mean of
// the middle two.
func TestSpread(t *testing.T) {
	for _, tt := range []struct {
		xs          []float64
		med, lo, hi float64
	}{
		{[]float64{3}, 3, 3, 3},
		{[]float64{5, 1, 3}, 3, 1, 5},
		{[]float64{4, 1, 2, 10}, 3, 1, 10},
	} {
		med, lo, hi := spread(tt.xs)
		if med != tt.med || lo != tt.lo || hi != tt.hi {
			t.Errorf("spread(%v) = %v %v %v, want %v %v %v", tt.xs, med, lo, hi, tt.med, tt.lo, tt.hi)
		}
	}
}

// TestRecordAndLoad: against a server that answers each request with its
// own body, the pool discovered holds one skills/list, a read per served
// file and a call per skill; the answers recorded survive the file; a load
// phase checks every answer against the recording and counts a changed
// one as failed.
func TestRecordAndLoad(t *testing.T) {
	var changed atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ID     int    `json:"id"`
			Method string `json:"method"`
		}
		json.Unmarshal(body, &req)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Kept", "yes")
		var res string
		switch req.Method {
		case "skills/list":
			res = `{"skills":[{"uri":"skill://a/SKILL.md","frontmatter":{"name":"a"},"resources":[{"uri":"skill://a/SKILL.md"},{"uri":"skill://a/x.md"}]},{"uri":"skill://b/SKILL.md","frontmatter":{"name":"b"},"resources":[{"uri":"skill://b/SKILL.md"}]}]}`
		case "tools/list":
			res = `{"tools":[{"name":"load"}]}`
		default:
			res = fmt.Sprintf(`{"echo":%q}`, body)
			if changed.Load() {
				res = `{"other":1}`
			}
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"result":%s}`, req.ID, res)
	}))
	defer srv.Close()
	target := srv.URL + "/mcp"
	hc := srv.Client()
	p, err := discover(hc, target)
	if err != nil {
		t.Fatal(err)
	}
	if len(p["skills/list"]) != 1 || len(p["resources/read"]) != 3 || len(p["tools/call"]) != 2 {
		t.Fatalf("pool: %d lists, %d reads, %d calls; want 1, 3, 2", len(p["skills/list"]), len(p["resources/read"]), len(p["tools/call"]))
	}
	if err := p.answer(hc, target); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "pool.jsonl")
	if err := p.write(path); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	back, err := readPool(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(p, back); diff != "" {
		t.Fatalf("pool read back differs (-written +read):\n%s", diff)
	}
	e := back["resources/read"][1]
	if e.Name != "skill://a/x.md" || e.Header["X-Kept"] != "yes" || e.Header["Date"] != "" || !strings.Contains(e.Response, `skill://a/x.md`) {
		t.Errorf("recorded entry: %+v", e)
	}
	tr := &http.Transport{}
	methods := []string{"skills/list", "resources/read", "tools/call"}
	ph := load(tr, target, back, methods, 2, 50*time.Millisecond, true, 0)
	if ph.answered() == 0 || ph.cpuTicks != -1 {
		t.Fatalf("phase: %d answered, cpu %d", ph.answered(), ph.cpuTicks)
	}
	for _, s := range ph.samples {
		if s.err != nil {
			t.Fatalf("%s: %v", s.method, s.err)
		}
	}
	// The server's CPU is read from /proc/PID/stat (this process's here).
	if _, err := os.Stat("/proc/self/stat"); err == nil {
		if ph := load(tr, target, back, methods, 1, time.Millisecond, true, os.Getpid()); ph.cpuTicks < 0 {
			t.Errorf("no CPU time read from /proc/%d/stat", os.Getpid())
		}
	}
	changed.Store(true)
	ph = load(tr, target, back, []string{"resources/read"}, 1, 20*time.Millisecond, true, 0)
	for _, s := range ph.samples {
		if s.err == nil || !strings.Contains(s.err.Error(), "not the recorded one") {
			t.Fatalf("changed answer: %v", s.err)
		}
	}
}
