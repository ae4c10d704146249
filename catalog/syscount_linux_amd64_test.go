package catalog

import "golang.org/x/sys/unix"

// sysEntry is the number and first argument of the system call a thread
// stopped at its entry is making (arch/x86/entry/syscalls/syscall_64.tbl).
func sysEntry(r *unix.PtraceRegs) (nr, arg uint64) { return r.Orig_rax, r.Rdi }

// fileCalls are the system calls on files, folders and descriptors a
// listing may make, by their names in strace(1).
var fileCalls = map[uint64]string{
	unix.SYS_OPEN: "open", unix.SYS_OPENAT: "openat", unix.SYS_OPENAT2: "openat2",
	unix.SYS_STAT: "stat", unix.SYS_LSTAT: "lstat", unix.SYS_FSTAT: "fstat",
	unix.SYS_NEWFSTATAT: "newfstatat", unix.SYS_STATX: "statx",
	unix.SYS_GETDENTS64: "getdents64", unix.SYS_READ: "read", unix.SYS_PREAD64: "pread64",
	unix.SYS_READLINK: "readlink", unix.SYS_READLINKAT: "readlinkat", unix.SYS_CLOSE: "close",
	unix.SYS_LSEEK: "lseek", unix.SYS_FCNTL: "fcntl", unix.SYS_ACCESS: "access",
	unix.SYS_FACCESSAT: "faccessat", unix.SYS_FACCESSAT2: "faccessat2",
	unix.SYS_STATFS: "statfs", unix.SYS_FSTATFS: "fstatfs", unix.SYS_GETCWD: "getcwd",
}

// otherCalls are the runtime's and the scheduler's system calls a listing
// makes besides, by their names in strace(1).
var otherCalls = map[uint64]string{
	unix.SYS_FUTEX: "futex", unix.SYS_MMAP: "mmap", unix.SYS_MUNMAP: "munmap",
	unix.SYS_MADVISE: "madvise", unix.SYS_MPROTECT: "mprotect", unix.SYS_NANOSLEEP: "nanosleep",
	unix.SYS_SCHED_YIELD: "sched_yield", unix.SYS_RT_SIGRETURN: "rt_sigreturn",
	unix.SYS_RT_SIGPROCMASK: "rt_sigprocmask", unix.SYS_SIGALTSTACK: "sigaltstack",
	unix.SYS_TGKILL: "tgkill", unix.SYS_GETPID: "getpid", unix.SYS_GETTID: "gettid",
	unix.SYS_CLONE: "clone", unix.SYS_CLONE3: "clone3", unix.SYS_WRITE: "write",
	unix.SYS_EPOLL_PWAIT: "epoll_pwait", unix.SYS_EPOLL_CTL: "epoll_ctl",
	unix.SYS_GETRANDOM: "getrandom", unix.SYS_CLOCK_GETTIME: "clock_gettime",
}
