package skill

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/skillet-go/skillet/internal/yamlx"
)

// FuzzFastPathReuse parses two frontmatters in turn, so that the second
// is read into the pooled memory the first used (the fast path does not
// clear it), and then the first again: the second skill and its
// diagnostics must be what the YAML library gives for it alone, and must
// not change when the first is parsed again after it.
func FuzzFastPathReuse(f *testing.F) {
	for i, s := range fastSeeds {
		f.Add([]byte(s), []byte(fastSeeds[(i*7+3)%len(fastSeeds)]))
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		wrap := func(text []byte) []byte {
			text = bytes.ReplaceAll(text, []byte("---"), nil)
			return append(append([]byte("---\n"), text...), "\n---\nbody\n"...)
		}
		sa, sb := wrap(a), wrap(b)
		opts := &Options{Path: "/r/fuzz-skill/SKILL.md"}
		Parse(sa, opts)
		got, gotDiags := Parse(sb, opts)
		snap, snapDiags := Parse(sb, opts)
		Parse(sa, opts)
		yamlx.LibraryOnly.Store(true)
		want, wantDiags := Parse(sb, opts)
		yamlx.LibraryOnly.Store(false)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotDiags, wantDiags) {
			t.Fatalf("%q after %q: the fast path gives\n%+v %v\nthe library\n%+v %v", b, a, got, gotDiags, want, wantDiags)
		}
		if !reflect.DeepEqual(got, snap) || !reflect.DeepEqual(gotDiags, snapDiags) {
			t.Fatalf("%q: the skill changed when %q was parsed after it", b, a)
		}
	})
}
