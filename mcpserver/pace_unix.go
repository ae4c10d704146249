//go:build unix

package mcpserver

import (
	"errors"
	"io"
	"net"
	"os"
	"syscall"
	"time"
)

// writePaced writes p under the pacing's deadlines as writeChunks does,
// but hands the kernel all of what is left in each write system call, so
// that an answer the socket's buffer takes at once goes out in one call,
// not one a 64 KiB (docs/performance.md, "Closer to the limit: the rows
// on 7 December"). The deadlines are the same: the deadline that covers
// a chunk is set when the chunk before it was taken, which is when the
// call that took its last byte returned, and a chunk begun by no call yet
// gets its deadline as the next call begins. Where the raw connection
// cannot be had, it is writeChunks.
//
// The raw connection is asked for on each write, not kept: asked here,
// the compiler sees its concrete type and the closure stays on the stack
// (0 allocations a paced write, Go 1.26); kept in a syscall.RawConn field,
// the closure escapes (4 allocations a write).
func (c *paceConn) writePaced(p []byte) (int, error) {
	rc, err := c.TCPConn.SyscallConn()
	if err != nil {
		return c.writeChunks(p)
	}
	n := 0
	for n < len(p) {
		if c.left <= 0 {
			_ = c.TCPConn.SetWriteDeadline(time.Now().Add(c.window))
			c.left = writeChunk
		}
		var m int
		var werr error
		err := rc.Write(func(fd uintptr) bool {
			for {
				m, werr = syscall.Write(int(fd), p[n:])
				if werr != syscall.EINTR {
					return werr != syscall.EAGAIN
				}
			}
		})
		if err == nil {
			err = werr
		}
		if err == nil && m == 0 {
			err = io.ErrUnexpectedEOF // as net's own writes: no progress, no error
		}
		if m > 0 {
			n += m
			c.advance(m)
		}
		if err != nil {
			return n, c.opError(err)
		}
	}
	return n, nil
}

// advance counts m bytes the kernel took in one call against the chunk
// the deadline covers (taken): when they went past it, the chunk they end
// in was begun by this call, and its deadline is set from now.
func (c *paceConn) advance(m int) {
	var fresh bool
	if c.left, fresh = taken(c.left, m); fresh {
		_ = c.TCPConn.SetWriteDeadline(time.Now().Add(c.window))
	}
}

// taken returns what the deadline covers of the chunk being written after
// a call took m bytes of the left it covered, and whether the call began
// that chunk (so its deadline is due now). 0 is a chunk ended with the
// call: the next call's start sets the next deadline.
func taken(left, m int) (int, bool) {
	if m <= left {
		return left - m, false
	}
	over := (m - left) % writeChunk
	if over == 0 {
		return 0, false
	}
	return writeChunk - over, true
}

// opError wraps a write's error as net's own writes do: a
// *net.OpError "write" whose Err is what the poller gave (a deadline
// passed, the connection closed) as it is, a system call's error as an
// *os.SyscallError; RawConn.Write's own *net.OpError ("raw-write") is
// unwrapped first.
func (c *paceConn) opError(err error) error {
	var raw *net.OpError
	if errors.As(err, &raw) {
		err = raw.Err
	}
	if errno, ok := err.(syscall.Errno); ok {
		err = os.NewSyscallError("write", errno)
	}
	return &net.OpError{Op: "write", Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: err}
}
