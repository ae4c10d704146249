package yamlx

import (
	"unsafe"

	"github.com/skillet-go/skillet/internal/swar"
)

// fmScan is the first pass of FastBuf.Read over text: it counts the lines
// and the items of flow collections ("[" and "{", and the commas on a line
// that holds one), to size the node slice, and says false when a
// byte starts what the fast reader does not handle: a comment, a tab or
// another control character (which YAML rejects or reads as a line break),
// a C1 control, U+2028 or U+2029 (line breaks to YAML 1.1), a BOM or a
// non-character. A word of eight bytes holding none of the bytes the pass
// must look at (fmFlags) is skipped whole.
func fmScan(text []byte) (lines, items int, ok bool) {
	s := unsafe.String(unsafe.SliceData(text), len(text))
	lines = 1
	lineItems, flow := 0, false
	for i := 0; i < len(s); i++ {
		i = swar.Skip(s, i, fmFlags)
		if i >= len(s) {
			break
		}
		c := s[i]
		switch fmClass[c] {
		case fmPlain:
		case fmNewline:
			lines++
			if flow {
				items += lineItems
			}
			lineItems, flow = 0, false
		case fmComma:
			lineItems++
		case fmOpen:
			items++
			flow = true
		case fmReject:
			return 0, 0, false
		case fmHigh:
			switch {
			case c == 0xC2 && i+1 < len(s) && s[i+1] < 0xA0:
				return 0, 0, false
			case c == 0xE2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9):
				return 0, 0, false // U+2028, U+2029: line breaks to YAML 1.1
			case c == 0xEF && i+2 < len(s) && (s[i+1] == 0xBB && s[i+2] == 0xBF || s[i+1] == 0xBF && s[i+2] >= 0xBE):
				return 0, 0, false
			}
		}
	}
	if flow {
		items += lineItems
	}
	return lines, items, true
}

// fmFlags marks (in the high bit of each byte) the bytes of x that are not
// fmPlain, and perhaps some plain ones above the lowest one marked: bytes
// below 0x20 (the line feed among them), 0x80 and above, "#", ",", "[",
// "{" and DEL. With 0x20 set in every byte, "[" is "{", and "#" and "," can
// only come from themselves or from control characters.
func fmFlags(x uint64) uint64 {
	v := x | 0x20*swar.Ones
	return swar.ControlOrHigh(x) |
		swar.Zero(v^('{'*swar.Ones)) | swar.Zero(v^('#'*swar.Ones)) | swar.Zero(v^(','*swar.Ones)) | swar.Zero(x^(0x7F*swar.Ones))
}
