//go:build !race

package cli

// raceEnabled says the tests run under the race detector.
const raceEnabled = false
