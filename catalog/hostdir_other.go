//go:build !(linux && (amd64 || arm64))

package catalog

import (
	"os"

	"github.com/skillet-go/skillet/internal/catalogx"
)

// hostReadDirListsOrder says hostReadDir gives the file system's order.
const hostReadDirListsOrder = false

// hostReadDir reads the folder dir for the host searches: os.ReadDir's
// entries, in name order (sorted); the file system's order is not known
// here (listed nil).
func hostReadDir(dir string, _ *direntScratch) (sorted, listed []catalogx.ListedEntry, err error) {
	entries, err := os.ReadDir(dir)
	sorted = make([]catalogx.ListedEntry, len(entries))
	for i, e := range entries {
		sorted[i] = catalogx.ListedEntry{Name: e.Name(), Type: e.Type()}
	}
	return sorted, nil, err
}
