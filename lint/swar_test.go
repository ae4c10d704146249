package lint

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// TestSWAR holds lineChars, lineScan and nextTick, which read eight bytes
// at a time, to the byte-by-byte loops: every byte value at every position of lines
// of 0 to 24 bytes, "]:" across a word boundary, and random lines drawn
// from the bytes they stop at. Under -short: a quarter of the byte values
// at each position (every value at every lane), every byte the loops stop
// at and its neighbours at every position, and 4,000 random lines of the
// 20,000.
func TestSWAR(t *testing.T) {
	t.Parallel()
	slowChars := func(line []byte) bool { // the rule, not the scanner's table (lineStop)
		return !bytes.Contains(line, []byte("]:")) &&
			bytes.IndexFunc(line, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '<' || r == '\\' }) < 0
	}
	slowTick := func(b []byte, i, stop int) int { // the rule, not nextTick's own tail loop
		if k := bytes.IndexAny(b[i:stop], "`["); k >= 0 {
			return i + k
		}
		return stop
	}
	check := func(line []byte) {
		t.Helper()
		if got, want := lineChars(line), slowChars(line); got != want {
			t.Fatalf("lineChars(%q) = %v, want %v", line, got, want)
		}
		// lineScan from every offset, the text going on after a line
		// break or not.
		for _, b := range [][]byte{line, append(append([]byte{}, line...), "\nnext [`\\ line"...)} {
			for pos := 0; pos <= len(b); pos++ {
				eol, next := lineEnd(b, pos)
				clean, marks := slowChars(b[pos:eol]), false
				for _, c := range b[pos:eol] {
					marks = marks || clean && (c == '`' || c == '[')
				}
				geol, gnext, gclean, gmarks := lineScan(b, pos)
				if geol != eol || gnext != next || gclean != clean || gmarks != marks {
					t.Fatalf("lineScan(%q, %d) = %d, %d, %v, %v, want %d, %d, %v, %v", b, pos, geol, gnext, gclean, gmarks, eol, next, clean, marks)
				}
			}
		}
		for i := 0; i <= len(line); i += 3 {
			for stop := i; stop <= len(line); stop += 5 {
				if got, want := nextTick(line, i, stop), slowTick(line, i, stop); got != want {
					t.Fatalf("nextTick(%q, %d, %d) = %d, want %d", line, i, stop, got, want)
				}
			}
		}
	}
	// Under -short, each (length, position) takes a quarter of the byte
	// values, rotating with the position so that every value is met at
	// every lane of a word, plus every byte the loops stop at and its
	// neighbours, which take all of them.
	edge := [256]bool{}
	for _, c := range []byte("\x00\x1f\x20\x21\x7e\x7f\x80\xff\n;<=[\\]^_`a:") {
		edge[c] = true
	}
	for n := range 25 {
		for p := range n {
			for c := range 256 {
				if testing.Short() && (c+p)%4 != 0 && !edge[c] {
					continue
				}
				line := make([]byte, n)
				for i := range line {
					line[i] = 'a' + byte(i%26)
				}
				line[p] = byte(c)
				check(line)
				if p+1 < n {
					line[p+1] = ':'
					check(line)
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("ab ]:[`<\\\x00\x1f\x20\x7f\x80\xff\xe2\n")
	lines := 20000
	if testing.Short() {
		lines = 4000
	}
	for range lines {
		line := make([]byte, r.IntN(40))
		for i := range line {
			line[i] = alphabet[r.IntN(len(alphabet))]
		}
		check(line)
	}
}

// TestLineScanWord: the word test lineScan uses flags exactly the words
// that hold a byte it stops at (its bytes are tested independently: no
// borrow or carry crosses from one byte to the next), for every byte value
// at every position among bytes it does not stop at, and among bytes of
// 128 and more.
func TestLineScanWord(t *testing.T) {
	t.Parallel()
	for _, fill := range []byte{'a', 0x80, 0xff, ' '} {
		for p := range 8 {
			for c := range 256 {
				var w [8]byte
				for i := range w {
					w[i] = fill
				}
				w[p] = byte(c)
				x := binary.LittleEndian.Uint64(w[:])
				want := lineStop[c] || c == '`' || c == '['
				if got := lineScanWord(x) != 0; got != want {
					t.Fatalf("byte %#x at %d among %#x: lineScanWord says %v, want %v", c, p, fill, got, want)
				}
			}
		}
	}
}
