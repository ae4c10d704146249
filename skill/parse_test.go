package skill

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/skillet-go/skillet/internal/diagcode"
)

// diagKeys renders diagnostics as "code@line:col" for compact comparison.
func diagKeys(diags []Diagnostic) []string {
	var out []string
	for _, d := range diags {
		out = append(out, fmt.Sprintf("%s@%d:%d", d.Code, d.Line, d.Column))
	}
	return out
}

func TestParseFences(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		src      string
		wantDesc string
		wantBody string
		diags    []string
	}{
		{"lf", "---\nname: x\ndescription: d\n---\nbody\n", "d", "body", nil},
		{"crlf", "---\r\nname: x\r\ndescription: d\r\n---\r\n\r\nline one\r\nline two\r\n", "d", "line one\nline two", nil},
		{"mixed endings", "---\r\nname: x\ndescription: d\r\n---\nbody\r\nmore\n", "d", "body\nmore", nil},
		{"bom", "\xEF\xBB\xBF---\nname: x\ndescription: d\n---\nbody", "d", "body", nil},
		{"bom crlf", "\xEF\xBB\xBF---\r\nname: x\r\ndescription: d\r\n---\r\nbody", "d", "body", nil},
		{"closing fence with trailing blanks", "---  \nname: x\ndescription: d\n---\t \nbody", "d", "body", nil},
		{"leading blank lines in body trimmed", "---\nname: x\ndescription: d\n---\n\n\n  \nbody\n\n", "d", "body", nil},
		{"dashes inside a value are not a fence", "---\nname: x\ndescription: a --- b\n---\nbody", "a --- b", "body", nil},
		{"dashes in the body are not a fence", "---\nname: x\ndescription: d\n---\nabove\n---\nbelow", "d", "above\n---\nbelow", nil},
		{"---- is not a fence", "----\nname: x\n----\nbody\n", "body", "----\nname: x\n----\nbody", []string{"no-frontmatter@1:1"}},
		{"blank lines before the fence", "\n\n---\nname: x\ndescription: d\n---\nbody", "d", "body", []string{"parse-recovered@1:1"}},
		{"unclosed frontmatter", "---\nname: x\ndescription: d\nbody", "", "", []string{"parse-error@1:1"}},
		{"empty body", "---\nname: x\ndescription: d\n---\n\n  \n", "d", "", []string{"empty-body@4:1"}},
		{"unclosed: a clean block of keys, then the body", "---\nname: x\ndescription: d\n\nbody\n", "d", "body", []string{"parse-recovered@1:1"}},
		{"unclosed: keys with lists and continuations", "---\nname: x\ndescription: d\n  more\nallowed-tools:\n- Read\n\nbody\n", "d more", "body", []string{"parse-recovered@1:1"}},
		{"unclosed: keys to the end of the file may be half written", "---\nname: x\ndescription: d\n\n \n", "", "", []string{"parse-error@1:1"}},
		{"unclosed: keys, then a body with a rule", "---\nname: x\ndescription: d\n\n# Title\n\ntext\n\n---\n\nmore\n", "d", "# Title\n\ntext\n\n---\n\nmore", []string{"parse-recovered@1:1"}},
		{"unclosed: a block without a known key", "---\ntitle: x\n\nbody\n", "", "", []string{"parse-error@1:1"}},
		{"unclosed: a block that is not YAML", "---\nname: x\ndescription: [d\n\nbody\n", "", "", []string{"parse-error@1:1"}},
		{"broken keys after a blank line are not a body", "---\nname: x\ndescription: d\n\n\tbad: x\n---\nbody\n", "", "", []string{"parse-error@5:1"}},
		{"empty body with a description loads", "---\nname: x\ndescription: d\n---\n", "d", "", []string{"empty-body@4:1"}},
		{"an HTML comment before the fence", "<!-- markdownlint-disable -->\n---\nname: x\ndescription: d\n---\nbody\n", "d", "body", []string{"parse-recovered@1:1"}},
		{"a comment over lines and a blank line before the fence", "<!--\nCopyright\n-->\n\n---\nname: x\ndescription: d\n\tbad: x\n---\nbody\n", "", "", []string{"parse-recovered@1:1", "parse-error@8:1"}},
		{"text after a leading comment: no frontmatter", "<!-- c --> Intro.\n\n---\nname: x\n---\nbody\n", "Intro.", "<!-- c --> Intro.\n\n---\nname: x\n---\nbody", []string{"no-frontmatter@1:1"}},
		{"a comment never closed: no frontmatter", "<!-- c\n---\nname: x\n---\nbody\n", "", "", []string{"no-description@1:1"}},
		{"closed by YAML's document end", "---\nname: x\ndescription: d\n...\nbody\n", "d", "body", []string{"parse-recovered@4:1"}},
		{"closed by YAML's document end, no body", "---\nname: x\ndescription: d\n...\n", "d", "", []string{"parse-recovered@4:1", "empty-body@4:1"}},
		{"CR-only line endings", "---\rname: x\rdescription: d\r---\rbody\r", "d", "body", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, diags := Parse([]byte(tt.src), &Options{Path: "/ws/skills/x/SKILL.md"})
			if diff := cmp.Diff(tt.diags, diagKeys(diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if tt.wantDesc == "" {
				if s != nil {
					t.Errorf("got a skill, want the file rejected")
				}
				return
			}
			if s == nil {
				t.Fatalf("rejected: %v", diags)
			}
			if s.Description != tt.wantDesc || s.Body != tt.wantBody {
				t.Errorf("description %q body %q, want %q and %q", s.Description, s.Body, tt.wantDesc, tt.wantBody)
			}
		})
	}
}

func TestParseYAMLStyles(t *testing.T) {
	t.Parallel()
	src := `---
name: styles
description: >-
  Folded text
  on two lines.
when_to_use: |
  Literal
  lines.
license: 'Apache-2.0'
compatibility: "Needs git and \"jq\""
allowed-tools: [Read, "Bash(git add:*)"]
metadata: {version: 1.10, author: someone, count: 017}
---
body
`
	s, diags := Parse([]byte(src), &Options{Path: "/ws/skills/styles/SKILL.md"})
	if s == nil {
		t.Fatalf("rejected: %v", diags)
	}
	if len(diags) != 0 {
		t.Errorf("unexpected diagnostics: %v", diags)
	}
	want := &Skill{
		Name: "styles", RawName: "styles",
		Description:   "Folded text on two lines.",
		WhenToUse:     "Literal\nlines.",
		License:       "Apache-2.0",
		Compatibility: `Needs git and "jq"`,
		AllowedTools:  []string{"Read", "Bash(git add:*)"},
		Metadata:      map[string]string{"version": "1.10", "author": "someone", "count": "017"},
	}
	got := &Skill{Name: s.Name, RawName: s.RawName, Description: s.Description, WhenToUse: s.WhenToUse,
		License: s.License, Compatibility: s.Compatibility, AllowedTools: s.AllowedTools, Metadata: s.Metadata}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fields (-want +got):\n%s", diff)
	}
	// The frontmatter keeps YAML 1.2 core types, as another host's parser
	// would see them: 1.10 is the number 1.1, 017 the integer 17.
	md, _ := s.Frontmatter.Get("metadata")
	v, _ := md.(Map).Get("version")
	c, _ := md.(Map).Get("count")
	if v != 1.1 || c != int64(17) {
		t.Errorf("typed metadata: version %#v count %#v, want 1.1 and 17", v, c)
	}
	if got := s.Frontmatter.Keys(); !cmp.Equal(got, []string{"name", "description", "when_to_use", "license", "compatibility", "allowed-tools", "metadata"}) {
		t.Errorf("frontmatter keys in order: %v", got)
	}
}

func TestParseRepair(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		src      string
		wantDesc string
		diags    []string
		repairs  []Repair
	}{
		{
			name:     "unquoted colon",
			src:      "---\nname: x\ndescription: Use this skill when: the user asks\n---\nbody",
			wantDesc: "Use this skill when: the user asks",
			diags:    []string{"parse-recovered@3:14"},
			repairs:  []Repair{{Line: 3, EndLine: 3, Key: "description", Text: `description: "Use this skill when: the user asks"`, Error: "mapping values are not allowed in this context"}},
		},
		{
			name:     "continuation lines folded",
			src:      "---\nname: x\ndescription: Use when\n  needed: for tests\n  and more\nlicense: MIT\n---\nbody",
			wantDesc: "Use when needed: for tests and more",
			diags:    []string{"parse-recovered@3:14"},
			repairs:  []Repair{{Line: 3, EndLine: 5, Key: "description", Text: `description: "Use when needed: for tests and more"`, Error: "mapping values are not allowed in this context"}},
		},
		{
			name:     "two broken lines",
			src:      "---\nname: x\ndescription: A: b\nwhen-to-use: C: d\n---\nbody",
			wantDesc: "A: b",
			diags:    []string{"parse-recovered@3:14", "parse-recovered@4:14"},
		},
		{
			name:     "flow sequence followed by text",
			src:      "---\nname: x\ndescription: d\nargument-hint: [date] [type]\n---\nbody",
			wantDesc: "d",
			diags:    []string{"parse-recovered@4:16"},
		},
		{
			name:     "value starting with a comma",
			src:      "---\nname: x\ndescription: , and more\n---\nbody",
			wantDesc: ", and more",
			diags:    []string{"parse-recovered@3:14"},
		},
		{
			name:     "nested metadata value",
			src:      "---\nname: x\ndescription: d\nmetadata:\n  short-description: Use when: asked\n---\nbody",
			wantDesc: "d",
			diags:    []string{"parse-recovered@5:22"},
		},
		{
			name:     "CRLF repair",
			src:      "---\r\nname: x\r\ndescription: Use when: asked\r\n---\r\nbody",
			wantDesc: "Use when: asked",
			diags:    []string{"parse-recovered@3:14"},
		},
		{
			name:  "unrepairable: unterminated quote",
			src:   "---\nname: x\ndescription: \"never closed\n---\nbody",
			diags: []string{"parse-error@4:1"},
		},
		{
			name:  "unrepairable: a known field indented by mistake",
			src:   "---\nname: indentedkey\n  description: indented\n---\nbody",
			diags: []string{"parse-error@3:14"},
		},
		{
			name:  "unrepairable: tab indentation",
			src:   "---\nname: x\n\tdescription: d\n---\nbody",
			diags: []string{"parse-error@3:1"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, diags := Parse([]byte(tt.src), &Options{Path: "/ws/skills/x/SKILL.md"})
			if diff := cmp.Diff(tt.diags, diagKeys(diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if tt.wantDesc == "" {
				if s != nil {
					t.Fatal("got a skill, want the file rejected")
				}
				return
			}
			if s == nil {
				t.Fatalf("rejected: %v", diags)
			}
			if s.Description != tt.wantDesc {
				t.Errorf("description %q, want %q", s.Description, tt.wantDesc)
			}
			if !s.Recovered {
				t.Error("Recovered is false")
			}
			if tt.repairs != nil {
				if diff := cmp.Diff(tt.repairs, s.Repairs); diff != "" {
					t.Errorf("repairs (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestParseStrictDoesNotRepair(t *testing.T) {
	t.Parallel()
	src := "---\nname: x\ndescription: Use when: asked\n---\nbody"
	s, diags := Parse([]byte(src), &Options{Path: "/ws/skills/x/SKILL.md", Mode: Strict})
	if s != nil {
		t.Fatal("strict mode loaded a file that needs repair")
	}
	if got := diagKeys(diags); !cmp.Equal(got, []string{"parse-error@3:22"}) {
		t.Errorf("diagnostics %v, want the parse error at the colon", got)
	}
}

func TestParseNames(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		path     string
		flat     bool
		mode     Mode
		field    string // the name line; "" for none
		wantName string // "" when rejected
		diags    []string
	}{
		{"valid", "/r/pdf-tools/SKILL.md", false, Lenient, "name: pdf-tools", "pdf-tools", nil},
		{"missing: folder name", "/r/pdf-tools/SKILL.md", false, Lenient, "", "pdf-tools", []string{"name-missing@1:1"}},
		{"missing: flat file stem", "/r/deploy.md", true, Lenient, "", "deploy", []string{"name-missing@1:1"}},
		{"normalised", "/r/release-checklist/SKILL.md", false, Lenient, "name: Release Checklist", "release-checklist", []string{"name-normalized@2:7"}},
		{"normalised camel case", "/r/pdf-processing/SKILL.md", false, Lenient, "name: PDFProcessing", "pdf-processing", []string{"name-normalized@2:7"}},
		{"normalised accents", "/r/cafe/SKILL.md", false, Lenient, "name: Café", "cafe", []string{"name-normalized@2:7"}},
		{"normalised leading hyphen", "/r/-21risk/SKILL.md", false, Lenient, "name: -21risk", "21risk", []string{"name-normalized@2:7"}},
		{"spaces and camel case match the kebab-case folder", "/r/elevenlabs-automation/SKILL.md", false, Lenient, "name: ElevenLabs Automation", "elevenlabs-automation", []string{"name-normalized@2:7"}},
		{"camel case matches a folder with the split", "/r/eleven-labs/SKILL.md", false, Lenient, "name: ElevenLabs", "eleven-labs", []string{"name-normalized@2:7"}},
		{"spaces match the kebab-case folder", "/r/job-search-mcp/SKILL.md", false, Lenient, "name: Job Search MCP", "job-search-mcp", []string{"name-normalized@2:7"}},
		{"accented name in its accented folder", "/r/café-menu/SKILL.md", false, Lenient, "name: café-menu", "cafe-menu", []string{"name-normalized@2:7"}},
		{"accented name in a folder without accents", "/r/creme-brulee/SKILL.md", false, Lenient, "name: Crème Brûlée", "creme-brulee", []string{"name-normalized@2:7"}},
		{"letters without a decomposition fold", "/r/oresund-guide/SKILL.md", false, Lenient, "name: Øresund Guide", "oresund-guide", []string{"name-normalized@2:7"}},
		{"a normalised name that differs still mismatches", "/r/audio-tools/SKILL.md", false, Lenient, "name: ElevenLabs Automation", "eleven-labs-automation", []string{"name-normalized@2:7", "name-mismatch@2:7"}},
		{"a valid name must match its folder exactly", "/r/pdftools/SKILL.md", false, Lenient, "name: pdf-tools", "pdf-tools", []string{"name-mismatch@2:7"}},
		{"loose name keeps underscore", "/r/llm_wallet/SKILL.md", false, Lenient, "name: llm_wallet", "llm_wallet", []string{"name-invalid@2:7"}},
		{"double hyphen loads with a warning", "/r/a--b/SKILL.md", false, Lenient, "name: a--b", "a--b", []string{"name-invalid@2:7"}},
		{"over 64 characters loads with a warning", "/r/" + strings.Repeat("a", 65) + "/SKILL.md", false, Lenient, "name: " + strings.Repeat("a", 65), strings.Repeat("a", 65), []string{"name-invalid@2:7"}},
		{"nothing to keep: rejected", "/r/x/SKILL.md", false, Lenient, "name: 日本語", "", []string{"name-invalid@2:7"}},
		{"mismatch", "/r/template/SKILL.md", false, Lenient, "name: template-skill", "template-skill", []string{"name-mismatch@2:7"}},
		{"numeric name is text", "/r/123/SKILL.md", false, Lenient, "name: 123", "123", nil},
		{"not a string", "/r/x/SKILL.md", false, Lenient, "name: [a, b]", "x", []string{"field-invalid@2:1"}},
		{"strict: uppercase rejected", "/r/Foo/SKILL.md", false, Strict, "name: Foo", "", []string{"name-invalid@2:7"}},
		{"strict: mismatch is an error", "/r/template/SKILL.md", false, Strict, "name: template-skill", "", []string{"name-mismatch@2:7"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := "---\n"
			if tt.field != "" {
				src += tt.field + "\n"
			}
			src += "description: d\n---\nbody\n"
			s, diags := Parse([]byte(src), &Options{Path: tt.path, Flat: tt.flat, Mode: tt.mode})
			if diff := cmp.Diff(tt.diags, diagKeys(diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			switch {
			case tt.wantName == "" && s != nil:
				t.Errorf("loaded as %q, want rejected", s.Name)
			case tt.wantName != "" && s == nil:
				t.Errorf("rejected, want %q: %v", tt.wantName, diags)
			case s != nil && s.Name != tt.wantName:
				t.Errorf("name %q, want %q", s.Name, tt.wantName)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Release Checklist":   "release-checklist",
		"PDFProcessing":       "pdf-processing",
		"fluxA-x402-payment":  "flux-a-x402-payment",
		"Ahrefs Automation":   "ahrefs-automation",
		"  spaced  out  ":     "spaced-out",
		"ｐｄｆ－ｔｏｏｌｓ":           "pdf-tools",
		"ﬁle_tools":           "file-tools",
		"already-kebab":       "already-kebab",
		"Job Search MCP":      "job-search-mcp",
		"a..b":                "a-b",
		"!!!":                 "",
		"myCoolSkill2":        "my-cool-skill2",
		"Crème Brûlée Helper": "creme-brulee-helper",
		"Øresund Straße":      "oresund-strasse",
		"Łódź Æsir":           "lodz-aesir",
		"CaféBar":             "cafe-bar",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseFields(t *testing.T) {
	t.Parallel()
	src := `---
name: fields
description: d
whenToUse: when asked
when_to_use: ignored duplicate spelling
disable-model-invocation: yes
allowed-tools: Bash(git add:*) Read,Write
user-invocable: false
argument-hint: "[file]"
version: 2
author: someone
allowed_tools: Read
triggers: [x]
metadata:
  plain: text
  number: 1.10
  nested:
    a: b
    c: [1, 2]
  list: [x, y]
  empty:
---
body
`
	s, diags := Parse([]byte(src), &Options{Path: "/r/fields/SKILL.md"})
	if s == nil {
		t.Fatalf("rejected: %v", diags)
	}
	// Lenient mode reports only the fields meant as one a host reads
	// (allowed_tools, triggers), not version or author, and no nested
	// metadata value (hosts read them); strict mode reports them all.
	wantDiags := []string{"unknown-field@12:1", "unknown-field@13:1"}
	if diff := cmp.Diff(wantDiags, diagKeys(diags)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	_, strict := Parse([]byte(src), &Options{Path: "/r/fields/SKILL.md", Mode: Strict})
	for _, want := range []string{"unknown-field@10:1", "unknown-field@11:1", "metadata-invalid@17:3", "metadata-invalid@20:3"} {
		if !slices.Contains(diagKeys(strict), want) {
			t.Errorf("strict: no %s in %v", want, diagKeys(strict))
		}
	}
	if s.WhenToUse != "when asked" {
		t.Errorf("WhenToUse %q", s.WhenToUse)
	}
	if !s.DisableModelInvocation || !s.Hidden() {
		t.Error("disable-model-invocation: yes was not read as true")
	}
	if diff := cmp.Diff([]string{"Bash(git add:*)", "Read", "Write"}, s.AllowedTools); diff != "" {
		t.Errorf("allowed-tools (-want +got):\n%s", diff)
	}
	wantMeta := map[string]string{"plain": "text", "number": "1.10", "nested": "a: b\nc: [1, 2]", "list": "[x, y]", "empty": ""}
	if diff := cmp.Diff(wantMeta, s.Metadata); diff != "" {
		t.Errorf("metadata (-want +got):\n%s", diff)
	}
	if got := s.Extra.Keys(); !cmp.Equal(got, []string{"when_to_use", "user-invocable", "argument-hint", "version", "author", "allowed_tools", "triggers"}) {
		t.Errorf("extra keys %v", got)
	}
	if v, _ := s.Extra.Get("user-invocable"); v != false {
		t.Errorf("user-invocable typed %#v, want false", v)
	}
	if v, _ := s.Extra.Get("version"); v != int64(2) {
		t.Errorf("version typed %#v, want 2", v)
	}
}

func TestParseFieldProblems(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 210) // 1050 characters
	for _, tt := range []struct {
		name  string
		lines string
		mode  Mode
		ok    bool
		diags []string
	}{
		{"description over 240", "description: " + strings.Repeat("é", 241), Lenient, true, []string{"description-long@3:1"}},
		{"description over 1024", "description: " + long, Lenient, true, []string{"description-too-long@3:1"}},
		{"description over 1024 strict", "description: " + long, Strict, false, []string{"description-too-long@3:1"}},
		{"compatibility over 500", "description: d\ncompatibility: " + strings.Repeat("c", 501), Lenient, true, []string{"compatibility-too-long@4:1"}},
		{"compatibility as a list", "description: d\ncompatibility: [git, jq]", Lenient, true, []string{"field-invalid@4:1"}},
		{"metadata null", "description: d\nmetadata:", Lenient, true, []string{"metadata-invalid@4:1"}},
		{"metadata a list", "description: d\nmetadata: [a]", Lenient, true, []string{"metadata-invalid@4:1"}},
		{"duplicate key", "description: d\ndescription: e", Lenient, true, []string{"duplicate-field@4:1"}},
		{"bad bool", "description: d\ndisable-model-invocation: maybe", Lenient, true, []string{"field-invalid@4:1"}},
		{"unknown field strict", "description: d\nfoo: bar", Strict, false, []string{"unknown-field@4:1"}},
		{"alias bomb", "description: d\na: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]", Lenient, false, []string{"parse-error@8:1"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := "---\nname: x\n" + tt.lines + "\n---\nbody\n"
			s, diags := Parse([]byte(src), &Options{Path: "/r/x/SKILL.md", Mode: tt.mode})
			if diff := cmp.Diff(tt.diags, diagKeys(diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if (s != nil) != tt.ok {
				t.Errorf("loaded = %v, want %v", s != nil, tt.ok)
			}
		})
	}
}

func TestParseInference(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		src      string
		wantName string
		wantDesc string
		diags    []string
	}{
		{"no frontmatter", "# Deploy\n\nShip the app to production.\n", "deploy", "Ship the app to production.", []string{"no-frontmatter@1:1"}},
		{"no frontmatter, BOM and CRLF", "\xEF\xBB\xBF# Deploy\r\n\r\n> Ship it.\r\n", "deploy", "Ship it.", []string{"no-frontmatter@1:1"}},
		{"skips code, tables and comments", "# T\n<!-- note -->\n```\ncode line\n```\n| a | b |\n- First prose item\n", "deploy", "First prose item", []string{"no-frontmatter@1:1"}},
		{"heading only", "# Only A Heading\n", "deploy", "Only A Heading", []string{"no-frontmatter@1:1"}},
		{"no description", "---\nname: deploy\n---\n# Deploy\n\nShip it.\n", "deploy", "Ship it.", []string{"no-description@1:1"}},
		{"nothing to infer", "", "", "", []string{"no-description@1:1"}},
		{"unfenced frontmatter is not prose", "name: deploy\ndescription: Ship it\n  to production.\nmetadata:\n  team: ops\n\nDeploys the app.\n", "deploy", "Deploys the app.", []string{"no-frontmatter@1:1"}},
		{"unfenced frontmatter closed by a fence", "name: deploy\ndescription: x\n---\n# Deploy\nDeploys the app.\n", "deploy", "Deploys the app.", []string{"no-frontmatter@1:1"}},
		{"a prose line with a colon is prose", "Note: read the runbook first.\n", "deploy", "Note: read the runbook first.", []string{"no-frontmatter@1:1"}},
		{"a code fence of four backticks holds three", "````md\n```\nnot this\n````\nThis.\n", "deploy", "This.", []string{"no-frontmatter@1:1"}},
		{"a tilde fence is not closed by backticks", "~~~\n```\nnot this\n~~~\nThis.\n", "deploy", "This.", []string{"no-frontmatter@1:1"}},
		{"docstring quotes and what they hold", "\"\"\"\nname: deploy\nnot this either\n\"\"\"\nThis.\n", "deploy", "This.", []string{"no-frontmatter@1:1"}},
		{"single-quote docstring", "'''\nnot this\n'''\nThis.\n", "deploy", "This.", []string{"no-frontmatter@1:1"}},
		{"a lone quote line", "\"\"\"\"\"\"\nThis.\n", "deploy", "This.", []string{"no-frontmatter@1:1"}},
		{"comment over several lines, text after it", "<!--\nnot this\n--> This.\n", "deploy", "This.", []string{"no-frontmatter@1:1"}},
		{"comment then text on one line", "<!-- x --> This.\n", "deploy", "This.", []string{"no-frontmatter@1:1"}},
		{"table without outer pipes", "a | b\n--- | ---\n1 | 2\nThis.\n", "deploy", "This.", []string{"no-frontmatter@1:1"}},
		{"images and badges", "![logo](logo.png)\n[![ci](https://x/b.svg)](https://x) ![v](v.svg)\nThis.\n", "deploy", "This.", []string{"no-frontmatter@1:1"}},
		{"rules", "***\n- - -\n___\nThis.\n", "deploy", "This.", []string{"no-frontmatter@1:1"}},
		{"setext heading", "Deploy Tool\n===========\nThis.\n", "deploy", "This.", []string{"no-frontmatter@1:1"}},
		{"setext heading is the fallback", "Deploy Tool\n-----------\n", "deploy", "Deploy Tool", []string{"no-frontmatter@1:1"}},
		{"fenced frontmatter without description: body keys are prose", "---\nname: deploy\n---\nmode: fast is the default.\n", "deploy", "mode: fast is the default.", []string{"no-description@1:1"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, diags := Parse([]byte(tt.src), &Options{Path: "/r/deploy.md", Flat: true})
			if diff := cmp.Diff(tt.diags, diagKeys(diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if tt.wantName == "" {
				if s != nil {
					t.Fatal("loaded, want rejected")
				}
				return
			}
			if s == nil {
				t.Fatalf("rejected: %v", diags)
			}
			if s.Name != tt.wantName || s.Description != tt.wantDesc {
				t.Errorf("got %q %q, want %q %q", s.Name, s.Description, tt.wantName, tt.wantDesc)
			}
		})
	}
}

func TestParseEncoding(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		src  string
		want string
	}{
		{"invalid UTF-8", "---\nname: x\ndescription: caf\xe9\n---\nbody", "invalid-encoding@3:17"},
		{"NUL byte", "---\nname: x\n\x00\n---\nbody", "invalid-encoding@3:1"},
		{"UTF-16 BOM", "\xFF\xFE-\x00-\x00-\x00", "invalid-encoding@1:1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, diags := Parse([]byte(tt.src), &Options{Path: "/r/x/SKILL.md"})
			if s != nil {
				t.Fatal("loaded a file that is not UTF-8 text")
			}
			if got := diagKeys(diags); !cmp.Equal(got, []string{tt.want}) {
				t.Errorf("diagnostics %v, want %v", got, tt.want)
			}
		})
	}
}

func TestParseSkipBody(t *testing.T) {
	t.Parallel()
	src := []byte("---\nname: x\ndescription: d\n---\n\nThe body.\n")
	s, _ := Parse(src, &Options{Path: "/r/x/SKILL.md", SkipBody: true})
	if s.Body != "" {
		t.Errorf("SkipBody kept the body %q", s.Body)
	}
	if got := string(src[s.BodyOffset:]); got != "The body.\n" || s.BodyLine != 6 || s.BodyLines != 1 {
		t.Errorf("body offset %d (%q) line %d lines %d", s.BodyOffset, got, s.BodyLine, s.BodyLines)
	}
}

func TestDiagnosticString(t *testing.T) {
	t.Parallel()
	d := Diagnostic{Code: diagcode.NameMismatch, Severity: SeverityWarning, Path: "/a/SKILL.md", Line: 2, Column: 7, Message: "m"}
	if got, want := d.String(), "/a/SKILL.md:2:7: warning: m [name-mismatch]"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	d.Line, d.Column = 0, 0
	if got, want := d.String(), "/a/SKILL.md: warning: m [name-mismatch]"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
}

func TestCodesAreDocumented(t *testing.T) {
	t.Parallel()
	seen := map[Code]bool{}
	for _, ci := range Codes() {
		if seen[ci.Code] {
			t.Errorf("code %s listed twice", ci.Code)
		}
		seen[ci.Code] = true
		if ci.Summary == "" || ci.Source == "" || ci.Help == "" || (ci.Severity != SeverityError && ci.Severity != SeverityWarning && ci.Severity != SeverityNote) {
			t.Errorf("code %s is missing its summary, source or severity", ci.Code)
		}
	}
}

func TestSplitTools(t *testing.T) {
	t.Parallel()
	got := splitTools(" Bash(git add:*)  Read,Write\tBash(jq, yq) ")
	want := []string{"Bash(git add:*)", "Read", "Write", "Bash(jq, yq)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestFrontmatterMergeKeyIsAKey(t *testing.T) {
	t.Parallel()
	src := "---\nname: x\ndescription: d\nbase: &b {a: 1}\nmore:\n  <<: *b\n  c: 2\n---\nbody\n"
	s, diags := Parse([]byte(src), &Options{Path: "/r/x/SKILL.md"})
	if s == nil {
		t.Fatalf("rejected: %v", diags)
	}
	more, _ := s.Frontmatter.Get("more")
	if got := more.(Map).Keys(); !cmp.Equal(got, []string{"<<", "c"}) {
		t.Errorf("keys of more: %v, want << kept as a key (YAML 1.2 core)", got)
	}
}

// TestParseDescriptionOverSpecSaysTheCatalogCuts checks that a description
// over the specification's 1024 characters also says where the catalog cuts
// it, since the catalog's cut is what a model sees.
func TestParseDescriptionOverSpecSaysTheCatalogCuts(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		max  int
		want string
	}{
		{0, "the description is 1100 characters, over the specification's 1024; the catalog cuts it at 240"},
		{2000, "the description is 1100 characters, over the specification's 1024"},
		{-1, "the description is 1100 characters, over the specification's 1024"},
	} {
		src := "---\nname: x\ndescription: " + strings.Repeat("é", 1100) + "\n---\nbody\n"
		_, diags := Parse([]byte(src), &Options{Path: "/r/x/SKILL.md", MaxDescriptionChars: tt.max})
		if len(diags) != 1 || diags[0].Code != diagcode.DescriptionTooLong || diags[0].Message != tt.want {
			t.Errorf("max %d: got %v, want one description-too-long %q", tt.max, diags, tt.want)
		}
	}
}

// TestParseStrictRefusesWhatLenientLoads checks that the frontmatter
// lenient mode closes after its block of keys and the skill without a body
// stay errors in strict mode, and in a file cut at maxSkillBytes.
func TestParseStrictRefusesWhatLenientLoads(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, src string
		opts      Options
		want      []string
	}{
		{"unclosed, strict", "---\nname: x\ndescription: d\n\nbody\n", Options{Mode: Strict}, []string{"parse-error@1:1"}},
		{"unclosed, truncated", "---\nname: x\ndescription: d\n\nbody\n", Options{Truncated: true}, []string{"parse-error@1:1"}},
		{"comment before the fence, strict", "<!-- c -->\n---\nname: x\ndescription: d\n---\nbody\n", Options{Mode: Strict}, []string{"no-frontmatter@1:1"}},
		{"closed by ..., strict", "---\nname: x\ndescription: d\n...\nbody\n", Options{Mode: Strict}, []string{"parse-error@1:1"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			opts.Path = "/ws/skills/x/SKILL.md"
			s, diags := Parse([]byte(tt.src), &opts)
			if s != nil || !hasErrors(diags) {
				t.Errorf("loaded: %v", diags)
			}
			if diff := cmp.Diff(tt.want, diagKeys(diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParseKeyCase checks that Name and Description in another letter case
// are read in lenient mode when the real key is missing, with field-invalid,
// and stay unknown fields in strict mode or beside the real key.
func TestParseKeyCase(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, fm  string
		mode      Mode
		wantName  string
		wantDesc  string
		wantDiags []string
	}{
		{"Description", "name: x\nDescription: The real one.", Lenient, "x", "The real one.", []string{"field-invalid@3:1"}},
		{"Name and DESCRIPTION", "Name: x\nDESCRIPTION: The real one.", Lenient, "x", "The real one.", []string{"field-invalid@2:1", "field-invalid@3:1"}},
		{"beside the real key", "name: x\ndescription: Real.\nDescription: Other.", Lenient, "x", "Real.", []string{"unknown-field@4:1"}},
		{"two variants: the first", "name: x\nDescription: First.\nDESCRIPTION: Second.", Lenient, "x", "First.", []string{"field-invalid@3:1", "unknown-field@4:1"}},
		{"strict: unknown", "name: x\nDescription: The real one.", Strict, "x", "Body line.", []string{"unknown-field@3:1", "no-description@1:1"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, diags := Parse([]byte("---\n"+tt.fm+"\n---\nBody line.\n"), &Options{Path: "/r/x/SKILL.md", Mode: tt.mode, KeepRejected: true})
			if diff := cmp.Diff(tt.wantDiags, diagKeys(diags)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if s == nil || s.Name != tt.wantName || s.Description != tt.wantDesc {
				t.Errorf("got %+v, want name %q description %q", s, tt.wantName, tt.wantDesc)
			}
		})
	}
}

// TestParentName holds the shortcut to what filepath gives, on clean
// paths and on every kind it must decline.
func TestParentName(t *testing.T) {
	t.Parallel()
	for _, p := range []string{
		"/a/b/SKILL.md", "a/SKILL.md", "/SKILL.md", "SKILL.md", "/a/b/", "/a//b/SKILL.md", "/a/./b/SKILL.md",
		"/a/../b/SKILL.md", "./a/SKILL.md", "../a/SKILL.md", "/a/.hidden/SKILL.md", "/a/b./SKILL.md", "/a/b/..",
		"/a/b/.", "/", "//", "a", "/é/日本/SKILL.md", "/a b/c d/SKILL.md", "/a/b/c/d/e/SKILL.md", "a/b",
	} {
		want := filepath.Base(filepath.Dir(filepath.Clean(p)))
		if got, ok := parentName(p); ok && got != want {
			t.Errorf("parentName(%q) = %q, filepath gives %q", p, got, want)
		}
	}
	if name, ok := parentName("/w/skills/pdf/SKILL.md"); !ok || name != "pdf" {
		t.Errorf("parentName of a catalog path = %q, %v; want pdf, true", name, ok)
	}
}

// TestMisplacedField: lenient unknown-field is for keys meant as a field
// some host reads, never for extra information no host reads.
func TestMisplacedField(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		lines string
		want  []string
	}{
		{"allowed_tools: Read\nallowedTools: Read\nAllowed-Tools: Read\n", []string{"unknown-field@4:1", "unknown-field@5:1", "unknown-field@6:1"}},
		{"triggers: [a]\ntrigger: a\nuse_when: a\n", []string{"unknown-field@4:1", "unknown-field@5:1", "unknown-field@6:1"}},
		{"tools: [Read, Bash]\n", []string{"unknown-field@4:1"}},
		{"tools: Bash(git:*)\n", []string{"unknown-field@4:1"}},
		{"tools: [computer, file_operations]\n", nil},
		{"licence: MIT\ncompatibilty: x\ndescripton: x\n", []string{"unknown-field@4:1", "unknown-field@5:1"}},
		{"metadata.openclaw: x\n", []string{"unknown-field@4:1"}},
		{"summary: x\n", nil}, // beside a description: extra information
		{"homepage: x\nauthor: a\ncategory: c\ntags: [a]\nversion: 1\nmodels: [a]\nkeywords: a\nrequires: x\n", nil},
	} {
		src := "---\nname: f\ndescription: d\n" + tt.lines + "---\nbody\n"
		_, diags := Parse([]byte(src), &Options{Path: "/r/f/SKILL.md"})
		if diff := cmp.Diff(tt.want, diagKeys(diags)); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.lines, diff)
		}
	}
}

// Every finding about a file whose name was read carries that name
// (Diagnostic.Skill, "skill" in list --json), also those made before the
// name was read: a script that groups findings by skill lost the
// parse-recovered and unknown-field ones.
func TestParseDiagnosticsNameTheSkill(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, src, path, want string
		code                  Code
	}{
		{"repair before name", "---\ndescription: Use when: asked\nname: x\n---\nbody", "/s/x/SKILL.md", "x", diagcode.ParseRecovered},
		{"unknown field before name", "---\nlicence: MIT\nname: x\ndescription: d\n---\nbody", "/s/x/SKILL.md", "x", diagcode.UnknownField},
		{"repair after name", "---\nname: x\ndescription: Use when: asked\n---\nbody", "/s/x/SKILL.md", "x", diagcode.ParseRecovered},
		{"name from the folder", "---\ndescription: Use when: asked\n---\nbody", "/s/folder/SKILL.md", "folder", diagcode.ParseRecovered},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := Parse([]byte(tt.src), &Options{Path: tt.path})
			found := false
			for _, d := range diags {
				found = found || d.Code == tt.code
				if d.Skill != tt.want {
					t.Errorf("%s: Skill %q, want %q", d, d.Skill, tt.want)
				}
			}
			if !found {
				t.Errorf("no %s in %v", tt.code, diags)
			}
		})
	}
}
