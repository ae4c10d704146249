package swar

import (
	"math/bits"
	"testing"
)

// first returns the index of the lowest flagged byte of m, or 8.
func first(m uint64) int { return bits.TrailingZeros64(m) >> 3 }

// check holds a word test to its byte test: the word is flagged exactly
// when a byte passes, and the lowest flagged byte is the first that does.
func check(t *testing.T, name string, w [8]byte, m uint64, pass func(byte) bool) {
	t.Helper()
	want := 8
	for i, c := range w {
		if pass(c) {
			want = i
			break
		}
	}
	if got := first(m); got != want {
		t.Fatalf("%s(% x): first flagged byte %d, want %d", name, w, got, want)
	}
}

func word(w [8]byte) uint64 { return Load(string(w[:]), 0) }

// TestTests: every test at every byte value, alone among bytes that do not
// pass and after a byte that does (whose borrow must not hide it).
func TestTests(t *testing.T) {
	for v := 0; v < 256; v++ {
		c := byte(v)
		for pos := 0; pos < 8; pos++ {
			for _, fill := range []byte{'a', 0xff, 0x7f, 0x80} {
				var w [8]byte
				for i := range w {
					w[i] = fill
				}
				w[pos] = c
				x := word(w)
				check(t, "Zero", w, Zero(x), func(b byte) bool { return b == 0 })
				check(t, "Zero^c", w, Zero(x^Ones*uint64(c)), func(b byte) bool { return b == c })
				check(t, "ControlOrHigh", w, ControlOrHigh(x), func(b byte) bool { return b < 0x20 || b >= 0x80 })
				for _, n := range []byte{1, 0x20, 0x7f, 0x80} {
					check(t, "Less", w, Less(x, n), func(b byte) bool { return b < n })
				}
				for _, r := range [][2]byte{{0, 0x20}, {'0' - 1, '9' + 1}, {0x60, 0x7b}, {0x7f, 0x80}} {
					check(t, "Between", w, Between(x, r[0], r[1]), func(b byte) bool { return b > r[0] && b < r[1] })
				}
			}
		}
	}
}

func TestLoad(t *testing.T) {
	if got, want := Load("xx01234567", 2), uint64(0x3736353433323130); got != want {
		t.Fatalf("Load = %#x, want %#x", got, want)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("Load past the end did not panic")
		}
	}()
	Load("0123456", 0)
}

// FuzzTests: any eight bytes.
func FuzzTests(f *testing.F) {
	f.Add([]byte("ab\x00cdefg"), byte('c'), byte(0x20))
	f.Fuzz(func(t *testing.T, b []byte, c, n byte) {
		if len(b) < 8 {
			return
		}
		var w [8]byte
		copy(w[:], b)
		x := word(w)
		check(t, "Zero^c", w, Zero(x^Ones*uint64(c)), func(b byte) bool { return b == c })
		check(t, "ControlOrHigh", w, ControlOrHigh(x), func(b byte) bool { return b < 0x20 || b >= 0x80 })
		n = min(n, 128)
		check(t, "Less", w, Less(x, n), func(b byte) bool { return b < n })
		m := min(c, 127)
		check(t, "Between", w, Between(x, m, n), func(b byte) bool { return b > m && b < n })
	})
}

// TestSkip: Skip stops at the first byte the test marks, from any start,
// with the byte at every offset of strings of 0 to 24 bytes (a whole word
// before it, or not), and past the last whole word when none is marked.
func TestSkip(t *testing.T) {
	isX := func(x uint64) uint64 { return Zero(x ^ Ones*'x') }
	for n := range 25 {
		for pos := -1; pos < n; pos++ {
			b := make([]byte, n)
			for i := range b {
				b[i] = 'a'
			}
			if pos >= 0 {
				b[pos] = 'x'
			}
			s := string(b)
			for from := 0; from <= n; from++ {
				want := from + (n-from)/8*8 // past the last whole word
				if pos >= from && pos < want {
					want = pos
				}
				if got := Skip(s, from, isX); got != want {
					t.Fatalf("Skip(%q, %d) = %d, want %d", s, from, got, want)
				}
			}
		}
	}
}
