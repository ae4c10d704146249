package skill

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Severity is how serious a [Diagnostic] is.
type Severity string

// Severities. An error attached to a skill means the skill is not loaded
// (except duplicate-name, where the first copy still loads); a warning means
// it loads with a departure from the specification reported.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
	// SeverityNote is information that needs no change: a skill copied
	// into a second agent's folder (duplicate-copy).
	SeverityNote Severity = "note"
)

// Code identifies the kind of a [Diagnostic]. Codes are stable strings: CI
// scripts, SARIF rules and JSON consumers key on them. [Codes] lists all
// that are registered, with their documentation (docs/lint.md).
type Code string

// CodeInfo documents one [Code] in the registry ([Register], [Codes]).
type CodeInfo struct {
	Code Code
	// Severity is the default level; strict mode raises the rules whose
	// Spec is true to errors.
	Severity Severity
	// Spec says the rule is the Agent Skills specification's.
	Spec bool
	// Fixable is the kind of skillet lint --fix that mends the finding
	// ("quote" for --fix, "name" for --fix=name), or "" when it needs a
	// person.
	Fixable string
	// Summary is one line, lower case, no final period.
	Summary string
	// Source says where the rule comes from, comma-separated: a section
	// of the specification by URL, an agent whose behaviour it follows
	// (Kestrel, Brute, or a host by name), or a page of skillet's docs.
	Source string
	// Remedy is what to do, in a few words ("rename the folder, or run
	// skillet lint --fix=name"); text reports print it under the
	// finding. "" for a note, which needs nothing.
	Remedy string
	// Help says what the finding means for the skill and what to change.
	Help string
	// OptIn says skillet lint reports the code only when it is selected
	// (--select, --extend-select, or the lint: section of skillet.yaml;
	// docs/lint.md#choosing-rules): it is not on by default.
	OptIn bool
}

var (
	registryMu sync.RWMutex
	registry   []CodeInfo
	registered = map[Code]int{}
)

// Register adds codes to the one registry of diagnostic codes. Each package
// that emits diagnostics registers its own codes, with their documentation,
// from a package-level variable; a code registered twice, or without a
// severity or summary, panics. It returns true so it can initialise a
// blank variable.
func Register(infos ...CodeInfo) bool {
	registryMu.Lock()
	defer registryMu.Unlock()
	for _, ci := range infos {
		if _, dup := registered[ci.Code]; dup {
			panic("skill: diagnostic code registered twice: " + string(ci.Code))
		}
		if ci.Code == "" || ci.Severity == "" || ci.Summary == "" {
			panic("skill: diagnostic code without a code, severity or summary: " + string(ci.Code))
		}
		registered[ci.Code] = len(registry)
		registry = append(registry, ci)
	}
	return true
}

// Codes returns every registered code, sorted by code. It holds the codes of
// the packages the program links: this one's (parsing), catalog's
// (discovery), lint's and mcpserver's.
func Codes() []CodeInfo {
	registryMu.RLock()
	out := slices.Clone(registry)
	registryMu.RUnlock()
	slices.SortFunc(out, func(a, b CodeInfo) int { return strings.Compare(string(a.Code), string(b.Code)) })
	return out
}

// Info returns the registered [CodeInfo] of c, or a zero CodeInfo with Code
// set when c is not registered.
func (c Code) Info() CodeInfo {
	registryMu.RLock()
	defer registryMu.RUnlock()
	if i, ok := registered[c]; ok {
		return registry[i]
	}
	return CodeInfo{Code: c}
}

// SuggestedFix is an edit that mends a [Diagnostic], as byte ranges of the
// file the diagnostic is about (the shape of golang.org/x/tools go/analysis
// SuggestedFix). skillet lint --fix applies the fixes of the kinds asked
// for, parses the result again and keeps it only when it gives the same
// values.
type SuggestedFix struct {
	// Message says what the fix does ("quote the value of description").
	Message string `json:"message"`
	// Edits replace byte ranges of the file; they do not overlap.
	Edits []TextEdit `json:"edits"`
}

// TextEdit replaces the bytes [Pos, End) of a file with NewText (Pos ==
// End inserts).
type TextEdit struct {
	Pos     int    `json:"pos"`
	End     int    `json:"end"`
	NewText string `json:"newText"`
}

// Diagnostic is one finding about a file: what (Code, Message), how bad
// (Severity) and where (Path, Line, Column; Line and Column are 1-based and
// 0 when unknown; Column counts characters, not bytes).
type Diagnostic struct {
	Code     Code     `json:"code"`
	Severity Severity `json:"severity"`
	Path     string   `json:"path"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Message  string   `json:"message"`
	// Skill is the name of the skill the diagnostic is about, when known.
	Skill string `json:"skill"`
	// Related is a second path the finding involves (the winning copy of a
	// shadowed skill, the first of two duplicates), or "".
	Related string `json:"related,omitempty"`
	// Fixes are the edits that mend the finding, when it is mechanical
	// (see [CodeInfo].Fixable); lint fills them in.
	Fixes []SuggestedFix `json:"fixes,omitempty"`
}

// String formats d the way Go tools do: "path:line:col: severity: message [code]".
// Line and column are left out when unknown.
func (d Diagnostic) String() string {
	var b strings.Builder
	b.WriteString(d.Path)
	if d.Line > 0 {
		fmt.Fprintf(&b, ":%d", d.Line)
		if d.Column > 0 {
			fmt.Fprintf(&b, ":%d", d.Column)
		}
	}
	fmt.Fprintf(&b, ": %s: %s [%s]", d.Severity, d.Message, d.Code)
	return b.String()
}

// hasErrors reports whether any diagnostic has error severity.
func hasErrors(diags []Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}

// SortDiagnostics orders diagnostics by [CompareDiagnostics], stably, so
// every report is deterministic.
func SortDiagnostics(diags []Diagnostic) {
	slices.SortStableFunc(diags, CompareDiagnostics)
}

// CompareDiagnostics orders two diagnostics by path, line, column, code and
// message (each ascending, strings bytewise): negative when a comes first,
// 0 when they tie, positive otherwise. It is the order of [SortDiagnostics],
// for merging reports that are already sorted.
func CompareDiagnostics(a, b Diagnostic) int {
	if c := strings.Compare(a.Path, b.Path); c != 0 {
		return c
	}
	if a.Line != b.Line {
		return a.Line - b.Line
	}
	if a.Column != b.Column {
		return a.Column - b.Column
	}
	if c := strings.Compare(string(a.Code), string(b.Code)); c != 0 {
		return c
	}
	return strings.Compare(a.Message, b.Message)
}
