// Package suggest finds the nearest of a set of known words to a word a
// person typed, for "did you mean ...?" in usage errors (commands, flags,
// presets, configuration keys).
package suggest

import "strings"

// Nearest returns the known word closest to typed by edit distance
// (Levenshtein over runes, ignoring case), or "" when none is close: the
// distance must be at most a third of the longer word's length, and at
// least 1 and at most 3. A known word that typed is a prefix of, or that is
// a prefix of typed, counts as at most distance 2. Ties go to the earlier
// word.
func Nearest(typed string, known []string) string {
	t := strings.ToLower(typed)
	best, bestD := "", 1<<30
	for _, k := range known {
		kl := strings.ToLower(k)
		if kl == t {
			return k
		}
		d := distance([]rune(t), []rune(kl))
		if len(t) >= 2 && (strings.HasPrefix(kl, t) || strings.HasPrefix(t, kl)) && d > 2 {
			d = 2
		}
		limit := max(len([]rune(t)), len([]rune(kl))) / 3
		limit = min(max(limit, 1), 3)
		if d <= limit && d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// distance is the Levenshtein distance of a and b, with a transposition of
// two neighbours counted as one edit (optimal string alignment).
func distance(a, b []rune) int {
	if len(a) == 0 {
		return len(b)
	}
	if len(b) == 0 {
		return len(a)
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
