// The page of `hive-web`: draws what the server sends and sends what the user clicks. No rules here:
// the legal moves, their drawing data (piece, from, to) and the game's end come from the server.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const OWNER_FILL = { w: "rgb(245,240,225)", b: "rgb(40,40,40)" };  // hive_envs/hive/render.py
const OWNER_INK = { w: "rgb(20,20,20)", b: "rgb(245,245,245)" };
const LAST_MOVE = "rgb(255,0,200)";
const W = 760, H = 580, BAND = 64;

const app = {
  meta: null, state: null, selected: null, busy: false, view: "play",
  replay: { list: null, frames: [], index: 0, current: null },
};
window.hiveApp = app;  // for the browser test and the curious

const $ = (id) => document.getElementById(id);

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function api(method, path, body) {
  const response = await fetch(path, {
    method, headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data;
  try { data = await response.json(); } catch (e) { data = { error: `HTTP ${response.status}` }; }
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

function el(name, attrs, parent, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

// Text from a request or a report (names, reasons, moves, errors) goes in as text, never as HTML.
function tag(name, text, attrs) {
  const node = document.createElement(name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function textTable(id, headers, rows) {  // rows: [{ cells: [text, ...], attrs: {...} }, ...]
  const table = tag("table", undefined, id ? { id } : {});
  table.appendChild(tag("tr")).append(...headers.map((h) => tag("th", h)));
  for (const row of rows) table.appendChild(tag("tr", undefined, row.attrs)).append(...row.cells.map((c) => tag("td", c)));
  return table;
}

function hexPoints(cx, cy, radius) {
  const points = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 180) * (60 * k - 30);
    points.push(`${(cx + radius * Math.cos(a)).toFixed(1)},${(cy + radius * Math.sin(a)).toFixed(1)}`);
  }
  return points.join(" ");
}

// ---------------------------------------------------------------- Hive
function hiveLayout(position) {
  // the geometry of hive_envs/hive/render.py: x = q + r/2, y = r * 1.5 / sqrt(3), in neighbour units
  const cells = position.stacks.map((s) => [s.q, s.r]);
  for (const m of position.moves || []) if (m.to) cells.push(m.to);
  for (const t of (position.thoughtsShown || [])) if (t.to) cells.push(t.to);
  if (!cells.length) cells.push([0, 0]);
  const xs = cells.map(([q, r]) => q + r / 2), ys = cells.map(([, r]) => (r * 1.5) / Math.sqrt(3));
  const top = 2 * BAND, bottom = H - 2 * BAND;
  const spanX = Math.max(...xs) - Math.min(...xs) + 1;
  const spanY = Math.max(...ys) - Math.min(...ys) + 2 / Math.sqrt(3);
  const unit = Math.min((W - 16) / spanX, (bottom - top) / spanY, 80);
  const ox = W / 2 - (unit * (Math.max(...xs) + Math.min(...xs))) / 2;
  const oy = (top + bottom) / 2 - (unit * (Math.max(...ys) + Math.min(...ys))) / 2;
  return { unit, radius: unit / Math.sqrt(3),
           centre: ([q, r]) => [ox + unit * (q + r / 2), oy + (unit * r * 1.5) / Math.sqrt(3)] };
}

function drawTile(svg, cx, cy, radius, name, colours, extra) {
  const g = el("g", extra, svg);
  el("polygon", { points: hexPoints(cx, cy, radius * 0.95), fill: colours[name[1]], stroke: "#5a5a5a", "stroke-width": 2 }, g);
  el("polygon", { points: hexPoints(cx, cy, radius * 0.72), fill: OWNER_FILL[name[0]] }, g);
  el("text", { x: cx, y: cy + radius * 0.12, "text-anchor": "middle", "font-size": Math.max(9, radius * 0.5), fill: OWNER_INK[name[0]] }, g, name.slice(1));
  return g;
}

function drawHive(svg, position, interactive) {
  const layout = hiveLayout(position);
  const { radius, centre } = layout;
  const colours = position.colours;
  const moves = interactive ? position.moves : [];
  const movable = new Set(moves.filter((m) => m.piece).map((m) => m.piece));
  // reserves: Black above, White below
  position.reserves.forEach((names, seat) => {
    const y = seat === 1 ? BAND / 2 + 4 : H - BAND / 2 - 4;
    el("text", { x: 8, y: y + 5, "font-size": 14 }, svg, position.sides[seat] + ":");
    const step = Math.min(46, (W - 80) / Math.max(1, names.length));
    names.forEach((name, i) => {
      const cx = 80 + step * i + step / 2;
      const g = drawTile(svg, cx, y, step / 1.8, name, colours, { "data-piece": name, class: "reserve" });
      if (movable.has(name)) { g.classList.add("clickable"); g.addEventListener("click", () => pick(name)); }
      if (app.selected === name) el("polygon", { points: hexPoints(cx, y, step / 1.8), fill: "none", class: "selected" }, svg);
    });
  });
  for (const stack of position.stacks) {
    const cell = [stack.q, stack.r];
    const [cx, cy] = centre(cell);
    const top = stack.pieces[stack.pieces.length - 1];
    const last = position.last && position.last[0] === stack.q && position.last[1] === stack.r;
    if (last) el("polygon", { points: hexPoints(cx, cy, radius * 1.02), fill: LAST_MOVE }, svg);
    const g = drawTile(svg, cx, cy, last ? radius * 0.93 : radius, top, colours,
                       { "data-piece": top, "data-cell": cell.join(","), class: "tile" });
    el("title", {}, g, stack.pieces.length > 1 ? `stack, bottom to top: ${stack.pieces.join(" < ")}` : top);
    if (stack.pieces.length > 1) {
      const bx = cx + radius * 0.45, by = cy - radius * 0.42;
      el("circle", { cx: bx, cy: by, r: radius * 0.22, fill: "rgb(200,30,30)" }, g);
      el("text", { x: bx, y: by + radius * 0.09, "text-anchor": "middle", "font-size": radius * 0.28, fill: "#fff" }, g, stack.pieces.length);
      el("text", { x: cx, y: cy + radius * 0.5, "text-anchor": "middle", "font-size": Math.max(7, radius * 0.22), fill: OWNER_INK[top[0]] },
         g, stack.pieces.slice(0, -1).reverse().join(" "));
    }
    if (movable.has(top)) { g.classList.add("clickable"); g.addEventListener("click", () => pick(top)); }
    if (app.selected === top) el("polygon", { points: hexPoints(cx, cy, radius), fill: "none", class: "selected" }, svg);
  }
  if (interactive && app.selected) {
    for (const m of moves.filter((m) => m.piece === app.selected)) {
      const [cx, cy] = centre(m.to);
      const d = el("polygon", { points: hexPoints(cx, cy, radius * 0.9), class: "dest", "data-dest": m.to.join(","), "data-move": m.name }, svg);
      el("title", {}, d, m.name);
      d.addEventListener("click", (event) => { event.stopPropagation(); playMove(m.name); });
    }
  }
  drawThoughts(svg, position.thoughtsShown, centre, radius);
}

function signed(value) {
  return value === null ? "—" : (value >= 0 ? "+" : "") + value.toFixed(2);
}

function thoughtTip(row) {  // shown on hover over a move the agent considered
  return `${row.name}: policy ${(100 * row.probability).toFixed(1)}%, ${row.visits} visits, value ${signed(row.value)}`;
}

function drawThoughts(svg, rows, centre, radius) {
  (rows || []).slice(0, 5).forEach((row, i) => {
    if (!row.to) return;
    const [tx, ty] = centre(row.to);
    if (row.from) {
      const [fx, fy] = centre(row.from);
      el("line", { class: "thought", x1: fx, y1: fy, x2: tx, y2: ty, stroke: "rgba(0,90,255,0.7)", "stroke-width": i === 0 ? 5 : 2 }, svg);
    }
    const mark = el("circle", { class: "thought", cx: tx, cy: ty, r: radius * 0.42, fill: "rgba(0,90,255,0.85)" }, svg);
    el("title", {}, mark, thoughtTip(row));
    const label = row.visits ? `${row.visits}` : `${Math.round(100 * row.probability)}%`;
    el("text", { x: tx, y: ty + radius * 0.12, "text-anchor": "middle", "font-size": radius * 0.34, fill: "#fff" }, svg, label);
  });
}

// ---------------------------------------------------------------- Hoyito
function drawHoyito(svg, position, interactive) {
  const n = position.holes_per_row, pit = Math.min(60, (W - 260) / n - 8), gap = 8;
  const left = (W - n * (pit + gap)) / 2, top = H / 2 - pit - gap;
  const legal = new Map((interactive ? position.moves : []).map((m) => [m.hole, m.name]));
  for (let row = 0; row < 2; row++) {
    for (let col = 0; col < n; col++) {
      const hole = row === 0 ? 2 * n - 1 - col : col;
      const cx = left + col * (pit + gap) + pit / 2, cy = top + row * (pit + 2 * gap) + pit / 2;
      const g = el("g", { "data-hole": hole, class: "pit" }, svg);
      el("circle", { cx, cy, r: pit / 2, fill: "rgb(140,95,55)", stroke: hole === position.last ? LAST_MOVE : "rgb(40,25,10)", "stroke-width": hole === position.last ? 5 : 2 }, g);
      el("text", { x: cx, y: cy + 7, "text-anchor": "middle", "font-size": 20, fill: "#fff" }, g, position.holes[hole]);
      el("text", { x: cx, y: row === 0 ? cy - pit / 2 - 6 : cy + pit / 2 + 16, "text-anchor": "middle", "font-size": 11 }, svg, hole);
      if (legal.has(hole)) {
        g.classList.add("clickable");
        el("circle", { cx, cy, r: pit / 2 + 3, fill: "none", class: "dest", "data-move": legal.get(hole) }, g);
        g.addEventListener("click", () => playMove(legal.get(hole)));
      }
    }
  }
  [[1, "North", left - 110, top], [0, "South", left + n * (pit + gap) + 10, top + pit + 2 * gap]].forEach(([seat, name, x, y]) => {
    el("rect", { x, y, width: 100, height: pit, rx: 8, fill: "rgb(140,95,55)", stroke: position.to_move === seat && !position.over ? "rgb(250,220,60)" : "rgb(40,25,10)", "stroke-width": 3 }, svg);
    el("text", { x: x + 50, y: y + pit / 2 + 6, "text-anchor": "middle", "font-size": 16, fill: "#fff" }, svg, `${name}: ${position.captured[seat]}`);
  });
  (position.thoughtsShown || []).slice(0, 5).forEach((row) => {
    const hole = row.hole, r = hole < n ? 1 : 0, col = hole < n ? hole : 2 * n - 1 - hole;
    const cx = left + col * (pit + gap) + pit / 2, cy = top + r * (pit + 2 * gap) + pit / 2;
    const label = el("text", { x: cx, y: r === 1 ? cy + pit / 2 + 32 : cy - pit / 2 - 22, "text-anchor": "middle", "font-size": 12, fill: "rgb(0,90,255)" },
       svg, row.visits ? `${row.visits} v` : `${Math.round(100 * row.probability)}%`);
    el("title", {}, label, thoughtTip(row));
  });
}

function draw(position, interactive) {
  const svg = $("board");
  svg.innerHTML = "";
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  if (!position) return;
  el("text", { x: 10, y: BAND + 24, "font-size": 14, "font-weight": "bold" }, svg, position.status);
  if (position.kind === "hive") drawHive(svg, position, interactive);
  else drawHoyito(svg, position, interactive);
}

// ---------------------------------------------------------------- Play
function renderOptions() {
  const box = $("options");
  box.querySelectorAll("label").forEach((l) => l.remove());
  const defaults = app.meta.games[$("game-select").value];
  for (const [name, value] of Object.entries(defaults)) {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.dataset.option = name;
    if (typeof value === "boolean") { input.type = "checkbox"; input.checked = value; label.className = "inline"; }
    else { input.value = value === null ? "" : value; input.placeholder = value === null ? "default" : ""; }
    input.id = `option-${name}`;
    if (input.type === "checkbox") label.append(input, document.createTextNode(" " + name));
    else label.append(document.createTextNode(name), input);
    box.appendChild(label);
  }
}

function readOptions() {
  const defaults = app.meta.games[$("game-select").value], options = {};
  for (const input of $("options").querySelectorAll("input")) {
    const name = input.dataset.option, base = defaults[name];
    if (typeof base === "boolean") options[name] = input.checked;
    else if (typeof base === "string") options[name] = input.value.trim();
    else if (input.value.trim() === "") options[name] = null;
    else {
      const value = Number(input.value);
      options[name] = Number.isInteger(value) ? value : input.value;  // the server names a bad value
    }
  }
  return options;
}

function setState(state) {
  app.state = state;
  app.selected = null;
  $("status").textContent = state.status;
  $("status").classList.toggle("over", state.over);
  $("record").value = state.record;
  $("undo").disabled = state.ply === 0;
  const onlyPass = state.moves.length === 1 && !state.moves[0].piece && state.moves[0].hole === undefined;
  $("pass").disabled = !(onlyPass && !state.computer_to_move);
  const list = $("move-list");
  const names = state.kind === "hive" ? state.record.split(";").slice(3) : (state.record.split("moves=")[1] || "").split(",").filter(Boolean);
  list.replaceChildren(...names.map((m) => tag("li", m)));
  list.scrollTop = list.scrollHeight;
  draw(state, !state.computer_to_move && !state.over);
  if (state.computer_to_move && !state.over) setTimeout(computerMove, 150);
}

async function guarded(action) {
  if (app.busy) return;
  app.busy = true;
  try { showError(""); await action(); } catch (e) { showError(e.message); } finally { app.busy = false; }
}

function newGame() {
  return guarded(async () => {
    $("thoughts").innerHTML = "";
    $("status").textContent = "starting…";
    const body = { game: $("game-select").value, options: readOptions(), players: [$("player0").value, $("player1").value] };
    setState(await api("POST", "/api/games", body));
  });
}

function pick(piece) {
  if (!app.state || app.state.computer_to_move) return;
  app.selected = app.selected === piece ? null : piece;
  draw(app.state, true);
}

function playMove(name) {
  return guarded(async () => {
    setState(await api("POST", `/api/games/${app.state.id}/play`, { move: name }));
  });
}

function computerMove() {
  return guarded(async () => {
    if (!app.state || !app.state.computer_to_move) return;
    $("status").textContent = `${app.state.sides[app.state.to_move]} (${app.state.players[app.state.to_move]}) is thinking…`;
    const state = await api("POST", `/api/games/${app.state.id}/computer`, { think: $("think").checked });
    showThoughts(state);
    setState(state);
  });
}

function showThoughts(state) {
  const t = state.thoughts, box = $("thoughts");
  if (!t) { box.innerHTML = ""; state.thoughtsShown = null; return; }
  state.thoughtsShown = t.moves;
  const line = tag("p");
  line.append(tag("b", t.player), " before playing ", tag("b", state.computer_move),
    `: value ${signed(t.value)} for the side to move` + (t.simulations ? `, ${t.simulations} simulations` : ", raw policy"));
  box.replaceChildren(line, textTable(undefined, ["move", "policy", "visits", "value"], t.moves.map((m) => ({
    cells: [m.name, `${(100 * m.probability).toFixed(1)}%`, m.visits, signed(m.value)] }))));
}

function undo() {
  return guarded(async () => setState(await api("POST", `/api/games/${app.state.id}/undo`, {})));
}

// ---------------------------------------------------------------- Replay
function resultText(result) {
  if (result === null || result === undefined) return "—";
  return result > 0 ? "1-0" : result < 0 ? "0-1" : "½-½";
}

async function fileText(file) {  // a records file (.json.gz, beside a results summary) is unpacked here
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  if (head[0] !== 0x1f || head[1] !== 0x8b) return file.text();
  return new Response(file.stream().pipeThrough(new DecompressionStream("gzip"))).text();
}

function openReplay() {
  return guarded(async () => {
    const list = await api("POST", "/api/replay", { text: $("replay-text").value });
    app.replay.list = list;
    $("replay-source").textContent = `${list.source}: ${list.game}, ${list.games.length} game(s) to replay` +
      (list.pairs.length ? `, ${list.pairs.length} match(es)` : "");
    const tables = [];
    if (list.pairs.length) {
      tables.push(textTable("pairs", ["player", "opponent", "W/D/L", "mean length", "games stored"], list.pairs.map((p) => ({
        cells: [p.player, p.opponent, `${p.wins}/${p.draws}/${p.losses}`, Number(p.mean_length).toFixed(1), p.replayable || "none (tally only)"] }))));
    }
    if (list.games.length) {
      tables.push(textTable("games", ["#", "seat 0", "seat 1", "result", "plies"], list.games.map((g, i) => ({
        attrs: { class: "game", "data-index": i, title: g.reason || "" },
        cells: [i + 1, g.players[0], g.players[1], resultText(g.result) + (g.reason ? " (forfeit)" : ""), g.length] }))));
    }
    $("replay-games").replaceChildren(...tables);
    $("replay-games").querySelectorAll("tr.game").forEach((row) => row.addEventListener("click", () => loadGame(Number(row.dataset.index))));
    if (list.games.length) await loadGame(0, true);
  });
}

async function loadGame(index, inside) {
  const run = async () => {
    const game = app.replay.list.games[index];
    const data = await api("POST", "/api/replay/frames", { record: game.record, options: game.options });
    app.replay.frames = data.frames;
    app.replay.current = index;
    $("replay-games").querySelectorAll("tr.game").forEach((row) => row.classList.toggle("current", Number(row.dataset.index) === index));
    $("slider").max = data.frames.length - 1;
    $("replay-controls").hidden = false;
    step(data.frames.length - 1);
  };
  return inside ? run() : guarded(run);
}

function step(index) {
  const frames = app.replay.frames;
  if (!frames.length) return;
  app.replay.index = Math.max(0, Math.min(frames.length - 1, index));
  const frame = frames[app.replay.index];
  $("slider").value = app.replay.index;
  $("ply-label").textContent = `ply ${app.replay.index} / ${frames.length - 1}` + (frame.last_move ? `: ${frame.last_move}` : "");
  draw(frame, false);
}

// ---------------------------------------------------------------- wiring
function switchView(view) {
  app.view = view;
  document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t.dataset.view === view));
  $("play-panel").hidden = view !== "play";
  $("replay-panel").hidden = view !== "replay";
  $("replay-controls").hidden = view !== "replay" || !app.replay.frames.length;
  if (view === "play") draw(app.state, app.state && !app.state.computer_to_move && !app.state.over);
  else step(app.replay.index);
}

async function start() {
  try {
    app.meta = await api("GET", "/api/meta");
  } catch (e) { showError(e.message); return; }
  for (const name of Object.keys(app.meta.games)) $("game-select").add(new Option(name, name));
  $("spec-help").textContent = `players: human | ${app.meta.specs}`;
  for (const name of [...app.meta.engines, ...app.meta.agents]) $("spec-examples").appendChild(new Option(name, name));
  renderOptions();
  $("game-select").addEventListener("change", renderOptions);
  $("new-game").addEventListener("click", newGame);
  $("undo").addEventListener("click", undo);
  $("pass").addEventListener("click", () => playMove("pass"));
  $("copy-record").addEventListener("click", () => { $("record").select(); navigator.clipboard && navigator.clipboard.writeText($("record").value); });
  document.querySelectorAll(".tab").forEach((t) => t.addEventListener("click", () => switchView(t.dataset.view)));
  $("replay-open").addEventListener("click", openReplay);
  $("replay-file").addEventListener("change", async () => {
    const file = $("replay-file").files[0];
    if (file) { $("replay-text").value = await fileText(file); openReplay(); }
  });
  $("first").addEventListener("click", () => step(0));
  $("prev").addEventListener("click", () => step(app.replay.index - 1));
  $("next").addEventListener("click", () => step(app.replay.index + 1));
  $("last").addEventListener("click", () => step(app.replay.frames.length - 1));
  $("slider").addEventListener("input", () => step(Number($("slider").value)));
  document.addEventListener("keydown", (event) => {
    if (app.view !== "replay" || event.target.tagName === "TEXTAREA" || event.target.tagName === "INPUT") return;
    const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
    if (event.key in moves) {
      event.preventDefault();
      const delta = moves[event.key];
      step(Number.isFinite(delta) ? app.replay.index + delta : delta < 0 ? 0 : app.replay.frames.length - 1);
    }
  });
  draw(null);
}

start();
