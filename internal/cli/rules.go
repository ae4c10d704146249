package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/skillet-go/skillet/lint"
	"github.com/skillet-go/skillet/skill"
)

// lookupCode returns the registered code named s, or a usage error that
// suggests the nearest code or host rule.
func lookupCode(s string) (skill.CodeInfo, error) {
	for _, ci := range skill.Codes() {
		if string(ci.Code) == s {
			return ci, nil
		}
	}
	return skill.CodeInfo{}, usagef("no diagnostic code %q%s", s, explainHint(s))
}

// explainHint suggests the code or host rule nearest to s, else points at
// --list-rules.
func explainHint(s string) string {
	var names []string
	for _, ci := range skill.Codes() {
		names = append(names, string(ci.Code))
	}
	for _, r := range hostRules() {
		names = append(names, string(r))
	}
	if h := didYouMean(s, names); h != "" {
		return h
	}
	return "; skillet lint --list-rules lists them"
}

// hostRules are the rules of lint.Hosts, each once, in the order the
// checkers name them: every rule name lint --compat can print.
func hostRules() []lint.HostRule {
	var rules []lint.HostRule
	for _, h := range lint.Hosts {
		for _, r := range h.Rules {
			if !slices.Contains(rules, r) {
				rules = append(rules, r)
			}
		}
	}
	return rules
}

// checkExplain reports whether --explain can explain s: a diagnostic code
// or a rule that lint --compat prints; otherwise a usage error that
// suggests the nearest of either.
func checkExplain(s string) error {
	if slices.Contains(hostRules(), lint.HostRule(s)) {
		return nil
	}
	for _, ci := range skill.Codes() {
		if string(ci.Code) == s {
			return nil
		}
	}
	return usagef("no diagnostic code or --compat rule %q%s", s, explainHint(s))
}

// writeExplainRule writes the documentation of a rule of the
// compatibility report: what it requires, and which checkers apply it,
// with where their rules come from.
func writeExplainRule(w io.Writer, r lint.HostRule) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: a rule of the compatibility report (skillet lint --compat)\n\n", r)
	b.WriteString(wrap(r.Doc(), 76))
	b.WriteString("\n\nChecked for:\n")
	for _, h := range lint.Hosts {
		if slices.Contains(h.Rules, r) {
			fmt.Fprintf(&b, "  %s: %s; source: %s\n", h.Name, h.Title, h.Source)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// levelText says a code's default level, and that strict mode raises it.
func levelText(ci skill.CodeInfo) string {
	if ci.Spec && ci.Severity != skill.SeverityError {
		return string(ci.Severity) + " (an error with --strict)"
	}
	return string(ci.Severity)
}

// fixFlag is the lint flag that mends a code, or "".
func fixFlag(kind string) string {
	switch kind {
	case "":
		return ""
	case "quote":
		return "--fix"
	}
	return "--fix=" + kind
}

// writeExplain writes a code's documentation as text (skillet lint
// --explain CODE).
func writeExplain(w io.Writer, ci skill.CodeInfo) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n\n", ci.Code, ci.Summary)
	fmt.Fprintf(&b, "Level:   %s\n", levelText(ci))
	fmt.Fprintf(&b, "Default: %s\n", defaultText(ci))
	fix := "no; it needs a person"
	if f := fixFlag(ci.Fixable); f != "" {
		fix = "yes, skillet lint " + f
	}
	fmt.Fprintf(&b, "Fixable: %s\n", fix)
	fmt.Fprintf(&b, "Source:  %s\n", ci.Source)
	if ci.Remedy != "" {
		fmt.Fprintf(&b, "Remedy:  %s\n", ci.Remedy)
	}
	b.WriteByte('\n')
	b.WriteString(wrap(ci.Help, 76))
	fmt.Fprintf(&b, "\n\nMore: %s\n", lint.HelpURL(ci.Code))
	_, err := io.WriteString(w, b.String())
	return err
}

// defaultText says whether lint reports a code without a --select.
func defaultText(ci skill.CodeInfo) string {
	if ci.OptIn {
		return "off"
	}
	return "on"
}

// writeRuleList writes one line per registered code: code, level, whether
// it is on by default, the fix flag ("-" when none) and source (skillet
// lint --list-rules).
func writeRuleList(w io.Writer) error {
	codes := skill.Codes()
	width := 0
	for _, ci := range codes {
		width = max(width, len(ci.Code))
	}
	// The level column fits "warning*" (a level that --strict makes an
	// error), so that the columns after it line up.
	level := func(ci skill.CodeInfo) string {
		if ci.Spec && ci.Severity != skill.SeverityError {
			return string(ci.Severity) + "*"
		}
		return string(ci.Severity)
	}
	lw := len("LEVEL")
	for _, ci := range codes {
		lw = max(lw, len(level(ci)))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-*s  %-*s  %-7s  %-12s  %s\n", width, "CODE", lw, "LEVEL", "DEFAULT", "FIX", "SOURCE")
	for _, ci := range codes {
		fix := fixFlag(ci.Fixable)
		if fix == "" {
			fix = "-"
		}
		fmt.Fprintf(&b, "%-*s  %-*s  %-7s  %-12s  %s\n", width, ci.Code, lw, level(ci), defaultText(ci), fix, ci.Source)
	}
	b.WriteString("\n* an error with --strict. DEFAULT off: reported only when selected (--select, --extend-select,\n")
	b.WriteString("skillet.yaml lint:). skillet lint --explain CODE prints a code's documentation.\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// wrap breaks text into lines of at most width columns at spaces.
func wrap(text string, width int) string {
	var b strings.Builder
	n := 0
	for i, word := range strings.Fields(text) {
		if i > 0 {
			if n+1+len(word) > width {
				b.WriteByte('\n')
				n = 0
			} else {
				b.WriteByte(' ')
				n++
			}
		}
		b.WriteString(word)
		n += len(word)
	}
	return b.String()
}

// docsMarker starts the generated part of docs/lint.md; everything after
// it is one section per registered code.
const docsMarker = "<!-- Generated from the registry of codes by TestDocsLint (go test ./internal/cli -run TestDocsLint -update); do not edit below. -->"
