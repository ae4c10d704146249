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
func pacedPair(t testing.TB) (*paceConn, net.Conn) {
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
// much it read and the longest of its pauses as it took them (on a loaded
// machine, longer than asked).
func readPaced(c net.Conn, step, limit int, pause time.Duration) <-chan pacedRead {
	out := make(chan pacedRead, 1)
	go func() {
		buf := make([]byte, step)
		var r pacedRead
		for {
			m, err := io.ReadFull(c, buf)
			r.n += m
			if err != nil || limit > 0 && r.n >= limit {
				out <- r
				return
			}
			start := time.Now()
			time.Sleep(pause)
			r.nap = max(r.nap, time.Since(start))
		}
	}()
	return out
}

// pacedRead is what readPaced read: n bytes, nap its longest pause.
type pacedRead struct {
	n   int
	nap time.Duration
}

// TestPaceConn: a paced write of 1 MiB to a client that takes 64 KiB
// every quarter of the deadline goes through though it takes far longer than its deadline
// (each 64 KiB gets its own); to a client that takes one 64 KiB and then
// nothing, or that takes each 64 KiB slower than the deadline, it fails
// once a deadline passes; and a deadline set with SetWriteDeadline holds
// the whole write, as on any connection.
func TestPaceConn(t *testing.T) {
	for _, c := range []struct {
		name  string
		step  int
		limit int
		pause float64 // the client's, in deadlines
		paced bool
		ok    bool
	}{
		{"steady client", writeChunk, 0, 1 / 4., true, true},
		{"one 64 KiB, then stalled", writeChunk, writeChunk, 0, true, false},
		{"each 64 KiB slower than the deadline", writeChunk, 0, 2, true, false},
		{"steady client, one deadline", writeChunk, 0, 1 / 4., false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			// The steady client must take each 64 KiB within the deadline,
			// which a loaded machine can keep it from: a run in which it
			// paused longer than half a deadline between two reads shows
			// nothing, and is run again with a deadline twice as long
			// (its pause a quarter of that), at most 250 ms to 2 s.
			for window := 250 * time.Millisecond; ; window *= 2 {
				if runPaced(t, c.step, c.limit, window, time.Duration(c.pause*float64(window)), c.paced, c.ok) || window >= 2*time.Second {
					return
				}
			}
		})
	}
}

// runPaced is one run of a TestPaceConn case at the deadline window; it
// reports false when the run shows nothing (a steady client that was late).
func runPaced(t *testing.T, step, limit int, window, pause time.Duration, paced, ok bool) bool {
	t.Helper()
	data := make([]byte, 1<<20)
	pc, client := pacedPair(t)
	read := readPaced(client, step, limit, pause)
	if paced {
		pc.pace(window)
	} else {
		_ = pc.SetWriteDeadline(time.Now().Add(window))
	}
	start := time.Now()
	n, err := pc.Write(data)
	took := time.Since(start)
	if ok {
		if err != nil || n != len(data) {
			pc.Close()
			if r := <-read; r.nap > window/2 && window < 2*time.Second {
				t.Logf("at a deadline of %v the client paused %v between two reads, not %v (load): again", window, r.nap, pause)
				return false
			}
			t.Fatalf("Write after %v: %d, %v; want all of %d", took, n, err, len(data))
		}
		if took < 2*window {
			t.Fatalf("the write took %v, less than two deadlines: the test shows nothing", took)
		}
		pc.Close()
		if got := <-read; got.n != len(data) {
			t.Fatalf("the client read %d bytes, want %d", got.n, len(data))
		}
		return true
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
	return true
}
