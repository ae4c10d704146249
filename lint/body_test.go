package lint

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReferences(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, body string
		want       []bodyRef
	}{
		{"inline link", "See [a](references/a.md).\n", []bodyRef{{Target: "references/a.md", Line: 1, Column: 9}}},
		{"image and anchor", "![i](assets/i.png#x) [t](#top)\n", []bodyRef{{Target: "assets/i.png", Line: 1, Column: 6}}},
		{"reference link", "[a][r]\n\n[r]: references/r.md\n", []bodyRef{{Target: "references/r.md", Line: 1, Column: 1}}},
		{"percent escape and query", "[a](references/a%20b.md?x=1)\n", []bodyRef{{Target: "references/a b.md", Line: 1, Column: 5}}},
		{"angle destination", "[a](<references/a b.md>)\n", []bodyRef{{Target: "references/a b.md", Line: 1, Column: 6}}},
		{"backslash escape", "[a](references/a\\_b.md)\n", []bodyRef{{Target: "references/a_b.md", Line: 1, Column: 5}}},
		{"code span paths", "Run `python scripts/x.py --out=assets/o.txt`.\n", []bodyRef{
			{Target: "scripts/x.py", Line: 1, Column: 13, Code: true},
			{Target: "assets/o.txt", Line: 1, Column: 32, Code: true}}},
		{"code span with a line number", "See `scripts/run.sh:12` and `references/r.md:3:5`.\n", []bodyRef{
			{Target: "scripts/run.sh", Line: 1, Column: 6, Code: true},
			{Target: "references/r.md", Line: 1, Column: 30, Code: true}}},
		{"code span inside a link", "[`scripts/x.sh`](scripts/x.sh)\n", []bodyRef{{Target: "scripts/x.sh", Line: 1, Column: 18}}},
		{"second line, wide characters", "Überblick\n— [a](references/ä.md)\n", []bodyRef{{Target: "references/ä.md", Line: 2, Column: 7}}},
		{"not references", "" +
			"[u](https://x.y/a.md) [m](mailto:a@b) [c](C:/x) [r](/abs) [h](~/x) [p](references/<n>.md)\n" +
			"`references/{x}.md` `assets/*.png` `scripts/...` `assets/` `src/main.go` `CHANGELOG.md`\n" +
			"```\n[f](references/f.md) `scripts/f.sh`\n```\n\n    [i](references/i.md)\n\n<a href=\"references/h.md\">h</a>\n",
			nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := listReferences([]byte(tt.body))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestReferenceExamples checks which references are plainly examples
// (broken-reference skips them) and which are not.
func TestReferenceExamples(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, body string
		want       []bool // Example, per reference in order
	}{
		{"e.g. in the sentence", "Put schemas in references (e.g. `references/finance.md`).\n", []bool{true}},
		{"e.g. in another sentence", "Read `references/a.md` first. Other files, e.g. `references/b.md`, are optional.\n", []bool{false, true}},
		{"for example, such as, for instance", "For example `scripts/x.py`. Files such as `assets/l.png`. For instance [r](references/r.md).\n", []bool{true, true, true}},
		{"Example: label", "- **Example**: `scripts/rotate.py` for PDF rotation\n- **Examples**: `assets/logo.png`, `assets/font.ttf`\n", []bool{true, true, true}},
		{"a list introduced by an example", "Example: when building a pdf skill:\n\n1. Rotating is repeated\n2. A `scripts/rotate.py` would help\n", []bool{true}},
		{"a list introduced by such as", "Bundle files such as:\n\n- `references/schema.md`\n- [guide](references/guide.md)\n", []bool{true, true}},
		{"a list introduced by something else", "Read these first:\n\n- `references/schema.md`\n", []bool{false}},
		{"placeholders", "`scripts/path/to/x.py` [a](references/your-notes.md) `assets/example/x.png` `references/foo/bar.md` `references/filename.md` `references/NAME.md` `scripts/my-script.sh`\n", []bool{true, true, true, true, true, true, true}},
		{"not placeholders", "`references/examples/basic.md` `assets/example-minimal.tm7` `references/README.md` `scripts/bar-chart.py`\n", []bool{false, false, false, false}},
		{"a real reference beside an example word", "Always open `assets/example.tm7` first.\n", []bool{false}},
		{"a template item", "- [c4-code-1.md](./c4-code-1.md) - [Description]\n- [guide](references/guide.md) - the guide [see below][x]\n\n[x]: #below\n", []bool{true, false}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []bool
			for _, r := range listReferences([]byte(tt.body)) {
				got = append(got, r.Example)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Example per reference (-want +got):\n%s", diff)
			}
		})
	}
}
