package fsx

import "syscall"

const sysFstatat = syscall.SYS_FSTATAT
