package swar

import (
	"encoding/binary"
	"unsafe"
)

const (
	// Ones is 0x01 in every byte: Ones*c is c in every byte.
	Ones = 0x0101010101010101
	// Highs is the high bit of every byte.
	Highs = 0x8080808080808080
)

// Zero is nonzero when a byte of x is 0; Zero(x ^ Ones*c) when one is c.
func Zero(x uint64) uint64 { return (x - Ones) & ^x & Highs }

// Less is nonzero when a byte of x is below n (n <= 128).
func Less(x uint64, n byte) uint64 { return (x - Ones*uint64(n)) & ^x & Highs }

// Between is nonzero when a byte of x is above m and below n (m <= 127,
// n <= 128; a byte of 128 or more never counts).
func Between(x uint64, m, n byte) uint64 {
	low := x & (Ones * 127)
	return (Ones*(127+uint64(n)) - low) & ^x & (low + Ones*(127-uint64(m))) & Highs
}

// Load returns the eight bytes of s at i, little-endian; it panics unless
// i+8 <= len(s).
func Load(s string, i int) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i:i+8]), 8))
}
