package catalog

// listScratch is the memory one listing of the local file system works in,
// beside what it returns and the cache it leaves for the next List
// (Catalog.cache and Catalog.dirs): the next cache and folder states being
// built, the folder reader's buffer, precedence's maps and the walk's
// buffers. Each call has one: a List (diskList) borrows the catalog's spare
// (the last List's, kept so that a warm List allocates nothing per skill:
// TestWarmListDoesNotAllocatePerSkill), Each makes its own, one-shot,
// and drops it when it returns. Once the call returns, nothing in it is
// read but the candidates and entries of the walk kept for listEdited
// (lastWalk), until the next List walks.
type listScratch struct {
	// oneShot says no folder state is kept (Each): folders are not
	// stamped.
	oneShot bool
	// stream, when set (a one-shot listing that writes the persistent
	// index: indexStream), stamps every folder read and is given it.
	stream *indexStream
	// nextCache and nextDirs become the catalog's cache and folder
	// states when precedence and the walk end (diskList.applyPrecedence,
	// diskList.walkRoots); the old ones are cleared and reused.
	nextCache map[string]*entry
	nextDirs  map[string]*dirState
	// unfollowed are the paths a List could not follow or read, stamped
	// for its index (unfollowed.go); reset as the walk begins.
	unfollowed unfollowedPaths
	dirents    direntScratch // the folder reader's memory (eachEntry)
	// byName and seenFile are precedence's (applyPrecedence), onStack
	// the folders being walked (walker.visit).
	byName   map[string]*Skill
	seenFile map[stamp]int
	onStack  map[string]bool
	candBuf  []candidate
	entBuf   []*entry
	todoBuf  []int
}
