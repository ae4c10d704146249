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

// spareDescriptors is how many descriptors TestFewDescriptors leaves a
// listing beyond those its process holds before it starts. The walk can
// hold four at once (the root's O_PATH descriptor and one open folder a
// level of the generated tree, skills/team-NN/area-NN); one more lets a
// reader open a SKILL.md meanwhile. Measured on this tree (9 open before
// the listing, GOMAXPROCS 4): two spare leave 30-259 of 300 unreadable
// in every run, the walk and the readers waiting on each other until
// OpenRetry's time bound; three passed 3 runs alone and 25 beside six
// busy loops, and failed in full go test runs (a fixed limit of 12).
const spareDescriptors = 5

// TestFewDescriptors: under a descriptor limit of spareDescriptors above
// those already open, made the hard limit so Go cannot raise it, a
// listing with four processors still lists every skill, the same ones as
// without the limit, and reports nothing unreadable: a reader or the walk
// that finds the table full while the others are about to close theirs
// tries again (fsx.OpenRetry) instead of dropping the file. It runs in a
// child process of the test binary, whose limit it lowers. The limit
// counts the descriptors already open (standard streams, the runtime's
// poller and cgroup files, and any the test binary inherited without
// close-on-exec, such as a shell's), where a fixed 12 left the listing
// two to four spare by what the harness passed down.
func TestFewDescriptors(t *testing.T) {
	if testing.Short() && os.Getenv("SKILLET_LOWFD_CHILD") == "" {
		t.Skip("lists 300 skills twice in a child process: skipped with -short")
	}
	if os.Getenv("SKILLET_LOWFD_CHILD") == "1" {
		// The parent's tree: one the child generated itself would be
		// left behind, as TestMain's RemoveAll cannot open the tree's
		// folders under the lowered limit.
		ws := os.Getenv("SKILLET_LOWFD_WS")
		if ws == "" {
			t.Fatal("SKILLET_LOWFD_WS names no tree")
		}
		open, err := openDescriptors()
		if err != nil {
			t.Fatal(err)
		}
		limit := uint64(open + spareDescriptors)
		lim := syscall.Rlimit{Cur: limit, Max: limit}
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			t.Fatal(err)
		}
		fmt.Printf("open=%d limit=%d\n", open, limit)
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
	ws := benchTree(t, 300)
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
	cmd.Env = append(os.Environ(), "SKILLET_LOWFD_CHILD=1", "SKILLET_LOWFD_WS="+ws, "GOMAXPROCS=4")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	got := 0
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "open=") {
			t.Logf("child: %s", line)
		}
		if !strings.HasPrefix(line, "each=") {
			continue
		}
		got++
		wantLine := fmt.Sprintf("skills=%d unreadable=0 names=%s", len(want), strings.Join(want, ","))
		if !strings.Contains(line, wantLine) {
			head, _, _ := strings.Cut(line, " names=")
			t.Errorf("under %d spare descriptors: %s; want %d skills, none unreadable, the same as without the limit", spareDescriptors, head, len(want))
		}
	}
	if got != 2 {
		t.Fatalf("child printed %d listings, want 2:\n%s", got, out)
	}
}

// openDescriptors is how many descriptors the process has open, from
// /proc/self/fd, not counting the one reading it.
func openDescriptors() (int, error) {
	f, err := os.Open("/proc/self/fd")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return 0, err
	}
	return len(names) - 1, nil
}
