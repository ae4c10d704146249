//go:build linux && (amd64 || arm64)

package catalog

import (
	"bytes"
	"io/fs"
	"slices"
	"syscall"
	"unsafe"

	"github.com/skillet-go/skillet/internal/fsx"
)

// direntScratch is the reusable memory of eachEntry: the raw getdents64
// records, the names copied out of them and their order. The walk reads one
// folder at a time under the Catalog's lock, so one scratch serves a List.
type direntScratch struct {
	raw   []byte
	names []byte
	ents  []direntRef
}

type direntRef struct {
	off uint32 // where the name begins in names (a NUL follows it)
	n   uint32 // its length (a name is at most 255 bytes)
	typ fs.FileMode
}

// direntKeep is the most entries whose memory eachEntry keeps for the next
// folder: the scratch of a larger folder (about 30 bytes an entry) is let
// go once its entries are passed on, rather than held while the walk goes
// through them.
const direntKeep = 1024

// maxDirentNames bounds the name bytes of one folder read this way, so
// that an offset fits a direntRef; a larger folder is read by os.ReadDir.
const maxDirentNames = 1 << 31

// eachEntry calls size with the number of entries of dir, then add with
// each entry's name and type in name order, as os.ReadDir lists them, but
// with no allocation per entry: the names are read with getdents64 into
// reused memory, so a name passed to add is only valid during the call.
// An entry whose type the file system does not report is lstat'ed, as
// os.ReadDir does. When the folder cannot be opened or read this way, it is
// read with os.ReadDir, which also gives the error.
//
// The folder is opened below at; unless the reading went the os.ReadDir
// way, it is returned open (the caller closes it) so the walk can look up
// the paths below it from there.
func (c *Catalog) eachEntry(at dirAt, dir pathRef, size func(int), add func(name string, typ fs.FileMode)) (dirAt, error) {
	sc := &c.dirents
	fd, err := openDir(at, dir)
	if err != nil {
		return noDir, readDirEntries(dir.path, size, add)
	}
	kept := false
	defer func() {
		if !kept {
			syscall.Close(fd)
		}
	}()
	if sc.raw == nil {
		sc.raw = make([]byte, 16<<10)
	}
	sc.names, sc.ents = sc.names[:0], sc.ents[:0]
	for {
		n, err := syscall.Getdents(fd, sc.raw)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return noDir, readDirEntries(dir.path, size, add)
		}
		if n <= 0 {
			break
		}
		ok := fsx.ParseDirents(sc.raw[:n], func(name []byte, typ fs.FileMode) {
			off := uint32(len(sc.names))
			sc.names = append(sc.names, name...)
			sc.names = append(sc.names, 0)
			sc.ents = append(sc.ents, direntRef{off: off, n: uint32(len(name)), typ: typ})
		})
		if !ok || len(sc.names) > maxDirentNames {
			return noDir, readDirEntries(dir.path, size, add)
		}
	}
	slices.SortFunc(sc.ents, func(a, b direntRef) int {
		return compareBytes(sc.names[a.off:a.off+a.n], sc.names[b.off:b.off+b.n])
	})
	size(len(sc.ents))
	for i := range sc.ents {
		e := &sc.ents[i]
		typ := e.typ
		if typ == fsx.ModeUnknown {
			// The file system did not say: lstat it, as os.ReadDir does
			// (an entry that vanished meanwhile is left out, as there).
			var st syscall.Stat_t
			if fsx.Fstatat(fd, &sc.names[e.off], &st, fsx.AtSymlinkNoFollow) != 0 {
				continue
			}
			typ = fsx.ModeType(st.Mode)
		}
		add(unsafe.String(&sc.names[e.off], int(e.n)), typ)
	}
	if len(sc.ents) > direntKeep {
		sc.names, sc.ents = nil, nil
	}
	kept = true
	return dirAt{fd: fd, path: dir.path}, nil
}

func openDir(at dirAt, dir pathRef) (int, error) {
	dirfd, name := at.rel(dir)
	for {
		fd, _, e := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(dirfd), uintptr(unsafe.Pointer(name)),
			uintptr(syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC|syscall.O_NONBLOCK), 0, 0, 0)
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			return -1, e
		}
		return int(fd), nil
	}
}

// compareBytes orders names as os.ReadDir does (byte-wise), with one
// comparison per call.
func compareBytes(a, b []byte) int { return bytes.Compare(a, b) }
