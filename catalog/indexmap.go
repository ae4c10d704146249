package catalog

import "runtime/debug"

// withoutFault runs read, a read of a mapped index file (mapIndex), with
// a memory fault turned into a panic (debug.SetPanicOnFault, for this
// goroutine while read runs, restored after) and reports whether read
// returned without one. A fault (the file cut short under the mapping: a
// read past its new end is SIGBUS on Linux) is recovered and reported as
// false; what read had set by then is the caller's to discard. Any other
// panic goes on up unchanged. Goroutines read starts are not covered: each
// calls withoutFault itself (stampStream.check).
func withoutFault(read func()) (ok bool) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if !isFault(r) {
				panic(r)
			}
			ok = false
		}
	}()
	read()
	return true
}

// isFault reports whether a recovered value is the panic of a memory
// fault that debug.SetPanicOnFault turned into one: the runtime's error
// then has an Addr method (the faulting address), as its documentation
// says.
func isFault(r any) bool {
	_, ok := r.(interface{ Addr() uintptr })
	return ok
}
