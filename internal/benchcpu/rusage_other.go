//go:build !unix

package benchcpu

func now() int64 { return -1 }
