//go:build !linux

package testtmp

// memDir returns "": only Linux's /dev/shm is looked for.
func memDir() string { return "" }
