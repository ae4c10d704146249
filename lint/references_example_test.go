package lint

import "fmt"

// The relative paths a body refers to, with their positions.
func Example_listReferences() {
	body := []byte("Read [the guide](references/guide.md#setup), then run `scripts/check.sh`.\n" +
		"[Docs](https://example.com) and `go test ./...` are not references.\n")
	for _, ref := range listReferences(body) {
		fmt.Printf("%d:%d %s code=%v\n", ref.Line, ref.Column, ref.Target, ref.Code)
	}
	// Output:
	// 1:18 references/guide.md code=false
	// 1:56 scripts/check.sh code=true
}
