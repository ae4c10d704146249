package hostws

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/skillet-go/skillet/internal/outfmt"
)

// Recording is what one real agent listed on one workspace
// (hosts/testdata/recordings/HOST/NAME.json).
type Recording struct {
	Host          string   `json:"host"`
	Version       string   `json:"version"`
	Command       []string `json:"command"`
	Workspace     string   `json:"workspace"`
	Runs          int      `json:"runs"`
	Deterministic bool     `json:"deterministic"`
	// Observed has one element when every run agreed, else one per
	// distinct set seen, in the order first seen.
	Observed []Observation `json:"observed"`
	// Builtin names the skills the host ships itself (not from the
	// workspace); they are left out of Observed.
	Builtin []string `json:"builtin,omitempty"`
	Notes   string   `json:"notes,omitempty"`
	// Generator and Seed, when set, say the workspace is Generate's
	// output for that seed under that GenVersion (it is not stored).
	Generator int    `json:"generator,omitempty"`
	Seed      uint64 `json:"seed,omitempty"`
	// Digests says each observed description is stored as its Digest,
	// not as text (large generated catalogs); Match then compares digests.
	Digests bool `json:"digests,omitempty"`
}

// Digest is how a recording with Digests keeps a description: "sha256:"
// and the first 16 hex digits of its SHA-256, then ":" and its length in
// characters (runes).
func Digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return fmt.Sprintf("sha256:%x:%d", sum[:8], utf8.RuneCountInString(s))
}

// DigestDescriptions replaces every observed description by its Digest
// and sets Digests; it does nothing when Digests is already set.
func (r *Recording) DigestDescriptions() {
	if r.Digests {
		return
	}
	for _, o := range r.Observed {
		for i := range o.Skills {
			o.Skills[i].Description = Digest(o.Skills[i].Description)
		}
	}
	r.Digests = true
}

// Observation is the list of skills one run showed, in the host's own
// order, one entry per copy the host lists.
type Observation struct {
	Skills []Skill `json:"skills"`
}

// Skill is one listed skill. Description is exactly what the model is
// shown ("" when none); Path is sandbox-relative (home/... for HOME), ""
// when the host does not reveal it.
type Skill struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Path        string `json:"path"`
}

// Encode returns r as indented JSON with a final newline, the form the
// goldens are written in.
func (r *Recording) Encode() ([]byte, error) {
	var buf bytes.Buffer
	if err := outfmt.JSON(&buf, r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ReadRecording reads one recording file and checks it is consistent.
func ReadRecording(file string) (*Recording, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var r Recording
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrFormat, file, err)
	}
	if len(r.Observed) == 0 {
		return nil, fmt.Errorf("%w: %s: no observation", ErrFormat, file)
	}
	if r.Deterministic != (len(r.Observed) == 1) {
		return nil, fmt.Errorf("%w: %s: deterministic is %v but %d distinct observations", ErrFormat, file, r.Deterministic, len(r.Observed))
	}
	return &r, nil
}

// LoadRecordings reads every HOST/NAME.json below dir, sorted by host then
// workspace. The folder must match the host field and the file name the
// workspace field.
func LoadRecordings(dir string) ([]*Recording, error) {
	matches, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(matches)
	var out []*Recording
	for _, m := range matches {
		r, err := ReadRecording(m)
		if err != nil {
			return nil, err
		}
		host := filepath.Base(filepath.Dir(m))
		ws := strings.TrimSuffix(filepath.Base(m), ".json")
		if r.Host != host || r.Workspace != ws {
			return nil, fmt.Errorf("%w: %s: records host %q workspace %q", ErrFormat, m, r.Host, r.Workspace)
		}
		out = append(out, r)
	}
	return out, nil
}

// CompareOptions tune Match.
type CompareOptions struct {
	// Paths also compares paths, for observations whose every entry has
	// one (a host that reveals paths).
	Paths bool
}

// Match reports whether got equals one of the observed sets as a multiset
// of name and description (and path, see CompareOptions); order is not
// compared. When it does not, diff describes how got differs from the
// closest observed set ("" when it matches).
func (r *Recording) Match(got []Skill, opt *CompareOptions) (ok bool, diff string) {
	if opt == nil {
		opt = &CompareOptions{}
	}
	if r.Digests {
		got = slices.Clone(got)
		for i := range got {
			got[i].Description = Digest(got[i].Description)
		}
	}
	best := ""
	bestN := -1
	for i, o := range r.Observed {
		paths := opt.Paths && allPaths(o.Skills)
		missing, extra := multisetDiff(o.Skills, got, paths)
		if len(missing)+len(extra) == 0 {
			return true, ""
		}
		if n := len(missing) + len(extra); bestN < 0 || n < bestN {
			bestN = n
			var b strings.Builder
			if len(r.Observed) > 1 {
				fmt.Fprintf(&b, "closest observation %d of %d:\n", i+1, len(r.Observed))
			}
			for _, s := range missing {
				fmt.Fprintf(&b, "  missing (host lists it): %s\n", s)
			}
			for _, s := range extra {
				fmt.Fprintf(&b, "  extra (host does not list it): %s\n", s)
			}
			best = b.String()
		}
	}
	return false, best
}

func allPaths(s []Skill) bool {
	for _, k := range s {
		if k.Path == "" {
			return false
		}
	}
	return true
}

func key(s Skill, paths bool) string {
	k := fmt.Sprintf("%q %q", s.Name, s.Description)
	if paths {
		k += " at " + s.Path
	}
	return k
}

// multisetDiff returns the keys of want not in got and of got not in want,
// counting copies, sorted.
func multisetDiff(want, got []Skill, paths bool) (missing, extra []string) {
	count := map[string]int{}
	for _, s := range want {
		count[key(s, paths)]++
	}
	for _, s := range got {
		count[key(s, paths)]--
	}
	for k, n := range count {
		for ; n > 0; n-- {
			missing = append(missing, k)
		}
		for ; n < 0; n++ {
			extra = append(extra, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	return missing, extra
}

// Equal reports whether a and b list the same skills in the same order.
func (o Observation) Equal(b Observation) bool {
	if len(o.Skills) != len(b.Skills) {
		return false
	}
	for i := range o.Skills {
		if o.Skills[i] != b.Skills[i] {
			return false
		}
	}
	return true
}
