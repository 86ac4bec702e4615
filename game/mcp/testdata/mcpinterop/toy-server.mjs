// toy-server.mjs is a small MCP game server written with the official
// TypeScript SDK, for testing grue's MCP client against a server it did not
// write. Its game has two rooms and one treasure; the tools and their text
// follow grue's (and the course's) game server: play_action, inventory,
// memory.
//
//   node toy-server.mjs          (stdio)
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const state = { room: "Hall", score: 0, moves: 0, carrying: [], coinHere: true, history: [] };

function act(action) {
  const a = action.trim().toLowerCase();
  state.moves++;
  if ((a === "north" || a === "n") && state.room === "Hall") { state.room = "Vault"; return "Vault\nA cold vault." + (state.coinHere ? " A gold coin glints here." : ""); }
  if ((a === "south" || a === "s") && state.room === "Vault") { state.room = "Hall"; return "Hall\nA draughty hall."; }
  if ((a === "take coin" || a === "get coin") && state.room === "Vault" && state.coinHere) {
    state.coinHere = false; state.carrying.push("a gold coin"); state.score += 10; return "Taken.";
  }
  if (a === "look") return state.room === "Hall" ? "Hall\nA draughty hall." : "Vault\nA cold vault.";
  return "You can't do that here.";
}

const server = new McpServer({ name: "toy-game", version: "1.0.0" });
server.tool("play_action", "Play one command.", { action: z.string() }, async ({ action }) => {
  const before = state.score;
  const reply = act(action);
  state.history.push([action, reply]);
  const done = state.score >= 10;
  let text = reply + (state.score > before ? `\n\n+${state.score - before} points! (Total: ${state.score})` : `\n\n[Score: ${state.score} | Moves: ${state.moves}]`);
  if (done) text += "\n\nGAME OVER";
  return {
    content: [{ type: "text", text }],
    structuredContent: { observation: reply, score: state.score, max_score: 10, moves: state.moves, reward: state.score - before, done, victory: done, location: state.room },
  };
});
server.tool("inventory", "What you carry.", {}, async () => ({
  content: [{ type: "text", text: state.carrying.length ? "Inventory: " + state.carrying.join(", ") : "Inventory: You are empty-handed." }],
}));
server.tool("memory", "The game's state.", {}, async () => ({
  content: [{ type: "text", text: `Current State:\n- Location: ${state.room}\n- Score: ${state.score}\n- Moves: ${state.moves}\n- Game: toy` }],
}));
await server.connect(new StdioServerTransport());
