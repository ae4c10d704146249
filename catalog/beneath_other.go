//go:build !(linux && (amd64 || arm64))

package catalog

// rootDir is a root folder held open for the reads of one List; on these
// platforms no descriptor is held and every file is read by readSkillFile.
type rootDir int

func openRootDir(string, func(string) bool) rootDir { return -1 }

func (rootDir) close() {}

func readBeneath(rootDir, []byte, string, int, stamp) (readResult, error, bool) {
	return readResult{}, nil, false
}
