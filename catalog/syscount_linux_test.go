//go:build linux && (amd64 || arm64)

package catalog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// The markers a traced child makes around what is counted: getppid(2) with
// a first argument it ignores, which the tracer reads. The Go runtime never
// calls getppid, and a call with another argument is counted as any other.
const (
	markerSys   = unix.SYS_GETPPID
	markerStart = 0x5ca1ab1e
	markerEnd   = 0x5ca1ab1f
)

// mark makes the marker system call with arg.
func mark(arg uintptr) { unix.RawSyscall(markerSys, arg, 0, 0) }

// errNoPtrace is traceChild's error when the kernel does not let this
// process trace its child (ptrace(2) EPERM: a seccomp profile, Yama's
// ptrace_scope 3).
var errNoPtrace = errors.New("ptrace is not permitted here")

// listMarked lists workspace ws the way skillet list --json -w ws
// --no-user does (a new Catalog, then Each, internal/cli/list.go; without
// the configuration file the command looks for first) between the two
// markers and returns how many skills it handed out.
func listMarked(ws string) (int, error) {
	ctx := context.Background()
	n := 0
	mark(markerStart)
	c, err := New(ctx, &Options{Workspace: ws, NoUser: true, NoConfigFile: true})
	if err == nil {
		_, err = c.each(ctx, func(*Listing, *Skill) error { n++; return nil })
	}
	mark(markerEnd)
	return n, err
}

// traceChild runs this test binary with args (os.Args[0] first) and env
// under ptrace(2) and returns the system calls its threads entered between
// its markers (by number, every thread's together) and what it wrote to
// stdout and stderr. The tracer is a goroutine locked to its thread: ptrace
// requests must come from the thread that started the child. It returns
// errNoPtrace (wrapped) when tracing is not permitted.
func traceChild(args, env []string) (map[uint64]int, []byte, error) {
	type result struct {
		counts map[uint64]int
		out    []byte
		err    error
	}
	done := make(chan result, 1)
	go func() {
		// Never unlocked: the thread ends with the goroutine, so no other
		// goroutine runs on a thread that was a tracer.
		runtime.LockOSThread()
		var r result
		r.counts, r.out, r.err = traceLocked(args, env)
		done <- r
	}()
	r := <-done
	return r.counts, r.out, r.err
}

// traceLocked is traceChild on the tracer's locked thread.
func traceLocked(args, env []string) (map[uint64]int, []byte, error) {
	out, err := os.CreateTemp("", "syscount-")
	if err != nil {
		return nil, nil, err
	}
	defer os.Remove(out.Name())
	defer out.Close()
	p, err := os.StartProcess(args[0], args, &os.ProcAttr{
		Env: env, Files: []*os.File{nil, out, out},
		Sys: &syscall.SysProcAttr{Ptrace: true},
	})
	if errors.Is(err, syscall.EPERM) {
		return nil, nil, fmt.Errorf("%w: %w", errNoPtrace, err)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("starting the traced child: %w", err)
	}
	t := &tracer{threads: map[int]*thread{p.Pid: {seen: true}}, counts: map[uint64]int{}}
	err = t.start(p.Pid)
	if err == nil {
		err = t.run()
	}
	if err != nil {
		p.Kill()
		for t.wait() == nil { // reap every thread, then ECHILD
		}
	}
	text, rerr := os.ReadFile(out.Name())
	return t.counts, text, errors.Join(err, rerr)
}

// tracer follows every thread of one traced process.
type tracer struct {
	threads map[int]*thread
	// counts is the system calls entered while on, by number.
	counts map[uint64]int
	on     bool
	err    error
}

// thread is what the tracer knows of one traced thread: whether it has
// stopped before (a new thread's first stop is the SIGSTOP the kernel
// sends it) and whether it is inside a system call (its syscall stops
// alternate entry, exit).
type thread struct {
	seen, inside bool
}

// start takes the child's first stop (the SIGTRAP after execve of
// PTRACE_TRACEME), sets the options and lets it run to its next system
// call.
func (t *tracer) start(pid int) error {
	var ws unix.WaitStatus
	if _, err := unix.Wait4(pid, &ws, unix.WALL, nil); err != nil {
		return fmt.Errorf("waiting for the traced child: %w", err)
	}
	if !ws.Stopped() {
		return fmt.Errorf("the traced child did not stop after exec: status %#x", ws)
	}
	const opts = unix.PTRACE_O_TRACECLONE | unix.PTRACE_O_TRACESYSGOOD | unix.PTRACE_O_EXITKILL
	if err := unix.PtraceSetOptions(pid, opts); err != nil {
		return fmt.Errorf("ptrace options: %w", err)
	}
	return unix.PtraceSyscall(pid, 0)
}

// wait waits for any traced thread and resumes it; it returns ECHILD when
// none is left. It waits for any child of the test process (pid -1, so
// that threads the tracee clones are seen): no test that traces may run
// in parallel with one that starts other children, which
// TestListSyscalls and BenchmarkListSyscalls, not parallel, keep.
func (t *tracer) wait() error {
	var ws unix.WaitStatus
	tid, err := unix.Wait4(-1, &ws, unix.WALL, nil)
	switch {
	case err == unix.EINTR:
		return nil
	case err != nil:
		return err
	case ws.Exited() || ws.Signaled():
		delete(t.threads, tid)
		return nil
	case !ws.Stopped():
		return nil
	}
	sig := t.stop(tid, ws)
	// ESRCH: the thread was killed (its process exiting) since it stopped.
	if err := unix.PtraceSyscall(tid, sig); err != nil && err != unix.ESRCH {
		return fmt.Errorf("ptrace resume %d: %w", tid, err)
	}
	return nil
}

// run resumes the traced threads until none is left.
func (t *tracer) run() error {
	for {
		err := t.wait()
		if err == unix.ECHILD {
			return t.err
		}
		if err != nil {
			return err
		}
	}
}

// stop handles one stop of thread tid and returns the signal to deliver
// when it resumes: 0 for a syscall stop, a clone event and a new thread's
// first SIGSTOP, the signal itself otherwise (SIGURG, the runtime's
// preemption, among them).
func (t *tracer) stop(tid int, ws unix.WaitStatus) int {
	th := t.threads[tid]
	if th == nil {
		th = &thread{}
		t.threads[tid] = th
	}
	seen := th.seen
	th.seen = true
	sig := ws.StopSignal()
	switch {
	case sig == unix.SIGTRAP|0x80:
		th.inside = !th.inside
		if th.inside {
			t.entry(tid)
		}
		return 0
	case sig == unix.SIGTRAP && ws.TrapCause() > 0:
		return 0
	case sig == unix.SIGSTOP && !seen:
		return 0
	}
	return int(sig)
}

// entry counts the system call thread tid is entering, or turns counting
// on or off at a marker (the markers are not counted).
func (t *tracer) entry(tid int) {
	var regs unix.PtraceRegs
	err := unix.PtraceGetRegs(tid, &regs)
	if err == unix.ESRCH {
		return // killed since it stopped: its process is exiting
	}
	if err != nil {
		t.err = errors.Join(t.err, fmt.Errorf("registers of %d: %w", tid, err))
		return
	}
	nr, arg := sysEntry(&regs)
	if nr == markerSys && (arg == markerStart || arg == markerEnd) {
		t.on = arg == markerStart
		return
	}
	if t.on {
		t.counts[nr]++
	}
}
