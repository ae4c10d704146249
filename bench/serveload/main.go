// Command serveload puts load on a running "skillet serve --http": each of
// -clients goroutines sends JSON-RPC requests over its own keep-alive HTTP
// connection for -duration, in turn skills/list (one page),
// resources/read of a random served file and tools/call of the load tool
// on a random skill, the way a sessionless client of protocol 2026-07-28
// does (each request carries its own _meta; no client-side cache). It
// prints requests per second, p50/p99 latency per method, the failures
// (HTTP status other than 200, JSON-RPC error, tool result with isError),
// and, given -pid on Linux, the server's peak resident memory (VmHWM).
//
//	go run ./bench/serveload -url http://127.0.0.1:PORT/mcp [-clients 32] [-duration 30s] [-pid PID]
//
// bench/serve.sh starts the server on the corpus and runs this.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/netip"
	neturl "net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

const protocol = "2026-07-28"

// Bounds of the flags: the load stays on this machine and within reach.
const (
	maxClients  = 1024
	maxDuration = 10 * time.Minute
)

// checkFlags refuses a target that is not on loopback (127.0.0.0/8, ::1
// or localhost), a client count outside 1..maxClients and a duration that
// is not positive or over maxDuration.
func checkFlags(target string, clients int, d time.Duration) error {
	u, err := neturl.Parse(target)
	if err != nil || u.Scheme != "http" || u.Host == "" {
		return fmt.Errorf("-url %q: give http://HOST:PORT/mcp", target)
	}
	host := u.Hostname()
	if ip, err := netip.ParseAddr(host); !(err == nil && ip.Unmap().IsLoopback() || strings.EqualFold(host, "localhost")) {
		return fmt.Errorf("-url %q: serveload only targets a server on this machine (127.0.0.1, [::1] or localhost)", target)
	}
	if clients < 1 || clients > maxClients {
		return fmt.Errorf("-clients %d: give 1 to %d", clients, maxClients)
	}
	if d <= 0 || d > maxDuration {
		return fmt.Errorf("-duration %s: give a duration above 0 and at most %s", d, maxDuration)
	}
	return nil
}

var (
	url      = flag.String("url", "", "the MCP endpoint, http://HOST:PORT/mcp")
	clients  = flag.Int("clients", 32, "concurrent clients")
	duration = flag.Duration("duration", 30*time.Second, "how long to send requests")
	pid      = flag.Int("pid", 0, "the server's process id, to report its peak memory (Linux)")
	ops      = flag.String("ops", "skills/list,resources/read,tools/call", "the methods to call, in turn")
)

type rpcResponse struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

type client struct {
	http *http.Client
	id   atomic.Int64
}

// call posts one request and returns its result.
func (c *client) call(method string, params map[string]any) (json.RawMessage, error) {
	if params == nil {
		params = map[string]any{}
	}
	params["_meta"] = map[string]any{
		"io.modelcontextprotocol/protocolVersion":    protocol,
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "serveload", "version": "1"},
		"io.modelcontextprotocol/clientCapabilities": map[string]any{},
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id.Add(1), "method": method, "params": params})
	req, err := http.NewRequest("POST", *url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", protocol)
	req.Header.Set("Mcp-Method", method)
	switch method {
	case "resources/read":
		req.Header.Set("Mcp-Name", params["uri"].(string))
	case "tools/call", "prompts/get":
		req.Header.Set("Mcp-Name", params["name"].(string))
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d: %.200s", resp.StatusCode, data)
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
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
	return json.RawMessage(data[res+len(`"result":`) : len(data)-1]), nil
}

// target is what the requests pick from: every served file and skill.
type target struct {
	files  []string
	skills []string
	tool   string
}

func discover(c *client) (*target, error) {
	t := &target{}
	cursor := ""
	for {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		res, err := c.call("skills/list", params)
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
			t.skills = append(t.skills, s.Frontmatter["name"].(string))
			var files []struct {
				URI string `json:"uri"`
			}
			if err := json.Unmarshal(s.Resources, &files); err == nil {
				for _, f := range files {
					t.files = append(t.files, f.URI)
				}
			}
		}
		if page.NextCursor == "" {
			break
		}
		cursor = page.NextCursor
	}
	res, err := c.call("tools/list", nil)
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
		t.tool = tools.Tools[0].Name
	}
	return t, nil
}

type sample struct {
	method string
	d      time.Duration
	err    error
}

func main() {
	flag.Parse()
	if *url == "" {
		fmt.Fprintln(os.Stderr, "usage: serveload -url http://HOST:PORT/mcp [-clients N] [-duration D] [-pid PID]")
		os.Exit(2)
	}
	if err := checkFlags(*url, *clients, *duration); err != nil {
		fmt.Fprintln(os.Stderr, "serveload:", err)
		os.Exit(2)
	}
	methods := strings.Split(*ops, ",")
	tr := &http.Transport{MaxIdleConns: *clients * 2, MaxIdleConnsPerHost: *clients * 2}
	setup := &client{http: &http.Client{Transport: tr, Timeout: time.Minute}}
	tg, err := discover(setup)
	if err != nil {
		fmt.Fprintln(os.Stderr, "serveload: discovering the skills:", err)
		os.Exit(1)
	}
	if slices.Contains(methods, "tools/call") && tg.tool == "" {
		fmt.Fprintln(os.Stderr, "serveload: the server offers no tool; use -ops skills/list,resources/read")
		os.Exit(1)
	}
	fmt.Printf("target: %s, %d skills, %d files, tool %q; %d clients for %s\n", *url, len(tg.skills), len(tg.files), tg.tool, *clients, *duration)

	deadline := time.Now().Add(*duration)
	results := make([][]sample, *clients)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range *clients {
		wg.Go(func() {
			c := &client{http: &http.Client{Transport: tr, Timeout: time.Minute}}
			rng := rand.New(rand.NewPCG(uint64(i), 1))
			for n := i; time.Now().Before(deadline); n++ {
				method := methods[n%len(methods)]
				var params map[string]any
				switch method {
				case "resources/read":
					params = map[string]any{"uri": tg.files[rng.IntN(len(tg.files))]}
				case "tools/call":
					params = map[string]any{"name": tg.tool, "arguments": map[string]any{"name": tg.skills[rng.IntN(len(tg.skills))]}}
				}
				t0 := time.Now()
				res, err := c.call(method, params)
				if err == nil && method == "tools/call" {
					var r struct {
						IsError bool `json:"isError"`
					}
					if json.Unmarshal(res, &r) == nil && r.IsError {
						err = fmt.Errorf("tool error: %.200s", res)
					}
				}
				results[i] = append(results[i], sample{method, time.Since(t0), err})
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)

	byMethod := map[string][]time.Duration{}
	var all []time.Duration
	failures := map[string]int{}
	var firstErr error
	for _, rs := range results {
		for _, s := range rs {
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
	total := len(all)
	for _, n := range failures {
		total += n
	}
	fmt.Printf("\n| method | requests | req/s | p50 | p99 | failed |\n| --- | ---: | ---: | ---: | ---: | ---: |\n")
	for _, m := range methods {
		ds := byMethod[m]
		fmt.Printf("| %s | %d | %.0f | %s | %s | %d |\n", m, len(ds)+failures[m], float64(len(ds)+failures[m])/elapsed.Seconds(), pct(ds, 50), pct(ds, 99), failures[m])
	}
	nf := 0
	for _, n := range failures {
		nf += n
	}
	fmt.Printf("| all | %d | %.0f | %s | %s | %d |\n", total, float64(total)/elapsed.Seconds(), pct(all, 50), pct(all, 99), nf)
	if *pid > 0 {
		if hwm, rss := procMem(*pid); hwm != "" {
			fmt.Printf("\nserver memory: peak %s (VmHWM), now %s (VmRSS)\n", hwm, rss)
		}
	}
	if nf > 0 {
		fmt.Printf("\n%d requests failed; first: %v\n", nf, firstErr)
		os.Exit(1)
	}
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
