package lint

import (
	"bytes"
	"fmt"
)

// unifiedDiff returns the unified diff (three lines of context) that turns
// a into b, with the file labels given; it is empty when a and b are equal.
// Lines are compared byte for byte, so a line ending changed from CRLF to
// LF shows as a change; a last line without a newline is marked with
// "\ No newline at end of file", as diff -u does.
func unifiedDiff(oldLabel, newLabel string, a, b []byte) []byte {
	if bytes.Equal(a, b) {
		return nil
	}
	x, y := diffLines(a), diffLines(b)
	ops := diffOps(x, y)
	var out bytes.Buffer
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldLabel, newLabel)
	const context = 3
	for i := 0; i < len(ops); {
		// Find the next change.
		for i < len(ops) && ops[i].kind == ' ' {
			i++
		}
		if i == len(ops) {
			break
		}
		start := max(i-context, 0)
		end := i
		// Extend while changes are within 2*context of each other.
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			j := end
			for j < len(ops) && ops[j].kind == ' ' {
				j++
			}
			if j == len(ops) || j-end > 2*context {
				end = min(end+context, len(ops))
				break
			}
			end = j
		}
		h := ops[start:end]
		oldStart, newStart := h[0].x, h[0].y
		var oldN, newN int
		for _, op := range h {
			if op.kind != '+' {
				oldN++
			}
			if op.kind != '-' {
				newN++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(oldStart, oldN), hunkRange(newStart, newN))
		for _, op := range h {
			var l line
			if op.kind == '+' {
				l = y[op.y]
			} else {
				l = x[op.x]
			}
			out.WriteByte(op.kind)
			out.Write(l.text)
			out.WriteByte('\n')
			if !l.eol {
				out.WriteString("\\ No newline at end of file\n")
			}
		}
		i = end
	}
	return out.Bytes()
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

type line struct {
	text []byte
	eol  bool
}

func diffLines(b []byte) []line {
	var out []line
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			out = append(out, line{text: b})
			break
		}
		out = append(out, line{text: b[:i], eol: true})
		b = b[i+1:]
	}
	return out
}

// op is one step of an edit script: ' ' keeps x[x] (= y[y]), '-' deletes
// x[x], '+' inserts y[y]. For '+' x is the position in the old file, for
// '-' y is the position in the new one.
type op struct {
	kind byte
	x, y int
}

func sameLine(a, b line) bool { return a.eol == b.eol && bytes.Equal(a.text, b.text) }

// diffOps computes an edit script: common prefix and suffix, then a
// longest common subsequence of the middle (which is small for the edits
// lint makes); a middle too large for that is replaced whole.
func diffOps(x, y []line) []op {
	pre := 0
	for pre < len(x) && pre < len(y) && sameLine(x[pre], y[pre]) {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && sameLine(x[len(x)-1-suf], y[len(y)-1-suf]) {
		suf++
	}
	var ops []op
	for i := 0; i < pre; i++ {
		ops = append(ops, op{' ', i, i})
	}
	mx, my := x[pre:len(x)-suf], y[pre:len(y)-suf]
	if len(mx)*len(my) <= 4_000_000 {
		// lcs[i][j] = length of the LCS of mx[i:] and my[j:].
		lcs := make([][]int32, len(mx)+1)
		for i := range lcs {
			lcs[i] = make([]int32, len(my)+1)
		}
		for i := len(mx) - 1; i >= 0; i-- {
			for j := len(my) - 1; j >= 0; j-- {
				if sameLine(mx[i], my[j]) {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < len(mx) || j < len(my) {
			switch {
			case i < len(mx) && j < len(my) && sameLine(mx[i], my[j]):
				ops = append(ops, op{' ', pre + i, pre + j})
				i++
				j++
			case i < len(mx) && (j == len(my) || lcs[i+1][j] >= lcs[i][j+1]):
				ops = append(ops, op{'-', pre + i, pre + j})
				i++
			default:
				ops = append(ops, op{'+', pre + i, pre + j})
				j++
			}
		}
	} else {
		for i := range mx {
			ops = append(ops, op{'-', pre + i, pre})
		}
		for j := range my {
			ops = append(ops, op{'+', pre + len(mx), pre + j})
		}
	}
	for k := 0; k < suf; k++ {
		ops = append(ops, op{' ', len(x) - suf + k, len(y) - suf + k})
	}
	return ops
}
