//go:build linux && (amd64 || arm64)

package catalog

import (
	"io/fs"
	"syscall"

	"github.com/skillet-go/skillet/internal/fsx"
)

// direntScratch is the reusable memory of eachEntry (internal/fsx's
// folder reader). The walk reads one folder at a time, so one scratch
// serves a listing (listScratch).
type direntScratch = fsx.Dirents

// direntKeep is the most entries whose memory eachEntry keeps for the next
// folder: the scratch of a larger folder (about 30 bytes an entry) is let
// go once its entries are passed on, rather than held while the walk goes
// through them.
const direntKeep = 1024

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
func (s *listScratch) eachEntry(at dirAt, dir pathRef, size func(int), add func(name string, typ fs.FileMode)) (dirAt, error) {
	sc := &s.dirents
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
	if !sc.Read(fd, 16<<10) {
		return noDir, readDirEntries(dir.path, size, add)
	}
	sc.SortByName()
	size(sc.Len())
	for i := range sc.Len() {
		typ := sc.Type(i)
		if typ == fsx.ModeUnknown {
			// The file system did not say: lstat it, as os.ReadDir does
			// (an entry that vanished meanwhile is left out, as there).
			var st syscall.Stat_t
			if fsx.Fstatat(fd, sc.CName(i), &st, fsx.AtSymlinkNoFollow) != 0 {
				continue
			}
			typ = fsx.ModeType(st.Mode)
		}
		add(sc.Name(i), typ)
	}
	sc.Release(direntKeep)
	kept = true
	return dirAt{fd: fd, path: dir.path}, nil
}

func openDir(at dirAt, dir pathRef) (int, error) {
	dirfd, name := at.rel(dir)
	fd, e := fsx.OpenDirAt(dirfd, name, syscall.O_NONBLOCK)
	if e != 0 {
		return -1, e
	}
	return fd, nil
}
