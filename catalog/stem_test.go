package catalog

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStem(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"release", "releas"},
		{"releases", "releas"},
		{"released", "releas"},
		{"releasing", "releas"},
		{"test", "test"},
		{"tests", "test"},
		{"testing", "test"},
		{"debugging", "debug"},
		{"debug", "debug"},
		{"committing", "commit"},
		{"queries", "query"},
		{"processes", "process"},
		{"process", "process"},
		{"status", "status"},
		{"analysis", "analysis"},
		{"pdfs", "pdf"},
		{"use", "use"},
		{"uses", "use"},
		{"filling", "fill"},
		{"café", "café"}, // not ASCII: left alone
		{"k8s", "k8s"},
	}
	for _, tt := range tests {
		if got := stem(tt.in); got != tt.want {
			t.Errorf("stem(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestQueryTerms(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string
	}{
		{"How do I ship the release?", []string{"ship", "releas"}},
		{"PDF-processing, PDFs", []string{"pdf", "process"}},
		{"the a", []string{"the", "a"}}, // only stop words: kept
		{"", nil},
		{"¿Qué? 日本語", []string{"qué", "日本語"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, queryTerms(tt.in)); diff != "" {
			t.Errorf("queryTerms(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}
