package catalog

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
