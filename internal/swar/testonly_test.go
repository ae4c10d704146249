package swar

// What only the tests call: reference implementations the tests hold the
// package's code to, and helpers of the tests, moved out of the package's
// non-test files.

// Less is nonzero when a byte of x is below n (n <= 128).
func Less(x uint64, n byte) uint64 { return (x - Ones*uint64(n)) & ^x & Highs }

// Between is nonzero when a byte of x is above m and below n (m <= 127,
// n <= 128; a byte of 128 or more never counts).
func Between(x uint64, m, n byte) uint64 {
	low := x & (Ones * 127)
	return (Ones*(127+uint64(n)) - low) & ^x & (low + Ones*(127-uint64(m))) & Highs
}
