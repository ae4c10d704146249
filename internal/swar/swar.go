package swar

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
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

// ControlOrHigh is nonzero when a byte of x is a control byte (below 0x20)
// or not ASCII (0x80 and above), which the frontmatter reader's first
// pass, the JSON string writer and the MCP fast path's plainText must all
// look at. A byte below 0x20 borrows in the
// subtraction; one at 0x80 or above has its high bit already.
func ControlOrHigh(x uint64) uint64 { return (x - Ones*0x20 | x) & Highs }

// Skip returns the index of the first byte of s, from i on, that flags
// marks (a word test of this package, or several or-ed), reading whole
// words of eight bytes; when fewer than eight bytes are left unmarked it
// returns the index after the last whole word, from where the caller reads
// byte by byte. The lowest byte marked is exact (see the package comment);
// the caller looks at the byte found. flags should be a function the
// compiler can see at the call (a function or a literal): Skip is inlined
// and flags with it.
func Skip(s string, i int, flags func(uint64) uint64) int {
	for i+8 <= len(s) {
		if m := flags(Load(s, i)); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	return i
}

// Load returns the eight bytes of s at i, little-endian; it panics unless
// i+8 <= len(s).
func Load(s string, i int) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i:i+8]), 8))
}

// RuneCount is utf8.RuneCountInString(s), eight ASCII bytes at a time
// (the frontmatter reader's columns, a description's length).
func RuneCount(s string) int {
	i := 0
	for i+8 <= len(s) && Load(s, i)&Highs == 0 {
		i += 8
	}
	if i == len(s) {
		return i
	}
	return i + utf8.RuneCountInString(s[i:])
}
