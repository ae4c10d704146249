package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skillet-go/skillet/internal/diagcode"
	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/internal/profile"
	"github.com/skillet-go/skillet/internal/suggest"
	"github.com/skillet-go/skillet/internal/yamlx"
	"github.com/skillet-go/skillet/skill"
)

// configFileNames are the names New looks for in the workspace, in order.
var configFileNames = []string{"skillet.yaml", ".skillet.yaml"}

// Config is the configuration file of docs/discovery.md#configuration (skillet.yaml). Zero
// values mean "not set": the preset's or the built-in default applies.
type Config struct {
	// Path is the file the configuration was read from ("" when none).
	Path string `json:"-"`

	// Directories are the project roots, relative to the workspace,
	// highest precedence first; they replace the preset's project roots
	// (Kestrel).
	Directories []string `json:"directories,omitempty"`
	// MaxSkillBytes is how many bytes of a SKILL.md are read (004; default
	// 64000).
	MaxSkillBytes int `json:"maxSkillBytes,omitempty"`
	// MaxSkills is how many skills the catalog lists (004; default 100).
	MaxSkills int `json:"maxSkills,omitempty"`
	// ToolName is the load tool's name (004; default use_skill).
	ToolName string `json:"toolName,omitempty"`
	// Preset names a host profile (default agents; see ProfileNames).
	Preset string `json:"preset,omitempty"`
	// UserRoots replace the preset's user roots ("~" is expanded).
	UserRoots []string `json:"userRoots,omitempty"`
	// ExtraPaths are extra roots: folders or loose .md files (Brute).
	ExtraPaths []string `json:"extraPaths,omitempty"`
	// TrustedPaths are folders that symlinks may lead into from any root.
	TrustedPaths []string `json:"trustedPaths,omitempty"`
	// Mode is "lenient" (default) or "strict".
	Mode string `json:"mode,omitempty"`
	// MaxDescriptionChars is where the catalog cuts descriptions (240).
	MaxDescriptionChars int `json:"maxDescriptionChars,omitempty"`
	// CatalogBudgetChars bounds the catalog block; 0 means no budget.
	CatalogBudgetChars int `json:"catalogBudgetChars,omitempty"`
	// Lint is the lint: section: which rules skillet lint reports, and at
	// which level (docs/lint.md#choosing-rules). Its codes are checked by
	// package lint, which reports an unknown one at its line and column.
	Lint *LintConfig `json:"lint,omitempty"`
	// Enable, when set, lists the only skills loaded, by name; Disable
	// lists skills left out (docs/discovery.md#enable).
	Enable  []string `json:"enable,omitempty"`
	Disable []string `json:"disable,omitempty"`

	// extraAt is where each of ExtraPaths is in the file (1-based line
	// and column), for diagnostics about an entry.
	extraAt [][2]int
}

// Defaults of docs/discovery.md#limits and docs/disclosure.md.
const (
	defaultMaxSkillBytes = 64000
	defaultMaxSkills     = 100
	defaultMaxDepth      = 6
	defaultMaxFolders    = 2000
)

// ConfigError is a configuration file that cannot be used: unreadable, not
// YAML, or a key with a value of the wrong type. Line and Column are 1-based,
// 0 when unknown.
type ConfigError struct {
	Path    string
	Line    int
	Column  int
	Message string
	Err     error
	// More are the file's further bad values, in file order, each with
	// its own line and column: every one is reported, not only the
	// first.
	More []*ConfigError
}

// Error is the error and each of More, one a line.
func (e *ConfigError) Error() string {
	var b strings.Builder
	for i, x := range append([]*ConfigError{e}, e.More...) {
		if i > 0 {
			b.WriteByte('\n')
		}
		pos := x.Path
		if x.Line > 0 {
			pos = fmt.Sprintf("%s:%d:%d", x.Path, x.Line, x.Column)
		}
		fmt.Fprintf(&b, "%s: %s [%s]", pos, x.Message, diagcode.ConfigInvalid)
	}
	return b.String()
}

func (e *ConfigError) Unwrap() error { return e.Err }

// findConfig returns the path of the configuration file in workspace, or ""
// when there is none.
func findConfig(workspace string) string {
	for _, name := range configFileNames {
		// Anything of that name counts: a folder or a pipe in its place
		// is reported by loadConfig rather than silently skipped.
		p := filepath.Join(workspace, name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// maxConfigBytes bounds the configuration file read.
const maxConfigBytes = 1 << 20

// loadConfig reads and parses a configuration file. Unknown keys do not fail
// the load: they come back as unknown-field warnings. A file that is not
// YAML, or a key with a value of the wrong type, is a *ConfigError.
func loadConfig(path string) (*Config, []skill.Diagnostic, error) {
	data, err := fsx.ReadFile(path, maxConfigBytes)
	if err != nil {
		return nil, nil, &ConfigError{Path: path, Message: "cannot read the configuration file: " + errText(err), Err: err}
	}
	return parseConfig(path, data)
}

// parseConfig parses configuration text; path is used in errors and
// diagnostics only. See loadConfig.
func parseConfig(path string, data []byte) (*Config, []skill.Diagnostic, error) {
	cfg := &Config{Path: path}
	if ce := encodingError(path, data); ce != nil {
		return nil, nil, ce
	}
	root, err := yamlx.Parse(data)
	if err != nil {
		var se *yamlx.SyntaxError
		if errors.As(err, &se) {
			return nil, nil, &ConfigError{Path: path, Line: se.Line, Column: se.Column, Message: "invalid YAML: " + se.Message, Err: err}
		}
		return nil, nil, &ConfigError{Path: path, Message: "invalid YAML: " + err.Error(), Err: err}
	}
	if root == nil {
		return cfg, nil, nil
	}
	if root.Kind != yamlx.MappingNode {
		return nil, nil, &ConfigError{Path: path, Line: root.Line, Column: root.Column, Message: "the configuration must be a mapping of keys to values"}
	}
	var diags []skill.Diagnostic
	var first *ConfigError // the first bad value; the others in its More
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		key := yamlx.KeyText(k)
		bad := func(want string) error {
			return &ConfigError{Path: path, Line: v.Line, Column: v.Column, Message: fmt.Sprintf("%s must be %s", key, want)}
		}
		var err error
		switch set := configSetterOf(key); {
		case key == "lint":
			var more []skill.Diagnostic
			cfg.Lint, more, err = parseLintConfig(path, v)
			diags = append(diags, more...)
		case set != nil:
			err = set(cfg, v, bad)
		default:
			msg := fmt.Sprintf("unknown configuration key %q (ignored)", key)
			if near := suggest.Nearest(key, configKeys); near != "" {
				msg += fmt.Sprintf("; did you mean %s?", near)
			}
			diags = append(diags, skill.Diagnostic{
				Code: diagcode.ConfigUnknownKey, Severity: skill.SeverityWarning, Path: path,
				Line: k.Line, Column: k.Column, Message: msg,
			})
		}
		if err != nil {
			var ce *ConfigError
			if !errors.As(err, &ce) {
				return nil, diags, err
			}
			more := ce.More // a section's further bad values (lint:)
			ce.More = nil
			if first == nil {
				first = ce
			} else {
				first.More = append(first.More, ce)
			}
			first.More = append(first.More, more...)
		}
	}
	if first != nil {
		return nil, diags, first
	}
	return cfg, diags, nil
}

// configSetter decodes the value v of one key of skillet.yaml into cfg;
// bad makes the error for a value of the wrong kind.
type configSetter func(cfg *Config, v *yamlx.Node, bad func(string) error) error

// field is the setter of the field at(cfg), decoded by dec.
func field[T any](at func(*Config) *T, dec func(*yamlx.Node, func(string) error) (T, error)) configSetter {
	return func(cfg *Config, v *yamlx.Node, bad func(string) error) error {
		x, err := dec(v, bad)
		*at(cfg) = x
		return err
	}
}

// configFields decode the keys skillet.yaml takes
// (docs/discovery.md#configuration), in the order of that page.
var configFields = []struct {
	key string
	set configSetter
}{
	{"directories", field(func(c *Config) *[]string { return &c.Directories }, stringList)},
	{"userRoots", field(func(c *Config) *[]string { return &c.UserRoots }, stringList)},
	{"extraPaths", func(cfg *Config, v *yamlx.Node, bad func(string) error) (err error) {
		cfg.ExtraPaths, err = stringList(v, bad)
		cfg.extraAt = nil
		items := v.Content
		if v.Kind == yamlx.ScalarNode {
			items = []*yamlx.Node{v}
		}
		for _, c := range items {
			cfg.extraAt = append(cfg.extraAt, [2]int{c.Line, c.Column})
		}
		return err
	}},
	{"trustedPaths", field(func(c *Config) *[]string { return &c.TrustedPaths }, stringList)},
	{"enable", field(func(c *Config) *[]string { return &c.Enable }, stringList)},
	{"disable", field(func(c *Config) *[]string { return &c.Disable }, stringList)},
	{"maxSkillBytes", field(func(c *Config) *int { return &c.MaxSkillBytes }, positiveInt)},
	{"maxSkills", field(func(c *Config) *int { return &c.MaxSkills }, positiveInt)},
	{"maxDescriptionChars", field(func(c *Config) *int { return &c.MaxDescriptionChars }, positiveInt)},
	{"catalogBudgetChars", field(func(c *Config) *int { return &c.CatalogBudgetChars }, nonNegativeInt)}, // 0: no budget, as documented
	{"toolName", func(cfg *Config, v *yamlx.Node, bad func(string) error) (err error) {
		cfg.ToolName, err = stringValue(v, bad)
		if err == nil && !validToolName(cfg.ToolName) {
			err = bad("1-64 characters of letters, digits, _ and -")
		}
		return err
	}},
	{"preset", func(cfg *Config, v *yamlx.Node, bad func(string) error) (err error) {
		cfg.Preset, err = stringValue(v, bad)
		if err == nil {
			if _, ok := profile.Lookup(cfg.Preset); !ok {
				hint := ""
				if near := profile.Suggest(cfg.Preset); near != "" {
					hint = fmt.Sprintf(" (did you mean %s?)", near)
				}
				err = bad("one of " + strings.Join(ProfileNames(), ", ") + hint)
			}
		}
		return err
	}},
	{"mode", func(cfg *Config, v *yamlx.Node, bad func(string) error) (err error) {
		cfg.Mode, err = stringValue(v, bad)
		if _, ok := skill.ParseMode(cfg.Mode); err == nil && !ok {
			err = bad(`"lenient" or "strict"`)
		}
		return err
	}},
}

// ConfigValue is a string of the configuration file with where it is
// (1-based line and column). It is written to JSON as the string.
type ConfigValue struct {
	Value        string
	Line, Column int
}

// MarshalJSON writes the value as a JSON string.
func (v ConfigValue) MarshalJSON() ([]byte, error) { return json.Marshal(v.Value) }

// LintConfig is the lint: section of skillet.yaml (docs/lint.md#choosing-rules):
//
//	lint:
//	  select: [broken-reference, name]     # codes, or prefixes of codes at a "-"
//	  extendSelect: [body-too-long]
//	  ignore: [unknown-field]
//	  severity: {broken-reference: error}  # error, warning or note
//	  perPathIgnores:
//	    "skills/legacy/**": [description-long]
//
// A key with a value of the wrong shape is a config-invalid error, an
// unknown key a config-unknown-key warning, as elsewhere in the file.
type LintConfig struct {
	Select       []ConfigValue `json:"select,omitempty"`
	ExtendSelect []ConfigValue `json:"extendSelect,omitempty"`
	Ignore       []ConfigValue `json:"ignore,omitempty"`
	// Severity are code (or prefix) and level pairs, in file order.
	Severity []LintSeverity `json:"severity,omitempty"`
	// PerPathIgnores are patterns of paths relative to the workspace
	// ("/"-separated; * matches within a name, ** any number of folders;
	// a folder's pattern covers what is below it), each with the codes
	// ignored there, in file order.
	PerPathIgnores []LintPathIgnore `json:"perPathIgnores,omitempty"`
}

// LintSeverity is one entry of LintConfig.Severity.
type LintSeverity struct {
	Code  ConfigValue `json:"code"`
	Level ConfigValue `json:"level"`
}

// LintPathIgnore is one entry of LintConfig.PerPathIgnores.
type LintPathIgnore struct {
	Path  ConfigValue   `json:"path"`
	Codes []ConfigValue `json:"codes"`
}

// lintKeys are the keys of the lint: section.
var lintKeys = []string{"select", "extendSelect", "ignore", "severity", "perPathIgnores"}

// parseLintConfig reads the lint: section v. Bad values are *ConfigErrors
// (the first, the others in its More); unknown keys come back as
// config-unknown-key warnings.
func parseLintConfig(path string, v *yamlx.Node) (*LintConfig, []skill.Diagnostic, error) {
	lc := &LintConfig{}
	if yamlx.Scalar(v) == nil && v.Kind == yamlx.ScalarNode {
		return lc, nil, nil // "lint:" with no value
	}
	p := &lintParser{path: path}
	if v.Kind != yamlx.MappingNode {
		p.fail(v, "lint must be a mapping (select, extendSelect, ignore, severity, perPathIgnores)")
		return nil, nil, p.first
	}
	var diags []skill.Diagnostic
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		key := yamlx.KeyText(k)
		switch key {
		case "select":
			lc.Select = p.values("lint.select", val)
		case "extendSelect":
			lc.ExtendSelect = p.values("lint.extendSelect", val)
		case "ignore":
			lc.Ignore = p.values("lint.ignore", val)
		case "severity", "perPathIgnores":
			p.mapping(lc, key, val)
		default:
			diags = append(diags, unknownLintKey(path, key, k))
		}
	}
	if p.first != nil {
		return nil, diags, p.first
	}
	return lc, diags, nil
}

// lintParser gathers the errors of one lint: section of the file at path.
type lintParser struct {
	path  string
	first *ConfigError // the first error, the others in its More
}

// fail records msg as an error at n.
func (p *lintParser) fail(n *yamlx.Node, msg string) {
	ce := &ConfigError{Path: p.path, Line: n.Line, Column: n.Column, Message: msg}
	if p.first == nil {
		p.first = ce
	} else {
		p.first.More = append(p.first.More, ce)
	}
}

// values reads a list of codes under key: a sequence of scalars or one
// scalar, each split at commas, blanks dropped; no value is nil. Anything
// else is an error.
func (p *lintParser) values(key string, n *yamlx.Node) []ConfigValue {
	items := n.Content
	switch {
	case n.Kind == yamlx.ScalarNode && yamlx.Scalar(n) == nil:
		return nil
	case n.Kind == yamlx.ScalarNode:
		items = []*yamlx.Node{n}
	case n.Kind != yamlx.SequenceNode:
		p.fail(n, key+" must be a list of codes")
		return nil
	}
	var out []ConfigValue
	for _, c := range items {
		if c.Kind != yamlx.ScalarNode || yamlx.Scalar(c) == nil {
			p.fail(c, key+" must be a list of codes")
			continue
		}
		for _, part := range strings.Split(c.Value, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, ConfigValue{Value: part, Line: c.Line, Column: c.Column})
			}
		}
	}
	return out
}

// mapping reads the mapping val of key "severity" (code: level) or
// "perPathIgnores" (path: codes) into lc; no value is none, any other
// non-mapping an error.
func (p *lintParser) mapping(lc *LintConfig, key string, val *yamlx.Node) {
	if val.Kind != yamlx.MappingNode {
		if val.Kind != yamlx.ScalarNode || yamlx.Scalar(val) != nil {
			p.fail(val, "lint."+key+" must be a mapping")
		}
		return
	}
	for j := 0; j+1 < len(val.Content); j += 2 {
		mk, mv := val.Content[j], val.Content[j+1]
		name := ConfigValue{Value: yamlx.KeyText(mk), Line: mk.Line, Column: mk.Column}
		if key == "perPathIgnores" {
			lc.PerPathIgnores = append(lc.PerPathIgnores, LintPathIgnore{Path: name, Codes: p.values("lint.perPathIgnores."+name.Value, mv)})
			continue
		}
		if mv.Kind != yamlx.ScalarNode || yamlx.Scalar(mv) == nil {
			p.fail(mv, "lint.severity."+name.Value+" must be error, warning or note")
			continue
		}
		lc.Severity = append(lc.Severity, LintSeverity{Code: name, Level: ConfigValue{Value: strings.TrimSpace(mv.Value), Line: mv.Line, Column: mv.Column}})
	}
}

// unknownLintKey is the config-unknown-key warning for key k of the lint:
// section, with the nearest known key when one is near.
func unknownLintKey(path, key string, k *yamlx.Node) skill.Diagnostic {
	msg := fmt.Sprintf("unknown key %q in lint (ignored)", key)
	if near := suggest.Nearest(key, lintKeys); near != "" {
		msg += fmt.Sprintf("; did you mean %s?", near)
	}
	return skill.Diagnostic{Code: diagcode.ConfigUnknownKey, Severity: skill.SeverityWarning, Path: path,
		Line: k.Line, Column: k.Column, Message: msg}
}

// configKeys are the keys of configFields, for suggestions.
var configKeys = func() []string {
	keys := make([]string, len(configFields))
	for i, f := range configFields {
		keys[i] = f.key
	}
	return append(keys, "lint")
}()

// configSetterOf returns the setter of key, nil when skillet.yaml has no
// such key.
func configSetterOf(key string) configSetter {
	for _, f := range configFields {
		if f.key == key {
			return f.set
		}
	}
	return nil
}

var _ = skill.Register(skill.CodeInfo{Code: diagcode.ConfigUnknownKey, Severity: skill.SeverityWarning,
	Summary: "the configuration file has a key skillet does not know; it is ignored",
	Remedy:  "correct the key's spelling (the message names the nearest key), or remove it",
	Source:  "docs/discovery.md#configuration",
	Help: "skillet.yaml has a key that is not one of skillet's settings, so it has no effect; a misspelt key (maxSkils for maxSkills) leaves the setting at its default. " +
		"The message suggests the nearest known key. docs/discovery.md lists every key."})

func validToolName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

func stringValue(v *yamlx.Node, bad func(string) error) (string, error) {
	if v.Kind != yamlx.ScalarNode {
		return "", bad("a string")
	}
	return strings.TrimSpace(v.Value), nil
}

func stringList(v *yamlx.Node, bad func(string) error) ([]string, error) {
	switch v.Kind {
	case yamlx.ScalarNode:
		if yamlx.Scalar(v) == nil {
			return []string{}, nil // "key:" with no value: an empty list
		}
		return []string{v.Value}, nil
	case yamlx.SequenceNode:
		out := make([]string, 0, len(v.Content))
		for _, c := range v.Content {
			if c.Kind != yamlx.ScalarNode || yamlx.Scalar(c) == nil {
				return nil, bad("a list of strings")
			}
			out = append(out, c.Value)
		}
		return out, nil
	}
	return nil, bad("a list of strings")
}

func positiveInt(v *yamlx.Node, bad func(string) error) (int, error) {
	if v.Kind != yamlx.ScalarNode {
		return 0, bad("a positive integer")
	}
	n, err := strconv.Atoi(strings.ReplaceAll(strings.TrimSpace(v.Value), "_", ""))
	if err != nil || n <= 0 {
		return 0, bad("a positive integer")
	}
	return n, nil
}

func nonNegativeInt(v *yamlx.Node, bad func(string) error) (int, error) {
	if v.Kind != yamlx.ScalarNode {
		return 0, bad("0 or a positive integer")
	}
	n, err := strconv.Atoi(strings.ReplaceAll(strings.TrimSpace(v.Value), "_", ""))
	if err != nil || n < 0 {
		return 0, bad("0 or a positive integer")
	}
	return n, nil
}

// errText is an error's text without the path os errors repeat.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// encodingError is the error for the first byte of a UTF-8 configuration
// file that YAML refuses, at its line and column (which the YAML reader's
// own error leaves out: "invalid trailing UTF-8 octet (value: 93)"): a
// byte sequence that is not UTF-8, or a control character other than tab,
// LF and CR. A file that starts with a UTF-16 byte order mark is left to
// the YAML reader, which reads UTF-16. nil when there is none.
func encodingError(path string, data []byte) *ConfigError {
	if bytes.HasPrefix(data, []byte{0xff, 0xfe}) || bytes.HasPrefix(data, []byte{0xfe, 0xff}) {
		return nil
	}
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		msg := ""
		switch {
		case r == utf8.RuneError && n == 1:
			msg = fmt.Sprintf("the configuration file is not valid UTF-8 (byte 0x%02X at offset %d); save it as UTF-8", data[i], i)
		case r < 0x20 && r != '\t' && r != '\n' && r != '\r', r == 0x7f:
			msg = fmt.Sprintf("the configuration file holds a control character (0x%02X), which YAML does not allow", r)
		}
		if msg != "" {
			return &ConfigError{Path: path, Line: line, Column: col, Message: msg}
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += n
	}
	return nil
}
