package mcpserver

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestDropKeys(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"ttlMs":60000,"cacheScope":"public","resources":[]}`, `{"resources":[]}`},
		{`{"a":1,"ttlMs":5,"b":{"ttlMs":1}}`, `{"a":1,"b":{"ttlMs":1}}`},
		{`{"text":"\"ttlMs\":1","cacheScope":"x"}`, `{"text":"\"ttlMs\":1"}`},
		{`{}`, `{}`},
		{`{"ttlMs":1}`, `{}`},
		{` { "a" : [1, {"b":"}"}] , "cacheScope" : null } `, `{"a" : [1, {"b":"}"}]}`},
		{`{"a":1,}`, `{"a":1,}`}, // not JSON: unchanged
		{`[1]`, `[1]`},
	} {
		if got := string(dropKeys([]byte(tt.in), "ttlMs", "cacheScope")); got != tt.want {
			t.Errorf("dropKeys(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// FuzzDropKeys: for any JSON object the result is JSON, the same object
// without the two keys; anything else comes back unchanged.
func FuzzDropKeys(f *testing.F) {
	f.Add([]byte(`{"ttlMs":60000,"cacheScope":"public","contents":[{"uri":"skill://a/SKILL.md","text":"x"}]}`))
	f.Add([]byte(`{"a":"\u0022ttlMs\u0022","ttlMs":[{"x":[]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		out := dropKeys(data, "ttlMs", "cacheScope")
		var in map[string]any
		if json.Unmarshal(data, &in) != nil || in == nil {
			if json.Valid(data) && data[skipSpace(data, 0)] == '{' {
				t.Fatalf("a valid object %q was not read", data)
			}
			return
		}
		var got map[string]any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("dropKeys(%q) = %q: %v", data, out, err)
		}
		delete(in, "ttlMs")
		delete(in, "cacheScope")
		if !reflect.DeepEqual(in, got) {
			t.Fatalf("dropKeys(%q) = %q", data, out)
		}
	})
}
