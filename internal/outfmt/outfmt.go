// Package outfmt holds the small shapes of output that several packages
// share: JSON as skillet writes it (docs/output.md) and counted nouns in
// messages.
package outfmt

import (
	"encoding/json"
	"io"
	"strconv"
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
