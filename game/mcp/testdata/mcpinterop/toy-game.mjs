// toy-game.mjs is the game of the test servers written with the
// TypeScript SDKs (toy-server.mjs, modern-server.mjs): two rooms and one
// treasure. Its tools' text and structured content follow grue's game
// server: play_action, inventory, memory.
export function newGame() {
  const state = { room: "Hall", score: 0, moves: 0, carrying: [], coinHere: true };

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

  return {
    play(action) {
      const before = state.score;
      const reply = act(action);
      const done = state.score >= 10;
      let text = reply + (state.score > before ? `\n\n+${state.score - before} points! (Total: ${state.score})` : `\n\n[Score: ${state.score} | Moves: ${state.moves}]`);
      if (done) text += "\n\nGAME OVER";
      return {
        content: [{ type: "text", text }],
        structuredContent: { observation: reply, score: state.score, max_score: 10, moves: state.moves, reward: state.score - before, done, victory: done, location: state.room },
      };
    },
    inventory() {
      return { content: [{ type: "text", text: state.carrying.length ? "Inventory: " + state.carrying.join(", ") : "Inventory: You are empty-handed." }] };
    },
    memory() {
      return { content: [{ type: "text", text: `Current State:\n- Location: ${state.room}\n- Score: ${state.score}\n- Moves: ${state.moves}\n- Game: toy` }] };
    },
  };
}
