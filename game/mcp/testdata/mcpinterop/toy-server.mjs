// toy-server.mjs is a small MCP game server written with the official
// TypeScript SDK 1.x, which speaks the 2025 protocol (initialize and a
// session), for testing grue's MCP client against a server it did not
// write. Its game (toy-game.mjs) has two rooms and one treasure; its
// tools follow grue's game server: play_action, inventory, memory.
//
//   node toy-server.mjs          (stdio)
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { newGame } from "./toy-game.mjs";

const game = newGame();
const server = new McpServer({ name: "toy-game", version: "1.0.0" });
server.tool("play_action", "Play one command.", { action: z.string() }, async ({ action }) => game.play(action));
server.tool("inventory", "What you carry.", {}, async () => game.inventory());
server.tool("memory", "The game's state.", {}, async () => game.memory());
await server.connect(new StdioServerTransport());
