package catalog

import (
	"context"
	"errors"
	"testing"
)

// TestEachStops: an error from fn ends Each with that error after the
// skills handed out so far, a cancelled context ends it with ctx's error,
// and the catalog lists normally afterwards.
func TestEachStops(t *testing.T) {
	ws := benchTree(t, 300)
	opts := &Options{Workspace: ws, NoUser: true, NoConfigFile: true}
	c, err := New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	stop := errors.New("stop")
	n := 0
	_, err = c.Each(context.Background(), func(*Listing, *Skill) error {
		n++
		if n == 5 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 5 {
		t.Fatalf("Each = %v after %d skills, want %v after 5", err, n, stop)
	}
	ctx, cancel := context.WithCancel(context.Background())
	n = 0
	_, err = c.Each(ctx, func(*Listing, *Skill) error {
		n++
		cancel()
		return nil
	})
	if !errors.Is(err, context.Canceled) || n != 1 {
		t.Fatalf("Each = %v after %d skills, want %v after 1", err, n, context.Canceled)
	}
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Skills) < 250 {
		t.Fatalf("List after Each: %d skills, want the tree's", len(l.Skills))
	}
	checkEach(t, opts, l)
}
