//go:build !linux

package fsx

func swap(tmp, path string, v *Version, data []byte) error {
	return renameChecked(tmp, path, v)
}
