package agent_test

import (
	"context"
	"testing"

	"github.com/skillet-go/skillet/agent"
)

func TestSessionKeep(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tt := range []struct {
		keep int
		want []string
	}{
		{0, []string{"a", "b", "c", "d"}},
		{2, []string{"c", "d"}},
		{-1, nil},
	} {
		seen := 0
		s := agent.NewSession(&agent.SessionOptions{Keep: tt.keep, OnLoad: func(context.Context, agent.Load) error { seen++; return nil }})
		for _, n := range []string{"a", "b", "c", "d"} {
			if err := s.Record(ctx, agent.Load{Name: n}); err != nil {
				t.Fatal(err)
			}
		}
		var got []string
		for _, l := range s.Loaded() {
			got = append(got, l.Name)
		}
		if len(got) != len(tt.want) || seen != 4 {
			t.Errorf("keep %d: %v (OnLoad %d times), want %v", tt.keep, got, seen, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("keep %d: %v, want %v", tt.keep, got, tt.want)
			}
		}
	}
}
