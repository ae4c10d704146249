package lint

import "encoding/binary"

// Eight bytes at a time: the scanner's two hottest loops (lineChars and
// the search for the next backtick or bracket in inline) test a word of
// the body for the bytes they stop at and look at single bytes only in a
// word that has one. TestSWAR holds them to the byte-by-byte loops.

const (
	swarOnes  = 0x0101010101010101
	swarHighs = 0x8080808080808080
)

// swarZero is nonzero when a byte of x is 0.
func swarZero(x uint64) uint64 { return (x - swarOnes) & ^x & swarHighs }

// swarLess is nonzero when a byte of x is below n (n <= 128).
func swarLess(x uint64, n byte) uint64 { return (x - swarOnes*uint64(n)) & ^x & swarHighs }

// swarBetween is nonzero when a byte of x is above m and below n (m <= 127,
// n <= 128; a byte of 128 or more never counts).
func swarBetween(x uint64, m, n byte) uint64 {
	low := x & (swarOnes * 127)
	return (swarOnes*(127+uint64(n)) - low) & ^x & (low + swarOnes*(127-uint64(m))) & swarHighs
}

// lineScanWord is nonzero when a byte of x is one lineScan stops at: one
// lineChars looks at, or a backtick. Its lowest flagged byte is the first
// such byte of x; a byte above it may be flagged without being one (a
// borrow), so a caller looks at the byte it finds. The tests share the
// "high bit clear" mask (every stop byte is ASCII) and are or-ed before it
// is applied, so it is a few instructions and inlined.
func lineScanWord(x uint64) uint64 {
	return ^x & swarHighs & (x - swarOnes*0x20 |
		(x ^ swarOnes*0x7f - swarOnes) | (x ^ swarOnes*'<' - swarOnes) | (x ^ swarOnes*'`' - swarOnes) |
		(x ^ swarOnes*'[' - swarOnes) | (x ^ swarOnes*'\\' - swarOnes) | (x ^ swarOnes*']' - swarOnes))
}

// lineStopWord is nonzero when a byte of x is one lineChars looks at (a
// control character, DEL, '<', '\\' or ']').
func lineStopWord(x uint64) uint64 {
	return swarLess(x, 0x20) | swarZero(x^(swarOnes*0x7f)) | swarZero(x^(swarOnes*'<')) |
		swarZero(x^(swarOnes*'\\')) | swarZero(x^(swarOnes*']'))
}

// nextTick returns the offset of the first '`' or '[' in b[i:stop], or
// stop.
func nextTick(b []byte, i, stop int) int {
	for ; i+8 <= stop; i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		if swarZero(x^(swarOnes*'`'))|swarZero(x^(swarOnes*'[')) != 0 {
			break
		}
	}
	for i < stop && b[i] != '`' && b[i] != '[' {
		i++
	}
	return i
}
