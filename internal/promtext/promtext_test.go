package promtext

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http/httptest"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/expfmt"
)

// pair is the same metrics kept by this package and by the Prometheus
// client (github.com/prometheus/client_golang, which skillet used before;
// only this test links it).
type pair struct {
	r   Registry
	reg *prometheus.Registry

	labels       *Labels
	count        *Counter
	pcount       prometheus.Counter
	vec          *CounterVec
	pvec         *prometheus.CounterVec
	hist         *HistogramVec
	phist        *prometheus.HistogramVec
	gauge, cfunc float64
	labelValues  []string
	bounds       []float64
	help         string
}

func newPair(help string, values []string, bounds []float64) *pair {
	p := &pair{reg: prometheus.NewRegistry(), labelValues: values, bounds: bounds, help: help}
	p.labels = NewLabels("method", values)
	p.count = p.r.Counter("x_reloads_total", help)
	p.pcount = prometheus.NewCounter(prometheus.CounterOpts{Name: "x_reloads_total", Help: help})
	p.vec = p.r.CounterVec("x_requests_total", "Requests, by method.", p.labels)
	p.pvec = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "x_requests_total", Help: "Requests, by method."}, []string{"method"})
	p.hist = p.r.HistogramVec("x_duration_seconds", "Time.", p.labels, bounds)
	p.phist = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "x_duration_seconds", Help: "Time.", Buckets: bounds}, []string{"method"})
	p.r.GaugeFunc("x_a_gauge", "A gauge.", func() float64 { return p.gauge })
	p.r.CounterFunc("x_z_func_total", "A counter read when scraped.", func() float64 { return p.cfunc })
	p.reg.MustRegister(p.pcount, p.pvec, p.phist,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "x_a_gauge", Help: "A gauge."}, func() float64 { return p.gauge }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "x_z_func_total", Help: "A counter read when scraped."}, func() float64 { return p.cfunc }))
	return p
}

func (p *pair) inc(v string) {
	p.vec.Inc(p.labels.Index(v))
	p.pvec.WithLabelValues(v).Inc()
}

func (p *pair) observe(v string, x float64) {
	p.hist.Observe(p.labels.Index(v), x)
	p.phist.WithLabelValues(v).Observe(x)
}

// texts returns this package's text and the client's, in the text format.
func (p *pair) texts(t *testing.T) (string, string) {
	t.Helper()
	mfs, err := p.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	enc := expfmt.NewEncoder(&want, expfmt.NewFormat(expfmt.TypeTextPlain))
	for _, mf := range mfs {
		if err := enc.Encode(mf); err != nil {
			t.Fatal(err)
		}
	}
	return string(p.r.Append(nil)), want.String()
}

// TestSameAsClientGolang: after the same counts, observations and gauge
// values, the text is the Prometheus client's byte for byte: nothing
// counted yet, edge values (a bound itself, 0, negative, huge, NaN, ±Inf),
// escapes in help text and label values, and random runs.
func TestSameAsClientGolang(t *testing.T) {
	values := []string{"tools/call", "initialize", "other", `a"quote\back` + "\nline"}
	bounds := []float64{.0001, .0005, .001, .005, .01, .05, .1, .5, 1, 5}
	p := newPair("Reloads; a back\\slash and\na line feed.", values, bounds)
	check := func(step string) {
		t.Helper()
		got, want := p.texts(t)
		if got != want {
			t.Fatalf("%s: the text differs from the Prometheus client's\ngot:\n%s\nwant:\n%s", step, got, want)
		}
	}
	check("nothing counted")
	p.count.Inc()
	p.pcount.Inc()
	p.gauge, p.cfunc = 1, 0
	check("one reload")
	for _, x := range []float64{.0001, 0, -3, 5, 5.0000001, 1e300, math.Inf(1), math.Inf(-1), .00049, 1} {
		p.observe("tools/call", x)
	}
	p.inc(values[3])
	p.observe(values[3], 0.02)
	p.gauge, p.cfunc = math.NaN(), 123456789
	check("edge values")
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 20 {
		for range rng.IntN(2000) {
			v := values[rng.IntN(len(values))]
			p.inc(v)
			p.observe(v, rng.ExpFloat64()/100)
		}
		p.gauge, p.cfunc = rng.NormFloat64()*1e6, float64(rng.IntN(1e9))
		check(fmt.Sprintf("round %d", round))
	}
	if p.labels.Index("nope") != -1 {
		t.Fatal(`Index("nope") is a value`)
	}
	p.vec.Inc(-1)
	p.hist.Observe(-1, 1)
	check("a value outside the label's is ignored")
}

// TestServeHTTP: a scrape gets the text with its media type.
func TestServeHTTP(t *testing.T) {
	var r Registry
	r.Counter("a_total", "A.").Inc()
	w := httptest.NewRecorder()
	r.ServeHTTP(w, httptest.NewRequest("GET", "/metrics", nil))
	if ct := w.Header().Get("Content-Type"); ct != ContentType {
		t.Errorf("Content-Type %q, want %q", ct, ContentType)
	}
	if want := "# HELP a_total A.\n# TYPE a_total counter\na_total 1\n"; w.Body.String() != want {
		t.Errorf("body %q, want %q", w.Body.String(), want)
	}
}

// TestConcurrent: counts and observations from many goroutines all arrive
// (run with -race).
func TestConcurrent(t *testing.T) {
	var r Registry
	l := NewLabels("m", []string{"a", "b"})
	v := r.CounterVec("c_total", "C.", l)
	h := r.HistogramVec("h_seconds", "H.", l, []float64{1})
	done := make(chan bool)
	for g := range 4 {
		go func() {
			for range 1000 {
				v.Inc(g % 2)
				h.Observe(g%2, 0.5)
			}
			done <- true
		}()
	}
	for range 4 {
		<-done
	}
	want := "# HELP c_total C.\n# TYPE c_total counter\nc_total{m=\"a\"} 2000\nc_total{m=\"b\"} 2000\n"
	if got := string(r.Append(nil)); got[:len(want)] != want {
		t.Errorf("got\n%s", got)
	}
	if s := math.Float64frombits(h.series[0].sum.Load()); s != 1000 {
		t.Errorf("sum %v, want 1000", s)
	}
}

// BenchmarkObserve is one answered request's metrics: a count, maybe an
// error, a duration. It allocates nothing.
func BenchmarkObserve(b *testing.B) {
	var r Registry
	l := NewLabels("method", []string{"tools/call", "resources/read", "other"})
	req := r.CounterVec("r_total", "R.", l)
	h := r.HistogramVec("d_seconds", "D.", l, []float64{.0001, .0005, .001, .005, .01, .05, .1, .5, 1, 5})
	b.ReportAllocs()
	for b.Loop() {
		i := l.Index("resources/read")
		req.Inc(i)
		h.Observe(i, 0.00042)
	}
}
