//go:build linux && (amd64 || arm64)

package catalog

import (
	"os"
	"slices"
	"strings"
	"syscall"

	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/fsx"
)

// hostReadDirListsOrder says hostReadDir gives the file system's order.
const hostReadDirListsOrder = true

// hostReadDir reads the folder dir for the host searches: its entries in
// name order, as os.ReadDir lists them (sorted), and in the order the file
// system gave them (listed), read with getdents64 into sc's reused memory
// (nil: a scratch of its own) with each folder's names cut from one string.
// An entry whose type the file system does not report is lstat'ed, as
// os.ReadDir does, and left out when that fails (as the catalog's walk
// and lint's bundle walk leave it out). A folder that cannot be opened or
// read this way is read with os.ReadDir, which gives the error; listed is
// then nil. os.ReadDir cost an allocation per entry and the os.File of
// the folder (about a fifth of the searches' reads without their system
// calls, pprof of lint --compat over both corpus folders).
func hostReadDir(dir string, sc *direntScratch) (sorted, listed []catalogx.ListedEntry, err error) {
	if sc == nil {
		sc = new(direntScratch)
	}
	name, perr := syscall.BytePtrFromString(dir)
	if perr != nil {
		return osReadDirListed(dir)
	}
	fd, e := fsx.OpenDirAt(fsx.AtFDCWD, name, 0)
	if e != 0 {
		return osReadDirListed(dir)
	}
	defer syscall.Close(fd)
	if !sc.Read(fd, 8<<10) {
		return osReadDirListed(dir)
	}
	defer sc.Release(direntKeep)
	n := 0
	for i := range sc.Len() {
		n += len(sc.Name(i))
	}
	var b strings.Builder
	b.Grow(n)
	for i := range sc.Len() {
		b.WriteString(sc.Name(i))
	}
	all := b.String()
	listed = make([]catalogx.ListedEntry, 0, sc.Len())
	k := 0
	for i := range sc.Len() {
		m := len(sc.Name(i))
		typ := sc.Type(i)
		if typ == fsx.ModeUnknown {
			var st syscall.Stat_t
			if fsx.Fstatat(fd, sc.CName(i), &st, fsx.AtSymlinkNoFollow) != 0 {
				k += m
				continue
			}
			typ = fsx.ModeType(st.Mode)
		}
		listed = append(listed, catalogx.ListedEntry{Name: all[k : k+m], Type: typ})
		k += m
	}
	sorted = slices.Clone(listed)
	slices.SortFunc(sorted, func(a, b catalogx.ListedEntry) int { return strings.Compare(a.Name, b.Name) })
	return sorted, listed, nil
}

// osReadDirListed is os.ReadDir of dir as hostReadDir gives it, with no
// order of the file system's (listed nil).
func osReadDirListed(dir string) (sorted, listed []catalogx.ListedEntry, err error) {
	entries, err := os.ReadDir(dir)
	sorted = make([]catalogx.ListedEntry, len(entries))
	for i, e := range entries {
		sorted[i] = catalogx.ListedEntry{Name: e.Name(), Type: e.Type()}
	}
	return sorted, nil, err
}
