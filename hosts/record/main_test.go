//go:build unix

package main

import (
	"strings"
	"testing"

	"github.com/skillet-go/skillet/internal/hostws"
)

func TestMergeOrders(t *testing.T) {
	a := hostws.Skill{Name: "a"}
	b := hostws.Skill{Name: "b"}
	obs := func(s ...hostws.Skill) hostws.Observation { return hostws.Observation{Skills: s} }
	for _, tc := range []struct {
		name      string
		in        []hostws.Observation
		want      int
		det, note bool
	}{
		{"same", []hostws.Observation{obs(a, b), obs(a, b), obs(a, b)}, 1, true, false},
		{"order only", []hostws.Observation{obs(a, b), obs(b, a), obs(a, b)}, 1, true, true},
		{"other set", []hostws.Observation{obs(a, b), obs(a), obs(b, a)}, 2, false, true},
		{"copies count", []hostws.Observation{obs(a, a), obs(a)}, 2, false, false},
	} {
		r := &hostws.Recording{Observed: tc.in}
		mergeOrders(r)
		if len(r.Observed) != tc.want || r.Deterministic != tc.det || strings.Contains(r.Notes, "order") != tc.note {
			t.Errorf("%s: %d observations, deterministic %v, notes %q", tc.name, len(r.Observed), r.Deterministic, r.Notes)
		}
		if !r.Observed[0].Equal(tc.in[0]) {
			t.Errorf("%s: first order not kept: %v", tc.name, r.Observed[0])
		}
	}
}
