// The page of `hive-web`: draws what the server sends and sends what the user clicks. No rules here:
// the legal moves, their drawing data (piece, from, to) and the game's end come from the server.
// The boards are drawn by board.js and each game's own drawing script, which its definition names and
// the server serves by the game's name (loadBoards); the thoughts panel by thoughts.js. Nothing here
// knows a game: what differs comes from /api/meta.
"use strict";

const W = 760, H = 580;

const app = {
  meta: null, state: null, selected: null, busy: false, view: "play",
  pending: null, starting: false, paused: false, thoughts: null,
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

// The main board: the position now (play) or the replay's frame.
function draw(position, interactive) {
  drawPosition($("board"), position, {
    width: W, height: H, bands: true, interactive, view: app.boardView,
    selected: app.selected, onPick: pick, onMove: playMove,
  });
}

// Each game's drawing script (meta.boards: game -> URL), loaded once; it registers itself for the game
// its tag names (board.js's registerBoard).
function loadBoards(boards) {
  return Promise.all(Object.entries(boards).map(([game, src]) => new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.dataset.game = game;
    script.onload = resolve;
    script.onerror = () => reject(new Error(`the drawing of ${game} did not load`));
    script.src = src;
    document.head.appendChild(script);
  })));
}

// ---------------------------------------------------------------- Play
function renderSeats() {  // the seats as the chosen game names them
  const seats = app.meta.seats[$("game-select").value];
  seats.forEach((name, seat) => { $(`seat${seat}-name`).textContent = `${name} (seat ${seat})`; });
}

function renderOptions() {
  renderSeats();
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

function renderTurns(turns) {  // "1. wS1 bG1", numbered as the game counts turns (hive_envs/web/boards.py)
  const list = $("move-list");
  list.replaceChildren(...turns.map((turn) => {
    const item = document.createElement("li");
    const span = (text, className) => { const s = document.createElement("span"); s.textContent = text; s.className = className; return s; };
    item.append(span(`${turn.number}.`, "number"), ...(turn.side ? [span(turn.side, "side")] : []), ...turn.moves.map((m) => span(m, "move")));
    return item;
  }));
  list.scrollTop = list.scrollHeight;
}

function canPlay(state) {
  return state && !state.computer_to_move && !state.over;
}

function setState(state) {
  app.state = state;
  app.selected = null;
  $("status").classList.toggle("over", state.over);
  $("record").value = state.record;
  $("undo").disabled = state.ply === 0;
  const onlyPass = state.moves.length === 1 && !state.moves[0].piece && state.moves[0].hole === undefined;
  $("pass").disabled = !(onlyPass && !state.computer_to_move);
  showStatus();
  renderTurns(state.turns);
  if (app.view === "play") draw(state, canPlay(state));  // two computers play on while a replay is shown
  scheduleComputer();
}

function showStatus() {
  const state = app.state, computers = state && state.humans.some((human) => !human) && !state.over;
  $("pause").disabled = !computers;
  $("pause").textContent = app.paused ? "Resume" : "Pause";
  if (state) $("status").textContent = state.status + (app.paused && computers ? " (paused)" : "");
}

function scheduleComputer() {
  const state = app.state;
  if (state && state.computer_to_move && !state.over && !app.paused) setTimeout(computerMove, 150);
}

// One request at a time for the game on the board; a request of a game the page has left (a new game
// started meanwhile) is abandoned: its answer is dropped.
async function request(action) {
  if (app.pending) return;
  const token = {};
  app.pending = token;
  try {
    showError("");
    await action(() => app.pending === token);
  } catch (e) {
    if (app.pending === token) showError(e.message);
  } finally {
    if (app.pending === token) app.pending = null;
  }
}

async function newGame() {
  if (app.starting) return;
  app.starting = true;
  $("new-game").disabled = true;
  $("new-game").textContent = "Starting…";
  showError("");
  try {
    const body = { game: $("game-select").value, options: readOptions(), players: [$("player0").value, $("player1").value] };
    const state = await warmup.track(api("POST", "/api/games", body));
    const old = app.state;
    app.pending = null;  // the old game's request, if one is out, is abandoned
    if (old) api("DELETE", `/api/games/${old.id}`).catch(() => {});  // its players are closed
    app.paused = false;
    showThoughts(null);
    app.boardView.fit();
    setState(state);
  } catch (e) {
    showError(`New game failed: ${e.message}` + (app.state ? " (the game on the board is the one before, and goes on)" : ""));
  } finally {
    app.starting = false;
    $("new-game").disabled = false;
    $("new-game").textContent = "New game";
  }
}

function pick(piece) {
  if (!canPlay(app.state)) return;
  app.selected = app.selected === piece ? null : piece;
  draw(app.state, true);
}

function playMove(name) {
  return request(async (current) => {
    const state = await api("POST", `/api/games/${app.state.id}/play`, { move: name });
    if (current()) setState(state);
  });
}

function computerMove() {
  return request(async (current) => {
    const before = app.state;
    if (!before || !before.computer_to_move || before.over || app.paused) return;
    $("status").textContent = `${before.sides[before.to_move]} (${before.players[before.to_move]}) is thinking…`;
    const state = await warmup.track(api("POST", `/api/games/${before.id}/computer`, { think: $("think").checked }));
    if (!current()) return;
    showThoughts(state.thoughts, before);
    setState(state);
  });
}

function undo() {
  return request(async (current) => {
    const state = await api("POST", `/api/games/${app.state.id}/undo`, {});
    if (current()) setState(state);
  });
}

function togglePause() {
  app.paused = !app.paused;
  if (!app.state) return;
  showStatus();
  scheduleComputer();
}

async function guarded(action) {
  if (app.busy) return;
  app.busy = true;
  try { showError(""); await action(); } catch (e) { showError(e.message); } finally { app.busy = false; }
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
    app.boardView.fit();
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
  $("replay-status").textContent = frame.status;
  draw(frame, false);
}

// ---------------------------------------------------------------- wiring
function switchView(view) {
  app.view = view;
  document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t.dataset.view === view));
  $("play-panel").hidden = view !== "play";
  $("replay-panel").hidden = view !== "replay";
  $("replay-controls").hidden = view !== "replay" || !app.replay.frames.length;
  $("thoughts-panel").hidden = view !== "play" || !app.thoughts;
  if (view === "play") draw(app.state, canPlay(app.state));
  else step(app.replay.index);
}

async function start() {
  try {
    const meta = await api("GET", "/api/meta");
    await loadBoards(meta.boards);
    app.meta = meta;  // the page is ready: its games can be drawn
  } catch (e) { showError(e.message); return; }
  for (const name of Object.keys(app.meta.games)) $("game-select").add(new Option(name, name));
  app.boardView = new BoardView($("board"), (view) => { $("zoom-level").textContent = `${Math.round(100 * view.zoom)}%`; });
  app.thoughtsView = new BoardView($("thoughts-board"));
  $("zoom-in").addEventListener("click", () => app.boardView.zoomBy(1.25));
  $("zoom-out").addEventListener("click", () => app.boardView.zoomBy(1 / 1.25));
  $("zoom-fit").addEventListener("click", () => app.boardView.fit());
  $("pause").addEventListener("click", togglePause);
  $("spec-help").textContent = `players: human | ${app.meta.specs}`;
  for (const name of [...app.meta.pretrained, ...app.meta.engines, ...app.meta.agents]) $("spec-examples").appendChild(new Option(name, name));
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

// Leaving the page drops the game on the board: a computer's move still being searched stops now.
window.addEventListener("pagehide", () => {
  if (app.state) fetch(`/api/games/${app.state.id}`, { method: "DELETE", keepalive: true }).catch(() => {});
});
