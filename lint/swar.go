package lint

import (
	"encoding/binary"

	"github.com/skillet-go/skillet/internal/swar"
)

// Eight bytes at a time: the scanner's two hottest loops (lineScan and
// the search for the next backtick or bracket in inline) test a word of
// the body for the bytes they stop at and look at single bytes only in a
// word that has one. TestSWAR holds them to the byte-by-byte loops.

// lineScanWord is nonzero when a byte of x is one lineScan stops at: one
// lineStop marks, a backtick or a bracket. Its lowest flagged byte is the first
// such byte of x; a byte above it may be flagged without being one (a
// borrow), so a caller looks at the byte it finds. The tests share the
// "high bit clear" mask (every stop byte is ASCII) and are or-ed before it
// is applied, so it is a few instructions and inlined.
func lineScanWord(x uint64) uint64 {
	return ^x & swar.Highs & (x - swar.Ones*0x20 |
		(x ^ swar.Ones*0x7f - swar.Ones) | (x ^ swar.Ones*'<' - swar.Ones) | (x ^ swar.Ones*'`' - swar.Ones) |
		(x ^ swar.Ones*'[' - swar.Ones) | (x ^ swar.Ones*'\\' - swar.Ones) | (x ^ swar.Ones*']' - swar.Ones))
}

// nextTick returns the offset of the first '`' or '[' in b[i:stop], or
// stop.
func nextTick(b []byte, i, stop int) int {
	for ; i+8 <= stop; i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		if swar.Zero(x^(swar.Ones*'`'))|swar.Zero(x^(swar.Ones*'[')) != 0 {
			break
		}
	}
	for i < stop && b[i] != '`' && b[i] != '[' {
		i++
	}
	return i
}
