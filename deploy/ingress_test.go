package deploy_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/skillet-go/skillet/mcpserver"
)

// TestIngressAgrees: the Ingress that ends TLS sends its path, the server's
// MCP endpoint, to the Service's port, which targets the port the
// container serves and probes; the probes ask the server's health and
// readiness paths; the body size the Ingress lets through is the server's
// request limit; and the URL README.md gives for the Kubernetes setup is
// the one the Ingress serves.
func TestIngressAgrees(t *testing.T) {
	ing, svc, c := manifest(t, "ingress.yaml"), manifest(t, "service.yaml"), skilletContainer(t)
	if k := at(t, ing, "kind").Value; k != "Ingress" {
		t.Fatalf("ingress.yaml is a %s", k)
	}
	if !slices.Contains(strs(at(t, manifest(t, "kustomization.yaml"), "resources")), "ingress.yaml") {
		t.Error("kustomization.yaml does not apply ingress.yaml")
	}
	tls := at(t, ing, "spec", "tls", "0")
	host := at(t, ing, "spec", "rules", "0", "host").Value
	if !slices.Contains(strs(at(t, tls, "hosts")), host) || at(t, tls, "secretName").Value == "" {
		t.Errorf("the Ingress's TLS does not cover its host %s with a secret", host)
	}
	path := at(t, ing, "spec", "rules", "0", "http", "paths", "0")
	if p := at(t, path, "path").Value; p != mcpserver.Path {
		t.Errorf("the Ingress routes %s, the server serves %s", p, mcpserver.Path)
	}
	backend := at(t, path, "backend", "service")
	if got, want := at(t, backend, "name").Value, at(t, svc, "metadata", "name").Value; got != want {
		t.Errorf("the Ingress's backend is the service %s, the Service is %s", got, want)
	}
	port := at(t, svc, "spec", "ports", "0")
	if got, want := at(t, backend, "port", "name").Value, at(t, port, "name").Value; got != want {
		t.Errorf("the Ingress's backend port is %s, the Service's %s", got, want)
	}
	target := at(t, port, "targetPort").Value
	cport := at(t, c, "ports", "0")
	if at(t, cport, "name").Value != target {
		t.Errorf("the Service targets port %s, the container's port is %s", target, at(t, cport, "name").Value)
	}
	args := strs(at(t, c, "args"))
	if i := slices.Index(args, "--http"); i < 0 || i+1 == len(args) || !strings.HasSuffix(args[i+1], ":"+at(t, cport, "containerPort").Value) {
		t.Errorf("the container's port %s is not the one --http serves (%q)", at(t, cport, "containerPort").Value, args)
	}
	if slices.Contains(args, "--tls-cert") {
		t.Error("the server serves TLS itself, but the Ingress ends TLS and sends plain HTTP")
	}
	for probe, want := range map[string]string{"readinessProbe": "/readyz", "livenessProbe": "/healthz"} {
		g := at(t, c, probe, "httpGet")
		if at(t, g, "path").Value != want || at(t, g, "port").Value != target {
			t.Errorf("%s asks %s on %s, want %s on %s", probe, at(t, g, "path").Value, at(t, g, "port").Value, want, target)
		}
	}
	// The request limit: --max-request-bytes, 4 MiB by default.
	if got := at(t, ing, "metadata", "annotations", "nginx.ingress.kubernetes.io/proxy-body-size").Value; got != "4m" || slices.Contains(args, "--max-request-bytes") {
		t.Errorf("the Ingress lets bodies of %s through; the server takes 4 MiB (4m) by default", got)
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	url := "https://" + host + mcpserver.Path
	if !regexp.MustCompile(regexp.QuoteMeta(url) + `([^\w/:.-]|$)`).Match(readme) {
		t.Errorf("README.md does not give %s, the URL the Ingress of deploy/kubernetes serves", url)
	}
}
