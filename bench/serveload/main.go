// Command serveload puts load on a running "skillet serve --http" and, given
// a second server, on a static server answering with the same bytes, to
// compare the CPU each spends per request.
//
// It first discovers what the server serves (every page of skills/list and
// tools/list) and builds a pool of requests, the way a sessionless client of
// protocol 2026-07-28 sends them (each request carries its own _meta; no
// client-side cache): one skills/list (the first page), a resources/read of
// every served file and a tools/call of the load tool on every skill, and
// one initialize as a stateless client of 2025-11-25 sends it. Each
// request of the pool has a fixed id, so its answer is always the same
// bytes. The pool is sent once and the answers recorded; -record FILE writes
// the pool and its answers as JSON lines (request, headers, answer) for
// bench/servestatic to serve, and -pool FILE reads them back instead of
// discovering.
//
// Then each of -clients goroutines sends requests of the pool over its own
// keep-alive connection for -duration, in turn one of each method of -ops
// (a random file or skill of the pool). An answer counts as failed when its
// HTTP status is not 200, it is a JSON-RPC error, a tool result with
// isError, or (with -pool) not the recorded bytes. serveload prints
// requests per second, p50/p99 latency per method and the failures and,
// given -pid on Linux, the server's CPU time over the load phase (utime +
// stime from /proc/PID/stat, read before and after; clock ticks of 10 ms)
// divided by the requests it answered, and its peak resident memory
// (VmHWM).
//
// With -static-url and -static-pid, it runs -rounds rounds, each a load
// phase of -duration on -url and then one on -static-url (A B A B ...), so
// load drift on a shared machine hits both alike, and prints per round and
// then the median (min-max) over the rounds of each server's CPU per
// request and req/s, and the ratio of skillet's CPU per request to the
// static server's, taken round by round. The load generator runs on the
// same machine and spends the same on either server; its own CPU is not
// counted.
//
//	go run ./bench/serveload -url http://127.0.0.1:PORT/mcp [-clients 32] [-duration 30s] [-pid PID]
//	serveload -url URL -record pool.jsonl
//	serveload -url URL -pid PID -pool pool.jsonl -static-url URL2 -static-pid PID2 -rounds 5 -duration 3s
//
// bench/serve.sh starts the servers on the corpus and runs this.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/netip"
	neturl "net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/skillet-go/skillet/bench/internal/poolfile"
)

const protocol = "2026-07-28"

// Bounds of the flags: the load stays on this machine and within reach.
const (
	maxClients  = 1024
	maxDuration = 10 * time.Minute
	maxRounds   = 100
)

// checkFlags refuses a target that is not on loopback (127.0.0.0/8, ::1
// or localhost), a client count outside 1..maxClients and a duration that
// is not positive or over maxDuration.
func checkFlags(target string, clients int, d time.Duration) error {
	if err := checkURL(target); err != nil {
		return err
	}
	if clients < 1 || clients > maxClients {
		return fmt.Errorf("-clients %d: give 1 to %d", clients, maxClients)
	}
	if d <= 0 || d > maxDuration {
		return fmt.Errorf("-duration %s: give a duration above 0 and at most %s", d, maxDuration)
	}
	return nil
}

func checkURL(target string) error {
	u, err := neturl.Parse(target)
	if err != nil || u.Scheme != "http" || u.Host == "" {
		return fmt.Errorf("-url %q: give http://HOST:PORT/mcp", target)
	}
	host := u.Hostname()
	if ip, err := netip.ParseAddr(host); !(err == nil && ip.Unmap().IsLoopback() || strings.EqualFold(host, "localhost")) {
		return fmt.Errorf("-url %q: serveload only targets a server on this machine (127.0.0.1, [::1] or localhost)", target)
	}
	return nil
}

var (
	url       = flag.String("url", "", "the MCP endpoint, http://HOST:PORT/mcp")
	clients   = flag.Int("clients", 32, "concurrent clients")
	duration  = flag.Duration("duration", 30*time.Second, "how long to send requests (per load phase)")
	pid       = flag.Int("pid", 0, "the server's process id, for its CPU per request and peak memory (Linux)")
	ops       = flag.String("ops", "skills/list,resources/read,tools/call", "the methods to call, in turn (initialize too)")
	record    = flag.String("record", "", "write the request pool and the answers to this file and exit")
	poolFile  = flag.String("pool", "", "read the request pool and the answers from this file (written by -record)")
	staticURL = flag.String("static-url", "", "a static server answering the same bytes (bench/servestatic), to load in turn with -url")
	staticPID = flag.Int("static-pid", 0, "the static server's process id")
	rounds    = flag.Int("rounds", 1, "load phases per server, interleaved (with -static-url)")
)

type rpcResponse struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// requestBody returns the JSON-RPC request of method with params and id,
// with the _meta a client of protocol 2026-07-28 sends.
func requestBody(id int, method string, params map[string]any) string {
	if params == nil {
		params = map[string]any{}
	}
	params["_meta"] = map[string]any{
		"io.modelcontextprotocol/protocolVersion":    protocol,
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "serveload", "version": "1"},
		"io.modelcontextprotocol/clientCapabilities": map[string]any{},
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return string(body)
}

// initializeBody is the initialize a stateless client of protocol
// 2025-11-25 sends before each of its requests; it carries no _meta and
// goes without the protocol headers (send).
const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"serveload","version":"1"}}}`

// send posts e's request to target and returns the answer's status,
// headers and body.
func send(hc *http.Client, target string, e *poolfile.Entry) (int, http.Header, []byte, error) {
	req, err := http.NewRequest("POST", target, strings.NewReader(e.Request))
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if e.Method != "initialize" {
		req.Header.Set("Mcp-Protocol-Version", protocol)
		req.Header.Set("Mcp-Method", e.Method)
	}
	if e.Name != "" {
		req.Header.Set("Mcp-Name", e.Name)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, data, err
}

// result checks an answer and returns its result: an error for a status
// other than 200, a JSON-RPC error or a tool result with isError.
func result(method string, status int, header http.Header, data []byte) (json.RawMessage, error) {
	if status != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d: %.200s", status, data)
	}
	if strings.HasPrefix(header.Get("Content-Type"), "text/event-stream") {
		for line := range strings.Lines(string(data)) {
			if rest, ok := strings.CutPrefix(line, "data: "); ok {
				data = []byte(rest)
			}
		}
	}
	// The answer is {"jsonrpc":"2.0","id":N,"result":...} or the same
	// with "error": look at which comes first rather than decode a whole
	// page, so the load generator spends its CPU on sending.
	res, errAt := bytes.Index(data, []byte(`"result":`)), bytes.Index(data, []byte(`"error":`))
	switch {
	case res < 0 && errAt < 0:
		return nil, fmt.Errorf("not a JSON-RPC response: %.200s", data)
	case errAt >= 0 && (res < 0 || errAt < res):
		var r rpcResponse
		if err := json.Unmarshal(data, &r); err != nil || r.Error == nil {
			return nil, fmt.Errorf("bad error response: %.200s", data)
		}
		return nil, fmt.Errorf("JSON-RPC error %d: %s", r.Error.Code, r.Error.Message)
	}
	if !json.Valid(data) {
		return nil, fmt.Errorf("invalid JSON: %.200s", data)
	}
	out := json.RawMessage(bytes.TrimSpace(data[res+len(`"result":`):]))
	out = out[:len(out)-1]
	if method == "tools/call" {
		var r struct {
			IsError bool `json:"isError"`
		}
		if json.Unmarshal(out, &r) == nil && r.IsError {
			return nil, fmt.Errorf("tool error: %.200s", out)
		}
	}
	return out, nil
}

// call sends one request built for discovery and returns its result.
func call(hc *http.Client, target string, id int, method string, params map[string]any) (json.RawMessage, error) {
	e := &poolfile.Entry{Method: method, Request: requestBody(id, method, params)}
	status, header, data, err := send(hc, target, e)
	if err != nil {
		return nil, err
	}
	return result(method, status, header, data)
}

// pool is the requests sent, by method.
type pool map[string][]*poolfile.Entry

// discover lists what target serves and returns the pool of requests.
func discover(hc *http.Client, target string) (pool, error) {
	p := pool{
		"skills/list": {{Method: "skills/list", Request: requestBody(1, "skills/list", nil)}},
		"initialize":  {{Method: "initialize", Request: initializeBody}},
	}
	id := 1
	var skills []string
	cursor := ""
	for {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		id++
		res, err := call(hc, target, id, "skills/list", params)
		if err != nil {
			return nil, err
		}
		var page struct {
			Skills []struct {
				URI         string          `json:"uri"`
				Frontmatter map[string]any  `json:"frontmatter"`
				Resources   json.RawMessage `json:"resources"`
			} `json:"skills"`
			NextCursor string `json:"nextCursor"`
		}
		if err := json.Unmarshal(res, &page); err != nil {
			return nil, err
		}
		for _, s := range page.Skills {
			name, _ := s.Frontmatter["name"].(string)
			skills = append(skills, name)
			var files []struct {
				URI string `json:"uri"`
			}
			if err := json.Unmarshal(s.Resources, &files); err == nil {
				for _, f := range files {
					id++
					p["resources/read"] = append(p["resources/read"], &poolfile.Entry{Method: "resources/read", Name: f.URI,
						Request: requestBody(id, "resources/read", map[string]any{"uri": f.URI})})
				}
			}
		}
		if page.NextCursor == "" {
			break
		}
		cursor = page.NextCursor
	}
	id++
	res, err := call(hc, target, id, "tools/list", nil)
	if err != nil {
		return nil, err
	}
	var tools struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(res, &tools); err != nil {
		return nil, err
	}
	if len(tools.Tools) > 0 {
		tool := tools.Tools[0].Name
		for _, s := range skills {
			id++
			p["tools/call"] = append(p["tools/call"], &poolfile.Entry{Method: "tools/call", Name: tool,
				Request: requestBody(id, "tools/call", map[string]any{"name": tool, "arguments": map[string]any{"name": s}})})
		}
	}
	return p, nil
}

// answer sends every request of p once and records its answer.
func (p pool) answer(hc *http.Client, target string) error {
	for _, es := range p {
		for _, e := range es {
			status, header, data, err := send(hc, target, e)
			if err != nil {
				return err
			}
			if _, err := result(e.Method, status, header, data); err != nil {
				return fmt.Errorf("%s: %w", e.Request, err)
			}
			e.Status, e.Response, e.Header = status, string(data), map[string]string{}
			for k, v := range header {
				if k != "Date" && k != "Content-Length" && len(v) > 0 {
					e.Header[k] = v[0]
				}
			}
		}
	}
	return nil
}

func (p pool) write(path string) error {
	var b bytes.Buffer
	for _, m := range slices.Sorted(maps.Keys(p)) {
		for _, e := range p[m] {
			line, err := json.Marshal(e)
			if err != nil {
				return err
			}
			b.Write(line)
			b.WriteByte('\n')
		}
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

func readPool(r io.Reader) (pool, error) {
	entries, err := poolfile.Read(r)
	if err != nil {
		return nil, err
	}
	p := pool{}
	for _, e := range entries {
		p[e.Method] = append(p[e.Method], e)
	}
	return p, nil
}

type sample struct {
	method string
	d      time.Duration
	err    error
}

// phase is one load phase on one server.
type phase struct {
	elapsed  time.Duration
	samples  []sample
	cpuTicks int64 // -1 when unknown
}

// answered is the number of requests that got an answer, failed or not.
func (ph *phase) answered() int { return len(ph.samples) }

// load runs the clients on target for d, each sending the methods in turn.
func load(tr *http.Transport, target string, p pool, methods []string, n int, d time.Duration, check bool, serverPID int) phase {
	before := int64(-1)
	if serverPID > 0 {
		if t, err := cpuTicks(serverPID); err == nil {
			before = t
		}
	}
	deadline := time.Now().Add(d)
	results := make([][]sample, n)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range n {
		wg.Go(func() {
			hc := &http.Client{Transport: tr, Timeout: time.Minute}
			rng := rand.New(rand.NewPCG(uint64(i), 1))
			for k := i; k == i || time.Now().Before(deadline); k++ { // at least one each
				method := methods[k%len(methods)]
				es := p[method]
				e := es[rng.IntN(len(es))]
				t0 := time.Now()
				status, header, data, err := send(hc, target, e)
				if err == nil {
					_, err = result(method, status, header, data)
				}
				if err == nil && check && (status != e.Status || string(data) != e.Response) {
					err = fmt.Errorf("the answer to %.200s is not the recorded one: %.200s", e.Request, data)
				}
				results[i] = append(results[i], sample{method, time.Since(t0), err})
			}
		})
	}
	wg.Wait()
	ph := phase{elapsed: time.Since(start), cpuTicks: -1}
	if before >= 0 {
		if t, err := cpuTicks(serverPID); err == nil {
			ph.cpuTicks = t - before
		}
	}
	for _, rs := range results {
		ph.samples = append(ph.samples, rs...)
	}
	return ph
}

// clockTick is the unit of utime and stime in /proc/PID/stat (USER_HZ,
// 100 on every Linux this runs on).
const clockTick = 10 * time.Millisecond

// parseStat returns utime + stime, in clock ticks, from the contents of
// /proc/PID/stat: fields 14 and 15, counted after the command name, which
// is in parentheses and may itself hold spaces and parentheses.
func parseStat(data []byte) (int64, error) {
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, errors.New("no command name in /proc/PID/stat")
	}
	f := strings.Fields(string(data[i+1:]))
	// f[0] is field 3 (state): utime is field 14, stime field 15.
	if len(f) < 13 {
		return 0, errors.New("short /proc/PID/stat")
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("utime %q, stime %q in /proc/PID/stat", f[11], f[12])
	}
	return u + s, nil
}

func cpuTicks(pid int) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	return parseStat(data)
}

// cpuPerRequest is CPU time in ticks spread over n requests, in
// microseconds; -1 when either is unknown or zero.
func cpuPerRequest(ticks int64, n int) float64 {
	if ticks < 0 || n <= 0 {
		return -1
	}
	return float64(ticks) * float64(clockTick/time.Microsecond) / float64(n)
}

// spread returns the median, min and max of xs (the median of an even
// count is the mean of the middle two); NaN-free, xs not empty.
func spread(xs []float64) (med, lo, hi float64) {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	med = s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return med, s[0], s[n-1]
}

func main() {
	flag.Parse()
	if *url == "" {
		fmt.Fprintln(os.Stderr, "usage: serveload -url http://HOST:PORT/mcp [-clients N] [-duration D] [-pid PID] [-record FILE | -pool FILE [-static-url URL -static-pid PID -rounds N]]")
		os.Exit(2)
	}
	if err := checkAllFlags(); err != nil {
		fail(2, err)
	}
	methods := strings.Split(*ops, ",")
	tr := &http.Transport{MaxIdleConns: *clients * 2, MaxIdleConnsPerHost: *clients * 2}
	p, err := loadPool(&http.Client{Transport: tr, Timeout: time.Minute})
	if err != nil {
		fail(1, err)
	}
	if *record != "" {
		if err := p.write(*record); err != nil {
			fail(1, err)
		}
		fmt.Printf("recorded %d initialize, %d skills/list, %d resources/read and %d tools/call requests and their answers in %s\n",
			len(p["initialize"]), len(p["skills/list"]), len(p["resources/read"]), len(p["tools/call"]), *record)
		return
	}
	for _, m := range methods {
		if len(p[m]) == 0 {
			fail(1, fmt.Errorf("no %s requests in the pool (a server without a tool: use -ops skills/list,resources/read)", m))
		}
	}
	fmt.Printf("target: %s, %d files, %d skills; ops %s; %d clients, %s per phase, %d round(s)\n",
		*url, len(p["resources/read"]), len(p["tools/call"]), *ops, *clients, *duration, *rounds)
	var failed int
	if *staticURL == "" {
		failed = loadAlone(tr, p, methods)
	} else {
		failed = loadBesideStatic(tr, p, methods)
	}
	if failed > 0 {
		os.Exit(1)
	}
}

// checkAllFlags checks the flags beside -url: the load's, -static-url
// (which needs -pool) and -rounds.
func checkAllFlags() error {
	if err := checkFlags(*url, *clients, *duration); err != nil {
		return err
	}
	if *staticURL != "" {
		if err := checkURL(*staticURL); err != nil {
			return err
		}
		if *poolFile == "" {
			return errors.New("-static-url needs -pool: the static server answers the recorded bytes")
		}
	}
	if *rounds < 1 || *rounds > maxRounds {
		return fmt.Errorf("-rounds %d: give 1 to %d", *rounds, maxRounds)
	}
	return nil
}

// loadPool returns the requests to send: those of the -pool file, or those
// discovered on the server at -url with the answers it gives now.
func loadPool(setup *http.Client) (pool, error) {
	if *poolFile != "" {
		f, err := os.Open(*poolFile)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		p, err := readPool(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", *poolFile, err)
		}
		return p, nil
	}
	p, err := discover(setup, *url)
	if err != nil {
		return nil, fmt.Errorf("discovering the skills: %w", err)
	}
	if err := p.answer(setup, *url); err != nil {
		return nil, fmt.Errorf("recording the answers: %w", err)
	}
	return p, nil
}

// loadAlone loads the server at -url for -rounds phases (answers checked
// against the pool's with -pool) and reports them, with the server's CPU
// and memory given -pid; it returns the number of failed requests.
func loadAlone(tr *http.Transport, p pool, methods []string) int {
	var phases []phase
	for range *rounds {
		phases = append(phases, load(tr, *url, p, methods, *clients, *duration, *poolFile != "", *pid))
	}
	nf := report(methods, phases)
	if *pid > 0 {
		printCPU("server", phases)
		if hwm, rss := procMem(*pid); hwm != "" {
			fmt.Printf("server memory: peak %s (VmHWM), now %s (VmRSS)\n", hwm, rss)
		}
	}
	return nf
}

// loadBesideStatic loads skillet (-url) and the static baseline
// (-static-url) in turn, round by round, prints a table of the rounds, each
// one's report and the CPU per request of skillet over the baseline's; it
// returns the number of failed requests.
func loadBesideStatic(tr *http.Transport, p pool, methods []string) int {
	var a, b []phase
	fmt.Printf("\n| round | server | requests | req/s | CPU ms | CPU µs/req |\n| ---: | --- | ---: | ---: | ---: | ---: |\n")
	for r := range *rounds {
		for _, s := range []struct {
			name, url string
			pid       int
			into      *[]phase
		}{{"skillet", *url, *pid, &a}, {"static", *staticURL, *staticPID, &b}} {
			ph := load(tr, s.url, p, methods, *clients, *duration, true, s.pid)
			*s.into = append(*s.into, ph)
			fmt.Printf("| %d | %s | %d | %.0f | %s | %s |\n", r+1, s.name, ph.answered(), float64(ph.answered())/ph.elapsed.Seconds(),
				ticksMS(ph.cpuTicks), perReq(cpuPerRequest(ph.cpuTicks, ph.answered())))
		}
	}
	fmt.Println("\nskillet:")
	nf := report(methods, a)
	fmt.Println("\nstatic:")
	nf += report(methods, b)
	fmt.Println()
	printCPU("skillet", a)
	printCPU("static", b)
	if ratios := cpuRatios(a, b); len(ratios) > 0 {
		med, lo, hi := spread(ratios)
		fmt.Printf("CPU per request, skillet / static: %.2f (%.2f-%.2f), round by round\n", med, lo, hi)
	}
	if *pid > 0 {
		if hwm, rss := procMem(*pid); hwm != "" {
			fmt.Printf("skillet memory: peak %s (VmHWM), now %s (VmRSS)\n", hwm, rss)
		}
	}
	return nf
}

func fail(code int, err error) {
	fmt.Fprintln(os.Stderr, "serveload:", err)
	os.Exit(code)
}

// cpuRatios returns, round by round, a's CPU per request over b's, for
// the rounds where both are known.
func cpuRatios(a, b []phase) []float64 {
	var out []float64
	for i := range min(len(a), len(b)) {
		x, y := cpuPerRequest(a[i].cpuTicks, a[i].answered()), cpuPerRequest(b[i].cpuTicks, b[i].answered())
		if x >= 0 && y > 0 {
			out = append(out, x/y)
		}
	}
	return out
}

func ticksMS(t int64) string {
	if t < 0 {
		return "-"
	}
	return strconv.FormatInt(t*int64(clockTick/time.Millisecond), 10)
}

func perReq(us float64) string {
	if us < 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", us)
}

// printCPU prints the median (min-max) of the CPU per request and of the
// requests per second over phases.
func printCPU(name string, phases []phase) {
	var cpu, rate []float64
	for _, ph := range phases {
		if c := cpuPerRequest(ph.cpuTicks, ph.answered()); c >= 0 {
			cpu = append(cpu, c)
		}
		rate = append(rate, float64(ph.answered())/ph.elapsed.Seconds())
	}
	line := name + ":"
	if len(cpu) > 0 {
		med, lo, hi := spread(cpu)
		line += fmt.Sprintf(" CPU per request %.1f µs (%.1f-%.1f),", med, lo, hi)
	}
	med, lo, hi := spread(rate)
	fmt.Printf("%s %.0f req/s (%.0f-%.0f) over %d phase(s)\n", line, med, lo, hi, len(phases))
}

// report prints the table of requests, req/s, latency and failures per
// method over phases and returns the number of failures.
func report(methods []string, phases []phase) int {
	byMethod := map[string][]time.Duration{}
	var all []time.Duration
	failures := map[string]int{}
	var firstErr error
	var elapsed time.Duration
	for _, ph := range phases {
		elapsed += ph.elapsed
		for _, s := range ph.samples {
			if s.err != nil {
				failures[s.method]++
				if firstErr == nil {
					firstErr = s.err
				}
				continue
			}
			byMethod[s.method] = append(byMethod[s.method], s.d)
			all = append(all, s.d)
		}
	}
	nf := 0
	for _, n := range failures {
		nf += n
	}
	total := len(all) + nf
	fmt.Printf("\n| method | requests | req/s | p50 | p99 | failed |\n| --- | ---: | ---: | ---: | ---: | ---: |\n")
	for _, m := range slices.Compact(slices.Sorted(slices.Values(methods))) {
		ds := byMethod[m]
		fmt.Printf("| %s | %d | %.0f | %s | %s | %d |\n", m, len(ds)+failures[m], float64(len(ds)+failures[m])/elapsed.Seconds(), pct(ds, 50), pct(ds, 99), failures[m])
	}
	fmt.Printf("| all | %d | %.0f | %s | %s | %d |\n", total, float64(total)/elapsed.Seconds(), pct(all, 50), pct(all, 99), nf)
	if nf > 0 {
		fmt.Printf("\n%d requests failed; first: %v\n", nf, firstErr)
	}
	return nf
}

func pct(ds []time.Duration, p int) string {
	if len(ds) == 0 {
		return "-"
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	d := s[min(len(s)-1, len(s)*p/100)]
	return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000)
}

// procMem reads VmHWM and VmRSS from /proc/PID/status.
func procMem(pid int) (hwm, rss string) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "", ""
	}
	for line := range strings.Lines(string(data)) {
		k, v, _ := strings.Cut(line, ":")
		switch k {
		case "VmHWM":
			hwm = strings.TrimSpace(v)
		case "VmRSS":
			rss = strings.TrimSpace(v)
		}
	}
	return hwm, rss
}
