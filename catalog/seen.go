package catalog

// fileSeen is, for each file Each has read (by device and inode), the
// candidate that loads it so far and how much that path is the file's own
// (ownRank), so that a later path to the same file (a hard link, a
// symlink, an ignored copy) loads only when it is more the file's own.
//
// Most files are first reached by a path of the highest rank (a
// directory-form SKILL.md that is not a symlink nor reached through one,
// not ignored), which no later path can beat: for those only the file is
// kept, in an open-addressing table of inode numbers (8 bytes a slot, at
// most half full), not the candidate; the rest go to a map. At 100,000
// skills the map of every file cost 5.7 MB, the table costs 1–2 MB.
type fileSeen struct {
	own  inoSet
	rest map[[2]uint64]seenAt
}

// seenAt is the candidate that loads a file so far, and its ownRank.
type seenAt struct {
	i    int
	rank uint8
}

// topRank is ownRank's highest: not ignored, directory form, not linked.
const topRank = 8

func newFileSeen() *fileSeen { return &fileSeen{rest: map[[2]uint64]seenAt{}} }

func seenKey(e *entry) [2]uint64 { return [2]uint64{e.stamp.ino, e.stamp.dev} }

// best returns the candidate that loads file k so far; a file first
// reached at topRank while its candidates settled one at a time gives i
// -1: no later candidate loads it.
func (f *fileSeen) best(k [2]uint64) seenAt {
	if f.own.has(k[0], k[1]) {
		return seenAt{i: -1, rank: topRank}
	}
	return f.rest[k]
}

// settle reports whether a candidate of topRank that reaches file k loads
// it, which it does unless an earlier one of topRank did, and records the
// file: once the first such candidate has settled, none can take its place.
func (f *fileSeen) settle(k [2]uint64) bool {
	if f.best(k).rank >= topRank {
		return false
	}
	f.own.add(k[0], k[1])
	delete(f.rest, k)
	return true
}

// offer records candidate i, of rank rank, as the one that loads file k
// when it ranks higher than the one so far.
func (f *fileSeen) offer(k [2]uint64, i int, rank uint8) {
	if f.best(k).rank < rank {
		f.rest[k] = seenAt{i, rank}
	}
}

// loads reports whether candidate i, offered, is the one that loads file
// k, once every candidate that may reach it has been offered or settled.
func (f *fileSeen) loads(k [2]uint64, i int) bool {
	return !f.own.has(k[0], k[1]) && f.rest[k].i == i
}

// inoSet is a set of files by inode number and device: an open-addressing
// table of inode numbers of the first device added, and a map for the
// files of any other. Inode 0 is never added (a file not stamped).
type inoSet struct {
	dev   uint64
	slots []uint64 // inode numbers; 0 is a free slot
	n     int
	other map[[2]uint64]struct{}
}

// slot returns where ino is in the table, or the free slot it would take.
func (s *inoSet) slot(ino uint64) int {
	mask := len(s.slots) - 1
	for i := int((ino*0x9e3779b97f4a7c15)>>32) & mask; ; i = (i + 1) & mask {
		if v := s.slots[i]; v == ino || v == 0 {
			return i
		}
	}
}

func (s *inoSet) has(ino, dev uint64) bool {
	if s.slots == nil || dev != s.dev {
		_, ok := s.other[[2]uint64{ino, dev}]
		return ok
	}
	return s.slots[s.slot(ino)] == ino
}

func (s *inoSet) add(ino, dev uint64) {
	if s.slots == nil {
		s.dev, s.slots = dev, make([]uint64, 1024)
	}
	if dev != s.dev {
		if s.other == nil {
			s.other = map[[2]uint64]struct{}{}
		}
		s.other[[2]uint64{ino, dev}] = struct{}{}
		return
	}
	i := s.slot(ino)
	if s.slots[i] == ino {
		return
	}
	if 2*(s.n+1) > len(s.slots) {
		old := s.slots
		s.slots = make([]uint64, 2*len(old))
		for _, v := range old {
			if v != 0 {
				s.slots[s.slot(v)] = v
			}
		}
		i = s.slot(ino)
	}
	s.slots[i] = ino
	s.n++
}
