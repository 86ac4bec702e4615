// grue workbench: the page. It uses only the HTTP API of docs/api.md and
// builds every element from text nodes (game text is never HTML).
"use strict";

const $ = (sel) => document.querySelector(sel);
const SVGNS = "http://www.w3.org/2000/svg";

// el makes an element: attrs are set as attributes (class, href...) or,
// for "on*" keys, as listeners; children are nodes or strings.
function el(tag, attrs, ...children) {
  const e = tag.startsWith("svg:") ? document.createElementNS(SVGNS, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

// currentTab is the view the address names ("play" when none).
const currentTab = () => (location.hash.slice(1) || "play").split("?")[0];

// messages holds each view's message: one raised on a view (its form's
// error, a notice) is shown only while that view is open, and never on
// another one after navigating, even when it arrives late.
const messages = new Map();

// flash sets view tab's message (the open view's when tab is not given)
// and shows it when that view is open.
function flash(msg, tab) {
  const t = tab || currentTab();
  messages.set(t, msg || "");
  if (t === currentTab()) showFlash();
}

// showFlash shows the open view's message.
function showFlash() {
  const f = $("#flash");
  f.textContent = messages.get(currentTab()) || "";
  f.dataset.tab = currentTab();
}

// who names what played an episode: its model, or the baseline policy
// marked as a baseline (never blank, never as if a model played).
function who(policy, model) {
  if (model) return model;
  if (policy && policy !== "llm") return policy + " (baseline, no model)";
  if (policy === "llm") return "a model (unnamed)";
  return "unknown";
}

// player says who plays an episode, for its live status: "model: NAME"
// or "baseline: POLICY".
function player(i) {
  if (!i) return "";
  if (i.model) return "model: " + i.model;
  if (i.policy && i.policy !== "llm") return "baseline: " + i.policy;
  return "model: " + who(i.policy, i.model);
}

// dollars is a cost as a person should read it: "unknown" when the
// model has no known price (price_source "unknown"), never $0.0000.
function dollars(cost, priceSource) {
  return priceSource === "unknown" ? "unknown" : "$" + fmt(cost, 4);
}

// token is the server's token: from the address grue web printed
// (/?token=T), which is then taken out of the address bar, and kept in
// this origin's localStorage (a page on another port is another origin
// and cannot read it). No cookie carries it: cookies go to every port.
const token = (() => {
  const u = new URL(location.href);
  const t = u.searchParams.get("token");
  if (t) {
    try { localStorage.setItem("grue-token", t); } catch (e) { /* private mode: this tab only */ }
    u.searchParams.delete("token");
    history.replaceState(null, "", u.pathname + u.search + u.hash);
    return t;
  }
  try { return localStorage.getItem("grue-token") || ""; } catch (e) { return ""; }
})();

// authed is path with the token as its query, for what cannot send a
// header (an event stream, an image).
const authed = (path) => (token ? path + (path.includes("?") ? "&" : "?") + "token=" + encodeURIComponent(token) : path);

// headers are a request's headers: the token in X-Grue-Token, and the
// media type of its body (the server refuses a change without it).
function headers(type) {
  const h = {};
  if (token) h["X-Grue-Token"] = token;
  if (type) h["Content-Type"] = type;
  return h;
}

// api calls the server and returns the JSON answer; an error answer
// throws an Error whose message names the field.
async function api(method, path, body) {
  const opts = { method, headers: headers(method === "GET" ? "" : "application/json") };
  if (body !== undefined) opts.body = JSON.stringify(body);
  const res = await fetch(path, opts);
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = { error: text }; }
  if (!res.ok) {
    const msg = data && data.error ? data.error : res.statusText;
    throw new Error((data && data.field ? data.field + ": " : "") + msg + " (" + res.status + ")");
  }
  return data;
}

const fmt = (x, d = 1) => (x === undefined || x === null || Number.isNaN(x) ? "-" : Number(x).toFixed(d));

// ---- tabs

function showTab() {
  const [name, query] = (location.hash.slice(1) || "play").split("?");
  for (const s of document.querySelectorAll(".tab")) s.hidden = s.id !== "tab-" + name;
  for (const a of document.querySelectorAll("nav a")) a.classList.toggle("active", a.dataset.tab === name);
  showFlash();
  const q = new URLSearchParams(query || "");
  if (name === "experiments") refreshExperiments();
  if (name === "compare" && q.get("ids")) { $("#cmp-ids").value = q.get("ids"); runCompare(); }
  if (name === "trajectory" && (q.get("a") || q.get("ep") || q.get("run"))) {
    $("#traj-a").value = q.get("a") || query;
    $("#traj-b").value = q.get("b") || "";
    showTrajectories();
  }
  if (name === "play") refreshEpisodes();
}

// ---- games

async function loadGames() {
  const g = await api("GET", "/api/games");
  for (const sel of [$("#play-game"), $("#hand-game")]) {
    sel.replaceChildren(...g.games.map((x) => el("option", { value: x.name, selected: x.name === g.default },
      (x.uploaded ? x.name.split("/").pop() + " (uploaded)" : x.name) + (x.title ? " - " + x.title : "") + (x.max_score ? " (" + x.max_score + ")" : ""))));
  }
  // The memory strategies are the server's (agent/memory's list), after "default".
  const mem = $("#play-memory");
  mem.replaceChildren(mem.options[0], ...(g.memory || []).map((m) => el("option", { value: m }, m)));
}

async function loadConfigs() {
  const cfgs = await api("GET", "/api/configs");
  $("#exp-config").append(...cfgs.map((c) => el("option", { value: c }, c)));
}

// A story file chosen in Play is sent to POST /api/games and chosen.
$("#play-upload").addEventListener("change", async (ev) => {
  const f = ev.target.files[0];
  if (!f) return;
  try {
    const res = await fetch("/api/games?name=" + encodeURIComponent(f.name), { method: "POST", headers: headers("application/octet-stream"), body: f });
    const g = await res.json();
    if (!res.ok) throw new Error((g.field ? g.field + ": " : "") + g.error);
    await loadGames();
    $("#play-game").value = g.name;
    flash("uploaded " + f.name, "play");
  } catch (e) { flash(e.message, "play"); }
});

// ---- play

const play = { id: null, source: null, steps: [], latencies: [] };
window.grueLatencies = play.latencies;

$("#play-policy").addEventListener("change", () => {
  $("#model-settings").hidden = $("#play-policy").value !== "llm";
});

function playRequest(form) {
  const f = new FormData(form);
  const req = { game: f.get("game"), policy: f.get("policy"), seed: Number(f.get("seed") || 1), steps: Number(f.get("steps") || 0) };
  if (req.policy === "llm") {
    for (const k of ["base_url", "model", "memory", "protocol", "system_prompt"]) if (f.get(k)) req[k] = f.get(k);
    if (f.get("window")) req.window = Number(f.get("window"));
    if (f.get("tools")) req.tools = f.get("tools").split(",").map((s) => s.trim()).filter(Boolean);
  }
  return req;
}

$("#play-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  flash("", "play");
  $("#play-result").replaceChildren();
  try {
    const { id } = await api("POST", "/api/episodes", playRequest(ev.target));
    watchEpisode(id);
  } catch (e) { flash(e.message, "play"); }
});

$("#play-stop").addEventListener("click", async () => {
  if (!play.id) return;
  try { await api("DELETE", "/api/episodes/" + play.id); } catch (e) { flash(e.message, "play"); }
});

// watchEpisode follows episode id's events: every step as it ends (the
// past ones first), then its end.
async function watchEpisode(id) {
  if (play.source) play.source.close();
  play.source = null;
  play.id = id;
  // Who plays, for the status line, before the first step comes.
  let info = null;
  try { info = await api("GET", "/api/episodes/" + id); } catch (e) { flash(e.message, "play"); }
  if (play.id !== id) return; // another episode was opened meanwhile
  play.info = info;
  const by = info ? player(info) + " · " : "";
  play.steps = [];
  play.latencies.length = 0;
  $("#play-steps").replaceChildren();
  $("#play-result").replaceChildren();
  $("#play-status").textContent = by + "Starting episode " + id + "...";
  $("#play-stop").disabled = false;
  $("#play-run").disabled = true;
  const src = new EventSource(authed("/api/episodes/" + id + "/events"));
  play.source = src;
  // Events are only queued as they come; the page draws what came once
  // a frame, so a burst of fast steps never waits behind drawing.
  let pending = [], frame = 0;
  const draw = () => {
    frame = 0;
    const batch = pending;
    pending = [];
    if (!batch.length) return;
    $("#play-steps").prepend(...batch.reverse().map(stepCard));
    const s = batch[0];
    $("#play-status").textContent = by + `Step ${s.step} · Score ${s.score}/${s.max_score || "?"} · Moves ${s.moves} · Tokens ${s.total_tokens} · cost ${dollars(s.total_cost, info && info.price_source)}`;
    drawChart($("#play-chart"), play.steps);
    const withMap = batch.find((x) => x.map);
    if (withMap) drawMap($("#play-map"), withMap.map);
  };
  src.addEventListener("step", (m) => {
    const s = JSON.parse(m.data);
    if (s.ended_ms) play.latencies.push(Date.now() - s.ended_ms);
    play.steps.push(s);
    pending.push(s);
    if (!frame) frame = requestAnimationFrame(draw);
  });
  src.addEventListener("end", (m) => {
    src.close();
    cancelAnimationFrame(frame);
    draw();
    const r = JSON.parse(m.data);
    showResult(r);
    $("#play-stop").disabled = true;
    $("#play-run").disabled = false;
    refreshEpisodes();
  });
  src.onerror = () => { if (src.readyState === EventSource.CLOSED) $("#play-run").disabled = false; };
}

function showResult(r) {
  $("#play-status").textContent = `${player(r)} · Score ${r.final_score}/${r.max_score || "?"} · Moves ${r.moves} · Steps ${r.steps} · ${outcome(r)}`;
  $("#play-result").replaceChildren(el("div", { class: "result" + (lost(r) ? " lost" : ""), id: "play-final" },
    `${r.status}: final_score ${r.final_score}, max_score ${r.max_score}, moves ${r.moves}, game_completed ${r.game_completed}, victory ${r.victory}, rooms ${r.locations_visited}, tokens ${r.tokens.total_tokens}, cost ${dollars(r.cost, r.price_source)}` +
    (r.stopped_by ? `, stopped by ${r.stopped_by}` : "") + (r.error ? ` (error: ${r.error})` : "")),
  el("a", { href: "#trajectory?ep=" + r.id }, "Open the trajectory"));
}

function stepCard(s) {
  const args = s.args ? JSON.stringify(s.args) : "";
  return el("div", { class: "step" + (s.reward > 0 ? " reward" : "") + (s.error ? " failed" : "") },
    el("div", { class: "head" }, `step ${s.step} · score ${s.score} (${s.reward >= 0 ? "+" : ""}${s.reward}) · moves ${s.moves} · ${s.location || ""} · tokens ${s.tokens.total_tokens} · ${ms(s.wall_ms)}`),
    s.thought ? el("div", { class: "thought" }, s.thought) : null,
    el("div", { class: "call" }, `${s.tool}(${args})`),
    (s.repairs || []).map((r) => el("div", { class: "kv" }, `repair ${r.kind}: ${r.from || ""} -> ${r.to || ""} ${r.detail || ""}`)),
    s.error ? el("div", { class: "st-failed" }, s.error) : el("div", { class: "obs" }, s.observation));
}

// niceCeil is the smallest of 1, 2, 5, 10, 20, 50, ... at least v.
function niceCeil(v) {
  if (v <= 1) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(v)));
  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

// drawChart draws score against step as an inline SVG line. The y axis
// scales to the scores reached (a round number above the best), not to
// the game's maximum, which is drawn as a dashed line when the scale
// reaches it and named in the corner when it does not.
function drawChart(svg, steps) {
  const W = 400, H = 160, L = 30, B = 20, T = 8, R = 8;
  const best = Math.max(0, ...steps.map((s) => s.score));
  const gameMax = Math.max(0, ...steps.map((s) => s.max_score || 0));
  const top = gameMax && best >= gameMax * 0.8 ? gameMax : niceCeil(best);
  const lo = Math.min(0, ...steps.map((s) => s.score));
  const n = Math.max(1, steps.length);
  const x = (i) => L + (W - L - R) * (i / n);
  const y = (v) => H - B - (H - B - T) * ((v - lo) / (top - lo || 1));
  const pts = [[x(0), y(0)], ...steps.map((s, i) => [x(i + 1), y(s.score)])];
  svg.dataset.top = top;
  svg.replaceChildren(...[
    el("svg:line", { class: "axis", x1: L, y1: y(lo), x2: W - R, y2: y(lo) }),
    el("svg:line", { class: "axis", x1: L, y1: T, x2: L, y2: H - B }),
    el("svg:text", { x: 2, y: y(top) + 3 }, String(top)),
    el("svg:text", { x: 2, y: y(lo) + 3 }, String(lo)),
    lo < 0 ? el("svg:line", { class: "axis", x1: L, y1: y(0), x2: W - R, y2: y(0) }) : null,
    gameMax && gameMax <= top ? el("svg:line", { class: "max", x1: L, y1: y(gameMax), x2: W - R, y2: y(gameMax) }) : null,
    gameMax ? el("svg:text", { x: W - R - 70, y: gameMax <= top ? y(gameMax) + 11 : T + 9, class: "max-label" }, gameMax <= top ? "max " + gameMax : "max " + gameMax + " (above)") : null,
    el("svg:text", { x: W - R - 40, y: H - 5 }, "step " + steps.length),
    el("svg:polyline", { class: "line", points: pts.map((p) => p.join(",")).join(" ") })].filter(Boolean));
}

// Where a compass exit puts the next room on the grid.
const DIRS = { north: [0, -1], south: [0, 1], east: [1, 0], west: [-1, 0], northeast: [1, -1], northwest: [-1, -1],
  southeast: [1, 1], southwest: [-1, 1], up: [1, -1], down: [-1, 1], in: [1, 0], out: [-1, 0] };

// drawMap lays the explored rooms out on a grid by their exits' compass
// directions (breadth first from the first room) and draws them.
function drawMap(svg, map) {
  const rooms = map.rooms || [];
  if (!rooms.length) return;
  const byId = new Map(rooms.map((r) => [r.id, r]));
  const pos = new Map(), taken = new Set();
  const place = (id, gx, gy) => {
    for (let ring = 0; ring < 6; ring++) {
      for (let dx = -ring; dx <= ring; dx++) for (let dy = -ring; dy <= ring; dy++) {
        const k = (gx + dx) + "," + (gy + dy);
        if (!taken.has(k)) { taken.add(k); pos.set(id, [gx + dx, gy + dy]); return; }
      }
    }
  };
  for (const start of rooms) {
    if (pos.has(start.id)) continue;
    const maxX = Math.max(0, ...[...pos.values()].map((p) => p[0] + 2));
    place(start.id, pos.size ? maxX : 0, 0);
    const queue = [start.id];
    while (queue.length) {
      const r = byId.get(queue.shift());
      const [px, py] = pos.get(r.id);
      for (const [cmd, to] of Object.entries(r.exits || {})) {
        if (pos.has(to) || !byId.has(to)) continue;
        const d = DIRS[cmd] || [1, 1];
        place(to, px + d[0], py + d[1]);
        queue.push(to);
      }
    }
  }
  const xs = [...pos.values()].map((p) => p[0]), ys = [...pos.values()].map((p) => p[1]);
  const minX = Math.min(...xs), minY = Math.min(...ys);
  const cw = 90, ch = 50;
  const W = (Math.max(...xs) - minX + 1) * cw, H = (Math.max(...ys) - minY + 1) * ch;
  svg.setAttribute("viewBox", `0 0 ${Math.max(W, 200)} ${Math.max(H, 100)}`);
  const c = (id) => { const [gx, gy] = pos.get(id); return [(gx - minX) * cw + cw / 2, (gy - minY) * ch + ch / 2]; };
  const lines = [], boxes = [];
  for (const r of rooms) {
    for (const to of Object.values(r.exits || {})) {
      if (!pos.has(to)) continue;
      const [x1, y1] = c(r.id), [x2, y2] = c(to);
      lines.push(el("svg:line", { class: "exit", x1, y1, x2, y2 }));
    }
    const [x, y] = c(r.id);
    boxes.push(el("svg:g", { "data-room": r.name },
      el("svg:rect", { class: "room" + (r.id === map.current ? " current" : ""), x: x - 40, y: y - 14, width: 80, height: 28, rx: 4 }),
      el("svg:title", {}, r.name),
      el("svg:text", { x, y: y + 3, "text-anchor": "middle" }, r.name)));
  }
  svg.replaceChildren(...lines, ...boxes);
  for (const g of boxes) fitLabel(g.querySelector("text"), g.dataset.room, x0(g), 74);
}

// x0 is the centre of a room's box.
const x0 = (g) => Number(g.querySelector("rect").getAttribute("x")) + 40;

// fitLabel writes name into text as at most two lines each no wider than
// width (the box's inside): words wrap, and a line still too wide is cut
// with an ellipsis (the full name is the box's title, shown on hover).
function fitLabel(text, name, x, width) {
  const fits = (s) => { text.textContent = s; return text.getComputedTextLength() <= width; };
  const cut = (s) => { while (s.length > 1 && !fits(s + "…")) s = s.slice(0, -1); return s + "…"; };
  if (fits(name)) return;
  const words = name.split(/\s+/);
  let first = words[0], i = 1;
  while (i < words.length && fits(first + " " + words[i])) first += " " + words[i++];
  let second = words.slice(i).join(" ");
  if (!fits(first)) { first = cut(first); second = ""; }
  if (second && !fits(second)) second = cut(second);
  const y = Number(text.getAttribute("y"));
  text.textContent = "";
  const lines = second ? [first, second] : [first];
  lines.forEach((l, k) => text.append(el("svg:tspan", { x, y: y + (k - (lines.length - 1) / 2) * 10 }, l)));
}

async function refreshEpisodes() {
  try {
    const list = await api("GET", "/api/episodes");
    $("#episodes-table tbody").replaceChildren(...list.slice(0, 50).map((e) => el("tr", {},
      el("td", {}, e.id), el("td", {}, e.game), el("td", {}, who(e.policy, e.model)),
      el("td", { class: "st-" + e.status }, e.status), el("td", {}, `${e.final_score}/${e.max_score}`), el("td", {}, e.steps),
      el("td", {}, el("a", { href: "#trajectory?ep=" + e.id }, "trajectory"), " ",
        el("button", { class: "small", type: "button", onclick: () => watchEpisode(e.id) }, "replay")))));
  } catch (e) { flash(e.message, "play"); }
}

// ---- play by hand

const hand = { id: null };

function showHand(st) {
  hand.id = st.id;
  $("#hand-status").textContent = `${st.location || "?"}    Score: ${st.score}${st.max_score ? "/" + st.max_score : ""}    Moves: ${st.moves}` +
    (st.done ? (st.victory ? "    (won)" : "    (game over)") : "");
  const t = $("#hand-transcript");
  t.replaceChildren(...st.transcript.map((x) => el("div", {}, x.command ? el("b", {}, "> " + x.command + "\n") : null, x.output + "\n")));
  t.scrollTop = t.scrollHeight;
  for (const e of document.querySelectorAll("#hand-input input, #hand-input button")) e.disabled = false;
  $("#hand-command").focus();
}

$("#hand-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const f = new FormData(ev.target);
  try {
    if (hand.id) await api("DELETE", "/api/play/" + hand.id).catch(() => {});
    showHand(await api("POST", "/api/play", { game: f.get("game"), seed: Number(f.get("seed") || 1) }));
  } catch (e) { flash(e.message, "hand"); }
});

$("#hand-input").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const cmd = $("#hand-command").value;
  $("#hand-command").value = "";
  try { showHand(await api("POST", "/api/play/" + hand.id, { command: cmd })); } catch (e) { flash(e.message, "hand"); }
});

$("#hand-undo").addEventListener("click", async () => {
  try { showHand(await api("POST", "/api/play/" + hand.id + "/undo")); } catch (e) { flash(e.message, "hand"); }
});

// ---- experiments

let expTimer = null;

async function refreshExperiments() {
  clearTimeout(expTimer);
  let list;
  try { list = await api("GET", "/api/experiments"); } catch (e) { flash(e.message, "experiments"); return; }
  const checked = new Set([...document.querySelectorAll("#exp-table input:checked")].map((c) => c.value));
  $("#exp-table tbody").replaceChildren(...list.map((x) => el("tr", { "data-id": x.id },
    el("td", {}, el("input", { type: "checkbox", value: x.id, checked: checked.has(x.id) })),
    el("td", {}, el("a", { href: "#", onclick: (ev) => { ev.preventDefault(); openExperiment(x.id); } }, x.id)),
    el("td", {}, x.name, x.config_file ? el("div", { class: "kv" }, x.config_file) : null),
    el("td", { title: x.config_hash }, (x.config_hash || "").slice(0, 12)),
    el("td", { class: "st-" + x.status }, x.status, x.error ? el("div", { class: "kv" }, x.error) : null),
    el("td", {}, `${x.recorded}/${x.episodes}`),
    el("td", {}, x.variants.map((v) => el("div", {}, `${v.variant}: ${fmt(v.mean_score)}` + (v.mean_percent ? ` (${fmt(v.mean_percent)}%)` : "") + ` n=${v.episodes}`))),
    el("td", {}, x.status === "partial" ? el("button", { class: "small", type: "button", onclick: () => resumeExperiment(x.id) }, "Resume") :
      x.status === "running" ? el("button", { class: "small", type: "button", onclick: () => stopExperiment(x.id) }, "Stop") : null))));
  if (list.some((x) => x.status === "running") && location.hash.startsWith("#experiments")) {
    expTimer = setTimeout(refreshExperiments, 1000);
  }
}

async function resumeExperiment(id) {
  try { await api("POST", "/api/experiments/" + id + "/resume"); refreshExperiments(); } catch (e) { flash(e.message, "experiments"); }
}

async function stopExperiment(id) {
  try { await api("DELETE", "/api/experiments/" + id); refreshExperiments(); } catch (e) { flash(e.message, "experiments"); }
}

async function openExperiment(id) {
  let d;
  try { d = await api("GET", "/api/experiments/" + id); } catch (e) { flash(e.message, "experiments"); return; }
  $("#exp-detail").hidden = false;
  $("#exp-detail-title").textContent = `${d.id}: ${d.status}, ${d.recorded}/${d.episodes} episodes` + (d.missing ? `, ${d.missing.length} missing` : "");
  $("#exp-records tbody").replaceChildren(...d.records.map((r) => {
    const q = `run=${encodeURIComponent(d.id)}&variant=${encodeURIComponent(r.variant)}&game=${encodeURIComponent(r.game)}&seed=${r.seed}`;
    return el("tr", {}, el("td", {}, r.variant, el("div", { class: "kv who" }, who(r.policy, r.model))), el("td", {}, r.game), el("td", {}, r.seed),
      el("td", {}, `${r.final_score}/${r.max_score}`), el("td", {}, r.moves), el("td", {}, r.steps),
      el("td", {}, r.error ? "error: " + r.error : r.victory ? "won" : r.game_completed ? "ended" : "limit"),
      el("td", {}, el("a", { href: "#trajectory?" + q }, "trajectory"), " ",
        el("button", { class: "small", type: "button", onclick: () => { $("#traj-b").value = q; flash("B set to " + r.variant + " seed " + r.seed, "trajectory"); } }, "as B")));
  }));
}

$("#exp-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const f = new FormData(ev.target);
  const req = {};
  if (f.get("config")) req.config = f.get("config"); else req.yaml = f.get("yaml");
  if (f.get("steps")) req.steps = Number(f.get("steps"));
  if (f.get("trials")) req.trials = Number(f.get("trials"));
  try {
    const { id } = await api("POST", "/api/experiments", req);
    flash("launched " + id, "experiments");
    refreshExperiments();
  } catch (e) { flash(e.message, "experiments"); }
});

$("#exp-compare").addEventListener("click", () => {
  const ids = [...document.querySelectorAll("#exp-table input:checked")].map((c) => c.value);
  if (!ids.length) { flash("select runs to compare", "experiments"); return; }
  location.hash = "#compare?ids=" + ids.join(",");
});

// ---- compare

function ci(s) { return s && s.ci ? ` [${fmt(s.ci.lo)}, ${fmt(s.ci.hi)}]` : ""; }

function table(id, head, rows) {
  return el("table", { id }, el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, h)))),
    el("tbody", {}, rows.map((r) => el("tr", {}, r.map((c) => el("td", {}, c))))));
}

async function runCompare() {
  const ids = $("#cmp-ids").value.split(",").map((s) => s.trim()).filter(Boolean).join(",");
  let c;
  const q = "ids=" + encodeURIComponent(ids) + ($("#cmp-baseline").value ? "&baseline=" + encodeURIComponent($("#cmp-baseline").value) : "") +
    ($("#cmp-pair-across").checked ? "&pair_across=true" : "");
  try { c = await api("GET", "/api/experiments/compare?" + q); } catch (e) { flash(e.message, "compare"); return; }
  const baselines = c.paired_within_runs && (c.baselines || []).length ? c.baselines : [c.baseline];
  const out = [el("h2", {}, `Variants by game (baseline${baselines.length > 1 ? "s" : ""} ${baselines.join(", ")})`),
    c.runs_apart ? el("p", { class: "note", id: "cmp-apart" }, "These runs share variant names, so each row is named RUN/VARIANT and no run's records replace another's. " +
      (c.paired_within_runs ? "Each variant is paired against its own run's baseline." : "Pairs are taken across runs, against " + c.baseline + ".")) : null,
    (c.problems || []).length ? el("p", { class: "st-failed", id: "cmp-problems" }, c.problems.map((p) => `${p.file}:${p.line}: ${p.msg}`).join("; ")) : null,
    table("cmp-rows", [c.runs_apart ? "run/variant" : "variant", "game", "episodes", "won", "ended", "errors", "mean score [95% CI]", "% of max", "moves", "rooms", "first point", "invalid", "tokens", "cost"],
      c.rows.map((r) => [r.variant, r.game, r.episodes, r.won, r.ended, r.errors, fmt(r.score.mean) + ci(r.score),
        r.percent.n ? fmt(r.percent.mean) + ci(r.percent) : "-", fmt(r.mean_moves), fmt(r.mean_rooms),
        r.scored ? fmt(r.mean_first_point_step) : "-", fmt(100 * r.invalid_rate) + "%", fmt(r.mean_tokens, 0), r.mean_cost == null ? "unknown" : "$" + fmt(r.mean_cost, 4)]))];
  if (c.paired && c.paired.length) {
    out.push(el("h2", {}, c.paired_within_runs ? "Paired within each run, against its baseline" : "Paired against the baseline"),
      table("cmp-paired", ["variant", "against", "game", "metric", "pairs", "mean diff [95% CI]", "wins/losses/ties", "sign test p"],
        c.paired.map((p) => [p.variant, p.baseline, p.game || "all", p.metric, p.n, fmt(p.mean_diff) + ci(p), `${p.wins}/${p.losses}/${p.ties}`, fmt(p.sign_p, 3)])));
  }
  out.push(el("h2", {}, "Leaderboard"),
    table("cmp-leaderboard", ["rank", "variant", "mean % of max", "games", "episodes", "won", "errors"],
      c.leaderboard.map((l) => [l.rank, l.variant, fmt(l.mean_percent), l.games, l.episodes, l.won, l.errors])));
  for (const g of c.games) {
    out.push(el("h3", {}, "Score by step: " + g), el("img", { alt: "score by step on " + g, src: authed("/api/experiments/compare/plot?" + q + "&game=" + encodeURIComponent(g)), width: 640 }));
  }
  $("#cmp-out").replaceChildren(...out.filter(Boolean));
}

$("#cmp-go").addEventListener("click", runCompare);

// ---- trajectories

function trajectoryURL(ref) {
  const q = new URLSearchParams(ref.replace(/^[?#]/, ""));
  if (q.get("ep")) return "/api/episodes/" + encodeURIComponent(q.get("ep")) + "/trajectory";
  if (q.get("run")) {
    return "/api/experiments/" + encodeURIComponent(q.get("run")) + "/trajectory?variant=" + encodeURIComponent(q.get("variant") || "") +
      "&game=" + encodeURIComponent(q.get("game") || "") + "&seed=" + encodeURIComponent(q.get("seed") || "");
  }
  throw new Error("trajectory: give ep=ID or run=ID&variant=V&game=G&seed=N");
}

// sameStep reports whether two steps did the same thing and saw the same.
function sameStep(a, b) {
  return a && b && a.tool === b.tool && JSON.stringify(a.args || {}) === JSON.stringify(b.args || {}) && a.observation === b.observation;
}

// outcome says how an episode ended, as a person would: a win, the
// game's end, or the limit that stopped it (a step limit is no loss).
function outcome(t) {
  if (t.victory) return "victory";
  if (t.game_completed) return "game over";
  const by = {
    steps: "stopped at the step limit", tokens: "stopped at the token limit", cost: "stopped at the cost limit",
    wall: "stopped at the time limit", policy: "the policy had no more moves", cancelled: "stopped",
    error: "failed" + (t.error ? ": " + t.error : ""),
  }[t.stopped_by];
  return by || t.status || "unknown";
}

// lost reports whether an episode ended badly: the game over without a
// win, or a failure.
function lost(t) {
  return (t.game_completed && !t.victory) || t.stopped_by === "error" || t.status === "failed";
}

// ms is a duration in milliseconds as the API gives it (the *_ms
// fields): "unknown" when absent, three decimals under a millisecond.
function ms(v) {
  if (v === undefined || v === null || Number.isNaN(Number(v))) return "unknown";
  // Durations come to the microsecond: 0 is a time under a microsecond,
  // never nothing.
  if (Number(v) >= 0 && Number(v) < 0.001) return "< 0.001 ms";
  return Number(v).toFixed(Math.abs(v) < 1 ? 3 : 1) + " ms";
}

// timing is a step's time: wall, then the model's (when a model
// answered), the tool's, the memory's (when it took any) and the agent's.
function timing(s) {
  const parts = [];
  if (s.reply) parts.push("model " + ms(s.llm_time_ms));
  parts.push("tool " + ms(s.tool_time_ms));
  if (s.memory_time_ms) parts.push("memory " + ms(s.memory_time_ms));
  parts.push("agent " + ms(s.overhead_ms));
  return `wall ${ms(s.wall_ms)} (${parts.join(", ")})`;
}

function fullStep(s, diverge, priceSource) {
  const reply = s.reply;
  return el("div", { class: "step" + (s.reward > 0 ? " reward" : "") + (s.error ? " failed" : "") + (diverge ? " diverge" : ""), "data-step": s.step },
    el("div", { class: "head" }, `step ${s.step} · score ${s.score} (${s.reward >= 0 ? "+" : ""}${s.reward}) · moves ${s.moves} · ${s.location || ""}` + (diverge ? " · first difference" : "")),
    !(s.prompt || []).length ? null : el("details", { class: "prompt" }, el("summary", {}, `prompt: ${s.prompt.length} messages`),
      (s.prompt || []).map((m) => el("div", { class: "msg" }, el("div", { class: "role" }, m.role + (m.name ? " " + m.name : "")), el("pre", {}, m.content || ""),
        (m.tool_calls || []).map((t) => el("pre", {}, `${t.name}(${t.arguments})`))))),
    reply ? el("details", {}, el("summary", {}, "raw reply" + (reply.cached ? " (cached)" : "")),
      reply.reasoning ? el("pre", { class: "kv" }, reply.reasoning) : null, el("pre", {}, reply.content || ""),
      (reply.tool_calls || []).map((t) => el("pre", {}, `${t.name}(${t.arguments})`)),
      (reply.retries || []).map((r) => el("div", { class: "kv" }, "retry: " + (r.error || "")))) : el("div", { class: "kv" }, s.policy === "llm" ? "no model reply recorded" : "played by " + who(s.policy, "")),
    s.thought ? el("div", { class: "thought" }, s.thought) : null,
    el("div", { class: "call" }, `${s.tool}(${s.args ? JSON.stringify(s.args) : ""})`),
    (s.repairs || []).map((r) => el("div", { class: "kv" }, `repair ${r.kind}: ${r.from || ""} -> ${r.to || ""} ${r.detail || ""}`)),
    s.error ? el("div", { class: "st-failed" }, s.error) : el("div", { class: "obs" }, s.observation),
    el("div", { class: "kv" }, `tokens ${s.usage ? s.usage.prompt_tokens + "+" + s.usage.completion_tokens : 0} · cost ${dollars(s.cost, priceSource)} · ${timing(s)}`));
}

function trajHeader(t) {
  return el("div", { class: "result" + (lost(t) ? " lost" : ""), "data-traj": "head" },
    `${t.title || "episode"}: ${t.game} seed ${t.seed}, ${t.variant || "?"}${t.model ? " (" + t.model + ")" : ", played by " + who(t.policy, t.model)}: ${outcome(t)}, ` +
    `score ${t.final_score}/${t.max_score || "?"}, moves ${t.moves}, steps ${t.steps}`);
}

async function showTrajectories() {
  let a, b = null;
  try {
    a = await api("GET", trajectoryURL($("#traj-a").value));
    if ($("#traj-b").value.trim()) b = await api("GET", trajectoryURL($("#traj-b").value));
  } catch (e) { flash(e.message, "trajectory"); return; }
  if (!b) {
    $("#traj-out").replaceChildren(trajHeader(a), el("div", { class: "steps" }, a.history.map((s) => fullStep(s, false, a.price_source))));
    return;
  }
  let first = 0;
  while (first < a.history.length && first < b.history.length && sameStep(a.history[first], b.history[first])) first++;
  const note = first >= Math.min(a.history.length, b.history.length) && a.history.length === b.history.length ?
    "The two episodes play the same steps." : `The episodes agree for ${first} steps and differ from step ${first + 1}.`;
  const col = (t) => el("div", { class: "steps" }, trajHeader(t),
    first > 0 ? el("details", {}, el("summary", {}, `${first} steps the same`), t.history.slice(0, first).map((s) => fullStep(s, false, t.price_source))) : null,
    t.history.slice(first).map((s, i) => fullStep(s, i === 0, t.price_source)),
    t.history.length <= first ? el("div", { class: "step diverge" }, `No step ${first + 1}: this episode ended after ${t.history.length} steps (${outcome(t)}).`) : null);
  $("#traj-out").replaceChildren(el("p", { id: "traj-note" }, note), el("div", { class: "side" }, col(a), col(b)));
}

$("#traj-go").addEventListener("click", showTrajectories);

// ---- start

window.addEventListener("hashchange", showTab);
Promise.all([loadGames(), loadConfigs()]).then(showTab, (e) => { flash(e.message); showTab(); });
