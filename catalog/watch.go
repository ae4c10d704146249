package catalog

import (
	"context"
	"time"
)

// defaultWatchInterval is how often Watch lists when no interval is given.
const defaultWatchInterval = time.Second

// Watch lists the catalog every interval (a second when <= 0)
// until ctx is done. It calls fn with the first listing, then with the new
// listing each time a skill was added, removed, edited, shadowed or unshadowed, or moved in or out of
// the catalog (maxSkills, the enable lists), as the MCP server's reload
// does (docs/discovery.md#watching). A listing costs about one stat per
// skill when nothing changed (docs/discovery.md#caching), so an interval
// of a second is cheap; Watch needs no file-notification library, so it
// works on every file system and for every Source. fn runs on Watch's
// goroutine; a listing that changes while fn runs is delivered after it
// returns. Watch returns ctx's error.
func (c *Catalog) Watch(ctx context.Context, interval time.Duration, fn func(*Listing)) error {
	if interval <= 0 {
		interval = defaultWatchInterval
	}
	prev, err := c.List(ctx)
	if err != nil {
		return err
	}
	fn(prev)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		l, err := c.List(ctx)
		if err != nil {
			return err
		}
		if changed(prev, l) {
			fn(l)
		}
		prev = l
	}
}

// changed reports whether two listings differ in a way an agent sees: the
// skills, in order, with their files and parsed frontmatter, and whether
// each is listed.
func changed(a, b *Listing) bool {
	if len(a.Skills) != len(b.Skills) {
		return true
	}
	for i, x := range a.Skills {
		y := b.Skills[i]
		if x.Name != y.Name || x.Location != y.Location || x.Listed != y.Listed || x.Bytes != y.Bytes || x.Parsed() != y.Parsed() {
			return true
		}
	}
	return false
}
