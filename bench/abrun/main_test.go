//go:build unix

package main

import (
	"math"
	"strings"
	"testing"
)

// TestCheckFlags: -runs and -warmup are bounded, with an error naming the
// flag and the bound.
func TestCheckFlags(t *testing.T) {
	for _, tt := range []struct {
		runs, warmup int
		err          string
	}{
		{11, 1, ""},
		{1, 0, ""},
		{maxRuns, maxWarmup, ""},
		{0, 1, "-runs 0: give 1 to 1000"},
		{maxRuns + 1, 1, "-runs 1001"},
		{math.MaxInt, 1, "-runs"},
		{11, -1, "-warmup -1: give 0 to 100"},
		{11, maxWarmup + 1, "-warmup 101"},
	} {
		err := checkFlags(tt.runs, tt.warmup)
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("checkFlags(%d, %d) = %v, want %q", tt.runs, tt.warmup, err, tt.err)
		}
	}
}
