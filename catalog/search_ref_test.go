package catalog

import (
	"context"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/internal/testcorpus"
)

func corpusListing(t *testing.T) *Listing {
	t.Helper()
	dir := testcorpus.Dir(t)
	c, err := New(context.Background(), &Options{Workspace: t.TempDir(), NoUser: true, NoConfigFile: true, ExtraPaths: testcorpus.Roots(dir)})
	if err != nil {
		t.Fatal(err)
	}
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Skills) < 100 {
		t.Fatalf("the corpus lists %d skills", len(l.Skills))
	}
	return l
}

// TestSearchIsBoundedInTerms: a query's allocations grow with its
// matches, not with skills × words, and a 64 KB query costs about what
// its first maxQueryTerms words cost.
func TestSearchIsBoundedInTerms(t *testing.T) {
	l := corpusListing(t)
	words := func(n int) string {
		var q []string
		for i := range n {
			q = append(q, "zq"+strconv.Itoa(i)) // matches no skill
		}
		return strings.Join(q, " ")
	}
	alloc := func(q string) int64 {
		if _, err := l.Search(q, 0); err != nil { // warms the token cache
			t.Fatal(err)
		}
		runtime.GC()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		for range 5 {
			if _, err := l.Search(q, 0); err != nil {
				t.Fatal(err)
			}
		}
		runtime.ReadMemStats(&m1)
		return int64(m1.TotalAlloc-m0.TotalAlloc) / 5
	}
	one, many := alloc(words(1)), alloc(words(maxQueryTerms))
	// A float per skill and term would be len(l.Skills)*63*8 bytes more.
	if extra, limit := many-one, int64(len(l.Skills))*8*8; extra > limit {
		t.Errorf("%d terms allocate %d bytes more than one (skills %d), over %d", maxQueryTerms, extra, len(l.Skills), limit)
	}
	huge := words(12000)
	if len(huge) < 64<<10 {
		t.Fatalf("the query is %d bytes", len(huge))
	}
	if n := len(queryTerms(huge)); n != maxQueryTerms {
		t.Fatalf("queryTerms kept %d words of the 64 KB query, want %d", n, maxQueryTerms)
	}
	if got, limit := alloc(huge), many+4*int64(len(huge)); got > limit {
		t.Errorf("a 64 KB query allocates %d bytes a search, over %d", got, limit)
	}
}
