//go:build race

package catalog

// raceEnabled says the tests run under the race detector, which changes
// what the heap holds (TestEachKeepsLittle).
const raceEnabled = true
