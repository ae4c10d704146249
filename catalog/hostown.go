package catalog

import (
	"sync"

	"github.com/skillet-go/skillet/internal/profile"
	"github.com/skillet-go/skillet/skill"
)

// hostMemo is a host preset catalog's cache, as the stamp cache of a
// listing without a preset (docs/discovery.md#caching): each skill file's
// verdict as the host parses it, and skillet's own diagnostics of it,
// kept by path with the file's stamp (size, modification time, inode and
// change time) so a List that finds the file unchanged reads and parses
// it no more. Its methods are safe for concurrent use.
type hostMemo struct {
	mu    sync.Mutex
	files map[string]*hostMemoEntry
	// parses counts the files read and parsed as the host does, for
	// TestPresetCache.
	parses int
}

type hostMemoEntry struct {
	st    stamp
	p     *profile.Profile
	res   hostParsed
	own   []skill.Diagnostic
	owned bool
}

// entry returns the cached entry of file when its stamp is still st.
func (m *hostMemo) entry(file string, st stamp) *hostMemoEntry {
	m.mu.Lock()
	defer m.mu.Unlock()
	if e := m.files[file]; e != nil && e.st == st {
		return e
	}
	return nil
}

func (m *hostMemo) put(file string, e *hostMemoEntry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.files == nil {
		m.files = map[string]*hostMemoEntry{}
	}
	m.files[file] = e
}

// keep drops the entries of files no longer among cands, so the cache
// holds only the files of the last List.
func (m *hostMemo) keep(cands []*hostCand) {
	seen := make(map[string]bool, len(cands))
	for _, cd := range cands {
		seen[cd.path] = true
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for p := range m.files {
		if !seen[p] {
			delete(m.files, p)
		}
	}
}

// readVerdict is the package's readVerdict through the cache: a file
// whose stamp is unchanged since it was parsed for profile p is not read
// again. A file the cache does not hold is read without a stat first (a
// catalog's first List, as every list --preset: one system call fewer a
// file), its stamp the opened file's; a file that cannot be stat'ed or
// read is not cached.
func (m *hostMemo) readVerdict(p *profile.Profile, v *hostVerdict, file string, flat bool) {
	m.mu.Lock()
	held := m.files[file] != nil
	m.mu.Unlock()
	if held {
		st, err := statStamp(file)
		if err != nil {
			readVerdict(p, v, file, flat)
			return
		}
		if e := m.entry(file, st); e != nil && e.p == p {
			setVerdict(v, e.res)
			return
		}
	}
	data, fi, err := hostReadStat(file, p.Parse.MaxSkillBytes)
	if err != nil {
		parseVerdict(p, v, file, flat, nil, err, nil)
		return
	}
	res := hostParse(p, data, file, skill.DefaultName(file, flat), flat)
	m.mu.Lock()
	m.parses++
	m.mu.Unlock()
	m.put(file, &hostMemoEntry{st: stampOf(fi), p: p, res: res})
	setVerdict(v, res)
}

// ownDiags returns skillet's own diagnostics of a skill file a host
// preset loaded: what a listing without a preset says of it
// (name-mismatch, unknown-field, no-description, the limits of
// docs/format.md...), in the catalog's mode, so that a preset keeps
// skillet's checks beside the host's verdict (docs/hosts.md). They are
// cached with the file's verdict; a file that cannot be read has none
// (the host's verdict says why).
func (c *Catalog) ownDiags(path, dir string, flat bool) []skill.Diagnostic {
	m := &c.hostMemo
	st, err := statStamp(path)
	if err != nil {
		return nil
	}
	e := m.entry(path, st)
	if e != nil && e.owned {
		return e.own
	}
	data, err := hostRead(path, c.settings.MaxSkillBytes)
	if err != nil {
		return nil
	}
	_, diags := parseSkill(data, &skill.Options{
		Path: path, Flat: flat, Mode: c.settings.Mode, SkipBody: true,
		MaxDescriptionChars: c.settings.MaxDescriptionChars, Truncated: int64(len(data)) < st.size,
	}, dir)
	if e != nil {
		m.mu.Lock()
		e.own, e.owned = diags, true
		m.mu.Unlock()
	}
	return diags
}
