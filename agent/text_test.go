package agent

import (
	"encoding/xml"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/rivo/uniseg"
)

func TestShorten(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		max  int
		want string
		cut  bool
	}{
		{"short", 240, "short", false},
		{"  spaced \n\t out  text ", 240, "spaced out text", false},
		{"one two three four", 18, "one two three four", false},
		{"one two three four", 17, "one two three…", true},
		{"one two three four", 14, "one two three…", true},
		{"one two three four", 13, "one two…", true},
		// A cut falling on a space keeps the whole previous word.
		{"alpha beta gamma", 11, "alpha beta…", true},
		// Trailing punctuation before the ellipsis goes.
		{"alpha, beta gamma", 9, "alpha…", true},
		// One long word is cut inside.
		{"Supercalifragilistic", 10, "Supercali…", true},
		// A long last word after the middle is dropped whole.
		{"ab cdefghijklmnop", 10, "ab cdefgh…", true},
		{"héllo wörld ünïcode", 13, "héllo wörld…", true},
		{"x y", 1, "…", true},
		{"anything at all", 0, "anything at all", false},
		{"anything at all", -1, "anything at all", false},
		// Grapheme clusters are never split: a letter and its combining
		// marks, a ZWJ emoji sequence, a flag, a skin tone.
		{"cafe\u0301s!", 6, "cafe\u0301…", true},
		{"cafe\u0301s", 4, "caf…", true},
		{"ab 👩\u200d👩\u200d👧\u200d👦 family", 9, "ab…", true},
		{"ab👩\u200d👩\u200d👧\u200d👦xy", 10, "ab👩\u200d👩\u200d👧\u200d👦…", true},
		{"🇫🇷🇩🇪🇯🇵🇮🇹", 6, "🇫🇷🇩🇪…", true},
		{"wave 👋🏽👋🏽", 8, "wave 👋🏽…", true},
		{"x\u0301\u0302\u0303\u0304 y", 3, "…", true},
		// The routing clause is kept, the head before it cut.
		{"Creates, edits and converts spreadsheet files of every kind in many formats. Use when the user asks for a spreadsheet.", 80,
			"Creates, edits and converts… Use when the user asks for a spreadsheet.", true},
		{"Creates, edits and converts spreadsheet files of every kind in many formats. This skill should be used when the user asks for a spreadsheet.", 100,
			"Creates, edits and converts… This skill should be used when the user asks for a spreadsheet.", true},
		{"Creates, edits and converts spreadsheet files; triggers on xlsx, csv and tsv files of any size.", 75,
			"Creates, edits and… triggers on xlsx, csv and tsv files of any size.", true},
		// A clause too long for two thirds of the limit is cut too.
		{"Creates, edits and converts spreadsheet files of every kind. Use when the user asks for a spreadsheet, a workbook, a table, a chart or anything with cells.", 60,
			"Creates, edits and… Use when the user asks for a…", true},
		// A short head is kept whole by the ordinary cut.
		{"Spreadsheets. Use when the user asks for a spreadsheet, a workbook, a table, a chart or anything with cells.", 60,
			"Spreadsheets. Use when the user asks for a spreadsheet, a…", true},
		// A text that opens with the clause is cut at its end.
		{"Use when the user asks for a spreadsheet, a workbook, a table, a chart or anything with cells.", 50,
			"Use when the user asks for a spreadsheet, a…", true},
		// "use when" inside a sentence is not a clause.
		{"Lists the commands a team may use when deploying, with their flags and their defaults and more.", 60,
			"Lists the commands a team may use when deploying, with…", true},
		// Below minClauseMax there is no room for both.
		{"Creates spreadsheets of all kinds. Use when asked.", 30, "Creates spreadsheets of all…", true},
	}
	for _, tt := range tests {
		got, cut := shorten(tt.in, tt.max)
		if got != tt.want || cut != tt.cut {
			t.Errorf("shorten(%q, %d) = %q, %v; want %q, %v", tt.in, tt.max, got, cut, tt.want, tt.cut)
		}
		if tt.max > 0 && utf8.RuneCountInString(got) > tt.max {
			t.Errorf("shorten(%q, %d) = %q is %d characters", tt.in, tt.max, got, utf8.RuneCountInString(got))
		}
	}
}

// FuzzShorten checks shorten's contract on any text: the result is at most
// max characters; uncut, it is the collapsed text; cut, it is a head of the
// text with an ellipsis, optionally followed by a later part of the text
// (the routing clause, whole, or cut with an ellipsis), and every part
// starts and ends on a grapheme cluster boundary of the text.
func FuzzShorten(f *testing.F) {
	f.Add("Cut a versioned release without breaking the changelog.", 20)
	f.Add("   ", 3)
	f.Add("\xff\xfe broken", 4)
	f.Add("Creates, edits and converts spreadsheet files of every kind. Use when the user asks for a spreadsheet.", 60)
	f.Add("Builds things. This skill should be used when building ever larger things of all sorts and sizes.", 45)
	f.Add("cafe\u0301 👩\u200d👩\u200d👧 🇫🇷🇩🇪 👋🏽 x\u0301\u0302", 7)
	f.Fuzz(func(t *testing.T, s string, max int) {
		max %= 1000
		got, cut := shorten(s, max)
		collapsed := strings.Join(strings.Fields(s), " ")
		if max > 0 && utf8.RuneCountInString(got) > max {
			t.Fatalf("shorten(%q, %d) = %q: %d characters", s, max, got, utf8.RuneCountInString(got))
		}
		if !cut {
			if got != collapsed {
				t.Fatalf("shorten(%q, %d) = %q without a cut, want %q", s, max, got, collapsed)
			}
			return
		}
		if strings.Contains(collapsed, ellipsis) || !utf8.ValidString(collapsed) {
			return // the parts cannot be told apart, or clusters are bytes
		}
		bounds := map[int]bool{len(collapsed): true}
		state, off := -1, 0
		for rest := collapsed; rest != ""; {
			bounds[off] = true
			cl, next, _, st := uniseg.FirstGraphemeClusterInString(rest, state)
			off, rest, state = off+len(cl), next, st
		}
		head, tail, ok := strings.Cut(got, ellipsis)
		if !ok || !strings.HasPrefix(collapsed, head) || !bounds[len(head)] {
			t.Fatalf("shorten(%q, %d) = %q: no head of the text on a cluster boundary before an ellipsis", s, max, got)
		}
		if tail == "" {
			return
		}
		clause, last := strings.CutSuffix(strings.TrimPrefix(tail, " "), ellipsis)
		i := strings.LastIndex(collapsed, clause)
		if i < len(head) || strings.Contains(clause, ellipsis) || !bounds[i] || !bounds[i+len(clause)] ||
			(!last && i+len(clause) != len(collapsed)) {
			t.Fatalf("shorten(%q, %d) = %q: the clause %q is not a later part of the text on cluster boundaries", s, max, got, clause)
		}
	})
}

func TestEscapeXML(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{`<a href="x">'b' & c</a>`, "&lt;a href=&quot;x&quot;&gt;&apos;b&apos; &amp; c&lt;/a&gt;"},
		{"&amp;", "&amp;amp;"},
		{"ctl\x00\x01\x1f", "ctl\uFFFD\uFFFD\uFFFD"},
		{"tab\tnl\ncr\r", "tab\tnl\ncr\r"},
		{"bad \xff utf8", "bad \uFFFD utf8"},
		{"\uFFFE\uFFFF", "\uFFFD\uFFFD"},
		{"émoji 🎉", "émoji 🎉"},
	}
	for _, tt := range tests {
		got := escapeXML(tt.in)
		if got != tt.want {
			t.Errorf("escapeXML(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzEscapeXML(f *testing.F) {
	f.Add("</available_skills><skill>")
	f.Add("a & b \x00 \xff")
	f.Fuzz(func(t *testing.T, s string) {
		var v struct {
			Text string `xml:",chardata"`
		}
		doc := "<d>" + escapeXML(s) + "</d>"
		if err := xml.Unmarshal([]byte(doc), &v); err != nil {
			t.Fatalf("escapeXML(%q) does not parse: %v", s, err)
		}
		if strings.ContainsAny(escapeXML(s), "<>") {
			t.Fatalf("escapeXML(%q) holds markup", s)
		}
	})
}

func TestLevenshtein(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "", 3},
		{"", "abc", 3},
		{"kitten", "sitting", 3},
		{"relase", "release", 1},
		{"héllo", "hello", 1},
	}
	var lv editDist
	for _, tt := range tests {
		if got := levenshtein(tt.a, tt.b); got != tt.want {
			t.Errorf("levenshtein(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		for k := range tt.want + 2 {
			if got, want := lv.within([]rune(tt.a), []rune(tt.b), k), min(tt.want, k+1); got != want {
				t.Errorf("within(%q, %q, %d) = %d, want %d", tt.a, tt.b, k, got, want)
			}
		}
	}
}

// TestWithinSameAsPlain holds editDist.within, which stops past its bound
// and reuses its rows, and toQuery, bit-parallel for a query of 1 to 64
// code points, to the plain table (levenshtein) on random words of a
// small alphabet (two letters above ASCII, one of them outside the BMP)
// of 0 to 70 code points, at every bound from 0 to past the distance.
func TestWithinSameAsPlain(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(2, 21))
	letters := []rune("abcü-\U0001F600")
	word := func() []rune {
		n := rng.IntN(14)
		if rng.IntN(8) == 0 {
			n = 60 + rng.IntN(11) // about the 64 code points a mask holds
		}
		w := make([]rune, n)
		for i := range w {
			w[i] = letters[rng.IntN(len(letters))]
		}
		return w
	}
	var lv, lq editDist
	for range 3000 {
		a, b := word(), word()
		d := levenshtein(string(a), string(b))
		lq.setQuery(a)
		for k := range max(len(a), len(b)) + 2 {
			want := min(d, k+1)
			if got := lv.within(a, b, k); got != want {
				t.Fatalf("within(%q, %q, %d) = %d, want %d (distance %d)", string(a), string(b), k, got, want, d)
			}
			if got := lq.toQuery(b, k); got != want {
				t.Fatalf("toQuery(%q) from %q, bound %d = %d, want %d (distance %d)", string(b), string(a), k, got, want, d)
			}
		}
	}
}

func TestClosest(t *testing.T) {
	t.Parallel()
	names := []string{"commit-message", "release-checklist", "release-notes", "pdf-processing", "pptx", "docx", "xlsx", "a", "go", "日本"}
	tests := []struct {
		in   string
		want []string
	}{
		{"relase-checklist", []string{"release-checklist"}},
		{"release", []string{"release-checklist", "release-notes"}},
		{"Release Checklist", []string{"release-checklist"}},
		{"checklist", []string{"release-checklist"}},
		{"commit_mesage", []string{"commit-message"}},
		{"pdf", []string{"pdf-processing"}},
		{"ppt", []string{"pptx"}},
		{"xlsx-editor", []string{"xlsx"}},
		{"kubernetes", nil},
		{"", nil},
		// Short names: a suggestion keeps at least one character of what
		// was typed.
		{"d6", nil},
		{"b", nil},
		{"js", nil},
		{"ab", []string{"a"}},
		{"gp", []string{"go"}},
		{"A", []string{"a"}},
		// A name held in the query counts 4 code points or more, not
		// bytes: "日本" is 6 bytes.
		{"日本語-notes", nil},
		{"xlsx-日本", []string{"xlsx"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, closest(tt.in, names, 3)); diff != "" {
			t.Errorf("closest(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestSample(t *testing.T) {
	t.Parallel()
	var files []string
	for _, c := range "abcdefghijklmnopqrst" {
		files = append(files, "assets/fonts/"+string(c)+".ttf")
	}
	files = append(files, "LICENSE.txt", "assets/logo.png", "references/api.md", "references/deep/more.md", "scripts/run.sh")
	got := sample(files, 10)
	want := []string{
		"LICENSE.txt", "assets/fonts/a.ttf", "assets/fonts/b.ttf", "assets/fonts/c.ttf", "assets/fonts/d.ttf",
		"assets/fonts/e.ttf", "assets/logo.png", "references/api.md", "references/deep/more.md", "scripts/run.sh",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sample (-want +got):\n%s", diff)
	}
	if short := sample(files[:3], 10); len(short) != 3 {
		t.Errorf("sample of 3 = %v", short)
	}
}

// levenshtein returns the edit distance between a and b, in code points:
// the whole table, two rows allocated for each, the plain form
// editDist.within and closestByRule compare with.
func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	cur := make([]int, len(rb)+1)
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
