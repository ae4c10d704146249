package skill

import (
	"strings"
	"testing"
)

// TestFirstProseLineGuesses holds the description guessed for a body
// without one: metadata, labels, taglines and code are passed over, a
// lead-in takes its first list item, emphasis and links become their text,
// and a body of nothing else still gives its first line.
func TestFirstProseLineGuesses(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, body string
		unfenced   bool
		want       string
	}{
		{"key-value line", "title: \"Ledger Sync\"\n\nSyncs ledgers between two banks.\n", false, "Syncs ledgers between two banks."},
		{"a quote mark and exclamation marks", "\"!!!!!!!!!! \n", true, "\"!!!!!!!!!!"},
		{"a quotation", "\"Ship faster.\"\n\nDeploys the service.\n", true, "Deploys the service."},
		{"quoted JSON key", "\"hooks\": {\n\nRuns the release checklist.\n", true, "Runs the release checklist."},
		{"unfenced keys then JSON", "name: relay\nmetadata: {\n\"tool\": {\n\"emoji\": \"x\"\n}\n}\n\n# Relay\n\nRelays alerts to the on-call phone.\n", true, "Relays alerts to the on-call phone."},
		{"description key in the body", "description: Files expense reports from receipts.\n\nMore.\n", false, "Files expense reports from receipts."},
		{"bold label with colon", "**Version:** 2.1\n\nChecks invoices for duplicates.\n", false, "Checks invoices for duplicates."},
		{"bold label, colon outside", "**Package**: acme-cli@3\n\nDrives the acme CLI.\n", false, "Drives the acme CLI."},
		{"bold label with text", "**Rule of thumb:** measure before tuning.\n", false, "measure before tuning."},
		{"bold label and dash", "**HELPER** — renames photos by the date they were taken.\n", false, "renames photos by the date they were taken."},
		{"bold subject keeps its sentence", "**pdfgrep** searches inside PDF files.\n", false, "pdfgrep searches inside PDF files."},
		{"label line", "Maintained by: Dana\n\nPlans sprint capacity.\n", false, "Plans sprint capacity."},
		{"label with code", "Open: `tool open <file>`\n\nEdits spreadsheets from chat.\n", false, "Edits spreadsheets from chat."},
		{"label with one token", "Docs: example.org\n\nTranslates release notes.\n", false, "Translates release notes."},
		{"tagline in bold", "**Ship less, ship better.**\n\nTrims a backlog to what matters.\n", false, "Trims a backlog to what matters."},
		{"quotation", "> \"Every bug is a missing test.\"\n\nWrites a failing test first.\n", false, "Writes a failing test first."},
		{"import line", "import os\n\nCleans temporary folders.\n", true, "Cleans temporary folders."},
		{"template variable", "${LANG=\"go|rust\"} <!-- pick one -->\n\nBuilds a project skeleton.\n", false, "Builds a project skeleton."},
		{"inline code only", "`https://api.example.org/v1`\n\nQueries the example API.\n", false, "Queries the example API."},
		{"lead-in and list", "Use this skill when:\n\n- a deploy fails on staging\n- logs are missing\n", false, "Use this skill when: a deploy fails on staging"},
		{"lead-in without list", "Read this first:\n\nRotates the API keys.\n", false, "Rotates the API keys."},
		{"long line ending in colon", "This skill turns meeting notes into tasks with owners and dates, in three steps:\n\n1. read\n", false, "This skill turns meeting notes into tasks with owners and dates, in three steps:"},
		{"emphasis and links", "Formats *tables* and __lists__ with [Pandoc](https://pandoc.org) and `_private_` names.\n", false, "Formats tables and lists with Pandoc and `_private_` names."},
		{"snake_case stays", "Reads my_table and your_table.\n", false, "Reads my_table and your_table."},
		{"checklist mark", "✅ Use stable keys\n\nAnimates list changes.\n", false, "Animates list changes."},
		{"one word that is a file name", "Setup.zip\n\nPrints weather forecasts.\n", false, "Prints weather forecasts."},
		{"one plain word", "Forecasts\n", false, "Forecasts"},
		{"one-word sentence", "Deploys.\n", false, "Deploys."},
		{"Chinese without spaces", "随机生成一个密码\n", false, "随机生成一个密码"},
		{"only skipped lines", "mode: fast is the default.\n", false, "mode: fast is the default."},
		{"heading before skipped lines", "# Relay Tool\n\nversion: 1.0\n", false, "Relay Tool"},
		{"prose with a colon", "Decision tables: a compact way to encode rules.\n", false, "Decision tables: a compact way to encode rules."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := firstProseLine([]byte(tt.body), tt.unfenced); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// FuzzFirstProseLine checks that the guess never panics, is one line, and
// carries no ** emphasis marks.
func FuzzFirstProseLine(f *testing.F) {
	for _, s := range []string{"**a:** b\n", "name: x\n{\n", "Use when:\n- x\n", "**x** — y", "> \"q\"\n", "`a`\n", "${x}\n", "\"!!!!!!!!!! ", "“!!”!"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, body string, unfenced bool) {
		got := firstProseLine([]byte(body), unfenced)
		if strings.ContainsAny(got, "\n") || strings.Contains(got, "**") {
			t.Fatalf("%q gives %q", body, got)
		}
	})
}
