package catalog

import (
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// diffListing is cmp.Diff(want, got, listingOpts), with a plain walk of
// the two values first: when equalListing finds them equal, so would cmp,
// and the diff is empty; otherwise cmp decides and reports. cmp.Diff of
// equal listings was 2.0 of the 14 s of CPU of the catalog tests under
// -short, most of it in matching its options at every node.
func diffListing(want, got any) string {
	if equalListing(reflect.ValueOf(want), reflect.ValueOf(got), map[listingVisit]bool{}) {
		return ""
	}
	return cmp.Diff(want, got, listingOpts)
}

// listingVisit is a pair of pointers equalListing is comparing, so that a
// cycle ends the walk.
type listingVisit struct {
	a, b uintptr
	t    reflect.Type
}

var (
	skillType   = reflect.TypeFor[Skill]()
	listingType = reflect.TypeFor[Listing]()
)

// equalListing reports whether a and b are equal as listingOpts compares
// them, or stricter: every field, unexported ones included, but Skill.c
// and Listing.search; an empty slice or map equals a nil one; a function
// equals only a nil one; a type's Equal method is not used (values equal
// field by field are equal by any Equal method). A false result decides
// nothing: diffListing then asks cmp.
func equalListing(a, b reflect.Value, seen map[listingVisit]bool) bool {
	if !a.IsValid() || !b.IsValid() {
		return a.IsValid() == b.IsValid()
	}
	if a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() && b.IsNil()
		}
		if a.Pointer() == b.Pointer() {
			return true
		}
		v := listingVisit{a.Pointer(), b.Pointer(), a.Type()}
		if seen[v] {
			return true
		}
		seen[v] = true
		return equalListing(a.Elem(), b.Elem(), seen)
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() && b.IsNil()
		}
		return equalListing(a.Elem(), b.Elem(), seen)
	case reflect.Struct:
		return sameFields(a, b, seen)
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !equalListing(a.Index(i), b.Index(i), seen) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		for it := a.MapRange(); it.Next(); {
			bv := b.MapIndex(it.Key())
			if !bv.IsValid() || !equalListing(it.Value(), bv, seen) {
				return false
			}
		}
		return true
	case reflect.Func:
		return a.IsNil() && b.IsNil()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	case reflect.Complex64, reflect.Complex128:
		return a.Complex() == b.Complex()
	case reflect.String:
		return a.String() == b.String()
	default: // channels, unsafe pointers: cmp compares them with ==
		return a.Pointer() == b.Pointer()
	}
}

// sameFields compares two structs of one type field by field, but the
// fields listingOpts ignores.
func sameFields(a, b reflect.Value, seen map[listingVisit]bool) bool {
	t := a.Type()
	for i := range t.NumField() {
		if name := t.Field(i).Name; (t == skillType && name == "c") || (t == listingType && name == "search") {
			continue
		}
		if !equalListing(a.Field(i), b.Field(i), seen) {
			return false
		}
	}
	return true
}

// TestEqualListingIsCmp: equalListing finds two listings of one tree
// equal, and not equal after any change cmp sees (exported and unexported
// fields, nested frontmatter, diagnostics); the changes listingOpts
// ignores (the catalog pointer, an empty slice for a nil one) may go
// either way, and diffListing is then empty as cmp's.
func TestEqualListingIsCmp(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeTree(t, e.ws, map[string]string{
		"skills/a/SKILL.md":   "---\nname: a\ndescription: A.\nmetadata:\n  deep: {x: [1, 2]}\n---\nB\n",
		"skills/b/SKILL.md":   skillMD("b"),
		"skills/bad/SKILL.md": "---\nname: [unclosed\n---\n",
	})
	list := func() *Listing {
		_, l := e.list(t, &Options{NoUser: true})
		return l
	}
	for _, tt := range []struct {
		name   string
		change func(l *Listing)
		cmpEq  bool // what cmp with listingOpts says after the change
	}{
		{"none", func(*Listing) {}, true},
		{"catalog pointer", func(l *Listing) { l.Skills[0].c = nil }, true},
		{"empty allowed tools for nil", func(l *Listing) { l.Skills[1].parsed.AllowedTools = []string{} }, true},
		{"allowed tools", func(l *Listing) { l.Skills[1].parsed.AllowedTools = []string{"Read"} }, false},
		{"metadata", func(l *Listing) { l.Skills[0].parsed.Metadata = map[string]string{"k": "v"} }, false},
		{"description", func(l *Listing) { l.Skills[0].Description += "x" }, false},
		{"bytes", func(l *Listing) { l.Skills[1].Bytes++ }, false},
		{"boundary", func(l *Listing) { l.Skills[1].boundary += "/x" }, false},
		{"frontmatter", func(l *Listing) { l.Skills[0].parsed.Name += "x" }, false},
		{"a diagnostic", func(l *Listing) { l.Diagnostics[0].Message += "x" }, false},
		{"one skill fewer", func(l *Listing) { l.Skills = l.Skills[:1] }, false},
	} {
		want, got := list(), list()
		tt.change(got)
		if eq := cmp.Diff(want, got, listingOpts) == ""; eq != tt.cmpEq {
			t.Fatalf("%s: cmp says equal=%v, the case expects %v", tt.name, eq, tt.cmpEq)
		}
		if equalListing(reflect.ValueOf(want), reflect.ValueOf(got), map[listingVisit]bool{}) && !tt.cmpEq {
			t.Errorf("%s: equalListing finds equal what cmp does not", tt.name)
		}
		if (diffListing(want, got) == "") != tt.cmpEq {
			t.Errorf("%s: diffListing and cmp.Diff disagree", tt.name)
		}
		if tt.name == "none" && !equalListing(reflect.ValueOf(want), reflect.ValueOf(got), map[listingVisit]bool{}) {
			t.Errorf("two listings of one tree are not equal to equalListing:\n%s", cmp.Diff(want, got, listingOpts))
		}
	}
}
