package archtest

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/constant"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite each public package's api.txt")

// publicPackages lists the module's importable packages (relative to the
// module): those with non-test Go files, not named main, and not under
// internal/, cmd/, examples/, bench/ or hosts/.
func publicPackages(t *testing.T, root string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{if and .GoFiles (ne .Name "main")}}{{.ImportPath}}{{end}}`, "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []string
	for _, p := range strings.Fields(string(out)) {
		rel := strings.TrimPrefix(strings.TrimPrefix(p, module), "/")
		first, _, _ := strings.Cut(rel, "/")
		if rel == "" || slices.Contains([]string{"internal", "cmd", "examples", "bench", "hosts"}, first) ||
			strings.Contains(rel, "/internal/") || strings.HasSuffix(rel, "/internal") {
			continue
		}
		pkgs = append(pkgs, rel)
	}
	return pkgs
}

// exportData runs `go list -export` for pkgs and returns every
// dependency's export-data file by import path, for the gc importer.
func exportData(t *testing.T, root string, pkgs []string) map[string]string {
	t.Helper()
	args := []string{"list", "-export", "-deps", "-json=ImportPath,Export"}
	for _, p := range pkgs {
		args = append(args, "./"+p)
	}
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH=amd64")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v\n%s", err, stderr.Bytes())
	}
	files := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct{ ImportPath, Export string }
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		files[p.ImportPath] = p.Export
	}
	return files
}

// apiText is the public API of pkg, one declaration a line, sorted by name:
// constants with their values, variables, functions, types with their
// exported fields and methods (value and pointer receivers). Doc comments
// and unexported names are left out, so the text changes exactly when a
// program that imports pkg could notice. It also returns the count of
// exported names (top-level names and the exported methods of exported
// types) and of exported struct fields.
func apiText(pkg *types.Package) (text string, names, fields int) {
	qual := func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return p.Name()
	}
	typ := func(t types.Type) string { return types.TypeString(t, qual) }
	var b strings.Builder
	fmt.Fprintf(&b, "package %s // import %q\n\n", pkg.Name(), pkg.Path())
	scope := pkg.Scope()
	for _, name := range scope.Names() { // sorted
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		names++
		switch obj := obj.(type) {
		case *types.Const:
			fmt.Fprintf(&b, "const %s %s = %s\n", name, typ(obj.Type()), obj.Val().ExactString())
		case *types.Var:
			fmt.Fprintf(&b, "var %s %s\n", name, typ(obj.Type()))
		case *types.Func:
			fmt.Fprintf(&b, "func %s%s\n", name, strings.TrimPrefix(typ(obj.Type()), "func"))
		case *types.TypeName:
			f, m := typeDecl(&b, obj, typ)
			fields += f
			names += m
		}
	}
	return b.String(), names, fields
}

// typeDecl writes one type: its underlying type (a struct as one exported
// field a line, an interface as one exported method a line), then its
// exported methods. It returns the number of exported fields and methods
// written.
func typeDecl(b *strings.Builder, obj *types.TypeName, typ func(types.Type) string) (fields, methods int) {
	name := obj.Name()
	if obj.IsAlias() {
		fmt.Fprintf(b, "type %s = %s\n", name, typ(obj.Type()))
		return 0, 0
	}
	named, ok := obj.Type().(*types.Named)
	if !ok {
		fmt.Fprintf(b, "type %s %s\n", name, typ(obj.Type()))
		return 0, 0
	}
	tparams := ""
	if tp := named.TypeParams(); tp.Len() > 0 {
		var ps []string
		for i := range tp.Len() {
			p := tp.At(i)
			ps = append(ps, p.Obj().Name()+" "+typ(p.Constraint()))
		}
		tparams = "[" + strings.Join(ps, ", ") + "]"
	}
	n := 0
	switch u := named.Underlying().(type) {
	case *types.Struct:
		fmt.Fprintf(b, "type %s%s struct\n", name, tparams)
		hidden := false
		for i := range u.NumFields() {
			f := u.Field(i)
			if !f.Exported() {
				hidden = true
				continue
			}
			n++
			tag := ""
			if t := u.Tag(i); t != "" {
				tag = " `" + t + "`"
			}
			if f.Embedded() {
				fmt.Fprintf(b, "\t%s (embedded)%s\n", typ(f.Type()), tag)
			} else {
				fmt.Fprintf(b, "\t%s %s%s\n", f.Name(), typ(f.Type()), tag)
			}
		}
		if hidden {
			fmt.Fprintf(b, "\t// unexported fields\n")
		}
	case *types.Interface:
		fmt.Fprintf(b, "type %s%s interface\n", name, tparams)
		for i := range u.NumEmbeddeds() {
			fmt.Fprintf(b, "\t%s (embedded)\n", typ(u.EmbeddedType(i)))
		}
		for i := range u.NumExplicitMethods() {
			m := u.ExplicitMethod(i)
			if m.Exported() {
				fmt.Fprintf(b, "\t%s%s\n", m.Name(), strings.TrimPrefix(typ(m.Type()), "func"))
			} else {
				fmt.Fprintf(b, "\t// unexported methods\n")
			}
		}
		b.WriteString("\n")
		return 0, 0
	default:
		fmt.Fprintf(b, "type %s%s %s\n", name, tparams, typ(u))
	}
	var ms []string
	for i := range named.NumMethods() {
		m := named.Method(i)
		if !m.Exported() {
			continue
		}
		sig := m.Type().(*types.Signature)
		recv := name
		if _, ptr := sig.Recv().Type().(*types.Pointer); ptr {
			recv = "*" + name
		}
		ms = append(ms, fmt.Sprintf("func (%s) %s%s", recv, m.Name(), strings.TrimPrefix(typ(sig), "func")))
	}
	slices.SortFunc(ms, func(x, y string) int {
		return strings.Compare(x[strings.Index(x, ") ")+2:], y[strings.Index(y, ") ")+2:])
	})
	for _, m := range ms {
		fmt.Fprintf(b, "%s\n", m)
	}
	b.WriteString("\n")
	return n, len(ms)
}

// maxAPINames is the budget of exported names (top-level names and the
// exported methods of exported types) over all public packages.
const maxAPINames = 230

// TestAPI keeps an api.txt beside each public package: the package's
// exported declarations as apiText prints them (for GOOS=linux,
// GOARCH=amd64). It fails when the API changed and api.txt was not
// rewritten with `go test ./internal/archtest -run TestAPI -update`, so
// every change of the public API shows up in review as a diff of api.txt.
func TestAPI(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds every public package's export data")
	}
	root := repoRoot(t)
	pkgs := publicPackages(t, root)
	for _, want := range []string{"skill", "catalog", "agent", "lint", "mcpserver", "mcpserver/skillsext"} {
		if !slices.Contains(pkgs, want) {
			t.Errorf("public package %s not found (have %v)", want, pkgs)
		}
	}
	files := publicExportData(t)
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		f, ok := files[path]
		if !ok || f == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(f)
	})
	total := 0
	for _, rel := range pkgs {
		pkg, err := imp.Import(module + "/" + rel)
		if err != nil {
			t.Fatal(err)
		}
		got, names, fields := apiText(pkg)
		t.Logf("%s: %d exported names, %d exported fields", rel, names, fields)
		total += names
		golden := filepath.Join(root, filepath.FromSlash(rel), "api.txt")
		if *update {
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Errorf("%s: %v (run go test ./internal/archtest -run TestAPI -update)", rel, err)
			continue
		}
		if string(want) != got {
			t.Errorf("the public API of %s changed; review the diff and rewrite %s/api.txt with\n"+
				"\tgo test ./internal/archtest -run TestAPI -update\n%s", rel, rel, lineDiff(string(want), got))
		}
	}
	t.Logf("all public packages: %d exported names (budget %d)", total, maxAPINames)
	if total > maxAPINames {
		t.Errorf("the public packages export %d names, over the budget of %d (docs/ARCHITECTURE.md#the-public-api): "+
			"unexport or move to internal/ what a program that embeds skillet does not need", total, maxAPINames)
	}
}

// lineDiff lists the lines only in want (-) and only in got (+).
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for _, l := range w {
		if !slices.Contains(g, l) {
			fmt.Fprintf(&b, "-%s\n", l)
		}
	}
	for _, l := range g {
		if !slices.Contains(w, l) {
			fmt.Fprintf(&b, "+%s\n", l)
		}
	}
	return b.String()
}

// TestAPITextShowsChanges checks apiText on a package built here: a field,
// a method, a constant's value and an unexported name each change (or do
// not change) the text as a reader of api.txt expects.
func TestAPITextShowsChanges(t *testing.T) {
	t.Parallel()
	mk := func(fieldName string, value int64, withMethod bool) string {
		p := types.NewPackage("example.com/p", "p")
		s := types.NewStruct([]*types.Var{
			types.NewField(token.NoPos, p, fieldName, types.Typ[types.String], false),
			types.NewField(token.NoPos, p, "hidden", types.Typ[types.Int], false),
		}, nil)
		tn := types.NewTypeName(token.NoPos, p, "T", nil)
		named := types.NewNamed(tn, s, nil)
		if withMethod {
			recv := types.NewVar(token.NoPos, p, "t", types.NewPointer(named))
			sig := types.NewSignatureType(recv, nil, nil, nil,
				types.NewTuple(types.NewVar(token.NoPos, p, "", types.Typ[types.Bool])), false)
			named.AddMethod(types.NewFunc(token.NoPos, p, "Ok", sig))
		}
		p.Scope().Insert(tn)
		p.Scope().Insert(types.NewConst(token.NoPos, p, "Max", types.Typ[types.Int], constant.MakeInt64(value)))
		p.Scope().Insert(types.NewConst(token.NoPos, p, "min", types.Typ[types.Int], constant.MakeInt64(1)))
		p.MarkComplete()
		txt, names, fields := apiText(p)
		if wantNames := map[bool]int{true: 3, false: 2}[withMethod]; names != wantNames || fields != 1 {
			t.Errorf("counts: %d names, %d fields for field %q", names, fields, fieldName)
		}
		return txt
	}
	base := mk("Name", 8, false)
	for _, want := range []string{"const Max int = 8\n", "type T struct\n\tName string\n\t// unexported fields\n"} {
		if !strings.Contains(base, want) {
			t.Errorf("apiText lacks %q:\n%s", want, base)
		}
	}
	if strings.Contains(base, "min") || strings.Contains(base, "hidden") {
		t.Errorf("apiText shows an unexported name:\n%s", base)
	}
	if got := mk("Title", 8, false); got == base {
		t.Error("a renamed field left the API text unchanged")
	}
	if got := mk("Name", 9, false); got == base {
		t.Error("a changed constant left the API text unchanged")
	}
	if got := mk("Name", 8, true); !strings.Contains(got, "func (*T) Ok() bool\n") {
		t.Errorf("a pointer method is missing:\n%s", got)
	}
}
