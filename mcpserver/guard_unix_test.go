//go:build unix

package mcpserver

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSlowReaderDoesNotStallOthers: a client that subscribes to a file,
// opens its notification stream and never reads it (with a small receive
// buffer, so the kernel cannot absorb much) loses its stream once its
// queue is full; the notifications go on, and another client still hears
// the next reload.
func TestSlowReaderDoesNotStallOthers(t *testing.T) {
	t.Parallel()
	ws := newWorkspace(t)
	s := newServer(t, ws, nil)
	endpoint := serveHTTP(t, s, &HTTPOptions{Stateful: true, StreamQueueBytes: 16 << 10, WriteTimeout: time.Hour})
	const uri = "skill://alpha/references/guide.md"

	slow := rawSession(t, endpoint)
	if resp, body := dialRaw(t, endpoint, nil).post(slow, `{"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"`+uri+`"}}`); resp.StatusCode != 200 {
		t.Fatalf("subscribe: %d %q", resp.StatusCode, body)
	}
	small := &net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	}}
	openStream(t, endpoint, slow, small) // and never read from it

	n := newNotes()
	connectHTTP(t, endpoint, legacy, n.options())

	// Notifications to the slow client until its stream is closed for not
	// reading (its 16 KiB queue full: a hundred or two), then as many
	// again, which must not block either; at most 5 MB of them, far past
	// its queue and any kernel buffer. Without the queue, ResourceUpdated
	// blocks on the first write that does not fit (the watchdog guards
	// against that hang alone: the loop ends on the drop, however loaded
	// the machine).
	sent := make(chan int, 1)
	go func() {
		filled := -1
		for i := range 50000 {
			_ = s.mcp.ResourceUpdated(t.Context(), &mcp.ResourceUpdatedNotificationParams{URI: uri})
			if filled < 0 && s.streamsDropped.Load() > 0 {
				filled = i + 1
			}
			if filled >= 0 && i+1 >= 2*filled {
				break
			}
		}
		sent <- filled
	}()
	filled := watchdog(t, sent, "sending notifications past a client that does not read")
	if n := s.streamsDropped.Load(); n != 1 || filled < 0 {
		t.Errorf("%d streams closed for not reading (after %d notifications), want 1", n, filled)
	}

	// Everybody else still hears reloads.
	if err := os.WriteFile(filepath.Join(ws, "skills", "beta", "SKILL.md"), []byte("---\nname: beta\ndescription: Changed.\n---\nNew.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if changed, err := s.Reload(t.Context()); err != nil || !changed {
		t.Fatalf("Reload = %v, %v", changed, err)
	}
	await(t, n.prompts, "prompts/list_changed to the client that reads")
}

// TestReloadRetriesOutOfFiles: a reload whose opens fail with EMFILE is
// tried again, and serves every file rather than a snapshot with holes.
func TestReloadRetriesOutOfFiles(t *testing.T) {
	ws := newWorkspace(t)
	var mu sync.Mutex
	fail := 3
	openFault = func(rel string) error {
		mu.Lock()
		defer mu.Unlock()
		if rel == "references/guide.md" && fail > 0 {
			fail--
			return &os.PathError{Op: "open", Path: rel, Err: syscall.EMFILE}
		}
		return nil
	}
	t.Cleanup(func() { openFault = nil })
	s := newServer(t, ws, nil)
	if s.snap.Load().files["skill://alpha/references/guide.md"] == nil {
		t.Error("guide.md is not served after the reload ran out of file descriptors")
	}
	for _, d := range s.Diagnostics() {
		if strings.Contains(d.Message, "too many open files") {
			t.Errorf("diagnostic: %s", d)
		}
	}
}

// TestNonRegularSkillFileKept: a SKILL.md replaced by a FIFO keeps its
// last good version served.
func TestNonRegularSkillFileKept(t *testing.T) {
	t.Parallel()
	ws := newWorkspace(t)
	s := newServer(t, ws, nil)
	want := s.snap.Load().files["skill://beta/SKILL.md"].text
	p := filepath.Join(ws, "skills", "beta", "SKILL.md")
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if _, err := s.Reload(t.Context()); err != nil {
		t.Fatal(err)
	}
	f := s.snap.Load().files["skill://beta/SKILL.md"]
	if f == nil || f.text != want {
		t.Fatalf("beta after its SKILL.md became a FIFO: %v, want the last good version", f)
	}
}

// TestWriteTimeout: an answer to a client that never reads it (a 4 MiB
// file, a 4 KiB receive buffer) is given up after the write timeout and
// its connection closed.
func TestWriteTimeout(t *testing.T) {
	t.Parallel()
	ws := newWorkspace(t)
	writeTree(t, ws, map[string]string{"skills/alpha/big.txt": strings.Repeat("big text ", 4<<20/9)})
	s := newServer(t, ws, nil)
	endpoint := serveHTTP(t, s, &HTTPOptions{WriteTimeout: 200 * time.Millisecond})
	small := &net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	}}
	rc := dialRaw(t, endpoint, small)
	msg := `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"skill://alpha/big.txt"}}`
	fmt.Fprintf(rc.conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2025-11-25\r\nContent-Length: %d\r\n\r\n%s", Path, rc.host, len(msg), msg)
	// The server holds the connection while it writes; once the deadline
	// passes it closes it.
	waitFor(t, "counting the connection", func() bool { return s.conns.Load().len() > 0 })
	waitFor(t, "closing the connection of a client that does not read its answer", func() bool { return s.conns.Load().len() == 0 })
}
