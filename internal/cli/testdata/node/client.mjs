// A small MCP client on the official TypeScript SDK
// (@modelcontextprotocol/sdk), run against skillet serve by
// internal/cli/node_test.go:
//
//   node client.mjs stdio /path/to/skillet /path/to/workspace
//   node client.mjs http http://127.0.0.1:PORT/mcp
//
// It checks what any MCP client can see of the skills (resources,
// prompts, tools) and the Skills Extension the way a host verifies it
// (digests and sizes of the bytes read back), prints one line per check
// and a closing "N passed, N failed" line, and exits 1 on any failure.
import { createHash } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { z } from "zod";

const [mode, ...args] = process.argv.slice(2);
let passed = 0;
let failed = 0;
function check(name, ok, detail = "") {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "PASS" : "FAIL"} ${name}${detail ? ": " + detail : ""}`);
}
async function expectError(name, code, fn) {
  try {
    await fn();
    check(name, false, "no error");
  } catch (e) {
    check(name, e.code === code, `error ${e.code} ${e.message}`);
  }
}

const transport =
  mode === "stdio"
    ? new StdioClientTransport({ command: args[0], args: ["serve", "-w", args[1], "--no-user", "--no-watch"], stderr: "ignore" })
    : new StreamableHTTPClientTransport(new URL(args[0]));
const client = new Client({ name: "ts-sdk-check", version: "1.0.0" });
await client.connect(transport);
check("connected", true, `protocol ${transport.protocolVersion ?? "(stdio)"}, server ${client.getServerVersion()?.name}`);

const caps = client.getServerCapabilities() ?? {};
check("capabilities.extensions skills", caps.extensions?.["io.modelcontextprotocol/skills"]?.directoryRead === true, JSON.stringify(caps.extensions));
check("capabilities.resources", !!caps.resources);

// Resources: every page, every file read back.
const resources = [];
let cursor;
do {
  const page = await client.listResources(cursor ? { cursor } : {});
  resources.push(...page.resources);
  cursor = page.nextCursor;
} while (cursor);
check("resources/list", resources.length > 0, `${resources.length} resources`);
const skillMD = resources.find((r) => r.uri === "skill://alpha/SKILL.md");
check("SKILL.md resource metadata", skillMD?.mimeType === "text/markdown" && skillMD?.name === "alpha" && !!skillMD?.description, JSON.stringify(skillMD));

const bytesOf = {};
for (const r of resources) {
  const res = await client.readResource({ uri: r.uri });
  const c = res.contents[0];
  bytesOf[r.uri] = "text" in c && c.text !== undefined ? Buffer.from(c.text, "utf8") : Buffer.from(c.blob, "base64");
}
check("resources/read of every resource", Object.keys(bytesOf).length === resources.length);
const logo = bytesOf["skill://alpha/assets/logo.bin"];
check("binary file as blob, byte for byte", logo?.equals(Buffer.from([0x89, 0x50, 0x00, 0xff, 0xfe])), logo?.toString("hex"));

// The Skills Extension, verified as a host would.
const Any = z.object({}).passthrough();
const entries = [];
cursor = undefined;
do {
  const page = await client.request({ method: "skills/list", params: cursor ? { cursor } : {} }, Any);
  entries.push(...page.skills);
  cursor = page.nextCursor;
} while (cursor);
check("skills/list", entries.some((e) => e.uri === "skill://alpha/SKILL.md"), entries.map((e) => e.uri).join(" "));
let verified = 0;
let mismatches = [];
for (const e of entries) {
  for (const f of e.resources) {
    const b = bytesOf[f.uri];
    const digest = b && "sha256:" + createHash("sha256").update(b).digest("hex");
    if (b && digest === f.digest && b.length === f.size) verified++;
    else mismatches.push(f.uri);
  }
}
check("manifest digests and sizes match the bytes read", mismatches.length === 0 && verified > 0, `${verified} files verified ${mismatches.join(" ")}`);
const got = await client.request({ method: "skills/get", params: { uri: "skill://alpha/SKILL.md" } }, Any);
check("skills/get", JSON.stringify(got.skill) === JSON.stringify(entries.find((e) => e.uri === "skill://alpha/SKILL.md")));
await expectError("skills/get unknown skill", -32602, () => client.request({ method: "skills/get", params: { uri: "skill://nope/SKILL.md" } }, Any));
await expectError("skills/list bad cursor", -32602, () => client.request({ method: "skills/list", params: { cursor: "not-a-cursor" } }, Any));
const dir = await client.request({ method: "resources/directory/read", params: { uri: "skill://alpha" } }, Any);
check("resources/directory/read", dir.resources.some((r) => r.mimeType === "inode/directory"), dir.resources.map((r) => r.uri).join(" "));
await expectError("resources/directory/read of a file", -32602, () => client.request({ method: "resources/directory/read", params: { uri: "skill://alpha/SKILL.md" } }, Any));

// Bad URIs never read bytes from outside a skill.
for (const uri of ["skill://alpha/../beta/SKILL.md", "skill://alpha/%2e%2e/%2e%2e/secret.txt", "file:///etc/passwd", "skill:///etc/passwd"]) {
  await expectError(`resources/read ${uri}`, -32602, () => client.readResource({ uri }));
}

// Prompts: one per skill, the hidden one included.
const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
check("prompts/list has the hidden skill", prompts.includes("beta"), prompts.join(" "));
const prompt = await client.getPrompt({ name: "beta", arguments: { arguments: "main" } });
check("prompts/get", prompt.messages[0]?.content?.text?.includes("Request: main"));

// The load tool, for clients without the Skills Extension.
const tools = (await client.listTools()).tools;
const tool = tools.find((t) => t.name === "use_skill");
check("tools/list has use_skill with a name enum", JSON.stringify(tool?.inputSchema?.properties?.name?.enum) === JSON.stringify(["alpha", "colon", "crlf"]), JSON.stringify(tool?.inputSchema));
const loaded = await client.callTool({ name: "use_skill", arguments: { name: "alpha" } });
check("tools/call loads the skill", !loaded.isError && loaded.content[0]?.text?.includes("# Skill: alpha") && loaded.content[0]?.text?.includes("Base directory for this skill: skill://alpha"), loaded.content[0]?.text);
const unknown = await client.callTool({ name: "use_skill", arguments: { name: "nope" } });
check("tools/call of an unknown skill is an error result", unknown.isError === true, unknown.content[0]?.text);
check("instructions carry the catalog block", (client.getInstructions() ?? "").includes("<location>skill://alpha/SKILL.md</location>"), client.getInstructions());

await client.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
