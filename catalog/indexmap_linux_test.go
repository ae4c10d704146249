package catalog

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
)

// TestWithoutFault: the one fault handler of the mapped index's readers
// turns a read past the end of a file cut short under its mapping (SIGBUS)
// into false, whatever the read had set by then, and lets every other
// panic through unchanged: a nil dereference (a memory error the runtime
// raises without a fault address), an index out of range, a plain value.
// It restores the goroutine's setting of debug.SetPanicOnFault after each.
func TestWithoutFault(t *testing.T) {
	page := os.Getpagesize()
	p := filepath.Join(t.TempDir(), "index")
	data := mapped(t, p, make([]byte, 3*page))
	var nilPtr *int
	tests := []struct {
		name    string
		read    func(*int)
		cut     bool // the file is cut to one page before read runs
		ok      bool
		set     int  // what read set before it ended
		panics  bool // the panic goes on up to the caller
		runtime bool // the panic that goes on is a runtime.Error
	}{
		{name: "returns", read: func(x *int) { *x = int(data[2*page]) + 1 }, ok: true, set: 1},
		{name: "reads within the cut file", read: func(x *int) { *x = int(data[page-1]) + 1 }, cut: true, ok: true, set: 1},
		{name: "faults past the cut end", read: func(x *int) { *x = int(data[2*page]) + 1 }, cut: true},
		{name: "faults after setting", read: func(x *int) { *x = 7; *x += int(data[page]) }, cut: true, set: 7},
		{name: "nil dereference goes on", read: func(x *int) { *x = *nilPtr }, panics: true, runtime: true},
		{name: "out of range goes on", read: func(x *int) { *x = int(data[len(data)+*x]) }, panics: true, runtime: true},
		{name: "a value goes on", read: func(*int) { panic("not a fault") }, panics: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			must(t, os.WriteFile(p, make([]byte, 3*page), 0o600))
			if tt.cut {
				must(t, os.Truncate(p, int64(page)))
			}
			var set int
			var ok bool
			var got any
			func() {
				defer func() { got = recover() }()
				ok = withoutFault(func() { tt.read(&set) })
			}()
			if debug.SetPanicOnFault(false) {
				t.Error("SetPanicOnFault is still on after withoutFault")
			}
			if tt.panics {
				var re runtime.Error
				switch {
				case got == nil:
					t.Fatalf("the panic was swallowed (ok %v)", ok)
				case isFault(got):
					t.Fatalf("the panic %v that went on is a fault", got)
				case tt.runtime != errors.As(asError(got), &re):
					t.Fatalf("the panic that went on is %T %v, runtime.Error %v", got, got, tt.runtime)
				}
				return
			}
			if got != nil {
				t.Fatalf("the read panicked through withoutFault: %v", got)
			}
			if ok != tt.ok || set != tt.set {
				t.Errorf("ok %v, read set %d; want %v, %d", ok, set, tt.ok, tt.set)
			}
		})
	}
}

// asError is r as an error, nil when it is not one.
func asError(r any) error {
	err, _ := r.(error)
	return err
}
