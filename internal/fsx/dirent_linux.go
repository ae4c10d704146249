//go:build linux && (amd64 || arm64)

package fsx

import (
	"bytes"
	"io/fs"
	"slices"
	"syscall"
	"unsafe"
)

// ModeUnknown marks a folder entry whose type getdents64 did not give
// (DT_UNKNOWN, or a d_type with no fs.FileMode): the caller lstats it, as
// os.ReadDir does. It is not a real fs.FileMode.
const ModeUnknown = fs.ModeIrregular | fs.ModeTemporary

// DirentMode is the fs.FileMode type of a getdents64 d_type: 0 for a
// regular file, the stat type otherwise (a d_type is the file-type bits of
// a stat mode shifted down by 12, IFTODT), and ModeUnknown when the file
// system did not say.
func DirentMode(t byte) fs.FileMode {
	if t == syscall.DT_REG {
		return 0
	}
	if m := ModeType(uint32(t) << 12); m != 0 {
		return m
	}
	return ModeUnknown
}

// ParseDirents calls fn for each entry of buf, which holds linux_dirent64
// records as getdents64(2) writes them, in their order, leaving out "." and
// "..". name aliases buf: it is valid only during the call. It reports
// false, having stopped, at a record whose length does not fit.
func ParseDirents(buf []byte, fn func(name []byte, typ fs.FileMode)) bool {
	// A record: d_ino (8 bytes), d_off (8), d_reclen (2), d_type (1), then
	// the NUL-terminated name, padded.
	for b := buf; len(b) >= 19; {
		reclen := int(*(*uint16)(unsafe.Pointer(&b[16])))
		if reclen < 19 || reclen > len(b) {
			return false
		}
		typ, name := b[18], b[19:reclen]
		b = b[reclen:]
		for i, c := range name {
			if c == 0 {
				name = name[:i]
				break
			}
		}
		if len(name) == 0 || string(name) == "." || string(name) == ".." {
			continue
		}
		fn(name, DirentMode(typ))
	}
	return true
}

// Dirents reads the entries of one folder after another with getdents64
// into memory it reuses (catalog's walk and lint's bundle walk): a folder
// costs its getdents64 calls and no allocation per entry. Entry i's name
// is valid until the next Read or Release.
type Dirents struct {
	raw   []byte
	names []byte // each name followed by a NUL
	ents  []direntRef
}

type direntRef struct {
	off uint32 // where the name begins in names
	n   uint32 // its length (a name is at most 255 bytes)
	typ fs.FileMode
}

// MaxDirentNames bounds the name bytes of one folder Read reads, so that
// an offset fits in 32 bits.
const MaxDirentNames = 1 << 31

// Read reads every entry of the open folder fd (but "." and ".."), in the
// order the file system gives them, with a buffer of bufSize bytes for the
// raw records (kept for the next Read). It reports false when the folder
// could not be read, a record was malformed or the names passed
// MaxDirentNames bytes; the caller then reads it some other way.
func (d *Dirents) Read(fd, bufSize int) bool {
	if len(d.raw) < bufSize {
		d.raw = make([]byte, bufSize)
	}
	d.names, d.ents = d.names[:0], d.ents[:0]
	for {
		n, err := syscall.Getdents(fd, d.raw)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return false
		}
		if n <= 0 {
			return true
		}
		ok := ParseDirents(d.raw[:n], func(name []byte, typ fs.FileMode) {
			off := uint32(len(d.names))
			d.names = append(d.names, name...)
			d.names = append(d.names, 0)
			d.ents = append(d.ents, direntRef{off: off, n: uint32(len(name)), typ: typ})
		})
		if !ok || len(d.names) > MaxDirentNames {
			return false
		}
	}
}

// Len is the number of entries the last Read read.
func (d *Dirents) Len() int { return len(d.ents) }

// Type is entry i's type (DirentMode: ModeUnknown when the file system
// did not say).
func (d *Dirents) Type(i int) fs.FileMode { return d.ents[i].typ }

// Name is entry i's name, aliasing d's memory.
func (d *Dirents) Name(i int) string {
	e := &d.ents[i]
	return unsafe.String(&d.names[e.off], int(e.n))
}

// CName is entry i's name, NUL-terminated, for a system call (Fstatat).
func (d *Dirents) CName(i int) *byte { return &d.names[d.ents[i].off] }

// SortByName puts the entries in byte-wise name order, as os.ReadDir
// lists them.
func (d *Dirents) SortByName() {
	slices.SortFunc(d.ents, func(a, b direntRef) int {
		return bytes.Compare(d.names[a.off:a.off+a.n], d.names[b.off:b.off+b.n])
	})
}

// Release lets go of the entries' memory when the last Read read more
// than keep entries, so a large folder's is not held for the next.
func (d *Dirents) Release(keep int) {
	if len(d.ents) > keep {
		d.names, d.ents = nil, nil
	}
}

// OpenDirAt opens the folder name (NUL-terminated) below the open folder
// dirfd (AtFDCWD: the current folder) with O_RDONLY, O_DIRECTORY,
// O_CLOEXEC and flags, retrying when a signal interrupts it. A folder
// opened counts for the waiting opens of OpenRetry (Opened).
func OpenDirAt(dirfd int, name *byte, flags int) (int, syscall.Errno) {
	for {
		fd, _, e := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(dirfd), uintptr(unsafe.Pointer(name)),
			uintptr(syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC|flags), 0, 0, 0)
		if e == syscall.EINTR {
			continue
		}
		if e != 0 {
			return -1, e
		}
		Opened()
		return int(fd), 0
	}
}
