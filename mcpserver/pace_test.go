package mcpserver

import (
	"errors"
	"io"
	"net"
	"os"
	"syscall"
	"testing"
	"time"
)

// pacedPair returns a paceConn accepted by paceListener and the client's
// end of its connection, both with small socket buffers, so that a write
// of a few hundred KiB waits for the client to read.
func pacedPair(t *testing.T) (*paceConn, net.Conn) {
	t.Helper()
	small := func(_, _ string, c syscall.RawConn) error {
		return c.Control(smallBuffers)
	}
	lc := net.ListenConfig{Control: small}
	ln, err := lc.Listen(t.Context(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	d := net.Dialer{Control: small}
	client, err := d.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close() })
	c, err := paceListener{ln}.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	pc, ok := c.(*paceConn)
	if !ok {
		t.Fatalf("paceListener accepted a %T, want *paceConn", c)
	}
	return pc, client
}

// readPaced reads step bytes from c, then waits pause, and again, until
// it has read limit bytes (0: no limit), EOF or an error, and returns how
// much it read.
func readPaced(c net.Conn, step, limit int, pause time.Duration) <-chan int {
	out := make(chan int, 1)
	go func() {
		buf := make([]byte, step)
		n := 0
		for {
			m, err := io.ReadFull(c, buf)
			n += m
			if err != nil || limit > 0 && n >= limit {
				out <- n
				return
			}
			time.Sleep(pause)
		}
	}()
	return out
}

// TestPaceConn: a paced write of 1 MiB to a client that takes 64 KiB
// every quarter of the deadline goes through though it takes far longer than its deadline
// (each 64 KiB gets its own); to a client that takes one 64 KiB and then
// nothing, or that takes each 64 KiB slower than the deadline, it fails
// once a deadline passes; and a deadline set with SetWriteDeadline holds
// the whole write, as on any connection.
func TestPaceConn(t *testing.T) {
	const window = 250 * time.Millisecond
	data := make([]byte, 1<<20)
	for _, c := range []struct {
		name  string
		step  int
		limit int
		pause time.Duration
		paced bool
		ok    bool
	}{
		{"steady client", writeChunk, 0, window / 4, true, true},
		{"one 64 KiB, then stalled", writeChunk, writeChunk, 0, true, false},
		{"each 64 KiB slower than the deadline", writeChunk, 0, 2 * window, true, false},
		{"steady client, one deadline", writeChunk, 0, window / 4, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			pc, client := pacedPair(t)
			read := readPaced(client, c.step, c.limit, c.pause)
			if c.paced {
				pc.pace(window)
			} else {
				_ = pc.SetWriteDeadline(time.Now().Add(window))
			}
			start := time.Now()
			n, err := pc.Write(data)
			took := time.Since(start)
			if c.ok {
				if err != nil || n != len(data) {
					t.Fatalf("Write after %v: %d, %v; want all of %d", took, n, err, len(data))
				}
				if took < 2*window {
					t.Fatalf("the write took %v, less than two deadlines: the test shows nothing", took)
				}
				pc.Close()
				if got := <-read; got != len(data) {
					t.Fatalf("the client read %d bytes, want %d", got, len(data))
				}
				return
			}
			if !errors.Is(err, os.ErrDeadlineExceeded) || n >= len(data) {
				t.Fatalf("Write after %v: %d, %v; want a deadline exceeded before the end", took, n, err)
			}
			// Given up at a deadline, not at the data's end: the slow client
			// would take 16 pauses of two deadlines to read it all (8 s),
			// the stalled one forever. The bound is half of that, so that
			// a machine's load, which delays the timer, cannot reach it.
			if bound := time.Duration(len(data)/writeChunk) * window; took > bound {
				t.Fatalf("a client that stalled was given up after %v, want about %v (at most %v)", took, window, bound)
			}
		})
	}
}
