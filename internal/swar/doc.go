// Package swar holds the word-at-a-time byte tests that skillet's byte
// scanners share: the frontmatter reader's first pass (internal/yamlx),
// lint's line scanner and example prefilter, and the MCP fast path's
// request scanner (mcpserver). Each test takes
// eight bytes as one little-endian uint64 and sets the high bit of every
// byte that passes it, so a word with none set (a result of 0) can be
// skipped at once.
//
// The lowest byte flagged is exact: the borrows of the subtractions only
// run towards higher bytes, so a byte above the first flagged one may be
// flagged without passing. A caller finds the first byte with
// bits.TrailingZeros64(m) >> 3 and looks at that byte itself.
package swar
