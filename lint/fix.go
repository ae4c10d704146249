package lint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/skill"
)

// FixOptions select what [Fix] and [FixSource] rewrite. A nil *FixOptions
// means the safe fixes only.
type FixOptions struct {
	// Name also makes the frontmatter name equal to the folder name (flat
	// form: the file stem) where they differ, when the folder name meets
	// the specification's rule (skillet lint --fix=name).
	Name bool
}

// Errors of [FixSource], [Fix] and [Change.Write]; they are wrapped with
// details, so test them with errors.Is.
var (
	// ErrUnparsable: the file does not load, so nothing is fixed.
	ErrUnparsable = errors.New("the file does not load, so nothing is fixed")
	// ErrUnsafe: the fixed file would not parse back to the same values
	// (or would gain a finding), so the file is left alone.
	ErrUnsafe = errors.New("the fix would not parse back to the same values; the file is left alone")
	// ErrChanged: the file changed on disk since it was read; it is left
	// alone (run skillet lint --fix again).
	ErrChanged = fsx.ErrChanged
)

// maxFixBytes bounds the files Fix reads.
const maxFixBytes = 16 << 20

// FixSource applies the mechanical, safe fixes to one skill file's bytes
// and returns the new bytes and one line per fix made. It changes only:
//
//   - a top-level value that parsed only after repair (parse-recovered,
//     typically an unquoted ": " in a description) is double-quoted in
//     place: a quote is inserted before and after the value and any " or \
//     inside it is escaped, so lines, line endings (CRLF stays CRLF),
//     comments and every other byte stay as they were. When that does not
//     give the value the repair gave (for example a value with blank lines),
//     the lines of the value are replaced by the repaired line instead,
//     keeping the line ending of the last one;
//   - with opts.Name, the name's value is replaced by the folder name.
//
// The result is parsed again and must give the same values (name, every
// frontmatter field, body), with no repair left and no finding the
// original did not have; otherwise FixSource returns ErrUnsafe and no
// bytes. A file that does not load is ErrUnparsable. When there is nothing
// to fix, out is src and fixes is empty.
//
// popts gives the path (for the folder name), the form (Flat) and
// MaxDescriptionChars; the file is always read in lenient mode.
func FixSource(src []byte, opts *FixOptions, popts *skill.Options) (out []byte, fixes []string, err error) {
	if opts == nil {
		opts = &FixOptions{}
	}
	po := skill.Options{}
	if popts != nil {
		po = skill.Options{Path: popts.Path, Flat: popts.Flat, MaxDescriptionChars: popts.MaxDescriptionChars}
	}
	before, diags := skill.Parse(src, &po)
	if before == nil {
		return nil, nil, ErrUnparsable
	}
	lines := splitLines(src)
	var nameEdit *edit
	nameLine, folder := 0, ""
	if opts.Name {
		nameEdit, nameLine, folder = nameFix(src, lines, before, &po)
	}
	var repairs []skill.Repair
	for _, r := range before.Repairs {
		if nameEdit != nil && r.Line == nameLine {
			continue // the name fix rewrites that value whole
		}
		repairs = append(repairs, r)
	}
	if len(repairs) == 0 && nameEdit == nil {
		return src, nil, nil
	}
	for _, minimal := range []bool{true, false} {
		var edits []edit
		var notes []string
		ok := true
		for _, r := range repairs {
			e, err := quoteEdits(src, lines, r, minimal)
			if err != nil {
				ok = false
				break
			}
			edits = append(edits, e...)
			notes = append(notes, fmt.Sprintf("line %d: quoted the value of %s", r.Line, r.Key))
		}
		if !ok {
			continue
		}
		if nameEdit != nil {
			edits = append(edits, *nameEdit)
			notes = append(notes, fmt.Sprintf("line %d: set the name to %q, the folder's", nameLine, folder))
		}
		out, ok := applyEdits(src, edits)
		if ok && verify(before, diags, out, &po, folder) {
			slices.Sort(notes)
			return out, notes, nil
		}
	}
	return nil, nil, ErrUnsafe
}

// edit replaces src[start:end] with text.
type edit struct {
	start, end int
	text       string
}

func applyEdits(src []byte, edits []edit) ([]byte, bool) {
	slices.SortStableFunc(edits, func(a, b edit) int { return a.start - b.start })
	var b bytes.Buffer
	pos := 0
	for _, e := range edits {
		if e.start < pos || e.end < e.start || e.end > len(src) {
			return nil, false
		}
		b.Write(src[pos:e.start])
		b.WriteString(e.text)
		pos = e.end
	}
	b.Write(src[pos:])
	return b.Bytes(), true
}

// span is one line of a file: content from start to end, without the
// line ending ("\n" or "\r\n").
type span struct{ start, end int }

func splitLines(src []byte) []span {
	var out []span
	for i := 0; i <= len(src); {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			out = append(out, span{i, len(src)})
			break
		}
		end := i + j
		if end > i && src[end-1] == '\r' {
			end--
		}
		out = append(out, span{i, end})
		i += j + 1
	}
	return out
}

// keyValue finds "key:" followed by blanks at the start of a line (after
// its indentation) and returns the offset of the value, or -1.
func keyValue(line []byte, key string) int {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if !bytes.HasPrefix(line[i:], []byte(key)) {
		return -1
	}
	j := i + len(key)
	for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
		j++
	}
	if j >= len(line) || line[j] != ':' {
		return -1
	}
	j++
	k := j
	for k < len(line) && (line[k] == ' ' || line[k] == '\t') {
		k++
	}
	if k == j && k < len(line) {
		return -1 // "key:value" is not a key
	}
	return k
}

// commentAt returns the offset in s where a comment (" #" or "\t#") starts,
// or -1.
func commentAt(s []byte) int {
	for i := 1; i < len(s); i++ {
		if s[i] == '#' && (s[i-1] == ' ' || s[i-1] == '\t') {
			return i - 1
		}
	}
	return -1
}

// quoteEdits turns one repair into edits: in place (minimal) or by
// replacing the value's lines with the repaired line.
func quoteEdits(src []byte, lines []span, r skill.Repair, minimal bool) ([]edit, error) {
	if r.Line < 1 || r.EndLine < r.Line || r.EndLine > len(lines) {
		return nil, ErrUnsafe
	}
	first := lines[r.Line-1]
	vstart := keyValue(src[first.start:first.end], r.Key)
	if vstart < 0 || first.start+vstart >= first.end {
		return nil, ErrUnsafe
	}
	// The value's pieces, line by line, without surrounding blanks; a
	// comment may only close the last line.
	type piece struct{ start, end int }
	var pieces []piece
	comment := ""
	for ln := r.Line; ln <= r.EndLine; ln++ {
		l := lines[ln-1]
		s := l.start
		if ln == r.Line {
			s += vstart
		}
		for s < l.end && (src[s] == ' ' || src[s] == '\t') {
			s++
		}
		e := l.end
		for e > s && (src[e-1] == ' ' || src[e-1] == '\t') {
			e--
		}
		if s == e {
			continue
		}
		if ln > r.Line && src[s] == '#' {
			return nil, ErrUnsafe // a comment line inside the value
		}
		if c := commentAt(src[s:e]); c >= 0 {
			if ln != r.EndLine {
				return nil, ErrUnsafe
			}
			comment = string(src[s+c : e])
			e = s + c
			for e > s && (src[e-1] == ' ' || src[e-1] == '\t') {
				e--
			}
		}
		pieces = append(pieces, piece{s, e})
	}
	if len(pieces) == 0 {
		return nil, ErrUnsafe
	}
	if !minimal {
		last := lines[r.EndLine-1]
		text := r.Text
		if comment != "" {
			text += " " + strings.TrimLeft(comment, " \t")
		}
		return []edit{{start: first.start, end: last.end, text: text}}, nil
	}
	edits := []edit{{start: pieces[0].start, end: pieces[0].start, text: `"`}}
	for _, p := range pieces {
		for i := p.start; i < p.end; i++ {
			if src[i] == '"' || src[i] == '\\' {
				edits = append(edits, edit{start: i, end: i, text: `\`})
			}
		}
	}
	end := pieces[len(pieces)-1].end
	edits = append(edits, edit{start: end, end: end, text: `"`})
	return edits, nil
}

// nameFix returns the edit that sets the name to the folder's, the line of
// the name and the folder name; the edit is nil when there is nothing to
// do or it cannot be done safely (a name over several lines, an anchor, a
// folder name that breaks the specification's rule).
func nameFix(src []byte, lines []span, s *skill.Skill, po *skill.Options) (*edit, int, string) {
	if po.Path == "" {
		return nil, 0, ""
	}
	folder := filepath.Base(filepath.Dir(po.Path))
	if po.Flat {
		base := filepath.Base(po.Path)
		folder = strings.TrimSuffix(base, filepath.Ext(base))
	}
	if !skill.ValidName(folder) || s.RawName == folder {
		return nil, 0, folder
	}
	var field *skill.Field
	for i := range s.Frontmatter {
		if s.Frontmatter[i].Key == "name" {
			field = &s.Frontmatter[i]
			break
		}
	}
	if field == nil || field.Line < 1 || field.Line > len(lines) {
		return nil, 0, folder
	}
	switch field.Value.(type) {
	case skill.Map, []any, nil:
		return nil, 0, folder
	}
	l := lines[field.Line-1]
	line := src[l.start:l.end]
	v := keyValue(line, "name")
	if v < 0 || v >= len(line) {
		return nil, 0, folder
	}
	end := -1
	quote := byte(0)
	switch c := line[v]; c {
	case '"':
		for i := v + 1; i < len(line); i++ {
			if line[i] == '\\' {
				i++
				continue
			}
			if line[i] == '"' {
				end, quote = i+1, '"'
				break
			}
		}
	case '\'':
		for i := v + 1; i < len(line); i++ {
			if line[i] == '\'' {
				if i+1 < len(line) && line[i+1] == '\'' {
					i++
					continue
				}
				end, quote = i+1, '\''
				break
			}
		}
	case '|', '>', '&', '*', '!', '[', '{', '#':
		return nil, 0, folder
	default:
		end = len(line)
		if c := commentAt(line[v:]); c >= 0 {
			end = v + c
		}
		for end > v && (line[end-1] == ' ' || line[end-1] == '\t') {
			end--
		}
		// A plain value continued on the next lines is left alone.
		ind := len(line) - len(bytes.TrimLeft(line, " \t"))
		for n := field.Line; n < len(lines); n++ {
			next := src[lines[n].start:lines[n].end]
			t := bytes.TrimLeft(next, " \t")
			if len(bytes.TrimSpace(t)) == 0 {
				continue
			}
			if len(next)-len(t) > ind && t[0] != '#' {
				return nil, 0, folder
			}
			break
		}
	}
	if end < 0 {
		return nil, 0, folder
	}
	text := folder
	if quote != 0 {
		text = string(quote) + folder + string(quote)
	} else if !plainString(folder) {
		text = strconv.Quote(folder)
	}
	return &edit{start: l.start + v, end: l.start + end, text: text}, field.Line, folder
}

// plainString reports whether a specification-valid name reads as a
// string when written as a plain YAML scalar (not a number, bool or null).
func plainString(name string) bool {
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	switch name {
	case "true", "false", "null":
		return false
	}
	return true
}

// verify checks that out parses to the values of before, with the name set
// to folder when folder is not "" and the name was fixed.
func verify(before *skill.Skill, diags []skill.Diagnostic, out []byte, po *skill.Options, folder string) bool {
	after, diags2 := skill.Parse(out, po)
	if after == nil || len(after.Repairs) > 0 {
		return false
	}
	want := snapshot(before)
	got := snapshot(after)
	if folder != "" && after.RawName != before.RawName {
		if after.RawName != folder || after.Name != folder {
			return false
		}
		got.name, got.rawName, got.nameField = want.name, want.rawName, want.nameField
	}
	if !reflect.DeepEqual(want, got) {
		return false
	}
	// No finding the original did not have.
	count := map[skill.Code]int{}
	for _, d := range diags {
		count[d.Code]++
	}
	for _, d := range diags2 {
		count[d.Code]--
		if count[d.Code] < 0 {
			return false
		}
	}
	return true
}

// values is what a fix must keep: every value of the skill, without
// positions.
type values struct {
	name, rawName, description, whenToUse, license, compatibility string
	metadata                                                      map[string]string
	allowedTools                                                  []string
	hidden, hasFrontmatter                                        bool
	extra, frontmatter                                            []any
	nameField                                                     any
	body                                                          string
}

func snapshot(s *skill.Skill) values {
	v := values{
		name: s.Name, rawName: s.RawName, description: s.Description, whenToUse: s.WhenToUse,
		license: s.License, compatibility: s.Compatibility, metadata: s.Metadata,
		allowedTools: s.AllowedTools, hidden: s.DisableModelInvocation, hasFrontmatter: s.HasFrontmatter,
		extra: plainMap(s.Extra), body: s.Body,
	}
	for _, f := range s.Frontmatter {
		if f.Key == "name" {
			v.nameField = plainValue(f.Value)
			continue
		}
		v.frontmatter = append(v.frontmatter, f.Key, plainValue(f.Value))
	}
	return v
}

func plainMap(m skill.Map) []any {
	var out []any
	for _, f := range m {
		out = append(out, f.Key, plainValue(f.Value))
	}
	return out
}

func plainValue(v any) any {
	switch v := v.(type) {
	case skill.Map:
		return plainMap(v)
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = plainValue(x)
		}
		return out
	}
	return v
}

// Change is the rewrite of one skill file computed by [Fix]: what it was,
// what it becomes, and the fixes made. Nothing is written until Write.
type Change struct {
	// Path is the skill file as reported; Target is the file written (the
	// symlink's target when Path is a symlink).
	Path, Target string
	Old, New     []byte
	// Fixes has one line per fix ("line 3: quoted the value of description").
	Fixes   []string
	version *fsx.Version
}

// Skip is a file Fix left alone, and why (wrapping ErrUnparsable,
// ErrUnsafe or a read error).
type Skip struct {
	Path string
	Err  error
}

// Fix computes the changes for the report's skill files that have
// something to fix: a repaired value (parse-recovered) and, with opts.Name,
// a name that differs from the folder (name-mismatch, name-normalized,
// name-invalid). Each file is read again from disk and fixed with
// [FixSource]; the files it cannot fix safely are returned as skips. Nothing
// is written: call [Change.Write], or show [Change.Diff]. The error is
// non-nil only when ctx is done.
func Fix(ctx context.Context, r *Report, opts *FixOptions) ([]*Change, []Skip, error) {
	if opts == nil {
		opts = &FixOptions{}
	}
	var changes []*Change
	var skips []Skip
	for _, f := range r.Files {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if !f.Skill || !wantsFix(f, opts) {
			continue
		}
		c, err := fixFile(f, opts, r.Settings.MaxDescriptionChars)
		if err != nil {
			skips = append(skips, Skip{Path: f.Path, Err: err})
			continue
		}
		if c != nil {
			changes = append(changes, c)
		}
	}
	return changes, skips, nil
}

func wantsFix(f *File, opts *FixOptions) bool {
	for _, d := range f.Diagnostics {
		switch d.Code {
		case skill.CodeParseRecovered:
			return true
		case skill.CodeNameMismatch, skill.CodeNameNormalized, skill.CodeNameInvalid:
			if opts.Name {
				return true
			}
		}
	}
	return false
}

func fixFile(f *File, opts *FixOptions, maxDesc int) (*Change, error) {
	target, err := filepath.EvalSymlinks(f.Path)
	if err != nil {
		return nil, err
	}
	data, v, err := fsx.ReadRegular(target, maxFixBytes)
	if err != nil {
		return nil, err
	}
	out, fixes, err := FixSource(data, opts, &skill.Options{Path: f.Path, Flat: f.Flat, MaxDescriptionChars: maxDesc})
	if err != nil {
		return nil, err
	}
	if len(fixes) == 0 {
		return nil, nil
	}
	return &Change{Path: f.Path, Target: target, Old: data, New: out, Fixes: fixes, version: v}, nil
}

// Write replaces the file with the new bytes, atomically and only if it is
// still the file Fix read (see fsx.Replace in docs/lint.md#fixes): the new
// file keeps the old one's owner, mode and extended attributes. A file that
// changed on disk since (an editor saved it) is left alone with
// ErrChanged; a read-only file, one with several hard links, or one whose
// owner or extended attributes a new file cannot keep is refused with an
// error saying why. Nothing is lost either way.
func (c *Change) Write() error {
	if err := fsx.Replace(c.Target, c.version, c.New); err != nil {
		if c.Target != c.Path {
			return fmt.Errorf("%s (the target of %s): %w", c.Target, c.Path, err)
		}
		return err
	}
	return nil
}

// Diff returns the change as a unified diff with three lines of context,
// the old file labelled a/NAME and the new b/NAME, where NAME is the path
// relative to base when inside it.
func (c *Change) Diff(base string) []byte {
	name := filepath.ToSlash(Display(c.Path, base))
	return UnifiedDiff("a/"+name, "b/"+name, c.Old, c.New)
}
