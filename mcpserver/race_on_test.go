//go:build race

package mcpserver

// raceEnabled says the tests run under the race detector, which drops
// some of what a sync.Pool is given back.
const raceEnabled = true
