// client.mjs plays a scripted game on an MCP game server with an official
// TypeScript SDK client, so that grue's server is tested against real
// peers it did not write.
//
//   node client.mjs [--sdk 1|2] [--mode legacy|auto|modern] stdio COMMAND [ARG...]  < commands.txt
//   node client.mjs [--sdk 1|2] [--mode legacy|auto|modern] http URL                < commands.txt
//
// --sdk 1 (the default) is @modelcontextprotocol/sdk 1.x, which speaks the
// 2025 protocol (initialize, a session). --sdk 2 is @modelcontextprotocol/client
// 2.x, in its default mode (no --mode: the 2025 handshake, as the SDK ships),
// "auto" (server/discover, else initialize) or "modern" (pinned to
// 2026-07-28, no fallback). It prints one JSON object per line: the
// negotiated era and protocol version, the tool list, each call's text and
// structured content, then inventory and memory, and a summary. Without a
// session (the 2026-07-28 era), it starts its game with new_game and
// passes the game_id to every call, as grue's tool contract asks; a server
// that has no new_game is played without one.
import { readFileSync } from "node:fs";

let args = process.argv.slice(2);
const flag = (name, def) => {
  const i = args.indexOf(name);
  if (i < 0) return def;
  const v = args[i + 1];
  args = args.slice(0, i).concat(args.slice(i + 2));
  return v;
};
const sdk = flag("--sdk", "1");
const mode = flag("--mode", "");
const [transportKind, ...rest] = args;
if (!["1", "2"].includes(sdk) || !["", "legacy", "auto", "modern"].includes(mode) || (sdk === "1" && mode !== "") ||
  !((transportKind === "stdio" && rest.length > 0) || (transportKind === "http" && rest.length === 1))) {
  console.error("usage: node client.mjs [--sdk 1|2] [--mode legacy|auto|modern] stdio COMMAND [ARG...] | http URL  (commands on stdin)");
  process.exit(2);
}

let Client, StdioClientTransport, StreamableHTTPClientTransport;
if (sdk === "1") {
  ({ Client } = await import("@modelcontextprotocol/sdk/client/index.js"));
  ({ StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js"));
  ({ StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js"));
} else {
  ({ Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client"));
  ({ StdioClientTransport } = await import("@modelcontextprotocol/client/stdio"));
}
const clientOptions = {};
if (mode === "legacy" || mode === "auto") clientOptions.versionNegotiation = { mode };
if (mode === "modern") clientOptions.versionNegotiation = { mode: { pin: "2026-07-28" } };

// The 1.x client keeps the version initialize negotiated nowhere public:
// it hands it to the transport, where it is caught here.
let handedVersion = null;
const newTransport = () => {
  const t = transportKind === "stdio"
    ? new StdioClientTransport({ command: rest[0], args: rest.slice(1), env: process.env, stderr: "inherit" })
    : new StreamableHTTPClientTransport(new URL(rest[0]));
  const set = t.setProtocolVersion?.bind(t);
  t.setProtocolVersion = (v) => { handedVersion = v; set?.(v); };
  return t;
};
const out = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");
const text = (res) => (res.content || []).filter((c) => c.type === "text").map((c) => c.text).join("");

// A server started just before this client may not listen yet: over HTTP,
// try for up to ten seconds.
let client;
for (let attempt = 0; ; attempt++) {
  client = new Client({ name: "grue-interop-client", version: "1.0.0" }, clientOptions);
  try {
    await client.connect(newTransport());
    break;
  } catch (err) {
    if (transportKind !== "http" || attempt >= 100) throw err;
    await new Promise((r) => setTimeout(r, 100));
  }
}
const era = client.getProtocolEra ? client.getProtocolEra() : "legacy";
const protocolVersion = client.getNegotiatedProtocolVersion?.() ?? handedVersion;
out({ sdk, mode: mode || "default", transport: transportKind, era, protocolVersion: protocolVersion ?? null });

const tools = (await client.listTools()).tools.map((t) => t.name).sort();
out({ tools });

// Without a session, a game of one's own, named by its game_id.
const game = {};
if (era === "modern" && tools.includes("new_game")) {
  const res = await client.callTool({ name: "new_game", arguments: {} });
  const id = res.structuredContent?.game_id;
  const said = /game id: (\S+)/.exec(text(res))?.[1];
  out({ tool: "new_game", game_id: id ?? null, text_game_id: said ?? null, isError: !!res.isError });
  if (!id || id !== said) throw new Error("new_game gave no game_id: " + text(res));
  game.game_id = id;
}

const commands = readFileSync(0, "utf8").split("\n").map((l) => l.trim()).filter((l) => l !== "");
let last = null;
for (const action of commands) {
  const res = await client.callTool({ name: "play_action", arguments: { action, ...game } });
  last = { action, text: text(res), structured: res.structuredContent ?? null, isError: !!res.isError };
  out(last);
  if (last.isError || (last.structured && last.structured.done)) break;
}
const inv = await client.callTool({ name: "inventory", arguments: { ...game } });
out({ tool: "inventory", text: text(inv) });
const mem = await client.callTool({ name: "memory", arguments: { ...game } });
out({ tool: "memory", text: text(mem) });
out({ summary: true, last });
await client.close();
