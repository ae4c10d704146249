package mcpserver

import "fmt"

func Example_parseURI() {
	for _, uri := range []string{
		"skill://release/references/steps.md",
		"skill://release/docs/a%20b.md",
		"skill://release",
		"skill://release/../secret/SKILL.md",
	} {
		name, rel, err := parseURI(uri)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s: skill %q, path %q\n", uri, name, rel)
	}
	// Output:
	// skill://release/references/steps.md: skill "release", path "references/steps.md"
	// skill://release/docs/a%20b.md: skill "release", path "docs/a b.md"
	// skill://release: skill "release", path ""
	// invalid skill URI "skill://release/../secret/SKILL.md": "." and ".." segments cannot leave or name the skill folder
}
