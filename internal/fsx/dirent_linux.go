//go:build linux && (amd64 || arm64)

package fsx

import (
	"io/fs"
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
