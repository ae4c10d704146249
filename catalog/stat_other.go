//go:build !(linux && (amd64 || arm64))

package catalog

import (
	"io/fs"
	"os"
)

// lstatRef and statRef stat a path; on these platforms they allocate.
func lstatRef(ref pathRef) (stamp, fs.FileMode, error) {
	fi, err := os.Lstat(ref.path)
	if err != nil {
		return stamp{}, 0, err
	}
	return stampOf(fi), fi.Mode().Type(), nil
}

func statRef(ref pathRef) (stamp, fs.FileMode, error) {
	fi, err := os.Stat(ref.path)
	if err != nil {
		return stamp{}, 0, err
	}
	return stampOf(fi), fi.Mode().Type(), nil
}
