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

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/internal/pool"
	"github.com/skillet-go/skillet/skill"
)

// FixOptions select what [Fix] and FixSource rewrite. A nil *FixOptions
// means the safe fixes only.
type FixOptions struct {
	// Name also makes the frontmatter name equal to the folder name (flat
	// form: the file stem) where they differ, when the folder name meets
	// the specification's rule (skillet lint --fix=name).
	Name bool
}

// Errors of FixSource, [Fix] and [Change.Write]; they are wrapped with
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
	var po skill.Options
	if popts != nil {
		po = skill.Options{Path: popts.Path, Flat: popts.Flat, MaxDescriptionChars: popts.MaxDescriptionChars}
	}
	sugg, err := suggestFixes(src, &po)
	if err != nil {
		return nil, nil, err
	}
	return applySuggestions(src, &po, sugg, opts)
}

// suggestion is a suggested fix and the finding it mends: a repaired
// value on line (parse-recovered; name false), or the name (name true).
type suggestion struct {
	line int
	name bool
	fix  skill.SuggestedFix
}

// suggestFixes computes the suggested fixes of one skill file's bytes: one
// per value that parsed only after repair (quoted in place where that gives
// the repaired value, else the value's lines replaced by the repaired line;
// offered only when all of them together parse back to the same values),
// and one that sets the name to the folder's when they differ and the
// folder's name meets the specification. ErrUnparsable when the file does
// not load.
func suggestFixes(src []byte, po *skill.Options) ([]suggestion, error) {
	before, diags := skill.Parse(src, po)
	if before == nil {
		return nil, ErrUnparsable
	}
	lines := splitLines(src)
	var out []suggestion
	for _, minimal := range []bool{true, false} {
		if len(before.Repairs) == 0 {
			break
		}
		var quotes []suggestion
		var all []skill.TextEdit
		for _, r := range before.Repairs {
			e, err := quoteEdits(src, lines, r, minimal)
			if err != nil {
				quotes = nil
				break
			}
			quotes = append(quotes, suggestion{line: r.Line, fix: skill.SuggestedFix{
				Message: "quote the value of " + r.Key, Edits: e}})
			all = append(all, e...)
		}
		if quotes == nil {
			continue
		}
		if got, ok := applyEdits(src, all); ok && verify(before, diags, got, po, "") {
			out = quotes
			break
		}
	}
	if e, line, folder := nameFix(src, lines, before, po); e != nil {
		out = append(out, suggestion{line: line, name: true, fix: skill.SuggestedFix{
			Message: fmt.Sprintf("set the name to %q, the folder's", folder), Edits: []skill.TextEdit{*e}}})
	}
	return out, nil
}

// applySuggestions applies the suggestions opts asks for (every quoting;
// the name with opts.Name, which replaces a quoting of the name's own
// line), parses the result and keeps it only when it gives the values of
// src with no repair left and no new finding (ErrUnsafe otherwise).
func applySuggestions(src []byte, po *skill.Options, sugg []suggestion, opts *FixOptions) ([]byte, []string, error) {
	if opts == nil {
		opts = &FixOptions{}
	}
	before, diags := skill.Parse(src, po)
	if before == nil {
		return nil, nil, ErrUnparsable
	}
	nameLine, folder := 0, ""
	for _, s := range sugg {
		if s.name && opts.Name {
			nameLine, folder = s.line, skill.DefaultName(po.Path, po.Flat)
		}
	}
	var edits []skill.TextEdit
	var notes []string
	for _, s := range sugg {
		if s.name && !opts.Name || !s.name && nameLine != 0 && s.line == nameLine {
			continue // not asked for, or the name fix rewrites that value whole
		}
		edits = append(edits, s.fix.Edits...)
		notes = append(notes, fmt.Sprintf("line %d: %s", s.line, pastTense(s.fix.Message)))
	}
	if len(edits) == 0 {
		if len(before.Repairs) > 0 {
			return nil, nil, ErrUnsafe
		}
		return src, nil, nil
	}
	out, ok := applyEdits(src, edits)
	if !ok || !verify(before, diags, out, po, folder) {
		return nil, nil, ErrUnsafe
	}
	slices.Sort(notes)
	return out, notes, nil
}

// pastTense turns a fix's message into what was done ("quote the value"
// becomes "quoted the value").
func pastTense(msg string) string {
	for verb, past := range map[string]string{"quote ": "quoted ", "set ": "set "} {
		if strings.HasPrefix(msg, verb) {
			return past + strings.TrimPrefix(msg, verb)
		}
	}
	return msg
}

// applyEdits applies non-overlapping edits to src; false when they
// overlap or fall outside it.
func applyEdits(src []byte, edits []skill.TextEdit) ([]byte, bool) {
	edits = slices.Clone(edits)
	slices.SortStableFunc(edits, func(a, b skill.TextEdit) int { return a.Pos - b.Pos })
	var b bytes.Buffer
	pos := 0
	for _, e := range edits {
		if e.Pos < pos || e.End < e.Pos || e.End > len(src) {
			return nil, false
		}
		b.Write(src[pos:e.Pos])
		b.WriteString(e.NewText)
		pos = e.End
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
func quoteEdits(src []byte, lines []span, r skill.Repair, minimal bool) ([]skill.TextEdit, error) {
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
		return []skill.TextEdit{{Pos: first.start, End: last.end, NewText: text}}, nil
	}
	edits := []skill.TextEdit{{Pos: pieces[0].start, End: pieces[0].start, NewText: `"`}}
	for _, p := range pieces {
		for i := p.start; i < p.end; i++ {
			if src[i] == '"' || src[i] == '\\' {
				edits = append(edits, skill.TextEdit{Pos: i, End: i, NewText: `\`})
			}
		}
	}
	end := pieces[len(pieces)-1].end
	edits = append(edits, skill.TextEdit{Pos: end, End: end, NewText: `"`})
	return edits, nil
}

// nameFix returns the edit that sets the name to the folder's, the line of
// the name and the folder name; the edit is nil when there is nothing to
// do or it cannot be done safely (a name over several lines, an anchor, a
// folder name that breaks the specification's rule).
func nameFix(src []byte, lines []span, s *skill.Skill, po *skill.Options) (*skill.TextEdit, int, string) {
	if po.Path == "" {
		return nil, 0, ""
	}
	folder := skill.DefaultName(po.Path, po.Flat)
	if !skill.ValidName(folder) || s.RawName == folder {
		return nil, 0, folder
	}
	field := nameField(s)
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
	end, quote := scalarEnd(line, v)
	if end < 0 || quote == 0 && plainContinues(src, lines, field.Line) {
		return nil, 0, folder
	}
	text := folder
	if quote != 0 {
		text = string(quote) + folder + string(quote)
	} else if !plainString(folder) {
		text = strconv.Quote(folder)
	}
	return &skill.TextEdit{Pos: l.start + v, End: l.start + end, NewText: text}, field.Line, folder
}

// nameField is the frontmatter's name field (nil when there is none).
func nameField(s *skill.Skill) *skill.Field {
	for i := range s.Frontmatter {
		if s.Frontmatter[i].Key == "name" {
			return &s.Frontmatter[i]
		}
	}
	return nil
}

// scalarEnd returns where the scalar that starts at byte v of line ends on
// that line: after the closing quote of a quoted one (quote is the quote
// character), or before the comment and trailing blanks of a plain one
// (quote 0). end is -1 for a quoted scalar not closed on the line, a block
// scalar, an anchor, alias or tag, a flow collection or a comment.
func scalarEnd(line []byte, v int) (end int, quote byte) {
	switch c := line[v]; c {
	case '"':
		for i := v + 1; i < len(line); i++ {
			if line[i] == '\\' {
				i++
				continue
			}
			if line[i] == '"' {
				return i + 1, '"'
			}
		}
		return -1, 0
	case '\'':
		for i := v + 1; i < len(line); i++ {
			if line[i] == '\'' {
				if i+1 < len(line) && line[i+1] == '\'' {
					i++
					continue
				}
				return i + 1, '\''
			}
		}
		return -1, 0
	case '|', '>', '&', '*', '!', '[', '{', '#':
		return -1, 0
	}
	end = len(line)
	if c := commentAt(line[v:]); c >= 0 {
		end = v + c
	}
	for end > v && (line[end-1] == ' ' || line[end-1] == '\t') {
		end--
	}
	return end, 0
}

// plainContinues reports whether the plain value on line number n (from
// 1) of src goes on over the next lines: the next line that is not blank
// is indented deeper and is no comment. Such a value is left alone.
func plainContinues(src []byte, lines []span, n int) bool {
	l := lines[n-1]
	line := src[l.start:l.end]
	ind := len(line) - len(bytes.TrimLeft(line, " \t"))
	for ; n < len(lines); n++ {
		next := src[lines[n].start:lines[n].end]
		t := bytes.TrimLeft(next, " \t")
		if len(bytes.TrimSpace(t)) == 0 {
			continue
		}
		return len(next)-len(t) > ind && t[0] != '#'
	}
	return false
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
// something to fix: the suggested fixes that Run attached to their
// diagnostics (parse-recovered: the value quoted; with opts.Name,
// name-mismatch, name-normalized and name-invalid: the name set to the
// folder's). It applies the edits to the bytes Run read, parses the result
// and keeps it only when it gives the same values with no repair left and
// no new finding; the files it cannot fix safely are returned as skips.
// Nothing is written: call [Change.Write] (which refuses a file that
// changed since Run read it), or show [Change.Diff]. The error is non-nil
// only when ctx is done.
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
		if f.readErr != nil {
			skips = append(skips, Skip{Path: f.Path, Err: f.readErr})
			continue
		}
		po := skill.Options{Path: f.Path, Flat: f.Flat, MaxDescriptionChars: r.Settings.MaxDescriptionChars}
		out, notes, err := applySuggestions(f.src, &po, f.suggestions, opts)
		if err != nil {
			skips = append(skips, Skip{Path: f.Path, Err: err})
			continue
		}
		if len(notes) > 0 {
			changes = append(changes, &Change{Path: f.Path, Target: f.target, Old: f.src, New: out, Fixes: notes, version: f.version})
		}
	}
	return changes, skips, nil
}

// fixable reports whether --fix (name with --fix=name) mends code.
func fixable(code skill.Code, name bool) bool {
	switch code.Info().Fixable {
	case "quote":
		return true
	case "name":
		return name
	}
	return false
}

func wantsFix(f *File, opts *FixOptions) bool {
	for _, s := range f.suggestions {
		if !s.name || opts.Name {
			return true
		}
	}
	return f.readErr != nil && slices.ContainsFunc(f.Diagnostics, func(d skill.Diagnostic) bool { return fixable(d.Code, opts.Name) })
}

// nameCode reports whether code is a finding about the name that
// --fix=name mends.
func nameCode(code skill.Code) bool {
	return code == diagcode.NameMismatch || code == diagcode.NameNormalized || code == diagcode.NameInvalid
}

// attachFixes reads the skill files that have a finding --fix can mend and
// attaches the suggested fixes to those findings (diags is sorted by path).
// The bytes read stay with the file, so [Fix] applies the edits to the
// very bytes their offsets refer to. The files are read and parsed on a
// goroutine a processor (each file's work touches only its own File and
// findings), after one pass over diags finds them.
func attachFixes(diags []skill.Diagnostic, files map[string]*File, maxDesc int) {
	// Whether a code may have a fix, looked up once per code (findings
	// of one code come in long runs: a report's broken references).
	var lastCode skill.Code
	lastMay, seen := false, false
	mayFix := func(code skill.Code) bool {
		if !seen || code != lastCode {
			lastCode, lastMay, seen = code, fixable(code, true) || code == diagcode.ParseError, true
		}
		return lastMay
	}
	type job struct {
		f     *File
		group []skill.Diagnostic
	}
	var jobs []job
	for i := 0; i < len(diags); {
		// parse-error too: in strict mode a value the lenient reader
		// repairs is an error, and --fix mends it the same way.
		p, may := diags[i].Path, false
		j := i
		for ; j < len(diags) && diags[j].Path == p; j++ {
			may = may || mayFix(diags[j].Code)
		}
		if f := files[p]; may && f != nil && f.Skill {
			jobs = append(jobs, job{f, diags[i:j]})
		}
		i = j
	}
	pool.Each(context.Background(), len(jobs), pool.CPU, func(i int) {
		attachFileFixes(jobs[i].f, jobs[i].group, maxDesc)
	})
}

// attachFileFixes reads f, one of attachFixes's files, and attaches its
// suggested fixes to group, its findings.
func attachFileFixes(f *File, group []skill.Diagnostic, maxDesc int) {
	target, err := filepath.EvalSymlinks(f.Path)
	if err == nil {
		f.target = target
		f.src, f.version, err = fsx.ReadRegular(target, maxFixBytes)
	}
	if err == nil {
		po := skill.Options{Path: f.Path, Flat: f.Flat, MaxDescriptionChars: maxDesc}
		f.suggestions, err = suggestFixes(f.src, &po)
	}
	if err != nil {
		if slices.ContainsFunc(group, func(d skill.Diagnostic) bool { return fixable(d.Code, true) }) {
			f.readErr = err
		}
		return
	}
	for _, s := range f.suggestions {
		k := -1
		for n := range group {
			d := &group[n]
			switch {
			case s.name && nameCode(d.Code):
			case !s.name && (d.Code == diagcode.ParseRecovered || d.Code == diagcode.ParseError) && (d.Line == s.line || k < 0 && len(d.Fixes) == 0):
			default:
				continue
			}
			if k < 0 || d.Line == s.line {
				k = n
			}
		}
		if k >= 0 {
			group[k].Fixes = append(group[k].Fixes, s.fix)
		}
	}
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
	name := filepath.ToSlash(fsx.Display(c.Path, base))
	return unifiedDiff("a/"+name, "b/"+name, c.Old, c.New)
}
