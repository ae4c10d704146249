package catalog

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/skillet-go/skillet/internal/diagcode"
)

// TestFewDescriptors: under a descriptor limit of 12, which Go cannot
// raise (the hard limit), a listing with four processors still lists
// every skill, the same ones as without the limit, and reports nothing
// unreadable: a reader or the walk that finds the table full while the
// others are about to close theirs tries again (fsx.OpenRetry) instead of
// dropping the file. It runs in a child process of the test binary, whose
// limit it lowers.
func TestFewDescriptors(t *testing.T) {
	if testing.Short() && os.Getenv("SKILLET_LOWFD_CHILD") == "" {
		t.Skip("lists 300 skills twice in a child process: skipped with -short")
	}
	ws := benchTree(t, 300)
	if os.Getenv("SKILLET_LOWFD_CHILD") == "1" {
		lim := syscall.Rlimit{Cur: 12, Max: 12}
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			t.Fatal(err)
		}
		for _, each := range []bool{false, true} {
			c, err := New(context.Background(), &Options{Workspace: ws, NoUser: true, NoConfigFile: true})
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			var l *Listing
			if each {
				l, err = c.each(context.Background(), func(_ *Listing, s *Skill) error {
					names = append(names, s.Name)
					return nil
				})
			} else if l, err = c.List(context.Background()); err == nil {
				for _, s := range l.Skills {
					names = append(names, s.Name)
				}
			}
			if err != nil {
				t.Fatal(err)
			}
			unreadable := 0
			for _, d := range l.Diagnostics {
				if d.Code == diagcode.Unreadable {
					unreadable++
				}
			}
			fmt.Printf("each=%v skills=%d unreadable=%d names=%s\n", each, len(names), unreadable, strings.Join(names, ","))
		}
		return
	}
	c, err := New(context.Background(), &Options{Workspace: ws, NoUser: true, NoConfigFile: true})
	if err != nil {
		t.Fatal(err)
	}
	l, err := c.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, s := range l.Skills {
		want = append(want, s.Name)
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestFewDescriptors$")
	cmd.Env = append(os.Environ(), "SKILLET_LOWFD_CHILD=1", "GOMAXPROCS=4")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	got := 0
	for _, line := range strings.Split(string(out), "\n") {
		if !strings.HasPrefix(line, "each=") {
			continue
		}
		got++
		wantLine := fmt.Sprintf("skills=%d unreadable=0 names=%s", len(want), strings.Join(want, ","))
		if !strings.Contains(line, wantLine) {
			head, _, _ := strings.Cut(line, " names=")
			t.Errorf("under 12 descriptors: %s; want %d skills, none unreadable, the same as without the limit", head, len(want))
		}
	}
	if got != 2 {
		t.Fatalf("child printed %d listings, want 2:\n%s", got, out)
	}
}
