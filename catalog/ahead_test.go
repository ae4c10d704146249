package catalog

import (
	"io/fs"
	"runtime"
	"testing"
	"time"

	"github.com/skillet-go/skillet/internal/benchtree/tree"
)

// TestProbeOvertaken lists a generated tree with Each's helper made slower
// than the walk (every lstat of it sleeps first), so that the walk comes
// to entries whose lstat the helper is making and looks at them itself
// rather than waiting (prober.take), and requires the listing to be the
// one made without a helper, and the walk to have overtaken the helper.
func TestProbeOvertaken(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("the helper runs only with two processors or more")
	}
	gen := t.TempDir()
	if _, err := tree.Generate(gen, &tree.Options{N: 60, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	opts := &Options{Workspace: gen, NoUser: true, NoConfigFile: true}
	defer func(a int, f func(dirAt, pathRef) (stamp, fs.FileMode, error)) {
		probeAheadMin, probeLstat = a, f
	}(probeAheadMin, probeLstat)
	probeAheadMin = 1 << 30
	want := listOf(t, opts)
	if len(want.Skills) < 30 {
		t.Fatalf("only %d skills listed", len(want.Skills))
	}
	probeAheadMin = 2
	probeLstat = func(at dirAt, ref pathRef) (stamp, fs.FileMode, error) {
		time.Sleep(200 * time.Microsecond)
		return lstatAt(at, ref)
	}
	before := probeOvertaken.Load()
	checkEach(t, opts, want)
	if probeOvertaken.Load() == before {
		t.Error("the walk never came to an entry whose lstat the helper was making")
	}
}
