//go:build !(linux && (amd64 || arm64))

package catalog

import "errors"

// rootDir is a root folder held open for the reads of one List; on these
// platforms no descriptor is held and every file is read by readSkillFile.
type rootDir int

func openRootDir(string, func(string) bool) rootDir { return -1 }

func (rootDir) close() {}

func readBeneath(rootDir, []byte, string, int, stamp) (readResult, error, bool) {
	return readResult{}, nil, false
}

// openSkill is never tried on these platforms: the walk lstats each path.
func (w *walker) openSkill(pathRef) (int32, bool, bool) { return 0, false, false }

func readHeld(*candidate, int) (readResult, error) { return readResult{}, errors.ErrUnsupported }

func closeHeld(int32) {}

func heldLimit() int32 { return 0 }
