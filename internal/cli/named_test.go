package cli

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
)

func TestCommandNamed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, ""},
		{[]string{"list"}, "list"},
		{[]string{"list", "--json"}, "list"},
		{[]string{"-q", "show", "x"}, "show"},
		{[]string{"-w", "list", "show", "x"}, "show"},
		{[]string{"--workspace", "serve", "prompt"}, "prompt"},
		{[]string{"--workspace=serve", "prompt"}, "prompt"},
		{[]string{"--root", "a", "--preset", "claude", "--config", "c", "search", "q"}, "search"},
		{[]string{"-w", "list"}, ""},
		{[]string{"help", "list"}, ""},
		{[]string{"__complete", "sh"}, ""},
		{[]string{"completion", "bash"}, ""},
		{[]string{"lsit"}, ""},
		{[]string{"--", "list"}, ""},
		{[]string{"-qw", "dir", "list"}, ""},
		{[]string{"tool-schema"}, "tool-schema"},
	} {
		if got := commandNamed(tc.args); got != tc.want {
			t.Errorf("commandNamed(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

// TestOneCommandTree checks that a tree with only the command being run
// behaves as the whole tree for that command: the same command is found
// and its help is the same, byte for byte.
func TestOneCommandTree(t *testing.T) {
	t.Parallel()
	for _, sc := range subcommands {
		help := func(only string) string {
			var out bytes.Buffer
			io := &IO{In: strings.NewReader(""), Out: &out, Err: &out}
			root := buildRoot(NewFactory(io), only)
			c, _, err := root.Find([]string{"-w", ".", sc.name, "--json"})
			if err != nil || c.Name() != sc.name {
				t.Fatalf("%s: tree %q finds %v, %v", sc.name, only, c, err)
			}
			root.SetArgs([]string{sc.name, "--help"})
			root.SetOut(&out)
			root.SetErr(&out)
			err = root.ExecuteContext(context.Background())
			if err != nil {
				out.WriteString("error: " + err.Error())
			}
			return out.String()
		}
		all, one := help(""), help(sc.name)
		if all != one || !strings.Contains(one, "Usage:") {
			t.Errorf("%s --help differs with only that command built:\n%s\n---\n%s", sc.name, all, one)
		}
	}
}

// TestOnlyTheCommandRun checks that Run's tree holds only the command
// being run when the arguments name one, and every command otherwise.
func TestOnlyTheCommandRun(t *testing.T) {
	t.Parallel()
	io := &IO{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"-w", "x", "list", "--json"}, 1},
		{[]string{"show", "name"}, 1},
		{[]string{"help"}, len(subcommands)},
		{nil, len(subcommands)},
	} {
		if got := len(newCmdRootOnly(NewFactory(io), tc.args).Commands()); got != tc.want {
			t.Errorf("%q: %d commands built, want %d", tc.args, got, tc.want)
		}
	}
}

func TestOneShotGC(t *testing.T) {
	t.Parallel()
	none := func(string) string { return "" }
	for _, tc := range []struct {
		command string
		env     map[string]string
		want    bool
	}{
		{"show", nil, true},
		{"prompt", nil, true},
		{"search", nil, true},
		{"tool-schema", nil, true},
		{"list", nil, false},
		{"lint", nil, true},
		{"serve", nil, false},
		{"", nil, false},
		{"show", map[string]string{"GOGC": "100"}, false},
		{"search", map[string]string{"GOMEMLIMIT": "1GiB"}, false},
	} {
		getenv := none
		if tc.env != nil {
			getenv = func(k string) string { return tc.env[k] }
		}
		percent, limit, ok := oneShotGC(tc.command, getenv)
		if ok != tc.want || (ok && (percent <= 100 || limit <= 0)) {
			t.Errorf("oneShotGC(%q, %v) = %d, %d, %v; want set: %v", tc.command, tc.env, percent, limit, ok, tc.want)
		}
	}
}

func TestCompletingWalkGC(t *testing.T) {
	t.Parallel()
	none := func(string) string { return "" }
	for _, tc := range []struct {
		args []string
		env  map[string]string
		want bool
	}{
		{[]string{"__complete", "show", "al"}, nil, true},
		{[]string{"__completeNoDesc", "show", ""}, nil, true},
		{[]string{"__complete", "show", "al"}, map[string]string{"GOGC": "100"}, false},
		{[]string{"__complete", "show", "al"}, map[string]string{"GOMEMLIMIT": "1GiB"}, false},
		{[]string{"show", "__complete"}, nil, false},
		{[]string{"completion", "bash"}, nil, false},
		{nil, nil, false},
	} {
		getenv := none
		if tc.env != nil {
			getenv = func(k string) string { return tc.env[k] }
		}
		if got := completingWalkGC(tc.args, getenv); got != tc.want {
			t.Errorf("completingWalkGC(%q, %v) = %v, want %v", tc.args, tc.env, got, tc.want)
		}
	}
}

func TestSplitShortFlags(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args, want []string
	}{
		{nil, nil},
		{[]string{"list"}, []string{"list"}},
		{[]string{"-qw", "dir", "list"}, []string{"-q", "-w", "dir", "list"}},
		{[]string{"-qv"}, []string{"-q", "-v"}},
		{[]string{"-w", "-qw", "list"}, []string{"-w", "-qw", "list"}}, // -qw is -w's value
		{[]string{"-wq", "list"}, []string{"-wq", "list"}},             // -w with the value q
		{[]string{"-qx", "list"}, []string{"-qx", "list"}},             // not the root's flags
		{[]string{"--qw", "list"}, []string{"--qw", "list"}},
		{[]string{"list", "-qw", "dir"}, []string{"list", "-qw", "dir"}}, // after the command: cobra's own
		{[]string{"--", "-qw"}, []string{"--", "-qw"}},
	} {
		if got := splitShortFlags(tc.args); !slices.Equal(got, tc.want) {
			t.Errorf("splitShortFlags(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}
