package agentx

import (
	"context"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/catalog"
)

func TestCloseFence(t *testing.T) {
	for _, tc := range []struct{ in, want, closed string }{
		{"# Title\n\nplain text", "# Title\n\nplain text", ""},
		{"```go\ncode", "```go\ncode\n```", "```"},
		{"````\nx\n```\nstill open", "````\nx\n```\nstill open\n````", "````"},
		{"```\nclosed\n```\nafter", "```\nclosed\n```\nafter", ""},
		{"- item\n  ~~~\n  cut", "- item\n  ~~~\n  cut\n  ~~~", "~~~"},
		{"inline ```code``` only", "inline ```code``` only", ""},
	} {
		got, closed := CloseFence(tc.in)
		if got != tc.want || closed != tc.closed {
			t.Errorf("CloseFence(%q) = %q, %q; want %q, %q", tc.in, got, closed, tc.want, tc.closed)
		}
	}
}

func TestTruncationNote(t *testing.T) {
	n := TruncationNote(1000, 600, "```", "/s/SKILL.md")
	for _, want := range []string{"1000 bytes", "first 600 bytes", "400 bytes are left out", "closed with ```", "The whole file is /s/SKILL.md."} {
		if !strings.Contains(n, want) {
			t.Errorf("note %q lacks %q", n, want)
		}
	}
	if n := TruncationNote(10, 20, "", "x"); !strings.Contains(n, "0 bytes are left out") || strings.Contains(n, "closed") {
		t.Errorf("note %q", n)
	}
}

func TestWithListing(t *testing.T) {
	if ListingFrom(context.Background()) != nil {
		t.Error("a listing from an empty context")
	}
	l := &catalog.Listing{Workspace: "/w"}
	if got := ListingFrom(WithListing(context.Background(), l)); got != l {
		t.Errorf("ListingFrom = %v, want the listing put in", got)
	}
}
