package mcpserver

import (
	"bytes"
	"errors"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// TestMetricsText: the metrics parse with the Prometheus text parser,
// with the types, values and histogram buckets that the requests
// observed give, in families sorted by name, with nothing that needed
// escaping.
func TestMetricsText(t *testing.T) {
	s := newServer(t, newWorkspace(t), nil)
	m := s.metrics
	failed := errors.New("failed")
	m.observe("resources/list", 50*time.Microsecond, nil)
	m.observe("resources/list", 50*time.Microsecond, nil)
	m.observe("resources/read", 100*time.Microsecond, failed) // on a bound: in its bucket
	m.observe("tools/call", 2*time.Second, nil)
	m.observe("no/such/method", 10*time.Second, failed) // above every bound
	m.failures.Add(1)

	text := m.text()
	p := expfmt.NewTextParser(model.LegacyValidation)
	fams, err := p.TextToMetricFamilies(bytes.NewReader(text))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, text)
	}

	var names []string
	for _, line := range strings.Split(string(text), "\n") {
		if name, ok := strings.CutPrefix(line, "# HELP "); ok {
			names = append(names, strings.Fields(name)[0])
		}
	}
	if !slices.IsSorted(names) || len(names) != len(fams) {
		t.Errorf("families not sorted or not one HELP each: %q", names)
	}

	types := map[string]dto.MetricType{
		"skillet_mcp_requests_total":              dto.MetricType_COUNTER,
		"skillet_mcp_errors_total":                dto.MetricType_COUNTER,
		"skillet_mcp_request_duration_seconds":    dto.MetricType_HISTOGRAM,
		"skillet_reloads_total":                   dto.MetricType_COUNTER,
		"skillet_reload_failures_total":           dto.MetricType_COUNTER,
		"skillet_snapshot_skills":                 dto.MetricType_GAUGE,
		"skillet_snapshot_files":                  dto.MetricType_GAUGE,
		"skillet_snapshot_bytes":                  dto.MetricType_GAUGE,
		"skillet_http_sessions":                   dto.MetricType_GAUGE,
		"skillet_http_streams_dropped_total":      dto.MetricType_COUNTER,
		"skillet_http_connections_evicted_total":  dto.MetricType_COUNTER,
		"skillet_http_connections_refused_total":  dto.MetricType_COUNTER,
		"skillet_notifications_undelivered_total": dto.MetricType_COUNTER,
	}
	if len(fams) != len(types) {
		t.Errorf("%d families, want %d", len(fams), len(types))
	}
	for name, typ := range types {
		f := fams[name]
		if f == nil {
			t.Errorf("no %s", name)
			continue
		}
		if f.GetType() != typ || f.GetHelp() == "" {
			t.Errorf("%s: type %v help %q, want type %v", name, f.GetType(), f.GetHelp(), typ)
		}
	}

	byMethod := func(name string) map[string]*dto.Metric {
		out := map[string]*dto.Metric{}
		for _, mt := range fams[name].GetMetric() {
			if l := mt.GetLabel(); len(l) != 1 || l[0].GetName() != "method" {
				t.Fatalf("%s: labels %v", name, l)
			}
			out[mt.GetLabel()[0].GetValue()] = mt
		}
		return out
	}
	counts := map[string]float64{}
	for k, mt := range byMethod("skillet_mcp_requests_total") {
		counts[k] = mt.GetCounter().GetValue()
	}
	if want := map[string]float64{"resources/list": 2, "resources/read": 1, "tools/call": 1, "other": 1}; !maps.Equal(counts, want) {
		t.Errorf("requests %v, want %v", counts, want)
	}
	clear(counts)
	for k, mt := range byMethod("skillet_mcp_errors_total") {
		counts[k] = mt.GetCounter().GetValue()
	}
	if want := map[string]float64{"resources/read": 1, "other": 1}; !maps.Equal(counts, want) {
		t.Errorf("errors %v, want %v", counts, want)
	}

	// Cumulative counts at 0.0001, 0.0005, ..., 1, 5 (and +Inf, which
	// the parser folds into the sample count).
	hist := map[string]struct {
		buckets []uint64
		count   uint64
		sum     float64
	}{
		"resources/list": {[]uint64{2, 2, 2, 2, 2, 2, 2, 2, 2, 2}, 2, 100e-6},
		"resources/read": {[]uint64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 1, 100e-6},
		"tools/call":     {[]uint64{0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 1, 2},
		"other":          {[]uint64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 1, 10},
	}
	got := byMethod("skillet_mcp_request_duration_seconds")
	if len(got) != len(hist) {
		t.Errorf("histograms for %d methods, want %d", len(got), len(hist))
	}
	for method, want := range hist {
		h := got[method].GetHistogram()
		var buckets []uint64
		for i, b := range h.GetBucket() {
			if i < len(latencyBounds) && b.GetUpperBound() != latencyBounds[i] {
				t.Errorf("%s: bucket %d bound %v, want %v", method, i, b.GetUpperBound(), latencyBounds[i])
			}
			if !math.IsInf(b.GetUpperBound(), 1) {
				buckets = append(buckets, b.GetCumulativeCount())
			} else if b.GetCumulativeCount() != want.count {
				t.Errorf("%s: +Inf bucket %d, want %d", method, b.GetCumulativeCount(), want.count)
			}
		}
		if !slices.Equal(buckets, want.buckets) || h.GetSampleCount() != want.count || math.Abs(h.GetSampleSum()-want.sum) > 1e-9 {
			t.Errorf("%s: buckets %v count %d sum %v, want %v %d %v", method, buckets, h.GetSampleCount(), h.GetSampleSum(), want.buckets, want.count, want.sum)
		}
	}

	for _, name := range []string{"skillet_reload_failures_total", "skillet_reloads_total"} {
		if v := fams[name].GetMetric()[0].GetCounter().GetValue(); v != 1 {
			t.Errorf("%s = %v, want 1", name, v)
		}
	}
	if v := fams["skillet_snapshot_skills"].GetMetric()[0].GetGauge().GetValue(); v != float64(len(s.snap.Load().skills)) || v == 0 {
		t.Errorf("skillet_snapshot_skills = %v, want %d", v, len(s.snap.Load().skills))
	}

	// The label values and help texts are written as they are.
	for _, n := range methodNames {
		if strings.ContainsAny(n, "\\\"\n") {
			t.Errorf("method %q needs escaping", n)
		}
	}
	for _, f := range m.families {
		if strings.ContainsAny(f.help, "\\\n") {
			t.Errorf("help of %s needs escaping", f.name)
		}
	}
}
