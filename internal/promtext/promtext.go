// Package promtext keeps a server's metrics and writes them in the
// Prometheus text exposition format, version 0.0.4
// (https://prometheus.io/docs/instrumenting/exposition_formats/): counters,
// counters and histograms over one label with a fixed set of values, and
// gauges and counters read from a function when scraped.
//
// It does what skillet's /metrics needs and nothing else, with no work at
// package initialisation: every skillet command links the MCP server, and
// the Prometheus client's initialisation (with protobuf, procfs and YAML v2)
// cost about 0.9 ms of every start (docs/performance.md#start-up). The text
// is what the Prometheus client writes for the same metrics, byte for byte
// (TestSameAsClientGolang): families sorted by name, series by label value,
// a vector's series only once it counted something, numbers as Go's
// shortest 'g' form with 0, 1, NaN and ±Inf spelled out.
package promtext

import (
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Registry holds metrics and writes them. Its zero value is empty and ready;
// register every metric before the first scrape (ServeHTTP, Append).
type Registry struct {
	mu       sync.Mutex
	families []family // sorted by name at the first write
	sorted   bool
}

// family is one metric name with its HELP and TYPE lines and a writer of
// its samples.
type family struct {
	name, help, typ string
	write           func(b []byte) []byte
}

func (r *Registry) add(name, help, typ string, write func([]byte) []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.families = append(r.families, family{name: name, help: help, typ: typ, write: write})
	r.sorted = false
}

// Counter is a count that only goes up. Safe for concurrent use.
type Counter struct{ n atomic.Uint64 }

// Inc adds one.
func (c *Counter) Inc() { c.n.Add(1) }

// Counter registers and returns a counter.
func (r *Registry) Counter(name, help string) *Counter {
	c := new(Counter)
	r.add(name, help, "counter", func(b []byte) []byte {
		return appendSample(b, name, "", "", float64(c.n.Load()))
	})
	return c
}

// Labels is one label and the values it may take, in any order; a value
// outside them has no series (Index returns -1).
type Labels struct {
	name   string
	values []string // sorted
	index  map[string]int
}

// NewLabels returns the label name with the given values.
func NewLabels(name string, values []string) *Labels {
	l := &Labels{name: name, values: slices.Clone(values), index: make(map[string]int, len(values))}
	slices.Sort(l.values)
	l.values = slices.Compact(l.values)
	for i, v := range l.values {
		l.index[v] = i
	}
	return l
}

// Index returns the position of value v, or -1 when v is not one of the
// label's values.
func (l *Labels) Index(v string) int {
	if i, ok := l.index[v]; ok {
		return i
	}
	return -1
}

// CounterVec is a counter per value of one label.
type CounterVec struct {
	l *Labels
	n []atomic.Uint64
}

// Inc adds one to the series of label value i (Labels.Index); i out of
// range is ignored.
func (v *CounterVec) Inc(i int) {
	if i >= 0 && i < len(v.n) {
		v.n[i].Add(1)
	}
}

// CounterVec registers and returns a counter per value of l.
func (r *Registry) CounterVec(name, help string, l *Labels) *CounterVec {
	v := &CounterVec{l: l, n: make([]atomic.Uint64, len(l.values))}
	r.add(name, help, "counter", func(b []byte) []byte {
		for i := range v.n {
			if n := v.n[i].Load(); n > 0 {
				b = appendSample(b, name, labelPair(l.name, l.values[i]), "", float64(n))
			}
		}
		return b
	})
	return v
}

// HistogramVec is a histogram per value of one label, over fixed upper
// bounds.
type HistogramVec struct {
	l      *Labels
	bounds []float64
	series []histogram
}

type histogram struct {
	counts []atomic.Uint64 // one per bound, then +Inf; not cumulative
	count  atomic.Uint64
	sum    atomic.Uint64 // float64 bits
}

// Observe records x in the histogram of label value i (Labels.Index); i
// out of range is ignored.
func (v *HistogramVec) Observe(i int, x float64) {
	if i < 0 || i >= len(v.series) {
		return
	}
	h := &v.series[i]
	k, _ := slices.BinarySearch(v.bounds, x) // the first bound >= x
	h.counts[k].Add(1)
	for {
		old := h.sum.Load()
		if h.sum.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+x)) {
			break
		}
	}
	h.count.Add(1)
}

// HistogramVec registers and returns a histogram per value of l with the
// given upper bounds (sorted, without +Inf).
func (r *Registry) HistogramVec(name, help string, l *Labels, bounds []float64) *HistogramVec {
	v := &HistogramVec{l: l, bounds: slices.Clone(bounds), series: make([]histogram, len(l.values))}
	for i := range v.series {
		v.series[i].counts = make([]atomic.Uint64, len(bounds)+1)
	}
	r.add(name, help, "histogram", func(b []byte) []byte {
		for i := range v.series {
			b = v.appendSeries(b, name, i)
		}
		return b
	})
	return v
}

func (v *HistogramVec) appendSeries(b []byte, name string, i int) []byte {
	h := &v.series[i]
	n := h.count.Load()
	if n == 0 {
		return b
	}
	lp := labelPair(v.l.name, v.l.values[i])
	var cum uint64
	for k, bound := range v.bounds {
		cum += h.counts[k].Load()
		b = appendSample(b, name+"_bucket", lp, "le="+strconv.Quote(formatFloat(bound)), float64(cum))
	}
	cum += h.counts[len(v.bounds)].Load()
	// A scrape may see an observation's bucket before its count: the
	// +Inf bucket and the count are written as one number.
	n = max(n, cum)
	b = appendSample(b, name+"_bucket", lp, `le="+Inf"`, float64(n))
	b = appendSample(b, name+"_sum", lp, "", math.Float64frombits(h.sum.Load()))
	return appendSample(b, name+"_count", lp, "", float64(n))
}

// GaugeFunc registers a gauge whose value f gives at each scrape.
func (r *Registry) GaugeFunc(name, help string, f func() float64) {
	r.add(name, help, "gauge", func(b []byte) []byte { return appendSample(b, name, "", "", f()) })
}

// CounterFunc registers a counter whose value f gives at each scrape.
func (r *Registry) CounterFunc(name, help string, f func() float64) {
	r.add(name, help, "counter", func(b []byte) []byte { return appendSample(b, name, "", "", f()) })
}

// Append appends the text of every metric to b: for each family, sorted by
// name, its HELP and TYPE lines and its samples.
func (r *Registry) Append(b []byte) []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.sorted {
		slices.SortStableFunc(r.families, func(a, b family) int { return strings.Compare(a.name, b.name) })
		r.sorted = true
	}
	for _, f := range r.families {
		mark := len(b)
		b = append(b, "# HELP "...)
		b = append(b, f.name...)
		b = append(b, ' ')
		b = appendEscaped(b, f.help, false)
		b = append(b, "\n# TYPE "...)
		b = append(b, f.name...)
		b = append(b, ' ')
		b = append(b, f.typ...)
		b = append(b, '\n')
		n := len(b)
		if b = f.write(b); len(b) == n {
			b = b[:mark] // a vector that counted nothing yet is left out whole
		}
	}
	return b
}

// ContentType is the media type of the text Append writes.
const ContentType = "text/plain; version=0.0.4; charset=utf-8"

// ServeHTTP answers a scrape with the text of every metric.
func (r *Registry) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", ContentType)
	_, _ = w.Write(r.Append(make([]byte, 0, 4096)))
}

// labelPair is name="value" with the value escaped.
func labelPair(name, value string) string {
	return name + `="` + string(appendEscaped(nil, value, true)) + `"`
}

// appendSample appends one sample line: name{l1,l2} value.
func appendSample(b []byte, name, l1, l2 string, x float64) []byte {
	b = append(b, name...)
	if l1 != "" || l2 != "" {
		b = append(b, '{')
		b = append(b, l1...)
		if l1 != "" && l2 != "" {
			b = append(b, ',')
		}
		b = append(b, l2...)
		b = append(b, '}')
	}
	b = append(b, ' ')
	b = append(b, formatFloat(x)...)
	return append(b, '\n')
}

// formatFloat writes x as the Prometheus client does.
func formatFloat(x float64) string {
	switch {
	case x == 0:
		return "0"
	case x == 1:
		return "1"
	case x == -1:
		return "-1"
	case math.IsNaN(x):
		return "NaN"
	case math.IsInf(x, 1):
		return "+Inf"
	case math.IsInf(x, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// appendEscaped escapes a backslash and a line feed as \\ and \n, and in a
// label value (quote) a double quote as \".
func appendEscaped(b []byte, s string, quote bool) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			b = append(b, `\\`...)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '"' && quote:
			b = append(b, `\"`...)
		default:
			b = append(b, c)
		}
	}
	return b
}
