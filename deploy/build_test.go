// Package deploy_test checks the container build of the Dockerfile at the
// module root without Docker: its build command makes a static binary, and
// the binary runs its ENTRYPOINT (on loopback) with a read-only workspace
// and nothing writable.
package deploy_test

import (
	"bufio"
	"context"
	"debug/elf"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// teamToken is the bearer token of the served instance: as long as the
// server asks (at least 32 characters).
const teamToken = "team-token-0123456789abcdef0123456789"

func TestDockerfileBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary: skipped with -short")
	}
	if os.Getenv("CI") == "" && os.Getenv("SKILLET_CONTAINER_TEST") == "" {
		// A static build with the image's flags shares nothing with the
		// test binaries' build cache: on a fresh clone it rebuilds the
		// standard library and every dependency (about 160 s on two
		// cores). CI sets CI=true; anyone else asks for it.
		t.Skip("builds the image's static binary from scratch: set SKILLET_CONTAINER_TEST=1 (CI sets CI=true) to run it")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the image is linux")
	}
	df, err := os.ReadFile("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(df), "\\\n", " ")
	build := regexp.MustCompile(`(?m)^RUN CGO_ENABLED=0 go build (.*) -o /out/skillet (\S+)$`).FindStringSubmatch(text)
	if build == nil {
		t.Fatal("the Dockerfile has no `RUN CGO_ENABLED=0 go build ... -o /out/skillet PKG` line")
	}
	entry := regexp.MustCompile(`(?m)^ENTRYPOINT (\[.*\])$`).FindStringSubmatch(text)
	if entry == nil {
		t.Fatal("the Dockerfile has no exec-form ENTRYPOINT")
	}
	var argv []string
	if err := json.Unmarshal([]byte(entry[1]), &argv); err != nil {
		t.Fatalf("ENTRYPOINT: %v", err)
	}
	if !regexp.MustCompile(`(?m)^USER [1-9]\d*:[1-9]\d*$`).MatchString(text) {
		t.Error("the image does not run as a numeric non-root user")
	}

	bin := filepath.Join(t.TempDir(), "skillet")
	args := append([]string{"build"}, splitFlags(build[1])...)
	args = append(args, "-o", bin, strings.Replace(build[2], "./", "../", 1))
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	libs, _ := f.ImportedLibraries()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("the binary has a dynamic loader (PT_INTERP): not static")
		}
	}
	if len(libs) > 0 {
		t.Errorf("the binary needs shared libraries: %v", libs)
	}
	f.Close()

	// A read-only workspace, a read-only token, a home that cannot be
	// written: the ENTRYPOINT's arguments with only paths and the address
	// put on loopback.
	dir := t.TempDir()
	ws := filepath.Join(dir, "skills")
	skill := filepath.Join(ws, "skills", "hello")
	if err := os.MkdirAll(skill, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(skill, "SKILL.md"), []byte("---\nname: hello\ndescription: Says hello.\n---\nHello.\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	token := filepath.Join(dir, "token")
	if err := os.WriteFile(token, []byte(teamToken+"\n"), 0o400); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	for _, p := range []string{skill, filepath.Join(ws, "skills"), ws} {
		if err := os.Chmod(p, 0o555); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(home, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, p := range []string{ws, filepath.Join(ws, "skills"), skill} {
			_ = os.Chmod(p, 0o755)
		}
	})
	run := argv[1:]
	for i, a := range run {
		switch a {
		case "/skills":
			run[i] = ws
		case "/run/secrets/skillet/token":
			run[i] = token
		case "0.0.0.0:8080":
			run[i] = "127.0.0.1:0"
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	srv := exec.CommandContext(ctx, bin, run...)
	srv.Env = []string{"HOME=" + home, "XDG_CACHE_HOME=" + home}
	srv.Dir = home
	stderr, _ := srv.StderrPipe()
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
	url := ""
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if m := regexp.MustCompile(`url=(http://127\.0\.0\.1:\d+)/mcp`).FindStringSubmatch(sc.Text()); m != nil {
			url = m[1]
			break
		}
	}
	if url == "" {
		t.Fatal("the server did not start")
	}
	go func() { _, _ = io.Copy(io.Discard, stderr) }()
	get := func(path, auth string) int {
		req, _ := http.NewRequestWithContext(ctx, "POST", url+path, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"resources/list"}`))
		if path != "/mcp" {
			req.Method = "GET"
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, tt := range []struct {
		path, auth string
		want       int
	}{
		{"/readyz", "", 200},
		{"/healthz", "", 200},
		{"/mcp", "", 401},
		{"/mcp", "Bearer " + teamToken, 200},
		{"/metrics", "Bearer " + teamToken, 200},
	} {
		if got := get(tt.path, tt.auth); got != tt.want {
			t.Errorf("%s with %q: %d, want %d", tt.path, tt.auth, got, tt.want)
		}
	}
}

// splitFlags splits the go build flags of the Dockerfile, with their
// double quotes.
func splitFlags(s string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`(-[\w.]+=)?"[^"]*"|\S+`).FindAllString(s, -1) {
		out = append(out, strings.ReplaceAll(m, `"`, ""))
	}
	return out
}
