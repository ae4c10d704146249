// Package filecache is a folder of values, each a file named by its key,
// that knows nothing of what the values are: the persistent index of
// catalog keeps its files in one (docs/performance.md#persistent-index).
//
// A value is written to a temporary file of the folder and renamed onto
// its key's file (Put), so a reader, in this process or another, opens
// either the whole old value or the whole new one, never a part; of two
// processes writing one key at once the last rename wins, and neither's
// file is torn. A value is read only from a folder and a file that the
// current user owns and that neither its group nor others may write
// (Distrust): whoever can write a value can make its reader believe it.
// What a value says, and whether it still holds, is for its reader to
// check (the index checksums and stamps its own).
package filecache

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillet-go/skillet/internal/fsx"
)

// Cache is a folder of values. The zero Cache is not usable: see New.
type Cache struct {
	dir  string
	noun string
}

// New returns the cache of folder dir, which need not exist yet (Put
// makes it, mode 0700). noun names what it holds in the reasons Distrust
// and Open give ("index": "the index folder is owned by uid 65534, ...").
func New(dir, noun string) *Cache { return &Cache{dir: dir, noun: noun} }

// Path is the file of key: a name of the folder, neither empty nor
// starting with "." (temporary files do), with no separator.
func (c *Cache) Path(key string) string { return filepath.Join(c.dir, key) }

// UntrustedError is a folder or file of the cache that others could have
// written; Path is which, Why says why in a sentence.
type UntrustedError struct{ Path, Why string }

func (e *UntrustedError) Error() string { return e.Why }

// errKey is a key that is not a plain file name of the folder.
var errKey = errors.New("filecache: a key must be a file name not starting with '.'")

func validKey(key string) bool {
	return key != "" && key[0] != '.' && !strings.ContainsAny(key, `/\`) && filepath.Base(key) == key
}

// Distrust says why the cache's folder must not be trusted (the folder is
// owned by another user, or writable by its group or others); "" when it
// may be, or does not exist yet.
func (c *Cache) Distrust() string {
	fi, err := os.Stat(c.dir)
	if err != nil {
		return ""
	}
	return distrust(c.noun+" folder", fi)
}

// Open opens the value of key for reading, with its stat: a regular file,
// opened without blocking (a FIFO put in its place never hangs the open),
// that passes Distrust's test as a file. The folder is not checked here
// (Distrust). Errors: fs.ErrNotExist (wrapped) when there is no value, an
// *UntrustedError, fsx.ErrNotRegular (wrapped) for a file of another
// kind, or the open's or stat's error.
func (c *Cache) Open(key string) (*os.File, fs.FileInfo, error) {
	if !validKey(key) {
		return nil, nil, errKey
	}
	p := c.Path(key)
	f, err := fsx.Open(p)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		if why := distrust(c.noun+" file", fi); why != "" {
			err = &UntrustedError{Path: p, Why: why}
		} else if !fi.Mode().IsRegular() {
			err = fmt.Errorf("%s: %w", p, fsx.ErrNotRegular)
		}
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// Put writes the value of key: write fills a new temporary file of the
// folder (mode 0600; the folder is made, mode 0700, when missing), which
// is renamed onto key's file when write returns nil and the file closes
// without error; otherwise it is removed and the old value, if any, is
// left as it was. An untrusted folder is not written: *UntrustedError.
func (c *Cache) Put(key string, write func(*os.File) error) error {
	if !validKey(key) {
		return errKey
	}
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return err
	}
	if why := c.Distrust(); why != "" {
		return &UntrustedError{Path: c.dir, Why: why}
	}
	tmp, err := os.CreateTemp(c.dir, ".tmp-*")
	if err != nil {
		return err
	}
	err = write(tmp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), c.Path(key))
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// Prune removes the values (and temporary files a crash left) of the
// folder last written more than maxAge ago, except keep's, looking at no
// more than max entries: so the values of keys no one asks for any more
// (a workspace deleted) do not stay for ever. Errors are ignored: a file
// not removed is removed by a later Prune.
func (c *Cache) Prune(keep string, maxAge time.Duration, max int) {
	entries, err := os.ReadDir(c.dir)
	if err != nil {
		return
	}
	cutoff := time.Now().Add(-maxAge)
	for i, e := range entries {
		if i >= max {
			return
		}
		name := e.Name()
		if name == keep || (name[0] == '.' && !strings.HasPrefix(name, ".tmp-")) {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() && fi.ModTime().Before(cutoff) {
			os.Remove(filepath.Join(c.dir, name))
		}
	}
}
