package lint

import (
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/skillet-go/skillet/internal/fsx"
	"github.com/skillet-go/skillet/internal/outfmt"
	"github.com/skillet-go/skillet/skill"
)

// SARIF 2.1.0 (OASIS, Static Analysis Results Interchange Format), the
// subset skillet writes. Property names follow the standard's schema.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                   `json:"tool"`
	OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
	Results            []sarifResult               `json:"results"`
	ColumnKind         string                      `json:"columnKind"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string          `json:"id"`
	ShortDescription     sarifText       `json:"shortDescription"`
	FullDescription      sarifText       `json:"fullDescription"`
	Help                 sarifText       `json:"help"`
	HelpURI              string          `json:"helpUri,omitempty"`
	DefaultConfiguration sarifRuleConfig `json:"defaultConfiguration"`
	Properties           map[string]any  `json:"properties,omitempty"`
}

type sarifRuleConfig struct {
	// Enabled is false for a rule off by default (CodeInfo.OptIn):
	// SARIF's reportingConfiguration.enabled, true when absent.
	Enabled *bool  `json:"enabled,omitempty"`
	Level   string `json:"level"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID           string          `json:"ruleId"`
	RuleIndex        int             `json:"ruleIndex"`
	Level            string          `json:"level"`
	Message          sarifText       `json:"message"`
	Locations        []sarifLocation `json:"locations"`
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
}

type sarifLocation struct {
	ID               *int          `json:"id,omitempty"`
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
	Message          *sarifText    `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
	Region           *sarifRegion     `json:"region,omitempty"`
}

type sarifArtifactLoc struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// docsURL is where the page of every diagnostic code lives in the
// repository (one "## code" section each).
const docsURL = "https://github.com/skillet-go/skillet/blob/main/docs/lint.md"

// HelpURL returns the address of code's documentation: its section of
// docs/lint.md in the repository.
func HelpURL(code skill.Code) string { return docsURL + "#" + string(code) }

// sarifSchema is the schema URI SARIF 2.1.0 logs name.
const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

// srcRoot is the uriBaseId of paths inside the workspace, the name GitHub
// code scanning resolves against the repository root.
const srcRoot = "%SRCROOT%"

// WriteSARIF writes the report as a SARIF 2.1.0 log with one run: the tool
// skillet (version as given) with one rule per diagnostic code (Rules, with
// help text and default level), and one result per diagnostic. Paths inside
// the workspace are relative to it (uriBaseId %SRCROOT%, which code-scanning
// services map to the repository root); others are absolute file URIs.
// Columns count Unicode code points (columnKind unicodeCodePoints).
func (r *Report) WriteSARIF(w io.Writer, version string) error {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name: "skillet", Version: version,
			InformationURI: "https://github.com/skillet-go/skillet",
		}},
		Results:    []sarifResult{},
		ColumnKind: "unicodeCodePoints",
	}
	index := map[skill.Code]int{}
	for i, rule := range skill.Codes() {
		index[rule.Code] = i
		level := sarifLevel(rule.Severity)
		tags := []string{"skills"}
		if rule.Spec {
			tags = append(tags, "specification")
		}
		props := map[string]any{"tags": tags}
		if rule.Fixable != "" {
			props["fixable"] = rule.Fixable
		}
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
			ID:                   string(rule.Code),
			ShortDescription:     sarifText{Text: rule.Summary},
			FullDescription:      sarifText{Text: rule.Help},
			Help:                 sarifText{Text: rule.Help + " Source: " + rule.Source + "."},
			HelpURI:              HelpURL(rule.Code),
			DefaultConfiguration: sarifRuleConfig{Level: level, Enabled: optInOff(rule.OptIn)},
			Properties:           props,
		})
	}
	if r.Workspace != "" {
		run.OriginalURIBaseIDs = map[string]sarifArtifactLoc{srcRoot: {URI: fileURI(r.Workspace, true)}}
	}
	for _, d := range r.Diagnostics {
		i, ok := index[d.Code]
		if !ok {
			continue
		}
		res := sarifResult{
			RuleID: string(d.Code), RuleIndex: i, Level: sarifLevel(d.Severity),
			Message:   sarifText{Text: d.Message},
			Locations: []sarifLocation{{PhysicalLocation: r.physical(d.Path, d.Line, d.Column)}},
		}
		if d.Related != "" {
			id := 1
			res.RelatedLocations = []sarifLocation{{ID: &id, PhysicalLocation: r.physical(d.Related, 0, 0),
				Message: &sarifText{Text: "the other copy"}}}
		}
		run.Results = append(run.Results, res)
	}
	return outfmt.JSON(w, sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{run}})
}

// sarifLevel is the SARIF level (§3.27.10: error, warning or note) of a
// finding or rule of severity sev: the text report's level, so a rule
// lint: severity makes a note is a note in the log too.
func sarifLevel(sev skill.Severity) string {
	switch sev {
	case skill.SeverityError:
		return "error"
	case skill.SeverityNote:
		return "note"
	}
	return "warning"
}

func (r *Report) physical(p string, line, col int) sarifPhysical {
	ph := sarifPhysical{ArtifactLocation: r.artifact(p)}
	if line > 0 {
		ph.Region = &sarifRegion{StartLine: line, StartColumn: col}
	}
	return ph
}

func (r *Report) artifact(p string) sarifArtifactLoc {
	if r.Workspace != "" && fsx.Within(p, r.Workspace) {
		rel, err := filepath.Rel(r.Workspace, p)
		if err == nil {
			if rel == "." {
				return sarifArtifactLoc{URI: "./", URIBaseID: srcRoot}
			}
			return sarifArtifactLoc{URI: escapePath(filepath.ToSlash(rel)), URIBaseID: srcRoot}
		}
	}
	return sarifArtifactLoc{URI: fileURI(p, false)}
}

// fileURI makes a file: URI of an absolute path (with a final "/" for a
// folder used as a base).
func fileURI(p string, dir bool) string {
	s := filepath.ToSlash(p)
	if !strings.HasPrefix(s, "/") {
		s = "/" + s // Windows: C:/x -> /C:/x
	}
	if dir && !strings.HasSuffix(s, "/") {
		s += "/"
	}
	return "file://" + escapePath(s)
}

func escapePath(p string) string {
	return (&url.URL{Path: p}).EscapedPath()
}

// optInOff is the enabled property of a rule's default configuration:
// false for a rule off by default, absent (true) otherwise.
func optInOff(optIn bool) *bool {
	if !optIn {
		return nil
	}
	off := false
	return &off
}
