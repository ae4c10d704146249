//go:build !linux

package catalog

import (
	"io"
	"os"
)

// mapIndex reads the first size bytes of the index file f whole, where
// the narrowed read (indexnamed.go) does not map it (mmap is used on
// Linux only); unmap does nothing.
func mapIndex(f *os.File, size int) (data []byte, unmap func(), err error) {
	data = make([]byte, size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, nil, err
	}
	return data, func() {}, nil
}

// releaseMapped does nothing where the file is read, not mapped.
func releaseMapped([]byte, int) {}
