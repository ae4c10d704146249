package lint

import (
	"bytes"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUnifiedDiff(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, a, b, want string
	}{
		{"equal", "a\n", "a\n", ""},
		{"one line", "1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\n4\nfive\n6\n7\n8\n",
			"--- a\n+++ b\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "x\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\ny\n",
			"--- a\n+++ b\n@@ -1,4 +1,4 @@\n-1\n+x\n 2\n 3\n 4\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+y\n"},
		{"no newline at end", "a\nb", "a\nc",
			"--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"},
		{"insert into empty", "", "x\n", "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := string(unifiedDiff("a", "b", []byte(tt.a), []byte(tt.b)))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// applyDiff applies a unified diff made by unifiedDiff to a.
func applyDiff(t *testing.T, a, d []byte) []byte {
	t.Helper()
	old := diffLines(a)
	var out []line
	pos := 0
	ls := strings.Split(strings.TrimSuffix(string(d), "\n"), "\n")
	for i := 2; i < len(ls); i++ {
		l := ls[i]
		if strings.HasPrefix(l, "@@") {
			f := strings.Fields(l)
			start, _ := strconv.Atoi(strings.Split(strings.TrimPrefix(f[1], "-"), ",")[0])
			if strings.HasSuffix(f[1], ",0") {
				start++ // an empty range names the line before it
			}
			for pos < start-1 {
				out = append(out, old[pos])
				pos++
			}
			continue
		}
		eol := !(i+1 < len(ls) && strings.HasPrefix(ls[i+1], `\ No newline`))
		switch l[0] {
		case ' ':
			out = append(out, old[pos])
			pos++
		case '-':
			pos++
		case '+':
			out = append(out, line{text: []byte(l[1:]), eol: eol})
		}
	}
	out = append(out, old[pos:]...)
	var b bytes.Buffer
	for _, l := range out {
		b.Write(l.text)
		if l.eol {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

func equalValues(a, b values) bool { return reflect.DeepEqual(a, b) }
