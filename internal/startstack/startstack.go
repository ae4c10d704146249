// Package startstack grows the main goroutine's stack once, at the start
// of package initialisation, to the 128 KiB the initialisation of the
// packages skillet links needs later on; cmd/skillet imports it for that
// alone.
//
// Without it the stack grows six times during initialisation (2 to 128
// KiB, a gdb breakpoint on runtime.copystack), the last four while
// goldmark/util compiles its e-mail domain expression at init, whose
// {0,61} repetitions regexp/syntax compiles by recursion. Each growth
// copies the stack and reads the stack maps of every function on it from
// .gopclntab, and each page read there maps the 64 KiB around it: 0.96 MB
// of the binary's pages resident at every start of every command (perf
// page faults before main.main, 1,984 -> 1,024 KB of .gopclntab; peak RSS
// of skillet version 11.8 -> 11.0 MB, median of 41 runs built with
// CGO_ENABLED=0; docs/performance.md#start-up-6-december-1830-utc).
// Grown here, with three frames on the stack, the stack is copied once.
//
// The package imports nothing, so it is initialised before every package
// that imports anything (the Go specification's order: the first package,
// by import path, whose imports are all initialised);
// cmd/skillet's TestStackGrownFirst holds that. Should the later
// initialisation need less than 64 KiB one day, this costs the 64 KiB
// its frame zeroes.
package startstack

// frameBytes is grow's frame: over 64 KiB, so that the runtime, which
// doubles a stack until the frame fits, makes the stack 128 KiB.
const frameBytes = 64 << 10

// Sink keeps grow's frame from being optimised away.
var Sink byte

// grow uses a frame of frameBytes, zeroed, and returns one of its bytes.
//
//go:noinline
func grow(i int) byte {
	var b [frameBytes]byte
	b[i%frameBytes] = 1
	return b[(i*7)%frameBytes]
}

func init() { Sink = grow(1) }
