package mcpserver

import (
	"net"
	"time"
)

// paceListener wraps the TCP connections Serve accepts in paceConn; any
// other connection (a TLS listener's, say, which net/http must see as
// itself) is passed on as it is, and the guard cuts its answers into
// writes of writeChunk bytes instead (guardedWriter.writeNow).
type paceListener struct{ net.Listener }

func (l paceListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		return &paceConn{TCPConn: tc}, nil
	}
	return c, err
}

// paceConn is a TCP connection whose writes pace can hold to one write
// deadline each writeChunk (64 KiB) bytes: the deadline pace sets covers
// the next writeChunk bytes written, and each writeChunk after them gets
// a fresh one as far off, set as the kernel takes the last byte of the
// chunk before it. A client must so take each 64 KiB within WriteTimeout,
// as when the guard wrote an answer in writes of 64 KiB each under a
// fresh deadline, but net/http gets the answer in one write and frames it
// as one chunk, where each 64 KiB was a chunk of its own in two system
// calls; and on Unix systems the connection hands the kernel all that is
// left in each call (writePaced), so an answer the socket's buffer takes
// at once is one call: to one client, a 100 KB skills/list page goes out
// in 3 writes, not 5 (docs/performance.md).
//
// SetWriteDeadline ends the pacing: the deadline set holds every write
// after it, as on any connection. The writes, pace and SetWriteDeadline
// are called by one goroutine at a time (net/http's connection's, or the
// handler's it runs, or a notification stream's writer while the handler
// waits for it).
type paceConn struct {
	*net.TCPConn
	window time.Duration // what a deadline is set off by; 0: no pacing
	left   int           // bytes the current deadline still covers
}

// pace sets the write deadline d from now for the next writeChunk bytes,
// and a fresh one as far off for each writeChunk after them.
func (c *paceConn) pace(d time.Duration) {
	_ = c.TCPConn.SetWriteDeadline(time.Now().Add(d))
	c.window, c.left = d, writeChunk
}

func (c *paceConn) SetWriteDeadline(t time.Time) error {
	c.window = 0
	return c.TCPConn.SetWriteDeadline(t)
}

func (c *paceConn) SetDeadline(t time.Time) error {
	c.window = 0
	return c.TCPConn.SetDeadline(t)
}

func (c *paceConn) Write(p []byte) (int, error) {
	if c.window <= 0 {
		return c.TCPConn.Write(p)
	}
	return c.writePaced(p)
}

// writeChunks is writePaced in one write system call each writeChunk:
// each chunk's write under a deadline set as it begins.
func (c *paceConn) writeChunks(p []byte) (int, error) {
	n := 0
	for len(p) > 0 {
		if c.left <= 0 {
			_ = c.TCPConn.SetWriteDeadline(time.Now().Add(c.window))
			c.left = writeChunk
		}
		k := min(len(p), c.left)
		m, err := c.TCPConn.Write(p[:k])
		n += m
		c.left -= m
		if err != nil {
			return n, err
		}
		p = p[k:]
	}
	return n, nil
}
