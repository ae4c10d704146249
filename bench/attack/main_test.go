//go:build unix

package main

import (
	"math"
	"strings"
	"testing"
	"time"
)

// TestCheckFlags: every count and the duration are bounded, with an error
// that names the flag and the bound; 0 takes the recipe's default.
func TestCheckFlags(t *testing.T) {
	for _, tt := range []struct {
		recipe string
		n      int
		d      time.Duration
		wantN  int
		err    string
	}{
		{"sessions", 0, 10 * time.Second, 70000, ""},
		{"sessions", 500000, 10 * time.Second, 500000, ""},
		{"sessions", 500001, 10 * time.Second, 0, "-n 500001: sessions runs at most 500000 (initialize requests)"},
		{"idle-conns", math.MaxInt, time.Second, 0, "runs at most 20000"},
		{"slow-reader", -1, time.Second, 0, "-n -1: the count cannot be negative"},
		{"link-farm", 1998, time.Second, 1998, ""},
		{"link-farm", 1999, time.Second, 0, "at most 1998"},
		{"constant-writes", 2, time.Second, 0, "at most 1"},
		{"query64k", 8, 2 * time.Minute, 8, ""},
		{"query64k", 8, 2*time.Minute + 1, 0, "-duration 2m0.000000001s: give a duration above 0 and at most 2m0s"},
		{"query64k", 8, 0, 0, "-duration 0s"},
		{"query64k", 8, -time.Second, 0, "-duration -1s"},
		{"nope", 1, time.Second, 0, `unknown -recipe "nope" (one of batch, big-readers, big-readers-stateful, cache-owner, churn, churn-fits`},
	} {
		_, n, err := checkFlags(tt.recipe, tt.n, tt.d)
		switch {
		case tt.err == "" && (err != nil || n != tt.wantN):
			t.Errorf("checkFlags(%s, %d, %s) = %d, %v; want %d", tt.recipe, tt.n, tt.d, n, err, tt.wantN)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("checkFlags(%s, %d, %s) = %d, %v; want an error saying %q", tt.recipe, tt.n, tt.d, n, err, tt.err)
		}
	}
	for name, r := range recipes {
		if r.n < 1 || r.n > r.max || r.unit == "" {
			t.Errorf("%s: default %d, maximum %d, unit %q", name, r.n, r.max, r.unit)
		}
		if r.bound && (r.maxRSSMiB <= 0 || r.maxRSSMiB > 512 || r.maxFails < 0) {
			t.Errorf("%s: a bound of %d failures and %.0f MiB", name, r.maxFails, r.maxRSSMiB)
		}
	}
}
