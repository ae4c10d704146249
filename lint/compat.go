package lint

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/internal/profile"
	"github.com/skillet-go/skillet/internal/skillsref"
	"github.com/skillet-go/skillet/internal/spec"
	"github.com/skillet-go/skillet/skill"
)

// HostRule names one rule a host applies to skill files.
type HostRule string

// The rules of [Hosts]. Each is checked against the file as written (the
// frontmatter's own keys and values, not skillet's repaired or inferred
// ones).
const (
	// ruleFrontmatter: the file must open with --- frontmatter.
	ruleFrontmatter HostRule = "frontmatter"
	// ruleNameField and ruleDescriptionField: the key must be present and
	// not empty.
	ruleNameField        HostRule = "name-field"
	ruleDescriptionField HostRule = "description-field"
	// ruleSpecName: 1-64 characters of a-z, 0-9 and "-", no leading,
	// trailing or double hyphen (spec: name).
	ruleSpecName HostRule = "spec-name"
	// ruleNameMatchesFolder: the name equals the folder name.
	ruleNameMatchesFolder HostRule = "name-matches-folder"
	// ruleDescriptionLength: at most 1024 characters (spec: description).
	ruleDescriptionLength HostRule = "description-length"
	// ruleCompatibilityLength: at most 500 characters.
	ruleCompatibilityLength HostRule = "compatibility-length"
	// ruleMetadataStrings: metadata maps strings to strings.
	ruleMetadataStrings HostRule = "metadata-strings"
	// ruleFields: only the host's Fields are accepted.
	ruleFields HostRule = "fields"
	// ruleReservedWords: the name must not contain "anthropic" or "claude".
	ruleReservedWords HostRule = "reserved-words"
	// ruleNoAngleBrackets: the description must not contain "<" or ">".
	ruleNoAngleBrackets HostRule = "no-angle-brackets"
	// ruleNoXMLTags: name and description must not contain XML tags.
	ruleNoXMLTags HostRule = "no-xml-tags"
	// ruleSkillFileName: the file must be named exactly SKILL.md, in a
	// skill folder.
	ruleSkillFileName HostRule = "skill-file-name"
	// ruleReferenceValidator: the reference validator (skills-ref
	// validate) must accept the folder; its messages are the breaks.
	ruleReferenceValidator HostRule = "skills-ref"
)

// ruleDocs say what each rule of [Hosts] requires, in one sentence.
var ruleDocs = map[HostRule]string{
	ruleFrontmatter:         "The file must open with a --- frontmatter block that parses as YAML.",
	ruleNameField:           "The frontmatter must have a name, not empty.",
	ruleDescriptionField:    "The frontmatter must have a description, not empty.",
	ruleSpecName:            `The name must be 1 to 64 characters of a-z, 0-9 and "-", with no hyphen at the start or end and no two in a row (https://agentskills.io/specification#name-field).`,
	ruleNameMatchesFolder:   "The name must equal the name of the skill's folder.",
	ruleDescriptionLength:   "The description must have at most 1024 characters (https://agentskills.io/specification#description-field).",
	ruleCompatibilityLength: "The compatibility field must have at most 500 characters.",
	ruleMetadataStrings:     "The metadata field must map strings to strings.",
	ruleFields:              "The frontmatter may hold only the fields the checker accepts; any other key is refused.",
	ruleReservedWords:       `The name must not contain the reserved words "anthropic" or "claude".`,
	ruleNoAngleBrackets:     `The description must not contain "<" or ">".`,
	ruleNoXMLTags:           "The name and the description must not contain XML tags.",
	ruleSkillFileName:       "The file must be named exactly SKILL.md, inside a skill folder.",
	ruleReferenceValidator:  "The reference validator (skills-ref validate) must accept the skill folder; each of its messages is reported.",
}

// Doc says in one sentence what the rule requires, or "" for a name that
// is not one of the rules of [Hosts].
func (r HostRule) Doc() string { return ruleDocs[r] }

// specFields are the six fields of the specification.
var specFields = []string{"allowed-tools", "compatibility", "description", "license", "metadata", "name"}

// Host is a checker with rules of its own for skill files. Hosts is a
// table: adding a checker is adding a row.
type Host struct {
	// Name is the short id shown in reports.
	Name string
	// Title says who the host is.
	Title string
	// Source is where its rules are documented.
	Source string
	// Rules are the rules it applies.
	Rules []HostRule
	// Fields, for ruleFields, are the only frontmatter fields it accepts.
	Fields []string
}

// Hosts are the checkers whose rules the compatibility report applies
// besides the host profiles: the specification, its reference validator and
// the skill packagers and upload checks of the Agent Skills specification
// (https://agentskills.io/specification). Which files an agent loads is not
// here: that comes from catalog's host profiles (docs/hosts.md), the one
// source of those rules.
var Hosts = []Host{
	{Name: "spec", Title: "the Agent Skills specification (agentskills.io)", Source: "https://agentskills.io/specification",
		Rules: []HostRule{ruleFrontmatter, ruleNameField, ruleDescriptionField, ruleSpecName, ruleNameMatchesFolder,
			ruleDescriptionLength, ruleCompatibilityLength, ruleMetadataStrings}},
	{Name: "skills-ref", Title: "the specification's reference validator (skills-ref validate)", Source: "https://agentskills.io/specification (skills-ref)",
		Rules: []HostRule{ruleReferenceValidator}},
	{Name: "anthropic", Title: "Anthropic's skill packager (quick_validate.py, package_skill.py)", Source: "docs/hosts.md",
		Rules: []HostRule{ruleSkillFileName, ruleFrontmatter, ruleFields, ruleSpecName, ruleDescriptionLength,
			ruleNoAngleBrackets, ruleCompatibilityLength}, Fields: specFields},
	{Name: "claude-api", Title: "the Claude API and claude.ai skill upload", Source: "docs/hosts.md",
		Rules: []HostRule{ruleFrontmatter, ruleFields, ruleDescriptionField, ruleSpecName, ruleReservedWords,
			ruleNoXMLTags, ruleDescriptionLength}, Fields: specFields},
	{Name: "openai", Title: "OpenAI's skill validator (openai/skills quick_validate.py)", Source: "docs/hosts.md",
		Rules:  []HostRule{ruleFrontmatter, ruleFields, ruleSpecName, ruleDescriptionLength},
		Fields: []string{"allowed-tools", "description", "license", "metadata", "name"}},
}

// Compat is the compatibility report of one skill file: what every host
// profile (docs/hosts.md) does with it, and which rules of which
// [Hosts] it breaks.
type Compat struct {
	Path string `json:"path"`
	Name string `json:"name"`
	// Hosts holds one verdict per host profile, in profile order.
	Hosts []HostCompat `json:"hosts"`
	// Breaks are the checker rules the file breaks, in [Hosts] order.
	Breaks []Break `json:"breaks"`
}

// Verdicts of [HostCompat].
const (
	verdictLoads        = "loads"
	verdictLoadsChanged = "loads-changed"
	verdictNotLoaded    = "not-loaded"
)

// HostCompat is what one host does with a skill file where it is, as
// `skillet list --preset HOST` run in the same working folder decides: a
// file in a folder the host does not read is not loaded.
type HostCompat struct {
	Host string `json:"host"`
	// Verdict is loads, loads-changed or not-loaded.
	Verdict string `json:"verdict"`
	// Name and Description are what the host shows, when it loads it.
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	// Changes say how, for loads-changed; Reason why, for not-loaded.
	Changes []string `json:"changes,omitempty"`
	Reason  string   `json:"reason,omitempty"`
	// Remedy says what to do, for a file in a folder the host does not
	// read from this working folder: move or link it into one it reads
	// (and what would still keep it from loading there), or start the
	// host elsewhere.
	Remedy string `json:"remedy,omitempty"`
}

// Break is one checker rule a skill file breaks.
type Break struct {
	Host    string   `json:"host"`
	Rule    HostRule `json:"rule"`
	Message string   `json:"message"`
}

// hostView is what one host profile does with the skill files of the
// workspace: its `skillet list --preset` listing from the same working
// folder (catx.HostFilesAll), by file.
type hostView struct {
	p     *profile.Profile
	list  *catalogx.HostListing
	files map[string]*catalogx.HostFile // by catalogx.FileKey
	keys  fileKeys
}

// fileKeys remembers catalogx.FileKey of each path, which resolves the
// symlinks of every folder on the path (a lstat a path element): --compat
// asks for the key of each file once per host profile and once more per
// verdict, the same answer each time within a run. The folders are
// resolved once each too, by fsx.RealPaths (a lstat a folder, from its
// parent's real path), where each file's key lstat'ed every element of
// its path (the corpus folders' files have six to nine): 5% of what lint
// --compat adds to lint's CPU (pprof of BenchmarkCompat/compat diffed
// against plain). TestFileKeysAreFileKey holds it to catalogx.FileKey. A
// folder the host searches listed as a folder, not a symlink (listed:
// catalogx.HostReads.Folder), is not lstat'ed again. Not safe for
// concurrent use.
type fileKeys struct {
	files map[string]string
	dirs  *fsx.RealPaths
}

// newFileKeys returns the keys of a run; listed (nil: none) says which
// folders the host searches found to be folders, not symlinks.
func newFileKeys(listed func(string) bool) fileKeys {
	return fileKeys{files: map[string]string{}, dirs: &fsx.RealPaths{Mode: func(c string) (fs.FileMode, error) {
		if listed != nil && listed(c) {
			return fs.ModeDir, nil
		}
		fi, err := keyLstat(c)
		if err != nil {
			return 0, err
		}
		return fi.Mode(), nil
	}}}
}

// keyLstat is os.Lstat for fileKeys; tests count the calls.
var keyLstat = os.Lstat

func (k fileKeys) of(p string) string {
	key, ok := k.files[p]
	if !ok {
		dir, base := filepath.Split(p)
		// Split leaves the separator on: "/a/b/" resolves as "/a/b"
		// does, and only a clean path is resolved from its parent. A
		// root ("/", `C:\`) keeps its separator: "C:" is the current
		// folder of drive C.
		d := dir
		if len(d) > len(filepath.VolumeName(d))+1 && os.IsPathSeparator(d[len(d)-1]) {
			d = d[:len(d)-1]
		}
		if r, err := k.dirs.Eval(d); err == nil {
			dir = r
		}
		key = filepath.Join(dir, base)
		k.files[p] = key
	}
	return key
}

// hostViews lists the workspace of copts as each profile of ps does, the
// folders and files they share read once (catalogx.HostFilesAll), the
// files lint's listing read handed over by sr (sharedReads.listings);
// their file keys come from keys.
func hostViews(ctx context.Context, copts *catalog.Options, ps []*profile.Profile, keys fileKeys, sr *sharedReads) ([]*hostView, error) {
	hls, err := sr.listings(ctx, ps, copts)
	if err != nil {
		return nil, err
	}
	out := make([]*hostView, 0, len(ps))
	for i, p := range ps {
		hl := hls[i]
		hv := &hostView{p: p, list: hl, files: make(map[string]*catalogx.HostFile, len(hl.Files)), keys: keys}
		for i := range hl.Files {
			if k := keys.of(hl.Files[i].Path); hv.files[k] == nil {
				hv.files[k] = &hl.Files[i]
			}
		}
		out = append(out, hv)
	}
	return out, nil
}

// hostProfiles are every host profile but skillet's own, in profile
// order: the hosts of --compat.
func hostProfiles() []*profile.Profile {
	var out []*profile.Profile
	for _, p := range profile.All() {
		if !p.Native {
			out = append(out, p)
		}
	}
	return out
}

// verdict is what the host does with the skill file cf (at cf.path, found
// under cf.root, its key cf.key): its listing's verdict, or, when the file is under none of the
// folders the host reads from this working folder, not-loaded saying why
// and what to do.
func (hv *hostView) verdict(cf *compatFile) HostCompat {
	h := HostCompat{Host: hv.p.Name}
	f := hv.files[cf.key]
	if f == nil {
		h.Verdict = verdictNotLoaded
		h.Reason, h.Remedy = hv.list.Where(cf.path, cf.root)
		return h
	}
	v := f.Verdict
	switch {
	case !v.Loaded:
		h.Verdict, h.Reason = verdictNotLoaded, v.Reason
	case len(v.Changes) > 0:
		h.Verdict, h.Name, h.Description, h.Changes = verdictLoadsChanged, v.Name, v.Description, v.Changes
	default:
		h.Verdict, h.Name, h.Description = verdictLoads, v.Name, v.Description
	}
	if v.Loaded && v.Hidden {
		// Clipped: v.Changes is the host's verdict's own slice, and an
		// append into its spare room would write into the verdict.
		h.Changes = append(slices.Clip(h.Changes), "disable-model-invocation keeps it from the model")
		h.Verdict = verdictLoadsChanged
	}
	return h
}

// compatFile is one skill file the compatibility report and --target
// judge: every file skillet's listing read (ignored ones excepted) and
// every file under a folder some host reads, each once.
type compatFile struct {
	path, root string
	key        string // catalogx.FileKey of path (fileKeys.of), found once for every host's verdict
	flat       bool
	cd         *candidate // skillet's, or nil for a file only a host's folders hold
}

// compatFiles are the files of the report in scope: skillet's candidates,
// then each host's files not among them (by catalogx.FileKey), so that a
// file in .codex/skills or .qwen/skills gets a verdict whatever --preset is.
func compatFiles(cands []*candidate, views []*hostView, scope []string, keys fileKeys) []compatFile {
	var out []compatFile
	seen := map[string]bool{}
	for _, cd := range cands {
		if cd.Ignored || (scope != nil && !inScope(cd.Path, scope)) {
			continue
		}
		if k := keys.of(cd.Path); !seen[k] {
			seen[k] = true
			out = append(out, compatFile{path: cd.Path, root: cd.Root, key: k, flat: cd.Flat, cd: cd})
		}
	}
	for _, hv := range views {
		for _, f := range hv.list.Files {
			if scope != nil && !inScope(f.Path, scope) {
				continue
			}
			if k := keys.of(f.Path); !seen[k] {
				seen[k] = true
				out = append(out, compatFile{path: f.Path, root: f.Root, key: k, flat: !strings.EqualFold(filepath.Base(f.Path), catalog.SkillFile)})
			}
		}
	}
	return out
}

// compatReport builds the compatibility report of files, judged by every
// host view; the reference validator's findings come from sr
// (sharedReads.validator).
func compatReport(files []compatFile, views []*hostView, maxBytes int, sr *sharedReads) []*Compat {
	out := make([]*Compat, 0, len(files))
	for _, cf := range files {
		c := &Compat{Path: cf.path, Hosts: make([]HostCompat, 0, len(views)), Breaks: []Break{}}
		for _, hv := range views {
			c.Hosts = append(c.Hosts, hv.verdict(&cf))
		}
		out = append(out, c)
		s := parsedFor(cf, maxBytes)
		if s == nil {
			// skillet does not load it; the hosts may.
			for _, h := range c.Hosts {
				if h.Name != "" {
					c.Name = h.Name
					break
				}
			}
			continue
		}
		c.Name = s.Name
		in := newCompatInput(cf, s)
		in.sr = sr
		for _, h := range Hosts {
			for _, rule := range h.Rules {
				for _, msg := range in.check(rule, &h) {
					c.Breaks = append(c.Breaks, Break{Host: h.Name, Rule: rule, Message: msg})
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b *Compat) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// parsedFor is the file as skillet parses it: the listing's skill, or for
// a file only a host reads, the file read (its first maxBytes) and parsed
// now; nil when it does not parse.
func parsedFor(cf compatFile, maxBytes int) *skill.Skill {
	if cf.cd != nil {
		if cf.cd.Skill == nil {
			return nil
		}
		return cf.cd.Skill.Parsed()
	}
	f, err := fsx.Open(cf.path)
	if err != nil {
		return nil
	}
	defer f.Close()
	data, fi, err := fsx.ReadHead(f, "", int64(maxBytes))
	if err != nil {
		return nil
	}
	s, _ := skill.Parse(data, &skill.Options{Path: cf.path, Flat: cf.flat, SkipBody: true, Truncated: fi.Size() > int64(maxBytes)})
	return s
}

// compatInput is what the host rules look at: the file as written.
type compatInput struct {
	cf          compatFile
	s           *skill.Skill
	sr          *sharedReads // the validator's findings from lint's listing's reads, or nil
	folder      string
	name        string // the frontmatter's name, as written
	hasName     bool
	description string // the frontmatter's description, as written
	hasDesc     bool
}

func newCompatInput(cf compatFile, s *skill.Skill) *compatInput {
	in := &compatInput{cf: cf, s: s}
	in.folder = skill.DefaultName(cf.path, cf.flat)
	if v, ok := in.s.Frontmatter.Get("name"); ok {
		in.name, in.hasName = fmt.Sprint(scalarText(v)), true
	}
	if v, ok := in.s.Frontmatter.Get("description"); ok {
		in.description, in.hasDesc = strings.TrimSpace(fmt.Sprint(scalarText(v))), true
	}
	return in
}

func scalarText(v any) any {
	if v == nil {
		return ""
	}
	return v
}

// xmlTag matches something that reads as an XML or HTML tag.
var xmlTag = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<\s*/?\s*[A-Za-z][A-Za-z0-9_:.-]*(\s[^<>]*)?/?\s*>`) })

// check returns the messages of the ways the file breaks rule (none when
// it keeps it).
func (in *compatInput) check(rule HostRule, h *Host) []string {
	s := in.s
	name := in.name
	if !in.hasName {
		name = in.folder
	}
	switch rule {
	case ruleFrontmatter:
		if !s.HasFrontmatter {
			return []string{"the file has no frontmatter"}
		}
	case ruleNameField:
		if !in.hasName || strings.TrimSpace(in.name) == "" {
			return []string{"the frontmatter has no name"}
		}
	case ruleDescriptionField:
		if !in.hasDesc || in.description == "" {
			return []string{"the frontmatter has no description"}
		}
	case ruleSpecName:
		if !skill.ValidName(name) {
			return []string{fmt.Sprintf("the name %q breaks the rule: 1-64 characters of a-z, 0-9 and -, no leading, trailing or double hyphen", name)}
		}
	case ruleNameMatchesFolder:
		if in.hasName && name != in.folder {
			return []string{fmt.Sprintf("the name %q differs from the folder name %q", name, in.folder)}
		}
	case ruleDescriptionLength:
		// A description of at most 1024 bytes is at most 1024 characters:
		// not counted (four of the hosts ask).
		if len(in.description) <= spec.MaxDescriptionChars {
			break
		}
		if n := utf8.RuneCountInString(in.description); n > spec.MaxDescriptionChars {
			return []string{fmt.Sprintf("the description is %d characters, over 1024", n)}
		}
	case ruleCompatibilityLength:
		if n := utf8.RuneCountInString(s.Compatibility); n > spec.MaxCompatibilityChars {
			return []string{fmt.Sprintf("compatibility is %d characters, over 500", n)}
		}
	case ruleMetadataStrings:
		if v, ok := s.Frontmatter.Get("metadata"); ok && !stringMap(v) {
			return []string{"metadata is not a map of strings"}
		}
	case ruleFields:
		return in.rejectedFields(h)
	case ruleReservedWords:
		lower := strings.ToLower(name)
		for _, w := range []string{"anthropic", "claude"} {
			if strings.Contains(lower, w) {
				return []string{fmt.Sprintf("the name %q contains the reserved word %q", name, w)}
			}
		}
	case ruleNoAngleBrackets:
		if strings.ContainsAny(in.description, "<>") {
			return []string{"the description contains < or >"}
		}
	case ruleNoXMLTags:
		return in.xmlTags(name)
	case ruleSkillFileName:
		return in.fileNameProblems()
	case ruleReferenceValidator:
		return in.validatorFindings()
	}
	return nil
}

// rejectedFields is ruleFields: the frontmatter's fields host h does not
// accept.
func (in *compatInput) rejectedFields(h *Host) []string {
	var extra []string
	for _, k := range in.s.Frontmatter.Keys() {
		if !slices.Contains(h.Fields, k) {
			extra = append(extra, k)
		}
	}
	if len(extra) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("fields it rejects: %s (it accepts only %s)", strings.Join(extra, ", "), strings.Join(h.Fields, ", "))}
}

// xmlTags is ruleNoXMLTags: an XML tag in the name (as the host reads it)
// or the description.
func (in *compatInput) xmlTags(name string) []string {
	var out []string
	if xmlTag().MatchString(name) {
		out = append(out, "the name contains an XML tag")
	}
	if xmlTag().MatchString(in.description) {
		out = append(out, "the description contains an XML tag")
	}
	return out
}

// fileNameProblems is ruleSkillFileName: a file that is not a SKILL.md in
// a skill folder.
func (in *compatInput) fileNameProblems() []string {
	if in.cf.flat {
		return []string{"a flat-form file is not a skill folder with a SKILL.md"}
	}
	if b := filepath.Base(in.cf.path); b != catalog.SkillFile {
		return []string{fmt.Sprintf("the file is named %s; only %s is found", b, catalog.SkillFile)}
	}
	return nil
}

// validatorFindings is ruleReferenceValidator: what the reference
// validator says of the skill's folder, each message in brief with its
// line.
func (in *compatInput) validatorFindings() []string {
	if in.cf.flat {
		return []string{"a flat-form file is not a skill folder"}
	}
	var out []string
	for _, v := range in.sr.validator(in.cf.path) {
		msg := skillsref.Brief(v.Message)
		if v.Line > 0 && msg != v.Message {
			msg += fmt.Sprintf(" (line %d)", v.Line)
		}
		out = append(out, msg)
	}
	return out
}

func stringMap(v any) bool {
	m, ok := v.(skill.Map)
	if !ok {
		return false
	}
	for _, f := range m {
		if _, ok := f.Value.(string); !ok {
			return false
		}
	}
	return true
}
