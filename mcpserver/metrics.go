package mcpserver

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/skillet-go/skillet/mcpserver/skillsext"
)

// The server's metrics (docs/serving.md#metrics), written in the
// Prometheus text exposition format, version 0.0.4
// (https://prometheus.io/docs/instrumenting/exposition_formats/). They
// are a few counters, gauges and one histogram, kept in atomics and
// formatted here: the Prometheus client library would do the same, but
// linking it costs every skillet process, whatever its command, about
// 1.3 ms of package initialisation and 3 MB of memory at start
// (docs/performance.md#start-up).

// latencyBounds are the upper bounds, in seconds, of the request
// duration histogram's buckets.
var latencyBounds = [...]float64{.0001, .0005, .001, .005, .01, .05, .1, .5, 1, 5}

// methodNames bounds the method label: any other method counts as
// "other".
var methodNames = []string{
	"initialize", "ping", "server/discover", "notifications/initialized",
	"resources/list", "resources/templates/list", "resources/read",
	"resources/subscribe", "resources/unsubscribe", "subscriptions/listen",
	"prompts/list", "prompts/get", "tools/list", "tools/call",
	"completion/complete", "logging/setLevel",
	skillsext.MethodListSkills, skillsext.MethodGetSkill, skillsext.MethodReadDirectory,
	"other",
}

// methodStats is what the metrics count of one method.
type methodStats struct {
	name     string
	requests atomic.Uint64
	errors   atomic.Uint64
	// buckets counts durations by the first bound they do not exceed;
	// the last counts those above every bound. The histogram's count is
	// their sum, so it always equals its +Inf bucket.
	buckets [len(latencyBounds) + 1]atomic.Uint64
	nanos   atomic.Int64 // the durations' sum
}

// metrics are the server's metrics.
type metrics struct {
	byMethod map[string]*methodStats // fixed once made: read without a lock
	methods  []*methodStats          // sorted by name
	reloads  atomic.Uint64
	failures atomic.Uint64
	families []family // sorted by name
}

// family is one metric family: its name, help text, type, and the
// function that appends its samples.
type family struct {
	name, help, typ string
	samples         func(b []byte, name string) []byte
}

func (s *Server) newMetrics() *metrics {
	m := &metrics{byMethod: make(map[string]*methodStats, len(methodNames))}
	for _, n := range methodNames {
		st := &methodStats{name: n}
		m.byMethod[n] = st
		m.methods = append(m.methods, st)
	}
	slices.SortFunc(m.methods, func(a, b *methodStats) int { return strings.Compare(a.name, b.name) })
	value := func(f func() uint64) func([]byte, string) []byte {
		return func(b []byte, name string) []byte { return appendSample(b, name, "", f()) }
	}
	snap := func(f func(*snapshot) uint64) func([]byte, string) []byte {
		return value(func() uint64 {
			if sn := s.snap.Load(); sn != nil {
				return f(sn)
			}
			return 0
		})
	}
	m.families = []family{
		{"skillet_mcp_requests_total", "MCP requests received, by method.", "counter",
			m.byMethodSamples(func(st *methodStats) uint64 { return st.requests.Load() })},
		{"skillet_mcp_errors_total", "MCP requests answered with an error, by method.", "counter",
			m.byMethodSamples(func(st *methodStats) uint64 { return st.errors.Load() })},
		{"skillet_mcp_request_duration_seconds", "Time to answer an MCP request, by method (encoding and writing excluded).", "histogram",
			m.latencySamples},
		{"skillet_reloads_total", "Reloads of the skills from disk that changed what is served.", "counter",
			value(m.reloads.Load)},
		{"skillet_reload_failures_total", "Reloads that failed (the previous snapshot stayed served).", "counter",
			value(m.failures.Load)},
		{"skillet_snapshot_skills", "Skills served.", "gauge",
			snap(func(sn *snapshot) uint64 { return uint64(len(sn.skills)) })},
		{"skillet_snapshot_files", "Files served.", "gauge",
			snap(func(sn *snapshot) uint64 { return uint64(len(sn.files)) })},
		{"skillet_snapshot_bytes", "Bytes of the files served, as they are sent.", "gauge",
			snap(func(sn *snapshot) uint64 { return uint64(sn.bytes) })},
		{"skillet_http_sessions", "Stateful sessions kept.", "gauge", value(func() uint64 {
			if t := s.sessions.Load(); t != nil {
				return uint64(t.len())
			}
			return 0
		})},
		{"skillet_http_streams_dropped_total", "Notification streams closed because their client did not read them.", "counter",
			value(func() uint64 { return uint64(s.streamsDropped.Load()) })},
		{"skillet_http_connections_evicted_total", "Connections closed to make room for a new one.", "counter", value(func() uint64 {
			if l := s.conns.Load(); l != nil {
				return uint64(l.evicted.Load())
			}
			return 0
		})},
		{"skillet_http_connections_refused_total", "New connections closed because every connection was busy.", "counter", value(func() uint64 {
			if l := s.conns.Load(); l != nil {
				return uint64(l.refused.Load())
			}
			return 0
		})},
		{"skillet_notifications_undelivered_total", "Notifications that reached no stream of their session.", "counter",
			value(func() uint64 { return uint64(s.undelivered.total.Load()) })},
	}
	slices.SortFunc(m.families, func(a, b family) int { return strings.Compare(a.name, b.name) })
	return m
}

// observe records one answered request.
func (m *metrics) observe(method string, d time.Duration, err error) {
	st := m.byMethod[method]
	if st == nil {
		st = m.byMethod["other"]
	}
	st.requests.Add(1)
	if err != nil {
		st.errors.Add(1)
	}
	sec := d.Seconds()
	i := 0
	for i < len(latencyBounds) && sec > latencyBounds[i] {
		i++
	}
	st.buckets[i].Add(1)
	st.nanos.Add(int64(d))
}

// byMethodSamples appends one sample per method whose value is not 0,
// as a Prometheus counter with labels shows only the label values it
// has been given.
func (m *metrics) byMethodSamples(f func(*methodStats) uint64) func([]byte, string) []byte {
	return func(b []byte, name string) []byte {
		for _, st := range m.methods {
			if v := f(st); v != 0 {
				b = appendSample(b, name, st.name, v)
			}
		}
		return b
	}
}

// latencySamples appends the histogram of every method that has
// answered a request: cumulative buckets, the sum and the count.
func (m *metrics) latencySamples(b []byte, name string) []byte {
	for _, st := range m.methods {
		var counts [len(latencyBounds) + 1]uint64
		var total uint64
		for i := range st.buckets {
			counts[i] = st.buckets[i].Load()
			total += counts[i]
		}
		if total == 0 {
			continue
		}
		var cum uint64
		for i, bound := range latencyBounds {
			cum += counts[i]
			b = appendBucket(b, name, st.name, strconv.FormatFloat(bound, 'g', -1, 64), cum)
		}
		b = appendBucket(b, name, st.name, "+Inf", total)
		b = append(b, name...)
		b = append(b, "_sum"...)
		b = appendLabel(b, st.name)
		b = append(b, ' ')
		b = strconv.AppendFloat(b, time.Duration(st.nanos.Load()).Seconds(), 'g', -1, 64)
		b = append(b, '\n')
		b = append(b, name...)
		b = append(b, "_count"...)
		b = appendLabel(b, st.name)
		b = append(b, ' ')
		b = strconv.AppendUint(b, total, 10)
		b = append(b, '\n')
	}
	return b
}

// appendSample appends "name value" or, with a method, "name{method="m"} value".
func appendSample(b []byte, name, method string, v uint64) []byte {
	b = append(b, name...)
	if method != "" {
		b = appendLabel(b, method)
	}
	b = append(b, ' ')
	b = strconv.AppendUint(b, v, 10)
	return append(b, '\n')
}

func appendBucket(b []byte, name, method, le string, v uint64) []byte {
	b = append(b, name...)
	b = append(b, `_bucket{method="`...)
	b = append(b, method...)
	b = append(b, `",le="`...)
	b = append(b, le...)
	b = append(b, `"} `...)
	b = strconv.AppendUint(b, v, 10)
	return append(b, '\n')
}

// appendLabel appends {method="m"}. The method names need no escaping
// (TestMetricsText checks that they hold no backslash, quote or line
// break).
func appendLabel(b []byte, method string) []byte {
	b = append(b, `{method="`...)
	b = append(b, method...)
	return append(b, `"}`...)
}

// text is the metrics in the text exposition format.
func (m *metrics) text() []byte {
	b := make([]byte, 0, 4096)
	for _, f := range m.families {
		start := len(b)
		b = append(b, "# HELP "...)
		b = append(b, f.name...)
		b = append(b, ' ')
		b = append(b, f.help...)
		b = append(b, "\n# TYPE "...)
		b = append(b, f.name...)
		b = append(b, ' ')
		b = append(b, f.typ...)
		b = append(b, '\n')
		head := len(b)
		b = f.samples(b, f.name)
		if len(b) == head {
			// A family with no samples is left out, as the
			// Prometheus client leaves it out.
			b = b[:start]
		}
	}
	return b
}

// ServeHTTP writes the metrics (GET /metrics).
func (m *metrics) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	b := m.text()
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	_, _ = w.Write(b)
}
