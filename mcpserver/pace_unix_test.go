//go:build unix

package mcpserver

import (
	"syscall"
	"testing"
)

// smallBuffers sets a socket's receive and send buffers to 4 KiB (the
// kernel may round them up), for pacedPair.
func smallBuffers(fd uintptr) {
	_ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
	_ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_SNDBUF, 4096)
}

// TestTaken: after one write call took m bytes, the bytes the deadline
// covers are what writeChunks would have left, and a fresh deadline is
// due exactly when the call went past the covered chunk into one it began
// (writeChunks sets it as that chunk's write begins, right after the call
// that ended the one before). Mutations it catches: a deadline set at a
// chunk's exact end (the next write would set it, later), none set past a
// boundary, the remainder taken from m and not from what went past.
func TestTaken(t *testing.T) {
	const k = writeChunk
	for _, c := range []struct {
		left, m, want int
		fresh         bool
	}{
		{k, 10, k - 10, false},
		{10, 10, 0, false},
		{10, 5, 5, false},
		{10, 20, k - 10, true},
		{10, 10 + k, 0, false},
		{10, 10 + k + 1, k - 1, true},
		{10, 10 + 3*k + 7, k - 7, true},
		{k, 2 * k, 0, false},
	} {
		got, fresh := taken(c.left, c.m)
		if got != c.want || fresh != c.fresh {
			t.Errorf("taken(%d, %d) = %d, %v; want %d, %v", c.left, c.m, got, fresh, c.want, c.fresh)
		}
	}
}
