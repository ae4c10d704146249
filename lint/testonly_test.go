package lint

import (
	"bytes"
	"encoding/binary"
	"io"
	"path/filepath"
	"slices"

	"github.com/skillet-go/skillet/internal/outfmt"
	"github.com/skillet-go/skillet/internal/swar"
	"github.com/skillet-go/skillet/skill"
)

// What only the tests call: reference implementations the tests hold the
// package's code to, and helpers of the tests, moved out of the package's
// non-test files.

// scanReferences is scanReferencesTo with memory of its own.
func scanReferences(body []byte, examples bool) (refs []foundRef, ok bool) {
	return scanReferencesTo(nil, nil, body, examples)
}

// lines returns the block's lines as goldmark holds them.
func (b sblock) lines(body []byte) []bspan {
	var lines []bspan
	for p := b.start; p < b.end; {
		eol := bytes.IndexByte(body[p:b.end], '\n')
		if eol < 0 {
			lines = append(lines, bspan{p, b.end})
			break
		}
		lines = append(lines, bspan{p, p + eol + 1})
		p += eol + 1
	}
	return lines
}

// lineChars reports whether a line outside code blocks is free of what the
// scanner leaves to goldmark: control characters (tabs and carriage returns
// included), "<" (HTML, autolinks), "\" (escapes) and "]:" (link reference
// definitions).
func lineChars(line []byte) bool {
	i := 0
	for ; i+8 <= len(line); i += 8 {
		if lineStopWord(binary.LittleEndian.Uint64(line[i:])) == 0 {
			continue
		}
		for j := i; j < i+8; j++ {
			if c := line[j]; lineStop[c] && (c != ']' || j+1 < len(line) && line[j+1] == ':') {
				return false
			}
		}
	}
	for ; i < len(line); i++ {
		if c := line[i]; lineStop[c] && (c != ']' || i+1 < len(line) && line[i+1] == ':') {
			return false
		}
	}
	return true
}

// listReferences extracts the relative references of a Markdown body, in order.
// Links and images are found with a CommonMark parser (goldmark), so links
// inside code blocks and code spans are not links, and reference-style
// links resolve to their definitions. URLs (any scheme), protocol-relative
// and absolute paths, anchors (#...), home-relative paths (~) and
// placeholders (<...>, {...}, $VAR, globs, "...") are not references.
// Query strings and fragments are dropped; percent-escapes are decoded.
// Fenced and indented code blocks are not searched for paths.
func listReferences(body []byte) []bodyRef {
	var refs []bodyRef
	for _, f := range references(body, true) {
		refs = append(refs, f.bodyRef)
	}
	return refs
}

// references is referencesTo with memory of its own.
func references(body []byte, examples bool) []foundRef {
	return referencesTo(nil, nil, body, examples)
}

// sentenceAt returns the sentence of t that holds body offset off: the
// text between the sentence ends (". ", "! ", "? " before a capital, a
// line break between list-like lines) around it. Abbreviations such as
// "e.g." end no sentence, since a capital rarely follows them.
func sentenceAt(t textOf, off int) string {
	start, end := sentenceSpan(t, t.index(off))
	return string(t.text[start:end])
}

// writeJSONEncoded is WriteJSON through encoding/json: the reference the
// one-pass writer is held to (TestWriteJSONIsEncodingJSON).
func (r *Report) writeJSONEncoded(w io.Writer) error {
	out := jsonReport{Workspace: filepath.ToSlash(r.Workspace), Files: []jsonFile{}, Counts: r.Counts}
	for _, f := range r.Files {
		jf := jsonFile{Path: filepath.ToSlash(f.Path), Name: f.Name, Issues: []jsonIssue{}}
		for _, d := range f.Diagnostics {
			jf.Issues = append(jf.Issues, jsonIssue{Code: d.Code, Level: d.Severity, Message: d.Message,
				Line: d.Line, Column: d.Column, Related: filepath.ToSlash(d.Related)})
		}
		out.Files = append(out.Files, jf)
	}
	if r.Compat != nil {
		compat := r.slashCompat()
		out.Compat = &compat
	}
	return outfmt.JSON(w, out)
}

// allChecks returns lint's own checks, in the order [Run] runs them.
func allChecks() []*lintCheck { return slices.Clone(checks) }

// runChecks runs the checks of checks on s and returns their findings in
// that order (runFindings's, in full).
func runChecks(s *subject) []skill.Diagnostic {
	return runFindings(s, nil).appendTo(nil)
}

// lineStopWord is nonzero when a byte of x is one lineChars looks at (a
// control character, DEL, '<', '\\' or ']').
func lineStopWord(x uint64) uint64 {
	return (x-swar.Ones*0x20)&^x&swar.Highs | // a byte below 0x20
		swar.Zero(x^(swar.Ones*0x7f)) | swar.Zero(x^(swar.Ones*'<')) |
		swar.Zero(x^(swar.Ones*'\\')) | swar.Zero(x^(swar.Ones*']'))
}

// slashCompat is the compatibility report with "/" separators in its
// paths, as the JSON report gives them.
func (r *Report) slashCompat() []*Compat {
	compat := []*Compat{}
	for _, c := range r.Compat {
		cc := *c
		cc.Path = filepath.ToSlash(c.Path)
		compat = append(compat, &cc)
	}
	return compat
}
