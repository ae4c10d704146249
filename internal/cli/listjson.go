package cli

import (
	"bufio"
	"encoding/json"
	"io"
	"slices"
	"strconv"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/jsonw"
	"github.com/skillet-go/skillet/skill"
)

// listWriter writes the object of list --json as a listing is handed out
// skill by skill (catalog.Catalog.Each): the workspace and the roots with
// the first skill, the diagnostics at the end.
type listWriter struct {
	bw     *bufio.Writer
	j      jw
	skills int
	begun  bool
}

func newListWriter(w io.Writer) *listWriter {
	return &listWriter{bw: bufio.NewWriterSize(w, 64<<10)}
}

// begin writes everything before the first skill.
func (lw *listWriter) begin(l *catalog.Listing) {
	lw.begun = true
	j := &lw.j
	j.B = append(j.B, "{\n  \"workspace\": "...)
	j.Str(slash(l.Workspace))
	j.B = append(j.B, ",\n  \"roots\": "...)
	j.Array(len(l.Roots), 1, func(i int) {
		r := &l.Roots[i]
		j.B = append(j.B, '{')
		j.Key(0, 3, "path")
		j.Str(slash(r.Path))
		j.Key(1, 3, "scope")
		j.Str(string(r.Scope))
		j.Key(1, 3, "exists")
		j.B = strconv.AppendBool(j.B, r.Exists)
		j.End(2, '}')
	})
	j.B = append(j.B, ",\n  \"skills\": "...)
}

// flush writes the buffer out once it holds 32 KB.
func (lw *listWriter) flush() error {
	if len(lw.j.B) < 32<<10 {
		return nil
	}
	_, err := lw.bw.Write(lw.j.B)
	lw.j.B = lw.j.B[:0]
	return err
}

// skill writes the next skill of listing l.
func (lw *listWriter) skill(l *catalog.Listing, s *catalog.Skill) error {
	if !lw.begun {
		lw.begin(l)
	}
	j := &lw.j
	if lw.skills == 0 {
		j.B = append(j.B, '[')
	}
	j.Elem(lw.skills, 2)
	lw.skills++
	j.skill(s)
	return lw.flush()
}

// finish writes the end of the skills and the diagnostics of l.
func (lw *listWriter) finish(l *catalog.Listing) error {
	if !lw.begun {
		lw.begin(l)
	}
	j := &lw.j
	if lw.skills == 0 {
		j.B = append(j.B, "[]"...)
	} else {
		j.End(1, ']')
	}
	j.B = append(j.B, ",\n  \"diagnostics\": "...)
	var err error
	j.Array(len(l.Diagnostics), 1, func(i int) {
		d := &l.Diagnostics[i]
		j.B = append(j.B, '{')
		j.Key(0, 3, "code")
		j.Str(string(d.Code))
		j.Key(1, 3, "severity")
		j.Str(string(d.Severity))
		j.Key(1, 3, "path")
		j.Str(slash(d.Path))
		j.Key(1, 3, "line")
		j.Int(d.Line)
		j.Key(1, 3, "column")
		j.Int(d.Column)
		j.Key(1, 3, "message")
		j.Str(d.Message)
		j.Key(1, 3, "skill")
		j.Str(d.Skill)
		if d.Related != "" {
			j.Key(1, 3, "related")
			j.Str(slash(d.Related))
		}
		j.End(2, '}')
		if err == nil {
			err = lw.flush()
		}
	})
	if err != nil {
		return err
	}
	j.B = append(j.B, "\n}\n"...)
	if _, err := lw.bw.Write(j.B); err != nil {
		return err
	}
	return lw.bw.Flush()
}

// jw appends the indented JSON of list --json (jsonw.Writer) and holds
// the scratch of sorted map keys.
type jw struct {
	jsonw.Writer
	keys []string // scratch for sorted map keys
}

// skillDepth is the depth of a skill's members in list --json (the skill
// objects sit in the skills array of the document's object), and the key*
// variables the bytes jsonw.Writer.Key appends for each member there: a
// listing writes them for every skill, so they are built once.
const skillDepth = 3

var (
	keyName          = "{" + jsonw.KeyText(0, skillDepth, "name") // with the skill's opening brace
	keyDescription   = jsonw.KeyText(1, skillDepth, "description")
	keyWhenToUse     = jsonw.KeyText(1, skillDepth, "whenToUse")
	keyLocation      = jsonw.KeyText(1, skillDepth, "location")
	keyBaseDir       = jsonw.KeyText(1, skillDepth, "baseDir")
	keyScope         = jsonw.KeyText(1, skillDepth, "scope")
	keyFolder        = jsonw.KeyText(1, skillDepth, "folder")
	keyHidden        = jsonw.KeyText(1, skillDepth, "hidden")
	keyBytes         = jsonw.KeyText(1, skillDepth, "bytes")
	keyTruncated     = jsonw.KeyText(1, skillDepth, "truncated")
	keyLicense       = jsonw.KeyText(1, skillDepth, "license")
	keyCompatibility = jsonw.KeyText(1, skillDepth, "compatibility")
	keyMetadata      = jsonw.KeyText(1, skillDepth, "metadata")
	keyAllowedTools  = jsonw.KeyText(1, skillDepth, "allowedTools")
	keyExtra         = jsonw.KeyText(1, skillDepth, "extra")
)

func (j *jw) skill(s *catalog.Skill) {
	const d = skillDepth
	j.B = append(j.B, keyName...)
	j.Str(s.Name)
	j.B = append(j.B, keyDescription...)
	j.Str(s.Description)
	j.B = append(j.B, keyWhenToUse...)
	j.Str(s.WhenToUse)
	j.B = append(j.B, keyLocation...)
	j.Str(slash(s.Location))
	j.B = append(j.B, keyBaseDir...)
	j.Str(slash(s.BaseDir))
	j.B = append(j.B, keyScope...)
	j.Str(string(s.Scope))
	j.B = append(j.B, keyFolder...)
	j.Str(slash(s.Folder))
	j.B = append(j.B, keyHidden...)
	j.B = strconv.AppendBool(j.B, s.Hidden())
	j.B = append(j.B, keyBytes...)
	j.B = strconv.AppendInt(j.B, s.Bytes, 10)
	j.B = append(j.B, keyTruncated...)
	j.B = strconv.AppendBool(j.B, s.Truncated)
	j.B = append(j.B, keyLicense...)
	j.Str(s.Parsed().License)
	j.B = append(j.B, keyCompatibility...)
	j.Str(s.Parsed().Compatibility)
	j.B = append(j.B, keyMetadata...)
	j.stringMap(s.Parsed().Metadata, d)
	j.B = append(j.B, keyAllowedTools...)
	j.strings(s.Parsed().AllowedTools, d)
	j.B = append(j.B, keyExtra...)
	j.value(s.Parsed().Extra, d)
	j.End(d-1, '}')
}

// stringMap writes m with its keys sorted, as encoding/json does.
func (j *jw) stringMap(m map[string]string, depth int) {
	if len(m) == 0 {
		j.B = append(j.B, "{}"...)
		return
	}
	j.keys = j.keys[:0]
	for k := range m {
		j.keys = append(j.keys, k)
	}
	slices.Sort(j.keys)
	j.B = append(j.B, '{')
	for i, k := range j.keys {
		j.Key(i, depth+1, k)
		j.Str(m[k])
	}
	j.End(depth, '}')
}

func (j *jw) strings(list []string, depth int) {
	j.Array(len(list), depth, func(i int) { j.Str(list[i]) })
}

// value writes a frontmatter value: string, bool, int64, float64, nil,
// []any or skill.Map (skill.Map's documented shapes); anything else goes
// through encoding/json. Strings are HTML-escaped, as skill.Map's
// MarshalJSON (json.Marshal) writes them.
func (j *jw) value(v any, depth int) {
	switch v := v.(type) {
	case nil:
		j.B = append(j.B, "null"...)
	case string:
		j.StrHTML(v)
	case bool:
		j.B = strconv.AppendBool(j.B, v)
	case int64:
		j.B = strconv.AppendInt(j.B, v, 10)
	case skill.Map:
		if len(v) == 0 {
			j.B = append(j.B, "{}"...)
			return
		}
		j.B = append(j.B, '{')
		for i := range v {
			j.Elem(i, depth+1)
			j.StrHTML(v[i].Key)
			j.B = append(j.B, ':', ' ')
			j.value(v[i].Value, depth+1)
		}
		j.End(depth, '}')
	case []any:
		j.Array(len(v), depth, func(i int) { j.value(v[i], depth+1) })
	default:
		// float64 and anything unforeseen: rare, so encoding/json's
		// exact formatting is worth its cost here.
		prefix := make([]byte, 0, 2*depth)
		for range depth {
			prefix = append(prefix, ' ', ' ')
		}
		enc, err := json.MarshalIndent(v, string(prefix), "  ")
		if err != nil {
			enc = []byte("null")
		}
		j.B = append(j.B, enc...)
	}
}
