package agentx

import (
	"fmt"
	"strings"
)

// TruncationNote is the line that follows a skill body cut at
// maxSkillBytes: the file's size, how much of it was read and left out,
// the fence closed at the cut (closed, "" for none), and where the whole
// file is (whole: a path, or a URI and how to read it). Every answer that
// cuts a body (the load tool, the MCP server's prompts) says it the same
// way.
func TruncationNote(fileBytes int64, readBytes int, closed, whole string) string {
	left := max(fileBytes-int64(readBytes), 0)
	var b strings.Builder
	fmt.Fprintf(&b, "[This skill's file is %d bytes and only its first %d bytes (maxSkillBytes) were read: %d bytes are left out and the instructions above are cut short",
		fileBytes, readBytes, left)
	if closed != "" {
		fmt.Fprintf(&b, "; the code block open at the cut was closed with %s", closed)
	}
	fmt.Fprintf(&b, ". The whole file is %s.]", whole)
	return b.String()
}

// CloseFence makes a body cut at maxSkillBytes end outside any code block:
// when the cut falls inside a fenced code block (three or more backticks or
// tildes, CommonMark), a closing fence of the same character and length,
// at the opening fence's indentation, is appended. It returns the body and
// the fence it appended ("" when none was needed), which [TruncationNote]
// names.
func CloseFence(body string) (string, string) {
	open, indent := "", ""
	for line := range strings.Lines(body) {
		// Any indentation: a fence inside a nested list item is indented
		// by its item's depth.
		t := strings.TrimRight(line, "\r\n")
		trimmed := strings.TrimLeft(t, " \t")
		if open != "" {
			if strings.HasPrefix(trimmed, open) && strings.Trim(strings.TrimRight(trimmed, " \t"), open[:1]) == "" {
				open = ""
			}
			continue
		}
		if len(trimmed) < 3 || trimmed[0] != '`' && trimmed[0] != '~' {
			continue
		}
		n := len(trimmed) - len(strings.TrimLeft(trimmed, trimmed[:1]))
		if n < 3 || trimmed[0] == '`' && strings.Contains(trimmed[n:], "`") {
			continue
		}
		open, indent = trimmed[:n], t[:len(t)-len(trimmed)]
	}
	if open == "" {
		return body, ""
	}
	return body + "\n" + indent + open, open
}
