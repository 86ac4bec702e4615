// client.mjs plays a scripted game on an MCP game server with the official
// TypeScript SDK's client, so that grue's server is tested against a real
// peer it did not write.
//
//   node client.mjs stdio COMMAND [ARG...]   < commands.txt
//   node client.mjs http URL                 < commands.txt
//
// It lists the tools, calls play_action once per line of standard input,
// then inventory and memory, and prints one JSON object per line: the tool
// list, each call's text and structured content, and at the end a summary.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { readFileSync } from "node:fs";

const [mode, ...rest] = process.argv.slice(2);
let transport;
if (mode === "stdio" && rest.length > 0) {
  transport = new StdioClientTransport({ command: rest[0], args: rest.slice(1), stderr: "inherit" });
} else if (mode === "http" && rest.length === 1) {
  transport = new StreamableHTTPClientTransport(new URL(rest[0]));
} else {
  console.error("usage: node client.mjs stdio COMMAND [ARG...] | http URL  (commands on stdin)");
  process.exit(2);
}

const out = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");
const text = (res) => (res.content || []).filter((c) => c.type === "text").map((c) => c.text).join("");

// A server started just before this client may not listen yet: over HTTP,
// try for up to ten seconds.
let client;
for (let attempt = 0; ; attempt++) {
  client = new Client({ name: "grue-interop-client", version: "1.0.0" });
  try {
    await client.connect(transport);
    break;
  } catch (err) {
    if (mode !== "http" || attempt >= 100) throw err;
    await new Promise((r) => setTimeout(r, 100));
    transport = new StreamableHTTPClientTransport(new URL(rest[0]));
  }
}
const tools = (await client.listTools()).tools.map((t) => t.name).sort();
out({ tools });

const commands = readFileSync(0, "utf8").split("\n").map((l) => l.trim()).filter((l) => l !== "");
let last = null;
for (const action of commands) {
  const res = await client.callTool({ name: "play_action", arguments: { action } });
  last = { action, text: text(res), structured: res.structuredContent ?? null, isError: !!res.isError };
  out(last);
  if (last.structured && last.structured.done) break;
}
const inv = await client.callTool({ name: "inventory", arguments: {} });
out({ tool: "inventory", text: text(inv) });
const mem = await client.callTool({ name: "memory", arguments: {} });
out({ tool: "memory", text: text(mem) });
out({ summary: true, last });
await client.close();
