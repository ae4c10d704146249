package mcpserver

import (
	"path"
	"strings"
)

// MIME types the server gives. A fixed table rather than the system's
// mime.types keeps the answer the same on every machine.
const (
	// mIMEMarkdown is the type of every SKILL.md (SEP-2640 §Resource
	// Metadata) and of other .md files.
	mIMEMarkdown = "text/markdown"
	// mIMEDirectory is the type of folders in resources/directory/read
	// (SEP-2640 §Directory Listing).
	mIMEDirectory = "inode/directory"
	mimeText      = "text/plain"
	mimeBinary    = "application/octet-stream"
)

var mimeByExt = map[string]string{
	".md": mIMEMarkdown, ".markdown": mIMEMarkdown, ".mdx": "text/mdx",
	".txt": mimeText, ".text": mimeText, ".log": mimeText, ".rst": "text/x-rst",
	".html": "text/html", ".htm": "text/html", ".css": "text/css", ".csv": "text/csv", ".tsv": "text/tab-separated-values",
	".js": "text/javascript", ".mjs": "text/javascript", ".cjs": "text/javascript", ".jsx": "text/jsx",
	".ts": "text/x-typescript", ".tsx": "text/x-typescript", ".mts": "text/x-typescript", ".cts": "text/x-typescript",
	".json": "application/json", ".jsonl": "application/jsonl", ".ipynb": "application/x-ipynb+json",
	".excalidraw": "application/json", ".webmanifest": "application/manifest+json",
	".yaml": "application/yaml", ".yml": "application/yaml", ".toml": "application/toml",
	".xml": "application/xml", ".xsd": "application/xml", ".xsl": "application/xml", ".drawio": "application/xml",
	".props": "application/xml", ".targets": "application/xml", ".csproj": "application/xml", ".plist": "application/xml",
	".py": "text/x-python", ".rb": "text/x-ruby", ".go": "text/x-go", ".rs": "text/x-rust", ".java": "text/x-java",
	".kt": "text/x-kotlin", ".swift": "text/x-swift", ".c": "text/x-c", ".h": "text/x-c", ".cc": "text/x-c++",
	".cpp": "text/x-c++", ".hpp": "text/x-c++", ".cs": "text/x-csharp", ".php": "text/x-php", ".pl": "text/x-perl",
	".lua": "text/x-lua", ".r": "text/x-r", ".scala": "text/x-scala", ".dart": "text/x-dart", ".bicep": "text/plain",
	".sh": "text/x-shellscript", ".bash": "text/x-shellscript", ".zsh": "text/x-shellscript", ".fish": "text/x-shellscript",
	".ps1": "text/x-powershell", ".psm1": "text/x-powershell", ".bat": "text/x-msdos-batch", ".cmd": "text/x-msdos-batch",
	".sql": "application/sql", ".graphql": "application/graphql", ".dot": "text/vnd.graphviz", ".mermaid": "text/plain",
	".tex": "text/x-tex", ".ini": "text/plain", ".cfg": "text/plain", ".conf": "text/plain", ".env": "text/plain",
	".gitignore": "text/plain", ".editorconfig": "text/plain", ".diff": "text/x-diff", ".patch": "text/x-diff",
	".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".webp": "image/webp", ".ico": "image/vnd.microsoft.icon", ".bmp": "image/bmp", ".avif": "image/avif",
	".pdf": "application/pdf", ".zip": "application/zip", ".gz": "application/gzip", ".tgz": "application/gzip",
	".tar": "application/x-tar", ".wasm": "application/wasm",
	".ttf": "font/ttf", ".otf": "font/otf", ".woff": "font/woff", ".woff2": "font/woff2",
	".mp3": "audio/mpeg", ".wav": "audio/wav", ".mp4": "video/mp4", ".webm": "video/webm",
	".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
}

// mimeType returns the MIME type of a served file from its name, and for
// names the table does not know, from its content: text/plain when it is
// text (UTF-8), application/octet-stream otherwise.
func mimeType(rel string, text bool) string {
	base := path.Base(rel)
	if t, ok := mimeByExt[strings.ToLower(path.Ext(base))]; ok {
		return t
	}
	switch strings.ToLower(base) {
	case "license", "licence", "notice", "copying", "readme", "authors", "makefile", "dockerfile":
		return mimeText
	}
	if text {
		return mimeText
	}
	return mimeBinary
}
