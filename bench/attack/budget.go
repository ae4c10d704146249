//go:build unix

package main

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The recipes of the one memory budget (docs/serving.md#memory): slow
// readers of a big file hold answers in flight, and churn rewrites a tree
// that fills the budget, so every reload reads a second copy.

// bigFile is the size of the file big-readers read: the largest a server
// serves (16 MiB).
const bigFile = 16 << 20

// bigSetup writes the skill big with one file of bigFile random bytes
// (served as a base64 blob, 4/3 of its size).
func bigSetup(ws string, _ int) error {
	dir := filepath.Join(ws, "skills", "big")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: big\ndescription: One big bundled file.\n---\nRead big.bin.\n"), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "big.bin"), randomBytes(1, bigFile), 0o644)
}

// randomBytes returns n bytes from a generator seeded with seed.
func randomBytes(seed uint64, n int) []byte {
	r := rand.NewChaCha8([32]byte{byte(seed), byte(seed >> 8)})
	b := make([]byte, n)
	_, _ = r.Read(b)
	return b
}

// bigReaders: n clients from attackerAddr each ask for the 16 MiB file on
// a connection with a 4 KiB receive buffer and read its answer at 40 KiB/s
// (4 KiB every 100 ms); when the server closes the connection or refuses,
// the client asks again.
func bigReaders(ctx context.Context, a *env) error {
	small := &net.Dialer{LocalAddr: attackerAddr, Timeout: 5 * time.Second, Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
	}}
	init := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DialContext: (&net.Dialer{LocalAddr: attackerAddr}).DialContext}}
	msg := readMsg(`7`, "big/big.bin")
	var wg sync.WaitGroup
	for range a.n {
		wg.Go(func() {
			for ctx.Err() == nil {
				session := ""
				if a.stateful {
					session, _ = initialize(init, a.endpoint)
				}
				slowRead(ctx, small, a.host, session, msg)
				select {
				case <-ctx.Done():
				case <-time.After(100 * time.Millisecond):
				}
			}
		})
	}
	wg.Wait()
	return nil
}

// slowRead posts msg on a connection of its own and reads the answer 4 KiB
// every 100 ms until it ends, the connection closes or ctx is done.
func slowRead(ctx context.Context, d *net.Dialer, host, session, msg string) {
	c, err := d.DialContext(ctx, "tcp", host)
	if err != nil {
		return
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	sid := ""
	if session != "" {
		sid = "Mcp-Session-Id: " + session + "\r\n"
	}
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Protocol-Version: 2025-11-25\r\n%sContent-Length: %d\r\n\r\n%s", host, sid, len(msg), msg)
	r := bufio.NewReaderSize(c, 4096)
	buf := make([]byte, 4096)
	for {
		if _, err := r.Read(buf); err != nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// churnFile is the size of each of churn's files.
const churnFile = 4 << 20

// churnFull and churnHalf are how many files churn writes: 60 of 4 MiB
// (240 MiB), just under the default budget of 256 MiB, so that a reload
// of every file does not fit beside the served ones and the last good
// snapshot stays; or 28 (112 MiB), which fits twice, so that every reload
// is served.
const (
	churnFull = 60
	churnHalf = 28
)

// churnSetup returns the setup that writes files skills of one
// churnFile-byte file each.
func churnSetup(files int) func(string, int) error {
	return func(ws string, _ int) error {
		for i := range files {
			dir := filepath.Join(ws, "skills", fmt.Sprintf("churn-%02d", i))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			skill := fmt.Sprintf("---\nname: churn-%02d\ndescription: A skill whose data file is rewritten.\n---\nRead data.bin.\n", i)
			if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(skill), 0o644); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, "data.bin"), randomBytes(uint64(i), churnFile), 0o644); err != nil {
				return err
			}
		}
		return nil
	}
}

// churn returns the attack that rewrites every data file of
// churnSetup(files) (a new file renamed over the old, as git checks out),
// round after round with a second between rounds, n rounds at most; each
// round changes every file's bytes.
func churn(files int) func(context.Context, *env) error {
	return func(ctx context.Context, a *env) error {
		data := randomBytes(99, churnFile)
		for round := 0; round < a.n && ctx.Err() == nil; round++ {
			for i := range files {
				if ctx.Err() != nil {
					return nil
				}
				data[0], data[1] = byte(round), byte(i)
				p := filepath.Join(a.ws, "skills", fmt.Sprintf("churn-%02d", i), "data.bin")
				if err := os.WriteFile(p+".tmp", data, 0o644); err != nil {
					return err
				}
				if err := os.Rename(p+".tmp", p); err != nil {
					return err
				}
			}
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
		return nil
	}
}

// watchRSS kills the process pid once its resident set passes limitMiB
// (checked every 50 ms until ctx is done), so that a recipe never takes
// the machine's memory; it reports whether it did.
func watchRSS(ctx context.Context, pid int, limitMiB float64, killed *bool) {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if float64(rss(pid))/1024 > limitMiB {
			*killed = true
			_ = syscall.Kill(pid, syscall.SIGKILL)
			return
		}
	}
}

// rss is the process's resident set in KiB (VmRSS).
func rss(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var n int64
			fmt.Sscan(rest, &n)
			return n
		}
	}
	return 0
}
