package agent

import (
	"encoding/xml"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestShorten(t *testing.T) {
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
	}
	for _, tt := range tests {
		got, cut := Shorten(tt.in, tt.max)
		if got != tt.want || cut != tt.cut {
			t.Errorf("Shorten(%q, %d) = %q, %v; want %q, %v", tt.in, tt.max, got, cut, tt.want, tt.cut)
		}
		if tt.max > 0 && utf8.RuneCountInString(got) > tt.max {
			t.Errorf("Shorten(%q, %d) = %q is %d characters", tt.in, tt.max, got, utf8.RuneCountInString(got))
		}
	}
}

func FuzzShorten(f *testing.F) {
	f.Add("Cut a versioned release without breaking the changelog.", 20)
	f.Add("   ", 3)
	f.Add("\xff\xfe broken", 4)
	f.Fuzz(func(t *testing.T, s string, max int) {
		max %= 1000
		got, cut := Shorten(s, max)
		collapsed := strings.Join(strings.Fields(s), " ")
		if max > 0 && utf8.RuneCountInString(got) > max {
			t.Fatalf("Shorten(%q, %d) = %q: %d characters", s, max, got, utf8.RuneCountInString(got))
		}
		if !cut && got != collapsed {
			t.Fatalf("Shorten(%q, %d) = %q without a cut, want %q", s, max, got, collapsed)
		}
		if cut && (!strings.HasSuffix(got, Ellipsis) || !strings.HasPrefix(collapsed, strings.TrimSuffix(got, Ellipsis))) {
			t.Fatalf("Shorten(%q, %d) = %q is not a prefix plus an ellipsis", s, max, got)
		}
	})
}

func TestEscapeXML(t *testing.T) {
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
		got := EscapeXML(tt.in)
		if got != tt.want {
			t.Errorf("EscapeXML(%q) = %q, want %q", tt.in, got, tt.want)
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
		doc := "<d>" + EscapeXML(s) + "</d>"
		if err := xml.Unmarshal([]byte(doc), &v); err != nil {
			t.Fatalf("EscapeXML(%q) does not parse: %v", s, err)
		}
		if strings.ContainsAny(EscapeXML(s), "<>") {
			t.Fatalf("EscapeXML(%q) holds markup", s)
		}
	})
}

func TestLevenshtein(t *testing.T) {
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
	for _, tt := range tests {
		if got := levenshtein(tt.a, tt.b); got != tt.want {
			t.Errorf("levenshtein(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestClosest(t *testing.T) {
	names := []string{"commit-message", "release-checklist", "release-notes", "pdf-processing", "pptx", "docx", "xlsx"}
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
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, closest(tt.in, names, 3)); diff != "" {
			t.Errorf("closest(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestSample(t *testing.T) {
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
