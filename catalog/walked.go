package catalog

import "context"

// walkedDirs returns the folders the last List read or reused to walk the
// roots (catalogx.WalkedDirs), and whether that List walked the roots.
func (c *Catalog) walkedDirs() ([]string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.profile.Native || len(c.dirs) == 0 {
		return nil, false
	}
	dirs := make([]string, 0, len(c.dirs))
	for p := range c.dirs {
		dirs = append(dirs, p)
	}
	return dirs, true
}

// listTouched is List for a caller that watches the folders the walk
// reads and the folder of every skill file found, and so knows which
// folders may have changed since the last List: touched(dir) reports true
// for a folder in which or above which a change was notified, or that
// was not watched since before the last List began (and for every folder
// when notifications were lost). A skill file in a folder touched reports
// false for is not lstat'ed again when the last List found it a regular
// file of one link reached through no symlink (walker.untouched): its
// last stamp stands, so its cached parse is used. Everything else is as
// List: the walk, precedence, clashes and maxSkills are decided anew, and
// the listing is the one List would return. A catalog with other sources
// or a host profile lists as List does.
func (c *Catalog) listTouched(ctx context.Context, touched func(dir string) bool) (*Listing, error) {
	if c.merged || !c.profile.Native || touched == nil {
		return c.List(ctx)
	}
	return c.listDiskTouched(ctx, touched)
}
