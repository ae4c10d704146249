package mcpserver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"unicode/utf8"
	"unsafe"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skillet-go/skillet/catalog"
	"github.com/skillet-go/skillet/internal/catalogx"
	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/internal/ignore"
	"github.com/skillet-go/skillet/internal/outfmt"
	"github.com/skillet-go/skillet/internal/pool"
	"github.com/skillet-go/skillet/mcpserver/skillsext"
	"github.com/skillet-go/skillet/skill"
)

// catx are catalog's hooks for the server (internal/catalogx), typed.
var catx = catalogx.Get[catalog.Catalog, catalog.Options, catalog.Listing, catalog.Skill, catalog.File]()

// skillFile is the path every skill's instructions are served under,
// whatever the file is called on disk (skill.md, or NAME.md for a
// flat-form skill): skill://NAME/SKILL.md (SEP-2640 (docs/mcp.md#skills-extension) Mapping).
const skillFile = "SKILL.md"

// A snapshot is everything the server answers from, built from one
// catalog listing and the bytes of every served file. It is never changed
// once built: a reload builds a new one and swaps it in, so the manifest
// digests always describe exactly the bytes resources/read returns.
type snapshot struct {
	// fresh is what its build read anew and charged to the server's
	// memory; held what it holds of it once served (memory.go).
	fresh, held int64
	// encodedBytes is how many bytes the fast path has kept encoded for
	// files of this snapshot (fastpath.go), bounded by maxEncodedBytes.
	encodedBytes atomic.Int64
	// fast is what the fast path keeps encoded (fastpath.go), made once.
	fastOnce sync.Once
	fast     *fastState

	listing *catalog.Listing
	skills  []*served // by name
	byName  map[string]*served
	files   map[string]*file // by URI
	// entries are the skills served through the extension, by URI.
	entries []*served
	// diags are the server's own diagnostics (the catalog's are in
	// listing.Diagnostics).
	diags []skill.Diagnostic
	// instructions are the catalog blocks sent as the server's
	// instructions, one per kind of session, and tool the load tool (nil
	// with ToolNever).
	instructions [numInstructionKinds]string
	tool         *mcp.Tool
	// toolListing is the listing of the served skills, which the load
	// tool's calls work on.
	toolListing *catalog.Listing
	// blockDiag is the diagnostic of the default kind's instructions
	// (past their budget), also in diags; nil when there is none.
	blockDiag *skill.Diagnostic
	// bytes is what the served files hold, counted as they are sent.
	bytes int64
	// tooLarge holds the skills not served because their SKILL.md is over
	// a limit, with the reason.
	tooLarge map[string]string
	// edits, for a snapshot patched from the one served before it
	// (buildEdited), are the skills it read again; the reload that built
	// it clears them once applied.
	edits []edit
}

// served is one served skill.
type served struct {
	name string
	cat  *catalog.Skill
	// listedIn is the last layers pass that put the skill in a tool
	// listing; only reloads (one at a time) touch it.
	listedIn uint64
	parsed   *skill.Skill // parsed from the served SKILL.md bytes, body included
	uri      string       // skill://NAME/SKILL.md
	files    []*file      // by path
	byRel    map[string]*file
	// dirs maps each folder ("" for the skill root) to its direct
	// children, sorted by URI.
	dirs map[string][]*mcp.Resource
	// entry is the skill's skills/list entry; nil when it is excluded,
	// and then excluded says why.
	entry    *skillsext.SkillEntry
	excluded string
	prompt   *mcp.Prompt
	// kept says the skill file no longer loads and this is the last good
	// version, carried over from the previous snapshot.
	kept bool
	// pdiags are the diagnostics of parsing the served SKILL.md, diags
	// the server's about the skill, incomplete why not every file is
	// served ("" when all are); kept for the next reload to reuse.
	pdiags     []skill.Diagnostic
	diags      []skill.Diagnostic
	incomplete string
	// fp identifies the skill's served content, to tell whether a reload
	// changed anything.
	fp string
	// tooLarge holds the files (by path) not served for their size or the
	// server's memory budget, with the reason: they are answered as too
	// large, not as missing.
	tooLarge map[string]string
}

// file is one served file of a skill, with its bytes.
type file struct {
	rel    string // relative to the skill folder, "/" separators
	uri    string
	text   string // the content when it is text (valid, non-empty UTF-8)
	blob   []byte // the content otherwise
	size   int64
	digest string // "sha256:" + 64 lowercase hex digits
	mime   string
	// info is the file's stat when it was read, for reuse by the next
	// snapshot; nil when the file changed while it was read.
	info     fs.FileInfo
	resource *mcp.Resource
	// encoded is the file's resources/read contents element as JSON, in
	// the envelope of an answer, made by the fast path on first use
	// (fastpath.go).
	encoded atomic.Pointer[keptContents]
	// counted is the last uniqueBytes pass that counted the file; only
	// reloads (one at a time) touch it.
	counted uint64
}

// isText reports whether the file goes out as text rather than blob.
func (f *file) isText() bool { return f.blob == nil }

// newFile makes the file of data, which it keeps: the caller must not
// write data afterwards.
func newFile(skillName, rel string, data []byte, info fs.FileInfo) *file {
	sum := sha256.Sum256(data)
	f := &file{
		rel:    rel,
		uri:    skillURI(skillName, rel),
		size:   int64(len(data)),
		digest: "sha256:" + hex.EncodeToString(sum[:]),
		info:   info,
	}
	// Go's JSON encoder turns invalid UTF-8 into U+FFFD, so only valid
	// UTF-8 can go out as text and keep its digest; an empty file goes out
	// as an empty blob, since MCP text contents cannot be empty.
	//
	// JSON escapes "<", ">" and "&" as six bytes each (the SDK's encoder
	// cannot be told otherwise), so a text made mostly of them (16 MiB of
	// "<" would be 96 MiB of JSON) goes out as a blob, base64 being 4/3 of
	// its size: an answer is never much larger than its file.
	text := len(data) > 0 && utf8.Valid(data) && jsonTextCost(data) <= 2*int64(len(data))
	if text {
		// data is the file's own buffer, written by no one after (the
		// one caller, readOnce, made it for this file): the text shares
		// it rather than hold a second copy while a reload reads
		// (docs/serving.md#memory).
		f.text = unsafe.String(unsafe.SliceData(data), len(data))
	} else {
		f.blob = data
		if f.blob == nil {
			f.blob = []byte{}
		}
	}
	f.mime = mimeType(rel, text)
	if rel == skillFile {
		f.mime = mIMEMarkdown
	}
	return f
}

// bytes returns the file's content.
func (f *file) bytes() []byte {
	if f.isText() {
		return []byte(f.text)
	}
	return f.blob
}

// build makes a new snapshot from a fresh catalog listing, reusing the
// bytes of files unchanged since prev (nil for the first build). With a
// hint, a skill the hint does not touch is prev's as it is.
func (s *Server) build(ctx context.Context, prev *snapshot, hint *reloadHint) (*snapshot, error) {
	var l *catalog.Listing
	var err error
	edited := false
	if hint != nil && hint.edits {
		// Only files written: the catalog patches its last listing.
		l, edited, err = catx.ListEdited(ctx, s.cat, hint.paths)
	}
	switch {
	case err != nil:
	case edited:
		next, ok, err := s.buildEdited(ctx, prev, l, hint)
		if err != nil || ok {
			if ok {
				s.patches++
			}
			return next, err
		}
	case hint != nil:
		l, err = catx.ListTouched(ctx, s.cat, hint.touched) // stats only what may have changed
	default:
		l, err = s.cat.List(ctx)
	}
	if err != nil {
		return nil, err
	}
	// Sized as the last snapshot's, so they are not grown entry by entry.
	var nfiles int
	if prev != nil {
		nfiles = len(prev.files)
	}
	next := &snapshot{listing: l, byName: make(map[string]*served, len(l.Skills)), files: make(map[string]*file, nfiles), tooLarge: map[string]string{}}
	// What the files of this snapshot may hold together, and what the
	// server's one memory budget can hold beside the snapshot served now
	// (memory.go); what a build that fails read anew is given back.
	budget := &readBudget{mem: &s.mem}
	budget.left.Store(s.opts.MaxServedBytes)
	built := false
	defer func() {
		if !built {
			s.mem.give(budget.fresh.Load())
			s.mem.dropped(budget.fresh.Load())
		}
	}()

	results, err := s.readSkills(ctx, l, prev, hint, budget)
	if err != nil {
		return nil, err
	}
	next.addRead(l, prev, results)
	if prev != nil {
		next.keepUnloadable(prev, l.Diagnostics)
	}
	next.sort()
	if err := s.layers(ctx, next, prev); err != nil {
		return nil, err
	}
	next.fresh, built = budget.fresh.Load(), true
	return next, nil
}

// skillRead is what reading one listed skill for a snapshot gave: the
// served skill and its diagnostics, or the error that kept it from being
// read.
type skillRead struct {
	sv    *served
	diags []skill.Diagnostic
	err   error
}

// readSkills reads every skill of l for the next snapshot, on the disk
// pool, one result per skill in l's order: a skill the hint does not touch
// is prev's as it is (if the budget still holds it), any other is read
// anew, reusing prev's bytes of unchanged files. The error is the
// context's, running out of file descriptors (the build is retried), or
// the budget's being exceeded; a skill that could not be read otherwise
// has its error in its result.
func (s *Server) readSkills(ctx context.Context, l *catalog.Listing, prev *snapshot, hint *reloadHint, budget *readBudget) ([]skillRead, error) {
	results := make([]skillRead, len(l.Skills))
	err := pool.Each(ctx, len(l.Skills), pool.Disk, func(i int) {
		cs := l.Skills[i]
		var old *served
		if prev != nil {
			old = prev.byName[cs.Name]
		}
		if hint.keeps(old, cs) && old.reserve(budget) {
			results[i] = skillRead{old, old.diags, nil}
			return
		}
		sv, diags, err := s.snapSkill(ctx, cs, old, budget)
		results[i] = skillRead{sv, diags, err}
	})
	if err != nil {
		return nil, err
	}
	for _, r := range results {
		if outOfFiles(r.err) {
			return nil, r.err
		}
	}
	if err := budget.over.Load(); err != nil {
		return nil, *err
	}
	return results, nil
}

// addRead adds each skill read for the snapshot with its diagnostics. A
// skill that was listed but could not be read back or parsed changed
// under the listing: prev's version of it is kept if there is one (the
// change that caused this brings another reload), and otherwise it is not
// served, with a diagnostic saying why.
func (sn *snapshot) addRead(l *catalog.Listing, prev *snapshot, results []skillRead) {
	for i, r := range results {
		cs := l.Skills[i]
		sn.diags = append(sn.diags, r.diags...)
		sv := r.sv
		if r.err != nil {
			if errors.Is(r.err, catalog.ErrTooLarge) {
				sn.tooLarge[cs.Name] = r.err.Error()
			}
			old := prevSkill(prev, cs.Name)
			if old == nil {
				sn.diags = append(sn.diags, diag(codeFileNotServed, cs.Location, cs.Name,
					"the skill is not served: %v", r.err))
				continue
			}
			sn.diags = append(sn.diags, diag(codeReloadKept, cs.Location, cs.Name,
				"the skill file changed and no longer loads (%v); the last good version is still served", r.err))
			sv = keep(old)
		}
		sn.add(sv)
	}
}

// keepUnloadable keeps serving, as it was, each skill of prev that the
// listing dropped because its file, which still exists, no longer loads (a
// half-written edit: parse-error, invalid-encoding...; diags are the
// listing's), until it loads again.
func (sn *snapshot) keepUnloadable(prev *snapshot, diags []skill.Diagnostic) {
	// Any diagnostic about the file counts: a SKILL.md that became a
	// FIFO or a device is skipped with a warning.
	failed := map[string]string{}
	for _, d := range diags {
		if _, seen := failed[d.Path]; !seen || d.Severity == skill.SeverityError {
			failed[d.Path] = d.Message
		}
	}
	for _, old := range prev.skills {
		if _, ok := sn.byName[old.name]; ok {
			continue
		}
		why, ok := failed[old.cat.Location]
		if !ok {
			continue
		}
		if _, err := os.Lstat(old.cat.Location); err != nil {
			continue
		}
		sn.diags = append(sn.diags, diag(codeReloadKept, old.cat.Location, old.name,
			"the skill file changed and no longer loads (%s); the last good version is still served", why))
		sn.add(keep(old))
	}
}

// sort orders the snapshot's skills by name and gathers those with an
// extension entry, ordered by URI.
func (sn *snapshot) sort() {
	slices.SortFunc(sn.skills, func(a, b *served) int { return strings.Compare(a.name, b.name) })
	for _, sv := range sn.skills {
		if sv.entry != nil {
			sn.entries = append(sn.entries, sv)
		}
	}
	slices.SortFunc(sn.entries, func(a, b *served) int { return strings.Compare(a.uri, b.uri) })
}

func prevSkill(prev *snapshot, name string) *served {
	if prev == nil {
		return nil
	}
	return prev.byName[name]
}

// keep returns a copy of old marked as carried over.
func keep(old *served) *served {
	c := *old
	c.kept = true
	return &c
}

func (sn *snapshot) add(sv *served) {
	sn.skills = append(sn.skills, sv)
	sn.byName[sv.name] = sv
	for _, f := range sv.files {
		sn.files[f.uri] = f
		sn.bytes += f.size
	}
}

// snapSkill reads every file of one skill. The error is non-nil when the
// skill file itself cannot be read or no longer parses to the same skill;
// the diagnostics report files left out and why the skill is not served
// through the extension.
func (s *Server) snapSkill(ctx context.Context, cs *catalog.Skill, old *served, budget *readBudget) (*served, []skill.Diagnostic, error) {
	sv := &served{name: cs.Name, cat: cs, uri: skillURI(cs.Name, skillFile), byRel: map[string]*file{}}
	sf, allReused, err := s.snapSkillFile(sv, cs, old, budget)
	if err != nil {
		return nil, nil, err
	}
	sv.files = append(sv.files, sf)
	var diags []skill.Diagnostic
	incomplete := ""
	if !cs.Flat {
		b := bundle{sv: sv, cs: cs, old: old, budget: budget, allReused: allReused}
		if err := s.snapBundled(ctx, &b); err != nil {
			return nil, nil, err
		}
		diags, incomplete, allReused = b.diags, b.incomplete, b.allReused
	}
	slices.SortFunc(sv.files, func(a, b *file) int { return strings.Compare(a.rel, b.rel) })
	if allReused && incomplete == "" && old.incomplete == "" && old.cat.Location == cs.Location &&
		old.cat.Listed == cs.Listed && slices.EqualFunc(old.files, sv.files, func(a, b *file) bool { return a.rel == b.rel }) {
		// Nothing this skill serves changed: keep everything built from it.
		c := *old
		c.cat, c.kept = cs, false
		c.tooLarge = sv.tooLarge
		return &c, old.diags, nil
	}
	for _, f := range sv.files {
		sv.byRel[f.rel] = f
	}
	s.describe(sv)
	sv.indexDirs()
	diags = append(diags, s.extensionEntry(sv, sv.pdiags, incomplete)...)
	sv.prompt = newPrompt(sv)
	sv.fp = sv.fingerprint()
	sv.incomplete, sv.diags = incomplete, diags
	return sv, diags, nil
}

// snapSkillFile reads the skill file of cs into sv with its parse (parsed,
// pdiags): old's when the file is unchanged since the last snapshot, else
// parseServed's (the listing's when it read this version), and reports
// whether the file was reused. The file is opened through the catalog,
// which checks that the file actually opened is inside the root's boundary
// (docs/discovery.md#boundaries), so a symlink swapped in since discovery
// is refused.
func (s *Server) snapSkillFile(sv *served, cs *catalog.Skill, old *served, budget *readBudget) (*file, bool, error) {
	if sourced, built := catx.Sourced(cs); sourced {
		return s.snapSourcedFile(sv, cs, built, budget)
	}
	sf, reused, err := s.readFile(cs.Name, skillFile, old, budget,
		func() (fs.FileInfo, error) { return os.Stat(cs.Location) },
		func() (*os.File, error) { return catx.OpenSkillFile(cs) })
	if err != nil {
		return nil, false, err
	}
	var parsed *skill.Skill
	var pdiags []skill.Diagnostic
	if reused && old.cat.Location == cs.Location {
		parsed, pdiags = old.parsed, old.pdiags
	} else {
		parsed, pdiags = s.parseServed(sf, cs)
	}
	if err := s.checkParsed(sv, cs, parsed, pdiags); err != nil {
		return nil, false, err
	}
	return sf, reused, nil
}

// parseServed gives the parse of the served SKILL.md of cs: the one the
// listing made of these very bytes when the file is the version it read
// (catx.ParsedFile), else a parse of them as the catalog parses.
func (s *Server) parseServed(sf *file, cs *catalog.Skill) (*skill.Skill, []skill.Diagnostic) {
	if p, diags, ok := catx.ParsedFile(s.cat, cs, sf.info, sf.bytes()); ok {
		return p, diags
	}
	return skill.Parse(sf.bytes(), &skill.Options{
		Path: cs.Location, Flat: cs.Flat, Mode: s.cat.Settings().Mode,
		MaxDescriptionChars: s.cat.Settings().MaxDescriptionChars,
	})
}

// checkParsed sets the parse of the served SKILL.md of cs in sv, or
// says why it cannot be served: it no longer parses, or names another
// skill than the catalog listed.
func (s *Server) checkParsed(sv *served, cs *catalog.Skill, parsed *skill.Skill, pdiags []skill.Diagnostic) error {
	if parsed == nil {
		for _, d := range pdiags {
			if d.Severity == skill.SeverityError {
				return fmt.Errorf("%s [%s]", d.Message, d.Code)
			}
		}
		return errors.New("it does not parse")
	}
	if parsed.Name != cs.OwnName() {
		return fmt.Errorf("its name changed to %q while it was read", parsed.Name)
	}
	sv.parsed, sv.pdiags = parsed, pdiags
	return nil
}

// snapSourcedFile is snapSkillFile for a skill of a catalog.Source: an
// fs.FS (embed.FS) or skills the program built (built), which are not on
// the local file system. An FS skill's SKILL.md is read through the
// catalog; a built skill's is written from what the program gave
// (builtSkillFile). Neither is reused: such a source does not change
// under the server (docs/discovery.md#sources).
func (s *Server) snapSourcedFile(sv *served, cs *catalog.Skill, built bool, budget *readBudget) (*file, bool, error) {
	var sf *file
	var err error
	if built {
		data := builtSkillFile(cs.Parsed())
		if err = budget.reserve(int64(len(data)), true, s.opts.MaxServedBytes); err == nil {
			sf = newFile(cs.Name, skillFile, data, nil)
		}
	} else {
		sf, err = s.readSourced(cs, skillFile, budget)
	}
	if err != nil {
		return nil, false, err
	}
	parsed, pdiags := s.parseServed(sf, cs)
	if err := s.checkParsed(sv, cs, parsed, pdiags); err != nil {
		return nil, false, err
	}
	return sf, false, nil
}

// builtSkillFile is the SKILL.md served for a skill the program built
// (catalog.Source.Skills): a frontmatter of its name, description and
// when-to-use (each a JSON string, which YAML reads as a double-quoted
// scalar), a blank line and its body, so that hosts reading it through
// resources/read or skills/list see a skill file like any other
// (docs/mcp.md#skills-extension). p is nil for a skill a catalog did not
// build, which gets an empty file.
func builtSkillFile(p *skill.Skill) []byte {
	if p == nil {
		return []byte{}
	}
	var b strings.Builder
	line := func(key, v string) {
		q, _ := json.Marshal(v) // a string always marshals
		fmt.Fprintf(&b, "%s: %s\n", key, q)
	}
	b.WriteString("---\n")
	line("name", p.Name)
	line("description", p.Description)
	if p.WhenToUse != "" {
		line("when-to-use", p.WhenToUse)
	}
	b.WriteString("---\n\n")
	b.WriteString(p.Body)
	return []byte(b.String())
}

// readSourced reads the file rel of cs, a skill of a catalog.Source,
// through the catalog, which confines it to the skill folder
// (fs.ValidPath) and withholds dotfiles, at most MaxFileBytes, within the
// memory budget (docs/serving.md#memory).
func (s *Server) readSourced(cs *catalog.Skill, rel string, budget *readBudget) (*file, error) {
	data, err := cs.ReadFile(rel, s.opts.MaxFileBytes)
	if err != nil {
		return nil, err
	}
	if err := budget.reserve(int64(len(data)), true, s.opts.MaxServedBytes); err != nil {
		return nil, err
	}
	return newFile(cs.Name, rel, data, nil), nil
}

// bundle is what snapBundled reads a skill's bundled files into.
type bundle struct {
	sv         *served
	cs         *catalog.Skill
	old        *served
	budget     *readBudget
	diags      []skill.Diagnostic
	incomplete string // why not every file is served, "" when all are
	allReused  bool   // every file was reused from old
}

// snapBundled reads the bundled files of a directory-form skill into
// b.sv, through os.Root at the skill folder so that no path and no
// symlink can lead out of it; a file that cannot be served is a
// diagnostic, not an error.
func (s *Server) snapBundled(ctx context.Context, b *bundle) error {
	cs := b.cs
	fl, err := catx.ListFiles(ctx, cs, s.opts.MaxFiles)
	if err != nil {
		return fmt.Errorf("listing the skill folder: %w", err)
	}
	b.diags = append(b.diags, fl.Diagnostics...)
	if fl.Withheld > 0 {
		b.diags = append(b.diags, skill.Diagnostic{
			Code: codeFilesWithheld, Severity: skill.SeverityWarning, Path: cs.BaseDir, Skill: cs.Name,
			Message: fmt.Sprintf("%s of the skill folder withheld (dotfiles, dot-folders and %s matches are never served)",
				outfmt.CountOf(fl.Withheld, "entry", "entries"), ignore.FileName),
		})
	}
	if fl.More {
		b.incomplete = fmt.Sprintf("it has more than %d files", s.opts.MaxFiles)
		b.diags = append(b.diags, diag(codeFileNotServed, cs.BaseDir, cs.Name,
			"the skill folder has more than %d files; only the first %d are served", s.opts.MaxFiles, s.opts.MaxFiles))
	}
	if sourced, _ := catx.Sourced(cs); sourced {
		return s.snapSourcedBundled(ctx, b, fl.Files)
	}
	root, err := catx.OpenRoot(cs) // checked to be inside the boundary
	if err != nil {
		return fmt.Errorf("opening the skill folder: %w", err)
	}
	defer root.Close()
	skillBase := filepath.Base(cs.Location)
	for _, cf := range fl.Files {
		if cf.Path == skillBase || cf.Path == skillFile {
			continue // served as SKILL.md
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.snapBundledFile(b, root, cf.Path); err != nil {
			return err
		}
	}
	return nil
}

// snapSourcedBundled is snapBundled's reading for a skill of a
// catalog.Source: each listed file is read through the catalog
// (readSourced); a file that cannot be served is a diagnostic.
func (s *Server) snapSourcedBundled(ctx context.Context, b *bundle, files []catalog.File) error {
	cs := b.cs
	b.allReused = false
	for _, cf := range files {
		if cf.Path == skillFile {
			continue // served as SKILL.md
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		f, err := s.readSourced(cs, cf.Path, b.budget)
		if err != nil {
			if errors.Is(err, catalog.ErrTooLarge) {
				if b.sv.tooLarge == nil {
					b.sv.tooLarge = map[string]string{}
				}
				b.sv.tooLarge[cf.Path] = err.Error()
			}
			b.incomplete = "not every file of the skill folder can be served"
			b.diags = append(b.diags, diag(codeFileNotServed, cs.BaseDir+"/"+cf.Path, cs.Name, "the file is not served: %v", err))
			continue
		}
		b.sv.files = append(b.sv.files, f)
	}
	return nil
}

// snapBundledFile reads the bundled file at rel into b.sv, or records why
// it is not served.
func (s *Server) snapBundledFile(b *bundle, root *os.Root, rel string) error {
	cs := b.cs
	if strings.ContainsAny(rel, "\\\x00") {
		// A skill:// URI cannot name it (parseURI refuses "\"), so it
		// cannot be in a manifest a host can read back.
		b.incomplete = "a file name holds a backslash"
		b.diags = append(b.diags, diag(codeFileNotServed, filepath.Join(cs.BaseDir, filepath.FromSlash(rel)), cs.Name,
			"the file is not served: its name holds a backslash, which a skill:// URI cannot carry"))
		return nil
	}
	native := filepath.FromSlash(rel)
	f, reused, err := s.readFile(cs.Name, rel, b.old, b.budget,
		func() (fs.FileInfo, error) { return root.Stat(native) },
		func() (*os.File, error) { return root.OpenFile(native, os.O_RDONLY|syscall.O_NONBLOCK, 0) })
	b.allReused = b.allReused && reused
	if outOfFiles(err) {
		return fmt.Errorf("%w: reading %s: %v", errNoFiles, rel, err)
	}
	if err != nil {
		if errors.Is(err, catalog.ErrTooLarge) {
			if b.sv.tooLarge == nil {
				b.sv.tooLarge = map[string]string{}
			}
			b.sv.tooLarge[rel] = err.Error()
		}
		b.incomplete = "not every file of the skill folder can be served"
		b.diags = append(b.diags, diag(codeFileNotServed, filepath.Join(cs.BaseDir, filepath.FromSlash(rel)), cs.Name,
			"the file is not served: %v", err))
		return nil
	}
	b.sv.files = append(b.sv.files, f)
	return nil
}

// readFile reads one file of a skill, or reuses the previous snapshot's
// copy (reused true) when the file is the same one with the same size and
// modification time, which costs one stat.
func (s *Server) readFile(name, rel string, old *served, budget *readBudget, stat func() (fs.FileInfo, error), open func() (*os.File, error)) (_ *file, reused bool, _ error) {
	reserve := func(n int64) error { return budget.reserve(n, true, s.opts.MaxServedBytes) }
	if old != nil {
		if of := old.byRel[rel]; of != nil && of.info != nil {
			if fi, err := stat(); err == nil && sameFile(of.info, fi) {
				if err := budget.reserve(of.size, false, s.opts.MaxServedBytes); err != nil {
					return nil, false, err
				}
				return of, true, nil
			}
		}
	}
	// A file that changes while it is read is read again, a few times,
	// then refused: a torn read is never served.
	var err error
	for range maxReadTries {
		var f *file
		var torn bool
		f, torn, err = s.readOnce(name, rel, open, reserve)
		if err != nil || !torn {
			return f, false, err
		}
		err = fmt.Errorf("it kept changing while it was read (%d tries)", maxReadTries)
	}
	return nil, false, err
}

// afterStat, when set (by tests), runs between a file's stat and its read;
// openFault, when set, can fail an open.
var (
	afterStat func(*os.File)
	openFault func(rel string) error
)

// errNoFiles wraps an error of the system running out of file
// descriptors: the whole reload is retried rather than files dropped.
var errNoFiles = errors.New("too many open files")

func outOfFiles(err error) bool {
	return errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) || errors.Is(err, errNoFiles)
}

// maxReadTries is how often a file that changes while it is read is read.
const maxReadTries = 3

// readOnce reads a file once. torn reports that it changed meanwhile (its
// size or modification time moved, or it was replaced), in which case the
// bytes are dropped.
func (s *Server) readOnce(name, rel string, open func() (*os.File, error), reserve func(int64) error) (_ *file, torn bool, _ error) {
	if openFault != nil {
		if err := openFault(rel); err != nil {
			return nil, false, err
		}
	}
	f, err := open()
	if err != nil {
		return nil, false, fileErr(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	if !fi.Mode().IsRegular() {
		return nil, false, &fsx.ReadError{Err: catalog.ErrNotFile, Mode: fi.Mode()}
	}
	if fi.Size() > s.opts.MaxFileBytes {
		return nil, false, fmt.Errorf("%w: %d bytes, over the %d-byte limit of a served file", catalog.ErrTooLarge, fi.Size(), s.opts.MaxFileBytes)
	}
	if afterStat != nil {
		afterStat(f)
	}
	if err := reserve(fi.Size()); err != nil {
		return nil, false, err
	}
	// Exactly the size stat gave: a file that is longer or shorter now is
	// changing, and is read again.
	data := make([]byte, fi.Size())
	n, err := io.ReadFull(f, data)
	var extra [1]byte
	if err == nil {
		if m, _ := f.Read(extra[:]); m > 0 {
			err = io.ErrUnexpectedEOF // it grew
		}
	}
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		reserve(-fi.Size())
		return nil, true, nil
	}
	if err != nil {
		reserve(-fi.Size())
		return nil, false, err
	}
	data = data[:n]
	keep := func(int) { reserve(-fi.Size()) } // drop the reservation with the bytes
	fi2, err := f.Stat()
	if err != nil || !sameFile(fi, fi2) || int64(len(data)) != fi.Size() {
		keep(0)
		return nil, true, nil
	}
	return newFile(name, rel, data, fi), false, nil
}

func sameFile(a, b fs.FileInfo) bool {
	return a != nil && b != nil && os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime()) &&
		changeTime(a) == changeTime(b)
}

// fileErr turns an os.Root error into a short reason.
func fileErr(err error) error {
	switch {
	case fsx.Escapes(err):
		return fmt.Errorf("%w (a symlink that leads out of the skill folder)", catalog.ErrOutside)
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w (it disappeared)", catalog.ErrFileNotFound)
	case errors.Is(err, syscall.ELOOP):
		return fmt.Errorf("%w (a symlink loop)", catalog.ErrOutside)
	}
	return err
}

// describe sets the resource metadata of every file: SKILL.md carries the
// skill's name and description (SEP-2640 (docs/mcp.md#skills-extension) Metadata).
func (s *Server) describe(sv *served) {
	for _, f := range sv.files {
		r := &mcp.Resource{URI: f.uri, MIMEType: f.mime, Size: f.size, Name: sv.name + "/" + f.rel}
		if f.rel == skillFile {
			r.Name = sv.name
			r.Description = sv.parsed.Description
		}
		f.resource = r
	}
}

// indexDirs builds the folder tree of the skill's files for
// resources/directory/read. Children are named by their last segment, as
// a directory listing names them.
func (sv *served) indexDirs() {
	children := map[string]map[string]*mcp.Resource{"": {}}
	for _, f := range sv.files {
		dir := ""
		parts := strings.Split(f.rel, "/")
		for i := range len(parts) - 1 {
			sub := path.Join(dir, parts[i])
			if children[sub] == nil {
				children[sub] = map[string]*mcp.Resource{}
			}
			uri := skillURI(sv.name, sub)
			children[dir][uri] = &mcp.Resource{URI: uri, Name: parts[i], MIMEType: mIMEDirectory}
			dir = sub
		}
		children[dir][f.uri] = &mcp.Resource{URI: f.uri, Name: parts[len(parts)-1], MIMEType: f.mime, Size: f.size}
	}
	sv.dirs = make(map[string][]*mcp.Resource, len(children))
	for dir, m := range children {
		list := make([]*mcp.Resource, 0, len(m))
		for _, r := range m {
			list = append(list, r)
		}
		slices.SortFunc(list, func(a, b *mcp.Resource) int { return strings.Compare(a.URI, b.URI) })
		sv.dirs[dir] = list
	}
}

// extensionEntry decides whether the skill can be served conformantly
// through the extension and builds its entry. A host parses the SKILL.md
// it reads with its own YAML parser and compares the result with the
// entry's frontmatter, and checks the name against the URI and the
// specification (SEP-2640 (docs/mcp.md#skills-extension) Mapping), so only
// frontmatter that parsed as plain YAML and a name that meets the rule
// qualify (docs/mcp.md).
func (s *Server) extensionEntry(sv *served, pdiags []skill.Diagnostic, incomplete string) []skill.Diagnostic {
	p := sv.parsed
	why := ""
	fmName, _ := p.Frontmatter.Get("name")
	fmDesc, _ := p.Frontmatter.Get("description")
	desc, _ := fmDesc.(string)
	switch {
	case !p.HasFrontmatter:
		why = "the file has no frontmatter"
	case p.Recovered:
		line := 0
		if len(p.Repairs) > 0 {
			line = p.Repairs[0].Line
		}
		why = fmt.Sprintf("its frontmatter is not plain YAML: it only parsed after a repair (line %d), so a host's parser would reject it", line)
	case !skill.ValidName(sv.cat.OwnName()):
		why = fmt.Sprintf("the name %q does not meet the specification's rule (1-64 of a-z, 0-9 and single hyphens)", sv.cat.OwnName())
	case fmName != sv.cat.OwnName():
		why = fmt.Sprintf("the frontmatter name %v is not the served name %q", fmtValue(fmName), sv.cat.OwnName())
	case strings.TrimSpace(desc) == "":
		why = "the frontmatter has no description"
	case utf8.RuneCountInString(desc) > skillsext.MaxDescriptionChars:
		// A host compares the entry's frontmatter with the file it reads,
		// so the description cannot be cut in the entry: the skill is left
		// out instead.
		why = fmt.Sprintf("its description is %d characters, over the specification's %d (https://agentskills.io/specification#description-field), which hosts check",
			utf8.RuneCountInString(desc), skillsext.MaxDescriptionChars)
	case hasCode(pdiags, diagcode.DuplicateField):
		why = "a frontmatter key appears twice, which YAML parsers reject"
	case incomplete != "":
		why = incomplete + ", so its manifest would be incomplete"
	}
	var diags []skill.Diagnostic
	if why != "" {
		sv.excluded = why
		return append(diags, diag(codeExtensionExcluded, sv.cat.Location, sv.name,
			"not in skills/list: %s; it is still served as resources, in the instructions, by the tool and as a prompt", why))
	}
	fm, err := p.Frontmatter.MarshalJSON()
	if err != nil {
		sv.excluded = "its frontmatter cannot be written as JSON"
		return append(diags, diag(codeExtensionExcluded, sv.cat.Location, sv.name, "not in skills/list: %s: %v", sv.excluded, err))
	}
	e := &skillsext.SkillEntry{URI: sv.uri, Frontmatter: fm}
	var total int64
	for _, f := range sv.files {
		e.Resources.Files = append(e.Resources.Files, skillsext.SkillResource{URI: f.uri, Digest: f.digest, Size: f.size})
		total += f.size
	}
	if err := e.Seal(); err != nil {
		sv.excluded = "its entry cannot be written as JSON"
		return append(diags, diag(codeExtensionExcluded, sv.cat.Location, sv.name, "not in skills/list: %s: %v", sv.excluded, err))
	}
	sv.entry = e
	if n := len(sv.files); n > skillsext.MaxSkillFiles {
		diags = append(diags, diag(codeExtensionLimit, sv.cat.BaseDir, sv.name,
			"the skill has %d files, over the %d hosts must accept (SEP-2640 limits); some hosts may refuse it", n, skillsext.MaxSkillFiles))
	}
	if total > skillsext.MaxSkillBytes {
		diags = append(diags, diag(codeExtensionLimit, sv.cat.BaseDir, sv.name,
			"the skill's files add up to %d bytes, over the %d (16 MiB) hosts must accept (SEP-2640 limits); some hosts may refuse it", total, skillsext.MaxSkillBytes))
	}
	return diags
}

func fmtValue(v any) string {
	if v == nil {
		return "(absent)"
	}
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%v", v)
}

func hasCode(diags []skill.Diagnostic, code skill.Code) bool {
	return slices.ContainsFunc(diags, func(d skill.Diagnostic) bool { return d.Code == code })
}

// fingerprint identifies what the skill serves: files and their digests,
// metadata, entry and prompt.
func (sv *served) fingerprint() string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%t\x00%t\x00%s\x00", sv.name, sv.parsed.Description, sv.parsed.WhenToUse,
		sv.parsed.Hidden(), sv.cat.Listed, sv.excluded)
	if sv.entry != nil {
		h.Write(sv.entry.Frontmatter)
	}
	for _, f := range sv.files {
		fmt.Fprintf(h, "\x00%s\x00%s\x00%s", f.uri, f.digest, f.mime)
	}
	if sv.prompt != nil {
		fmt.Fprintf(h, "\x00%s\x00%s", sv.prompt.Description, sv.prompt.Title)
		for _, a := range sv.prompt.Arguments {
			fmt.Fprintf(h, "\x00%s\x00%s", a.Name, a.Description)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// jsonTextCost is how many bytes data takes as a JSON string (quotes
// aside), as encoding/json writes it: "<", ">", "&", U+2028, U+2029 and
// most control characters as \uXXXX, quote, backslash, newline, return and
// tab as two bytes.
func jsonTextCost(data []byte) int64 {
	var n int64
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case c == '<' || c == '>' || c == '&':
			n += 6
		case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t':
			n += 2
		case c < 0x20:
			n += 6
		case c == 0xe2 && i+2 < len(data) && data[i+1] == 0x80 && (data[i+2] == 0xa8 || data[i+2] == 0xa9):
			n += 6
			i += 2
		default:
			n++
		}
	}
	return n
}

// resolve takes a skill name and path as parseURI gives them and returns
// the skill they name: skill://PLUGIN/NAME/PATH is the plugin's skill
// PLUGIN:NAME and PATH when the snapshot serves (or refuses as too large)
// a skill of that name, which takes precedence over a folder NAME of a
// skill named PLUGIN (docs/mcp.md#plugin-skills); otherwise name and rel
// are returned unchanged.
func (sn *snapshot) resolve(name, rel string) (string, string) {
	seg, rest, _ := strings.Cut(rel, "/")
	if seg == "" {
		return name, rel
	}
	full := name + ":" + seg
	if _, ok := sn.byName[full]; ok {
		return full, rest
	}
	if _, ok := sn.tooLarge[full]; ok {
		return full, rest
	}
	return name, rel
}
