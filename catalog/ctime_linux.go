package catalog

import "syscall"

// changeTime is the inode change time of st, in nanoseconds.
func changeTime(st *syscall.Stat_t) int64 { return st.Ctim.Nano() }
