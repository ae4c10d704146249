package fsx

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// TestReplaceRace runs Replace against an editor that saves the same file
// once per round, at a random moment, alternately in place (truncate and
// write) and as editors do it safely (a new file renamed over). Whatever
// the timing, the editor's save must be what is on disk afterwards: a
// replacement computed from the old bytes may land before it, never after.
func TestReplaceRace(t *testing.T) {
	rounds := 2000
	if testing.Short() {
		rounds = 200
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "SKILL.md")
	old, fixed := []byte("description: a: b\n"), []byte("description: \"a: b\"\n")
	putBack.Store(0)
	rescued.Store(0)
	syncWrites = false
	defer func() { syncWrites = true }()
	var replaced, changed int
	for i := range rounds {
		write(t, path, string(old), 0o644)
		edit := fmt.Appendf(nil, "description: edit %d\n", i)
		_, v, err := ReadRegular(path, 1<<10)
		if err != nil {
			t.Fatal(err)
		}
		spin := rand.IntN(400)
		var wg sync.WaitGroup
		wg.Go(func() {
			for range spin {
				runtime.Gosched()
			}
			if i%2 == 0 {
				if err := os.WriteFile(path, edit, 0o644); err != nil {
					t.Error(err)
				}
				return
			}
			tmp := path + ".editor"
			if err := os.WriteFile(tmp, edit, 0o644); err != nil {
				t.Error(err)
			}
			if err := os.Rename(tmp, path); err != nil {
				t.Error(err)
			}
		})
		err = Replace(path, v, fixed)
		wg.Wait()
		switch {
		case err == nil:
			replaced++
		case errors.Is(err, ErrChanged):
			changed++
		default:
			t.Fatalf("round %d: %v", i, err)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, edit) {
			t.Fatalf("round %d: the editor's save was lost: the file holds %q, want %q (Replace: %v; %d put back, %d rescued)", i, got, edit, err, putBack.Load(), rescued.Load())
		}
	}
	assertNoTemp(t, dir)
	t.Logf("%d rounds: %d replaced before the save, %d refused as changed; %d edits put back after the exchange, %d saves in place rescued",
		rounds, replaced, changed, putBack.Load(), rescued.Load())
	if replaced == 0 || changed == 0 {
		t.Errorf("the rounds never raced both ways (%d replaced, %d changed): the test proves nothing", replaced, changed)
	}
}
