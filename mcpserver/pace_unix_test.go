//go:build unix

package mcpserver

import (
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
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

// TestPacedErrorsAreNets: a paced write's error reads as the same write's
// through net's own TCPConn.Write, for a deadline passed, the connection
// closed here, and the peer gone (EPIPE or ECONNRESET). Mutations it
// catches: RawConn.Write's "raw-write" error wrapped again, a poller error
// taken for a system call's.
func TestPacedErrorsAreNets(t *testing.T) {
	data := make([]byte, 4<<20)
	for _, c := range []struct {
		name  string
		setup func(pc *paceConn, client net.Conn)
	}{
		{"deadline passed", func(pc *paceConn, _ net.Conn) { pc.pace(50 * time.Millisecond) }},
		{"closed here", func(pc *paceConn, _ net.Conn) { pc.pace(time.Minute); pc.Close() }},
		{"peer gone", func(pc *paceConn, client net.Conn) {
			pc.pace(time.Minute)
			client.(*net.TCPConn).SetLinger(0)
			client.Close()
			time.Sleep(20 * time.Millisecond)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var msgs [2]string
			for i, paced := range []bool{false, true} {
				pc, client := pacedPair(t)
				c.setup(pc, client)
				var err error
				if paced {
					_, err = pc.Write(data)
				} else {
					_, err = pc.TCPConn.Write(data)
				}
				if err == nil {
					t.Fatalf("paced %v: no error", paced)
				}
				msgs[i] = strings.ReplaceAll(err.Error(), pc.LocalAddr().String(), "A")
				msgs[i] = strings.ReplaceAll(msgs[i], pc.RemoteAddr().String(), "B")
				if _, ok := err.(*net.OpError); !ok {
					t.Errorf("paced %v: %T, want *net.OpError", paced, err)
				}
			}
			if msgs[0] != msgs[1] {
				t.Errorf("net's write: %q\npaced write: %q", msgs[0], msgs[1])
			}
		})
	}
}

// TestPacedDeadlineAfterExactChunk: when a write ends exactly at a 64 KiB
// boundary, the next chunk's deadline is set as the next write begins,
// not left at the one before: to a client that took the first 64 KiB and
// then stalls, a write begun 0.6 of a deadline later is given up a whole
// deadline after it began. A deadline never fires early, so the bound
// cannot fail on a loaded machine. Mutation it catches: the refresh at a
// write's start dropped (the write given up 0.4 of a deadline after it
// began, at the old deadline).
func TestPacedDeadlineAfterExactChunk(t *testing.T) {
	t.Parallel()
	const window = 500 * time.Millisecond
	pc, client := pacedPair(t)
	read := readPaced(client, writeChunk, writeChunk, 0)
	pc.pace(window)
	if n, err := pc.Write(make([]byte, writeChunk)); err != nil || n != writeChunk {
		t.Fatalf("first 64 KiB: %d, %v", n, err)
	}
	if r := <-read; r.n != writeChunk {
		t.Fatalf("the client read %d, want %d", r.n, writeChunk)
	}
	time.Sleep(window * 6 / 10)
	start := time.Now()
	_, err := pc.Write(make([]byte, 1<<20))
	took := time.Since(start)
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("write to a stalled client: %v, want a deadline exceeded", err)
	}
	if took < window*9/10 {
		t.Fatalf("the write after an exact chunk was given up after %v, want a fresh deadline of %v", took, window)
	}
}

// BenchmarkPacedWrite writes 1,000 bytes paced to a client that reads
// them: allocs/op guards the write's 0 allocations (writePaced asks for
// the raw connection on each write so that its closure stays on the
// stack).
//
//	go test ./mcpserver -run '^$' -bench PacedWrite -benchmem
func BenchmarkPacedWrite(b *testing.B) {
	pc, client := pacedPair(b)
	go io.Copy(io.Discard, client)
	data := make([]byte, 1000)
	b.ReportAllocs()
	for b.Loop() {
		pc.pace(time.Minute)
		if _, err := pc.Write(data); err != nil {
			b.Fatal(err)
		}
	}
}
