// modern-server.mjs is a modern-only MCP game server written with the
// official TypeScript SDK 2.x: it speaks MCP 2026-07-28 only (no
// initialize, no session; a 2025-era client is refused) and offers only
// the play tools, play_action, inventory and memory (no reset_game, no
// new_game, no game_id), so that grue's client is tested against a server
// of the new era that it did not write. Its game (toy-game.mjs) is one per
// process.
//
//   node modern-server.mjs stdio
//   node modern-server.mjs http      (prints "listening at URL" on stderr)
import { McpServer, createMcpHandler } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createServer } from "node:http";
import { z } from "zod";
import { newGame } from "./toy-game.mjs";

const game = newGame();

// The SDK asks for a fresh server per request (HTTP) or connection
// (stdio); the game lives outside it.
function factory() {
  const server = new McpServer({ name: "toy-modern-game", version: "1.0.0" });
  server.registerTool("play_action", { description: "Play one command.", inputSchema: { action: z.string() } },
    async ({ action }) => game.play(action));
  server.registerTool("inventory", { description: "What you carry." }, async () => game.inventory());
  server.registerTool("memory", { description: "The game's state." }, async () => game.memory());
  return server;
}

const mode = process.argv[2];
if (mode === "stdio") {
  serveStdio(factory, { legacy: "reject" });
} else if (mode === "http") {
  const handler = toNodeHandler(createMcpHandler(factory, { legacy: "reject" }));
  const http = createServer((req, res) => {
    if (new URL(req.url, "http://x").pathname !== "/mcp") {
      res.writeHead(404).end("not found");
      return;
    }
    handler(req, res);
  });
  http.listen(0, "127.0.0.1", () => {
    console.error(`listening at http://127.0.0.1:${http.address().port}/mcp`);
  });
} else {
  console.error("usage: node modern-server.mjs stdio|http");
  process.exit(2);
}
