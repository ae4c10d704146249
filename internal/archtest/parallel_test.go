package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// processCalls are the calls that change or measure the whole test
// process, by the package name they are called through and the function:
// a test running in parallel with others (t.Parallel) changes every other
// test's process with the first kind (the environment, the working
// folder, limits, the collector's settings, signal handling) and counts
// every other test's work with the second (allocations, goroutines).
var processCalls = map[string][]string{
	"os":      {"Setenv", "Unsetenv", "Clearenv", "Chdir"},
	"syscall": {"Setrlimit", "Umask", "Chdir"},
	"unix":    {"Setrlimit", "Umask", "Chdir"},
	"debug":   {"SetGCPercent", "SetMemoryLimit", "SetMaxThreads", "SetMaxStack", "SetTraceback"},
	"runtime": {"GOMAXPROCS", "ReadMemStats", "NumGoroutine"},
	"signal":  {"Notify", "Ignore", "Reset", "NotifyContext"},
	"testing": {"AllocsPerRun"},
}

// testPackage is the files of one package of one folder (a folder's
// package and its external test package are two).
type testPackage struct {
	fset  *token.FileSet           // the whole module's
	root  string                   // the module's folder
	funcs map[string]*ast.FuncDecl // plain functions, not methods
	vars  map[string]bool          // package-level variables
	// imports is the names a function's file imports packages by.
	imports map[*ast.FuncDecl]map[string]bool
}

// setters are the methods that change a variable of sync/atomic's types
// (noOpenat2.Swap(true), yamlx.LibraryOnly.Store(true)).
var setters = []string{"Store", "Swap", "CompareAndSwap", "Add", "And", "Or"}

// importNames is the names f refers to its imports by: the import's own
// name or the path's last element ("go.yaml.in/yaml/v4" is yaml).
func importNames(f *ast.File) map[string]bool {
	names := map[string]bool{}
	for _, imp := range f.Imports {
		if imp.Name != nil {
			names[imp.Name.Name] = true
			continue
		}
		path, _ := strconv.Unquote(imp.Path.Value)
		elems := strings.Split(path, "/")
		last := elems[len(elems)-1]
		if len(elems) > 1 && len(last) > 1 && last[0] == 'v' && strings.Trim(last[1:], "0123456789") == "" {
			last = elems[len(elems)-2]
		}
		names[last] = true
	}
	return names
}

// parallelPackages parses every package of the module under root, test
// files included, keyed by folder and package name.
func parallelPackages(t *testing.T, root string) map[string]*testPackage {
	t.Helper()
	pkgs := map[string]*testPackage{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		key := filepath.Dir(path) + " " + f.Name.Name
		p := pkgs[key]
		if p == nil {
			p = &testPackage{fset: fset, root: root, funcs: map[string]*ast.FuncDecl{}, vars: map[string]bool{},
				imports: map[*ast.FuncDecl]map[string]bool{}}
			pkgs[key] = p
		}
		imports := importNames(f)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Body != nil {
					p.funcs[d.Name.Name] = d
					p.imports[d] = imports
				}
			case *ast.GenDecl:
				if d.Tok == token.VAR {
					for _, s := range d.Specs {
						for _, n := range s.(*ast.ValueSpec).Names {
							p.vars[n.Name] = true
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// where is the place of n: its file, relative to the module, and line.
func (p *testPackage) where(n ast.Node) string {
	pos := p.fset.Position(n.Pos())
	if rel, err := filepath.Rel(p.root, pos.Filename); err == nil {
		pos.Filename = rel
	}
	return pos.Filename + ":" + strconv.Itoa(pos.Line)
}

// processUses lists what fn and the package's plain functions it calls,
// transitively, do to the process: calls of processCalls that set (not
// those that only read, asks), assignments to package-level variables of
// its package or of one it imports, and, in a test file, calls of setters
// on them, each with its place, except in a function that takes a lock or
// runs a sync.Once (a shared cache or fixture, made once for every test).
// seen stops cycles.
func (p *testPackage) processUses(fn *ast.FuncDecl, seen map[string]bool) []string {
	if seen[fn.Name.Name] {
		return nil
	}
	seen[fn.Name.Name] = true
	var uses []string
	root := func(e ast.Expr) *ast.Ident {
		for {
			switch x := e.(type) {
			case *ast.Ident:
				return x
			case *ast.SelectorExpr:
				e = x.X
			case *ast.IndexExpr:
				e = x.X
			case *ast.StarExpr:
				e = x.X
			case *ast.ParenExpr:
				e = x.X
			default:
				return nil
			}
		}
	}
	guarded := callsMethod(fn, "Lock") || callsMethod(fn, "Do")
	// A non-test function's atomic counters (fsx's fdOpened) are made for
	// concurrent use; a test file's setters turn a hook on for everyone.
	inTest := strings.HasSuffix(p.fset.Position(fn.Pos()).Filename, "_test.go")
	// packageVar names the package-level variable e is or is part of: one
	// of this package (trees[o]) or of one it imports (yamlx.LibraryOnly).
	packageVar := func(e ast.Expr) string {
		id := root(e)
		switch {
		case id == nil || id.Name == "_" || guarded:
		case p.vars[id.Name]:
			return id.Name
		case p.imports[fn][id.Name] && e != ast.Expr(id):
			return types.ExprString(e)
		}
		return ""
	}
	assigned := func(e ast.Expr) {
		if v := packageVar(e); v != "" {
			uses = append(uses, p.where(e)+": assigns the package variable "+v)
		}
	}
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			if x.Tok != token.DEFINE {
				for _, l := range x.Lhs {
					assigned(l)
				}
			}
		case *ast.IncDecStmt:
			assigned(x.X)
		case *ast.CallExpr:
			switch f := x.Fun.(type) {
			case *ast.SelectorExpr:
				if v := packageVar(f.X); v != "" && inTest && slices.Contains(setters, f.Sel.Name) {
					uses = append(uses, p.where(f)+": sets the package variable "+v+" ("+f.Sel.Name+")")
				}
				if pkg, ok := f.X.(*ast.Ident); ok && slices.Contains(processCalls[pkg.Name], f.Sel.Name) {
					if asks(f.Sel.Name, x.Args) {
						break
					}
					uses = append(uses, p.where(pkg)+": calls "+pkg.Name+"."+f.Sel.Name)
				}
			case *ast.Ident:
				if callee := p.funcs[f.Name]; callee != nil && !strings.HasPrefix(f.Name, "Test") {
					uses = append(uses, p.processUses(callee, seen)...)
				}
			}
		}
		return true
	})
	return uses
}

// asks reports whether a call of fn with args only reads the setting:
// runtime.GOMAXPROCS(0), debug.SetMemoryLimit(-1).
func asks(fn string, args []ast.Expr) bool {
	if len(args) != 1 {
		return false
	}
	switch a := args[0].(type) {
	case *ast.BasicLit:
		return fn == "GOMAXPROCS" && a.Value == "0"
	case *ast.UnaryExpr:
		return fn == "SetMemoryLimit" && a.Op == token.SUB
	}
	return false
}

// callsMethod reports whether fn's body calls X.name() with no arguments
// or with a function literal (mu.Lock(), once.Do(func() {...})).
func callsMethod(fn *ast.FuncDecl, name string) bool {
	found := false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if s, ok := c.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == name {
				if len(c.Args) == 0 {
					found = true
				} else if _, lit := c.Args[0].(*ast.FuncLit); lit {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// callsParallel reports whether fn's body calls X.Parallel() anywhere (its
// own t.Parallel or a subtest's).
func callsParallel(fn *ast.FuncDecl) bool {
	found := false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && len(c.Args) == 0 {
			if s, ok := c.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == "Parallel" {
				found = true
			}
		}
		return !found
	})
	return found
}

// TestParallelTestsLeaveTheProcess: no test that runs in parallel with
// others (it or a subtest calls t.Parallel) changes or measures the whole
// process (processCalls) or assigns a package-level variable (or, in a
// test file, sets one of sync/atomic's types: yamlx.LibraryOnly), in its body
// or in a plain function of its package it calls, followed by name
// (methods and function values are not followed). Such a test runs alone:
// the testing package runs the top-level tests without t.Parallel one at a
// time before the parallel ones. serveRun setting the memory limit of
// every later test of internal/cli from a parallel test, and openat2 turned
// off for the whole of catalog's tests, were two such.
func TestParallelTestsLeaveTheProcess(t *testing.T) {
	t.Parallel()
	root := repoRoot(t)
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	tests := 0
	for _, p := range parallelPackages(t, root) {
		for name, fn := range p.funcs {
			if !strings.HasPrefix(name, "Test") || !callsParallel(fn) {
				continue
			}
			tests++
			for _, use := range p.processUses(fn, map[string]bool{}) {
				t.Errorf("%s runs in parallel and %s", name, use)
			}
		}
	}
	if tests < 100 {
		t.Errorf("only %d parallel tests found: is the walk reading the module?", tests)
	}
}
