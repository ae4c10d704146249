// Package outfmt holds the small shapes of output that several packages
// share: JSON as skillet writes it (docs/output.md) and counted nouns in
// messages.
package outfmt

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"
)

// JSON writes v to w as skillet's JSON outputs are written
// (docs/output.md): indented by two spaces, "<", ">" and "&" left as they
// are (no HTML escaping), one final newline.
func JSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// Count is "1 skill" or "N skills": n and word, with an "s" unless n is 1.
func Count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// CountOf is Count for a word whose plural is not word+"s": "1 entry",
// "N entries".
func CountOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// MaxNames is how many names a diagnostic's message lists before it counts
// the rest (Names).
const MaxNames = 10

// Names joins names with ", ", the first MaxNames of them and then
// " and N more": a message naming hundreds of skills stays one readable
// line.
func Names(names []string) string { return NamesOf(names, len(names)) }

// NamesOf is Names of a list of total names of which names holds the
// first (at least min(total, MaxNames) of them), for a caller that keeps
// only those.
func NamesOf(names []string, total int) string {
	if total <= MaxNames {
		return strings.Join(names[:total], ", ")
	}
	return strings.Join(names[:MaxNames], ", ") + " and " + strconv.Itoa(total-MaxNames) + " more"
}
