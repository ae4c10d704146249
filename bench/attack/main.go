//go:build unix

// Command attack runs one hostile-client or hostile-folder recipe against
// a skillet binary on loopback and prints the server's peak RSS, its CPU,
// and the latency of a probe that keeps asking during the attack
// (docs/serving.md#measured). Every count and duration is bounded; it
// only ever connects to 127.0.0.1.
//
//	go run ./bench/attack -bin /tmp/skillet -recipe slow-reader
//
// Recipes: slow-reader, stalled-bodies, idle-conns, sessions, query64k,
// link-farm, constant-writes, stream-lockout, team-lockout, idle-flood, oversize-uri,
// oversize-id, batch, cache-owner, big-readers(-stateful),
// churn(-fits)(-stateful). A watchdog kills the server past -max-rss.
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

var (
	bin      = flag.String("bin", "skillet", "the skillet binary to attack")
	recipe   = flag.String("recipe", "", "the attack: slow-reader, stalled-bodies, idle-conns, sessions, query64k, link-farm, constant-writes, stream-lockout, team-lockout, idle-flood, oversize-uri, oversize-id, batch, cache-owner, big-readers, big-readers-stateful, churn, churn-stateful, churn-fits, churn-fits-stateful")
	duration = flag.Duration("duration", 10*time.Second, "how long the attack and the probe run (at most 2m)")
	corpus   = flag.String("corpus", "../shared/corpus", "the corpus of published skills (copied, never written)")
	count    = flag.Int("n", 0, "the recipe's count (0: its default; each recipe has a maximum)")
	logFile  = flag.String("log", "", "write the server's log to this file")
	shared   = flag.Bool("team-shared", false, "team-lockout: the team shares one token, as before per-token bounds (the bound is then expected to break)")
	maxRSS   = flag.Float64("max-rss", 2048, "kill the server once its resident set passes this many MiB (a watchdog; the run then fails)")
)

// maxDuration bounds -duration.
const maxDuration = 2 * time.Minute

func main() {
	flag.Parse()
	r, n, err := checkFlags(*recipe, *count, *duration)
	if err != nil {
		fmt.Fprintln(os.Stderr, "attack:", err)
		os.Exit(2)
	}
	*count = n
	if *logFile != "" {
		f, err := os.Create(*logFile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "attack:", err)
			os.Exit(2)
		}
		defer f.Close()
		serverLog = f
	}
	if err := run(r); err != nil {
		fmt.Fprintln(os.Stderr, "attack:", err)
		if errors.Is(err, errBound) {
			os.Exit(3)
		}
		os.Exit(1)
	}
}

// checkFlags returns the recipe and its count (the default for 0), or an
// error for an unknown recipe, a count below 0 or over the recipe's
// maximum, or a duration that is not positive or over maxDuration.
func checkFlags(name string, n int, d time.Duration) (recipeDef, int, error) {
	r, ok := recipes[name]
	if !ok {
		names := slices.Sorted(maps.Keys(recipes))
		return r, 0, fmt.Errorf("unknown -recipe %q (one of %s)", name, strings.Join(names, ", "))
	}
	switch {
	case n < 0:
		return r, 0, fmt.Errorf("-n %d: the count cannot be negative", n)
	case n > r.max:
		return r, 0, fmt.Errorf("-n %d: %s runs at most %d (%s)", n, name, r.max, r.unit)
	case n == 0:
		n = r.n
	}
	if d <= 0 || d > maxDuration {
		return r, 0, fmt.Errorf("-duration %s: give a duration above 0 and at most %s", d, maxDuration)
	}
	return r, n, nil
}

type recipeDef struct {
	n        int    // default count
	max      int    // the largest count accepted
	unit     string // what the count counts
	stateful bool   // serve --stateful
	corpus   bool   // the workspace holds a copy of the corpus's largest root
	setup    func(ws string, n int) error
	attack   func(ctx context.Context, a *env) error
	// bound, when set, is what the recipe asserts of the server under
	// attack: at most maxFails failed probes (of the read and of
	// /healthz) and a peak RSS of at most maxRSSMiB. A run past it prints
	// bound=broken and exits 3.
	bound     bool
	maxFails  int
	maxRSSMiB float64
	// team: the server reads a token file of teamTokens tokens; the probe
	// sends the first, the attacker the second, and both come from
	// 127.0.0.1, as a team behind one Ingress does.
	team bool
	// cacheOwner: the server's persistent index is in a folder another
	// user owns (uid 65534, mode 0777); the bound then also asks for the
	// index-untrusted warning in the log and the index file untouched.
	cacheOwner bool
}

var recipes = map[string]recipeDef{
	"slow-reader":          {n: 5, max: 64, unit: "sessions", stateful: true, setup: slowSetup, attack: slowReader},
	"stalled-bodies":       {n: 300, max: 2000, unit: "connections, 2 MiB each", attack: stalledBodies},
	"idle-conns":           {n: 4000, max: 20000, unit: "connections", attack: idleConns},
	"sessions":             {n: 70000, max: 500000, unit: "initialize requests", stateful: true, attack: sessions},
	"query64k":             {n: 8, max: 256, unit: "clients", corpus: true, attack: query64k},
	"link-farm":            {n: 80, max: 1998, unit: "links to one sparse file", setup: linkFarm},
	"constant-writes":      {n: 1, max: 1, unit: "writer, one write a second", corpus: true, attack: constantWrites},
	"oversize-uri":         {n: 48, max: 256, unit: "clients, each sending 4 MiB URIs nonstop", attack: oversize(func() string { return readMsg(`"1"`, strings.Repeat("a", 4<<20-200)) }), bound: true, maxFails: 0, maxRSSMiB: 256},
	"oversize-id":          {n: 48, max: 256, unit: "clients, each sending 4 MiB ids nonstop", attack: oversize(func() string { return readMsg(`"`+strings.Repeat("i", 4<<20-200)+`"`, "probe/SKILL.md") }), bound: true, maxFails: 0, maxRSSMiB: 256},
	"batch":                {n: 8, max: 64, unit: "clients, each sending a batch of 20,000 pings nonstop", attack: oversize(batchMsg), bound: true, maxFails: 0, maxRSSMiB: 256},
	"cache-owner":          {n: 1, max: 1, unit: "index folder of another user (needs root)", cacheOwner: true, bound: true, maxFails: 0, maxRSSMiB: 128},
	"idle-flood":           {n: 8000, max: 20000, unit: "connections from 127.0.0.2, half silent, half idle after one request", attack: idleFlood, bound: true, maxFails: 0, maxRSSMiB: 128},
	"big-readers":          {n: 24, max: 256, unit: "clients from 127.0.0.2 reading a 16 MiB file at 40 KiB/s", setup: bigSetup, attack: bigReaders, bound: true, maxFails: 0, maxRSSMiB: budgetBound},
	"big-readers-stateful": {n: 24, max: 256, unit: "clients from 127.0.0.2 reading a 16 MiB file at 40 KiB/s", stateful: true, setup: bigSetup, attack: bigReaders, bound: true, maxFails: 0, maxRSSMiB: budgetBound},
	"churn":                {n: 1000, max: 1000, unit: "rounds rewriting 240 MiB of files", setup: churnSetup(churnFull), attack: churn(churnFull), bound: true, maxFails: 0, maxRSSMiB: budgetBound},
	"churn-stateful":       {n: 1000, max: 1000, unit: "rounds rewriting 240 MiB of files", stateful: true, setup: churnSetup(churnFull), attack: churn(churnFull), bound: true, maxFails: 0, maxRSSMiB: budgetBound},
	"churn-fits":           {n: 1000, max: 1000, unit: "rounds rewriting 112 MiB of files", setup: churnSetup(churnHalf), attack: churn(churnHalf), bound: true, maxFails: 0, maxRSSMiB: budgetBound},
	"churn-fits-stateful":  {n: 1000, max: 1000, unit: "rounds rewriting 112 MiB of files", stateful: true, setup: churnSetup(churnHalf), attack: churn(churnHalf), bound: true, maxFails: 0, maxRSSMiB: budgetBound},
	"stream-lockout":       {n: 600, max: 4000, unit: "sessions with an open stream, from 127.0.0.2", stateful: true, attack: streamLockout, bound: true, maxFails: 0, maxRSSMiB: 128},
	"team-lockout":         {n: 600, max: 4000, unit: "sessions with an open stream, from the probe's address with another member's token", stateful: true, team: true, attack: teamLockout, bound: true, maxFails: 0, maxRSSMiB: 128},
}

// budgetBound is the bound of the memory-budget recipes: the default
// --max-served-bytes (256 MiB) and the fixed overhead docs/serving.md#memory
// states (192 MiB).
const budgetBound = 256 + 192

// attackerAddr is the loopback address the recipes that test fairness
// attack from; the probe comes from 127.0.0.1 (Linux answers all of
// 127.0.0.0/8).
var attackerAddr = &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}

// streamLockout: n stateful sessions from another loopback address, each
// opening its notification stream on a connection of its own and holding
// it; before per-client bounds, 512 such streams took every connection.
func streamLockout(ctx context.Context, a *env) error {
	return lockout(ctx, a, &net.Dialer{LocalAddr: attackerAddr, Timeout: 5 * time.Second}, "")
}

// teamLockout: streamLockout by one member of a team (the second token)
// from the address the probe (the first token) comes from, as every
// member does behind an Ingress; before per-token bounds, the two shared
// one client's slots.
func teamLockout(ctx context.Context, a *env) error {
	return lockout(ctx, a, &net.Dialer{Timeout: 5 * time.Second}, a.tokens[1])
}

// lockout opens a.n stateful sessions through d, sending token when set,
// each holding its notification stream on a connection of its own.
func lockout(ctx context.Context, a *env, d *net.Dialer, token string) error {
	client := &http.Client{Timeout: 5 * time.Second, Transport: bearer(&http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 4}, token)}
	auth := ""
	if token != "" {
		auth = "Authorization: Bearer " + token + "\r\n"
	}
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range a.n {
		if ctx.Err() != nil {
			break
		}
		id, err := initialize(client, a.endpoint)
		if err != nil {
			continue
		}
		c, err := d.DialContext(ctx, "tcp", a.host)
		if err != nil {
			continue
		}
		conns = append(conns, c)
		fmt.Fprintf(c, "GET /mcp HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n%sMcp-Session-Id: %s\r\n\r\n", a.host, auth, id)
	}
	<-ctx.Done()
	return nil
}

// readMsg is a resources/read of skill://PATH with the raw JSON id.
func readMsg(id, path string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"resources/read","params":{"uri":"skill://` + path + `"}}`
}

// batchMsg is a JSON-RPC batch of 20,000 pings (about 0.8 MB).
func batchMsg() string {
	var b strings.Builder
	b.WriteByte('[')
	for i := range 20000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`, i)
	}
	b.WriteByte(']')
	return b.String()
}

// oversize: n clients from 127.0.0.2 post the message msg makes, over and
// over; each answer is read to its end (at most 64 MiB) and counted, with
// the time it took, in the line the run prints (refusals=, refusal_p50_ms=).
func oversize(msg func() string) func(ctx context.Context, a *env) error {
	return func(ctx context.Context, a *env) error {
		body := msg()
		d := &net.Dialer{LocalAddr: attackerAddr, Timeout: 5 * time.Second}
		client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: a.n}}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for range a.n {
			wg.Go(func() {
				for ctx.Err() == nil {
					t0 := time.Now()
					req, _ := http.NewRequestWithContext(ctx, "POST", a.endpoint, strings.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Accept", "application/json, text/event-stream")
					req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
					resp, err := client.Do(req)
					if err != nil {
						continue
					}
					_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<20))
					resp.Body.Close()
					mu.Lock()
					refusals = append(refusals, float64(time.Since(t0).Microseconds())/1000)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		return nil
	}
}

// refusals are the times the answers of oversize took, in ms.
var refusals []float64

// healthProbe asks GET /healthz every 100 ms from 127.0.0.1, each on a new
// connection (as a kubelet does), and counts the failures.
func healthProbe(ctx context.Context, a *env) (n, fails int) {
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return n, fails
		case <-tick.C:
		}
		n++
		resp, err := client.Get("http://" + a.host + "/healthz")
		if err != nil {
			fails++
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(b) != "ok\n" {
			fails++
		}
	}
}

// env is what an attack works with.
type env struct {
	ws, endpoint, host string
	n                  int
	stateful           bool
	// tokens are the team's, for a team recipe: the probe sends the first.
	tokens []string
}

// bearer returns rt sending Authorization: Bearer token with every
// request; with no token, rt itself.
func bearer(rt http.RoundTripper, token string) http.RoundTripper {
	if token == "" {
		return rt
	}
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		req = req.Clone(req.Context())
		req.Header.Set("Authorization", "Bearer "+token)
		return rt.RoundTrip(req)
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// teamTokens is how many tokens a team recipe's token file holds.
const teamTokens = 8

// writeTeamTokens writes a token file of teamTokens random tokens, one a
// line (mode 0600, as the server asks), in ws and returns its path and
// the tokens.
// With -team-shared the file holds one token, which every member sends.
func writeTeamTokens(ws string) (string, []string, error) {
	tokens := make([]string, teamTokens)
	var b strings.Builder
	for i := range tokens {
		if *shared && i > 0 {
			tokens[i] = tokens[0]
			continue
		}
		var raw [32]byte
		if _, err := rand.Read(raw[:]); err != nil {
			return "", nil, err
		}
		tokens[i] = hex.EncodeToString(raw[:])
		if *shared {
			b.WriteString(tokens[i] + "\n") // a file of one token, as servers before token files read
			continue
		}
		fmt.Fprintf(&b, "# member %d\n%s\n", i+1, tokens[i])
	}
	p := filepath.Join(ws, "tokens")
	return p, tokens, os.WriteFile(p, []byte(b.String()), 0o600)
}

// run runs recipe r once: a workspace laid out for it, the server started
// on it, the attack beside the probes for -duration, and one line of
// figures; errBound when the server broke the recipe's bound.
func run(r recipeDef) error {
	ws, err := os.MkdirTemp("", "skillet-attack-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(ws)
	if err := layOut(r, ws); err != nil {
		return err
	}
	args, tokens, err := serveArgs(r, ws)
	if err != nil {
		return err
	}
	var idx string
	var idxStat os.FileInfo
	if r.cacheOwner {
		if idx, idxStat, err = foreignIndex(ws); err != nil {
			return err
		}
	}
	start := time.Now()
	cmd, endpoint, err := startServer(ws, args)
	if cmd != nil {
		defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	}
	if err != nil {
		return err
	}
	startup := time.Since(start)
	a := &env{ws: ws, endpoint: endpoint, host: strings.TrimSuffix(strings.TrimPrefix(endpoint, "http://"), "/mcp"), n: *count, stateful: r.stateful, tokens: tokens}
	m := attack(r, a, cmd.Process.Pid)
	if m.killed {
		return fmt.Errorf("the server passed -max-rss %.0f MiB and was killed (%d probes answered, %d failed)", *maxRSS, len(m.lat), m.fails)
	}
	fmt.Printf("recipe=%s n=%d bin=%s startup=%s peak_rss_mib=%.0f cpu_s=%.2f cpu_pct=%.0f probes=%d probe_fail=%d p50_ms=%.1f p99_ms=%.1f max_ms=%.1f stale_p99_ms=%.0f",
		*recipe, *count, filepath.Base(*bin), startup.Round(time.Millisecond), float64(m.peak)/1024, m.cpu.Seconds(),
		100*m.cpu.Seconds()/duration.Seconds(), len(m.lat), m.fails, pct(m.lat, 50), pct(m.lat, 99), pct(m.lat, 100), pct(m.stale, 99))
	fmt.Printf(" startup_peak_rss_mib=%.0f health=%d health_fail=%d", float64(m.startRSS)/1024, m.health, m.healthFails)
	if len(refusals) > 0 {
		fmt.Printf(" refusals=%d refusal_p50_ms=%.1f refusal_p99_ms=%.1f", len(refusals), pct(refusals, 50), pct(refusals, 99))
	}
	if m.attackErr != nil && !errors.Is(m.attackErr, context.DeadlineExceeded) && !errors.Is(m.attackErr, context.Canceled) {
		fmt.Printf(" attack_error=%q", m.attackErr.Error())
	}
	if r.bound {
		if err := checkBound(r, m, idx, idxStat); err != nil {
			return err
		}
	}
	fmt.Println()
	return nil
}

// layOut writes the recipe's workspace into ws: the probe skill, a copy of
// the corpus's largest root when the recipe asks for it, and the recipe's
// own setup.
func layOut(r recipeDef, ws string) error {
	if err := writeProbeSkill(ws, 0); err != nil {
		return err
	}
	if r.corpus {
		src := filepath.Join(*corpus, "github-awesome-copilot", "skills")
		if out, err := exec.Command("cp", "-r", src+"/.", filepath.Join(ws, "skills")).CombinedOutput(); err != nil {
			return fmt.Errorf("copying the corpus: %v: %s", err, out)
		}
	}
	if r.setup != nil {
		return r.setup(ws, *count)
	}
	return nil
}

// serveArgs are the arguments of skillet serve for recipe r on ws
// (loopback, port 0; stateful as the recipe says), and for a team recipe
// the tokens of the token file it writes into ws.
func serveArgs(r recipeDef, ws string) (args, tokens []string, err error) {
	args = []string{"serve", "-w", ws, "--no-user", "--http", "127.0.0.1:0"}
	if r.stateful {
		args = append(args, "--stateful")
	}
	if r.team {
		var file string
		if file, tokens, err = writeTeamTokens(ws); err != nil {
			return nil, nil, err
		}
		args = append(args, "--auth-token-file", file)
	}
	return args, tokens, nil
}

// startServer starts -bin with args (its cache inside ws) and returns it
// with the endpoint it logs; cmd is non-nil, to be killed, once started,
// even with an error.
func startServer(ws string, args []string) (*exec.Cmd, string, error) {
	cmd := exec.Command(*bin, args...)
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+filepath.Join(ws, "cache"))
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	endpoint, err := waitURL(stderr, 3*time.Minute)
	return cmd, endpoint, err
}

// measured is what one attack saw: the probes' latencies and stale
// answers (ms) and failures, /healthz's answers and failures, the
// attack's own error, the server's CPU time, its peak RSS before and after
// (KiB), and whether the RSS watch killed it.
type measured struct {
	lat, stale          []float64
	fails               int
	health, healthFails int
	attackErr           error
	cpu                 time.Duration
	startRSS, peak      int64
	killed              bool
}

// attack runs, for -duration, the recipe's attack, the health probe, the
// read probe and the RSS watch together against the server pid at a.
func attack(r recipeDef, a *env, pid int) measured {
	var m measured
	cpu0 := cpuTime(pid)
	m.startRSS = peakRSS(pid)
	ctx, cancel := context.WithTimeout(context.Background(), *duration)
	defer cancel()
	var wg sync.WaitGroup
	wg.Go(func() { watchRSS(ctx, pid, *maxRSS, &m.killed) })
	if r.attack != nil {
		wg.Go(func() { m.attackErr = r.attack(ctx, a) })
	}
	wg.Go(func() { m.health, m.healthFails = healthProbe(ctx, a) })
	m.lat, m.stale, m.fails = probe(ctx, a)
	cancel()
	wg.Wait()
	m.cpu = cpuTime(pid) - cpu0
	m.peak = peakRSS(pid)
	return m
}

// checkBound prints whether the server held the recipe's bound (failed
// probes, peak RSS, and for cacheOwner the index-untrusted warning and
// the index file idx untouched since idxStat) and returns errBound when
// it did not.
func checkBound(r recipeDef, m measured, idx string, idxStat os.FileInfo) error {
	broken := false
	if r.cacheOwner {
		fi, err := os.Stat(idx)
		untouched := err == nil && fi.ModTime().Equal(idxStat.ModTime()) && os.SameFile(fi, idxStat)
		fmt.Printf(" index_untrusted_logged=%v index_untouched=%v", sawUntrusted.Load(), untouched)
		broken = !sawUntrusted.Load() || !untouched
	}
	if broken || m.fails+m.healthFails > r.maxFails || float64(m.peak)/1024 > r.maxRSSMiB || len(m.lat) == 0 {
		fmt.Printf(" bound=broken (at most %d failed probes and %.0f MiB)\n", r.maxFails, r.maxRSSMiB)
		return errBound
	}
	fmt.Printf(" bound=held")
	return nil
}

// errBound is a run whose server broke the recipe's bound.
var errBound = errors.New("the bound is broken")

var urlRE = regexp.MustCompile(`url=(http://127\.0\.0\.1:\d+/mcp)`)

// sawUntrusted is set when the server logs an index-untrusted warning.
var sawUntrusted atomic.Bool

// foreignIndex writes the persistent index of ws as skillet show does
// (XDG_CACHE_HOME=ws/cache), then gives its folder and file to uid 65534
// and makes the folder writable by all, as another user's cache would be;
// it returns the index file and its stat.
func foreignIndex(ws string) (string, os.FileInfo, error) {
	if os.Geteuid() != 0 {
		return "", nil, errors.New("cache-owner changes a folder's owner: run it as root")
	}
	cache := filepath.Join(ws, "cache")
	show := exec.Command(*bin, "show", "probe", "-w", ws, "--no-user")
	show.Env = append(os.Environ(), "XDG_CACHE_HOME="+cache)
	// The index is not written over files modified in the last 100 ms.
	time.Sleep(200 * time.Millisecond)
	if out, err := show.CombinedOutput(); err != nil {
		return "", nil, fmt.Errorf("skillet show: %v: %s", err, out)
	}
	dir := filepath.Join(cache, "skillet", "index")
	files, _ := filepath.Glob(filepath.Join(dir, "*.idx"))
	if len(files) != 1 {
		return "", nil, fmt.Errorf("%d index files in %s, want 1", len(files), dir)
	}
	for _, p := range []string{dir, files[0]} {
		if err := os.Chown(p, 65534, 65534); err != nil {
			return "", nil, err
		}
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		return "", nil, err
	}
	fi, err := os.Stat(files[0])
	return files[0], fi, err
}

// serverLog, when -log is given, receives the server's log lines.
var serverLog io.Writer

func waitURL(r io.Reader, limit time.Duration) (string, error) {
	found := make(chan string, 1)
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		sent := false
		for sc.Scan() {
			if serverLog != nil {
				fmt.Fprintln(serverLog, sc.Text())
			}
			if strings.Contains(sc.Text(), "index-untrusted") {
				sawUntrusted.Store(true)
			}
			if m := urlRE.FindStringSubmatch(sc.Text()); m != nil && !sent {
				found <- m[1]
				sent = true
			}
		}
	}()
	select {
	case u := <-found:
		return u, nil
	case <-exited:
		select {
		case u := <-found:
			return u, nil
		default:
			return "", errors.New("the server exited before printing its URL (see -log)")
		}
	case <-time.After(limit):
		return "", errors.New("the server did not start")
	}
}

// writeProbeSkill writes the skill the probe reads; its body holds the
// time it was written, so the probe can tell how stale an answer is.
func writeProbeSkill(ws string, stamp int64) error {
	dir := filepath.Join(ws, "skills", "probe")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	text := fmt.Sprintf("---\nname: probe\ndescription: The probe of the attack tool.\n---\nstamp: %d\n", stamp)
	tmp := filepath.Join(dir, ".SKILL.md.tmp")
	if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, "SKILL.md"))
}

var stampRE = regexp.MustCompile(`stamp: (\d+)`)

// probe reads skill://probe/SKILL.md every 50 ms until ctx is done and
// returns the latencies (ms), the staleness of what it read (ms, only
// while the attack rewrites the probe skill) and the failures.
func probe(ctx context.Context, a *env) (lat, stale []float64, fails int) {
	client := &http.Client{Timeout: 5 * time.Second}
	if len(a.tokens) > 0 {
		client.Transport = bearer(http.DefaultTransport, a.tokens[0])
	}
	session := ""
	if a.stateful {
		for session == "" && ctx.Err() == nil {
			session, _ = initialize(client, a.endpoint)
			if session == "" {
				fails++
				time.Sleep(50 * time.Millisecond)
			}
		}
	}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return lat, stale, fails
		case <-tick.C:
		}
		t0 := time.Now()
		body, err := post(client, a.endpoint, session, `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"skill://probe/SKILL.md"}}`)
		d := time.Since(t0)
		if err != nil || !bytes.Contains(body, []byte(`"contents"`)) {
			fails++
			if a.stateful && err != nil && strings.Contains(err.Error(), "status 404") {
				session, _ = initialize(client, a.endpoint) // the session was closed
			}
			continue
		}
		lat = append(lat, float64(d.Microseconds())/1000)
		if m := stampRE.FindSubmatch(body); m != nil {
			if st, _ := strconv.ParseInt(string(m[1]), 10, 64); st > 0 {
				stale = append(stale, float64(time.Now().UnixMilli()-st))
			}
		}
	}
}

func post(client *http.Client, endpoint, session, msg string) ([]byte, error) {
	req, _ := http.NewRequest("POST", endpoint, strings.NewReader(msg))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if resp.StatusCode != 200 && resp.StatusCode != 202 {
		return b, fmt.Errorf("status %d: %.200s", resp.StatusCode, b)
	}
	return b, err
}

const initMsg = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"attack","version":"1"}}}`

func initialize(client *http.Client, endpoint string) (string, error) {
	req, _ := http.NewRequest("POST", endpoint, strings.NewReader(initMsg))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	id := resp.Header.Get("Mcp-Session-Id")
	if id == "" {
		return "", fmt.Errorf("initialize: status %d", resp.StatusCode)
	}
	if _, err := post(client, endpoint, id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil {
		return id, err
	}
	return id, nil
}

// slowFiles are the URIs of files of the probe skill that slow-reader
// rewrites, so that each reload sends many notifications.
var slowFiles []string

func slowSetup(ws string, _ int) error {
	long := strings.Repeat("x", 150)
	for i := range 2000 {
		rel := fmt.Sprintf("notes/%s-%04d.txt", long, i)
		slowFiles = append(slowFiles, "skill://probe/"+rel)
		p := filepath.Join(ws, "skills", "probe", rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte("0\n"), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// slowReader: n sessions subscribe to the probe skill and 2000 of its
// files (long names, so each reload sends 600 KB to each) and open their
// notification stream with a 4 KiB receive buffer, and never read it; the
// probe skill and its files are rewritten every second.
func slowReader(ctx context.Context, a *env) error {
	client := &http.Client{Timeout: 5 * time.Second}
	small := &net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	}}
	for range a.n {
		id, err := initialize(client, a.endpoint)
		if err != nil {
			return err
		}
		for _, uri := range append([]string{"skill://probe/SKILL.md"}, slowFiles...) {
			if _, err := post(client, a.endpoint, id, `{"jsonrpc":"2.0","id":3,"method":"resources/subscribe","params":{"uri":"`+uri+`"}}`); err != nil {
				return err
			}
		}
		c, err := small.DialContext(ctx, "tcp", a.host)
		if err != nil {
			return err
		}
		defer c.Close()
		fmt.Fprintf(c, "GET /mcp HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\nMcp-Session-Id: %s\r\n\r\n", a.host, id)
	}
	return rewriteProbe(ctx, a.ws, time.Second)
}

func rewriteProbe(ctx context.Context, ws string, every time.Duration) error {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
			now := time.Now().UnixMilli()
			for _, uri := range slowFiles {
				p := filepath.Join(ws, "skills", "probe", strings.TrimPrefix(uri, "skill://probe/"))
				if err := os.WriteFile(p, []byte(strconv.FormatInt(now, 10)+"\n"), 0o644); err != nil {
					return err
				}
			}
			if err := writeProbeSkill(ws, now); err != nil {
				return err
			}
		}
	}
}

// stalledBodies: n connections each announce a 4 MiB body, send 2 MiB of
// it and stall.
func stalledBodies(ctx context.Context, a *env) error {
	chunk := bytes.Repeat([]byte(" "), 64<<10)
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	var d net.Dialer
	for range a.n {
		if ctx.Err() != nil {
			break
		}
		c, err := d.DialContext(ctx, "tcp", a.host)
		if err != nil {
			continue
		}
		conns = append(conns, c)
		fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"_meta\":{\"x\":\"", a.host, 4<<20-1024)
		_ = c.SetWriteDeadline(time.Now().Add(2 * time.Second))
		for range 32 {
			if _, err := c.Write(chunk); err != nil {
				break
			}
		}
	}
	<-ctx.Done()
	return nil
}

// idleConns: n connections, half of which send nothing and half of which
// make one request and stay open.
func idleConns(ctx context.Context, a *env) error {
	return idleConnsFrom(ctx, a, &net.Dialer{})
}

func idleConnsFrom(ctx context.Context, a *env, d *net.Dialer) error {
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	msg := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	for i := range a.n {
		if ctx.Err() != nil {
			break
		}
		c, err := d.DialContext(ctx, "tcp", a.host)
		if err != nil {
			continue
		}
		conns = append(conns, c)
		if i%2 == 1 {
			fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s", a.host, len(msg), msg)
		}
	}
	<-ctx.Done()
	return nil
}

// idleFlood: idleConns from attackerAddr, so that the probe (from
// 127.0.0.1) is another client.
func idleFlood(ctx context.Context, a *env) error {
	return idleConnsFrom(ctx, a, &net.Dialer{LocalAddr: attackerAddr, Timeout: 5 * time.Second})
}

// sessions: n stateful sessions initialized and left, 32 at a time.
func sessions(ctx context.Context, a *env) error {
	tr := &http.Transport{MaxIdleConnsPerHost: 32}
	client := &http.Client{Timeout: 5 * time.Second, Transport: tr}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			for next.Add(1) <= int64(a.n) && ctx.Err() == nil {
				_, _ = initialize(client, a.endpoint)
			}
		})
	}
	wg.Wait()
	<-ctx.Done()
	return nil
}

// query64k: n clients call the load tool with a 60 KB query of distinct
// words, over and over.
func query64k(ctx context.Context, a *env) error {
	var words []string
	for i := 0; len(strings.Join(words, " ")) < 60<<10; i++ {
		words = append(words, "w"+strconv.Itoa(i)+"deploy")
	}
	q, _ := json.Marshal(strings.Join(words, " "))
	msg := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"use_skill","arguments":{"query":` + string(q) + `}}}`
	client := &http.Client{Timeout: 60 * time.Second}
	var wg sync.WaitGroup
	for range a.n {
		wg.Go(func() {
			for ctx.Err() == nil {
				_, _ = post(client, a.endpoint, "", msg)
			}
		})
	}
	wg.Wait()
	return nil
}

// linkFarm: a skill folder of n hard links and n symlinks to one sparse
// file just under 16 MiB (a few KB on disk).
func linkFarm(ws string, n int) error {
	dir := filepath.Join(ws, "skills", "farm")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: farm\ndescription: Links to one sparse file.\n---\nBody.\n"), 0o644); err != nil {
		return err
	}
	sparse := filepath.Join(dir, "sparse.txt")
	f, err := os.Create(sparse)
	if err != nil {
		return err
	}
	if err := f.Truncate(16<<20 - 1); err != nil {
		return err
	}
	f.Close()
	for i := range n / 2 {
		if err := os.Link(sparse, filepath.Join(dir, fmt.Sprintf("hard%03d.txt", i))); err != nil {
			return err
		}
		if err := os.Symlink("sparse.txt", filepath.Join(dir, fmt.Sprintf("sym%03d.txt", i))); err != nil {
			return err
		}
	}
	return nil
}

// constantWrites: one file that belongs to no skill, in the root, written
// every second.
func constantWrites(ctx context.Context, a *env) error {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
			if err := os.WriteFile(filepath.Join(a.ws, "skills", "notes.log"), []byte(strconv.Itoa(i)+"\n"), 0o644); err != nil {
				return err
			}
		}
	}
}

func pct(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(float64(len(s)-1) * p / 100)
	return s[i]
}

// peakRSS is the process's peak resident set in KiB (VmHWM).
func peakRSS(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, _ := strconv.ParseInt(strings.Fields(rest)[0], 10, 64)
			return n
		}
	}
	return 0
}

// cpuTime is the process's user and system time so far.
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100 // USER_HZ
}
