package catalog

import "syscall"

const sysFstatat = syscall.SYS_NEWFSTATAT
