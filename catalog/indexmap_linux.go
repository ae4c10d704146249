//go:build linux

package catalog

import (
	"os"
	"syscall"
)

// mapIndex maps the first size bytes of the index file f read-only
// (mmap(2), MAP_SHARED: the file's pages in the page cache, no copy), for
// a listing narrowed to one name (indexnamed.go): only the pages touched
// count in the process's memory, and release gives them back. unmap ends
// the mapping; nothing may read data after it. A file cut short while it
// is mapped makes a read past its end fault (SIGBUS): the readers of data
// run under withoutFault (indexmap.go), which turns that into false, and
// treat the index as not answering.
func mapIndex(f *os.File, size int) (data []byte, unmap func(), err error) {
	data, err = syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data, func() { syscall.Munmap(data) }, nil
}

// releaseMapped drops the whole pages of data[:hi] from the process's
// memory (madvise(2) MADV_DONTNEED): a later read of them faults them in
// again from the page cache. It bounds what reading the whole mapped file
// adds to the process's peak RSS. Errors are ignored: the pages then stay.
func releaseMapped(data []byte, hi int) {
	hi &^= os.Getpagesize() - 1
	if hi > 0 {
		syscall.Madvise(data[:hi], syscall.MADV_DONTNEED)
	}
}
