package catalog

// listScratch is the memory one listing of the local file system works in,
// beside what it returns and the cache it leaves for the next List
// (Catalog.cache and Catalog.dirs): the next cache and folder states being
// built, the folder reader's buffer, precedence's maps and the walk's
// buffers. Each call has one: a List borrows the catalog's spare (the last
// List's, kept so that a warm List allocates nothing per skill:
// TestWarmListDoesNotAllocatePerSkill), Each makes its own, one-shot,
// and drops it when it returns. Nothing in it is read once the call
// returns.
type listScratch struct {
	// oneShot says no folder state is kept (Each): folders are not
	// stamped, and a large folder's subfolders may be probed ahead
	// (ahead.go).
	oneShot bool
	// nextCache and nextDirs become the catalog's cache and folder
	// states when the List ends; the old ones are cleared and reused.
	nextCache map[string]*entry
	nextDirs  map[string]*dirState
	dirents   direntScratch // the folder reader's memory (eachEntry)
	// byName and seenFile are precedence's (applyPrecedence), onStack
	// the folders being walked (walker.visit).
	byName   map[string]*Skill
	seenFile map[stamp]int
	onStack  map[string]bool
	// linked says the last walk reached a root through a symlink
	// (keepWalk).
	linked  bool
	candBuf []candidate
	entBuf  []*entry
	todoBuf []int
}

// scratchFor returns the scratch a List works in: the catalog's spare,
// made on first use; c.mu is held.
func (c *Catalog) scratchFor() *listScratch {
	if c.spare == nil {
		c.spare = &listScratch{}
	}
	return c.spare
}
