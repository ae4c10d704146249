//go:build !(linux && (amd64 || arm64))

package catalog

import "io/fs"

type direntScratch struct{}

// eachEntry calls size with the number of entries of dir, then add for each
// in name order.
func (s *listScratch) eachEntry(_ dirAt, dir pathRef, size func(int), add func(name string, typ fs.FileMode)) (dirAt, error) {
	return noDir, readDirEntries(dir.path, size, add)
}
