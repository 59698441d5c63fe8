// The thoughts panel: what the search that chose the computer's last move saw (hive_envs/web/thoughts.py),
// drawn on the position before that move, with the move played in orange and the moves it weighed in blue.
"use strict";

const THOUGHTS_W = 560, THOUGHTS_H = 400;

function thoughtsHead(t) {
  const time = `${t.elapsed_s.toFixed(2)} s`;
  if (t.kind === "alphabeta") {
    const proven = t.proven ? ` (a proven ${t.proven})` : "";
    return `${t.player} played ${t.played}: depth ${t.depth} searched, ${t.nodes.toLocaleString("en")} nodes in ${time}, ` +
      `score ${t.score}${proven} for the side to move`;
  }
  const value = `; the network's value of the position: ${signed(t.value)} for the side to move`;
  if (!t.visits) return `${t.player} played ${t.played} from its raw policy (no search) in ${time}${value}`;
  const kept = t.kept_visits ? ` (on ${t.kept_visits} visits kept from its previous search)` : "";
  const limit = t.time_limit_s === null ? "" : ` (a search by time, ${t.time_limit_s.toFixed(2)} s budget)`;
  let text = `${t.player} played ${t.played}: ${t.simulations} simulations in ${time}${limit}${kept}${value}`;
  const best = t.moves[0];
  if (best && !best.played) text += `; the most visited was ${best.name}: the repetition rule, the tactical check or sampling chose the move played`;
  return text;
}

function thoughtsTable(t) {
  const table = document.createElement("table");
  const cell = (row, text, tag) => { const c = document.createElement(tag || "td"); c.textContent = text; row.appendChild(c); };
  const head = table.insertRow();
  for (const name of ["move", "policy", "visits", "value"]) cell(head, name, "th");
  for (const m of t.moves) {
    const row = table.insertRow();
    if (m.played) row.className = "played";
    cell(row, (m.played ? "▶ " : "") + m.name);
    cell(row, `${(100 * m.probability).toFixed(1)}%`);
    cell(row, String(m.visits));
    cell(row, signed(m.value));
  }
  return table;
}

// Show `t` (the server's thoughts, or null) for the move played from `before` (the position then).
function showThoughts(t, before) {
  app.thoughts = t ? { t, before } : null;
  const panel = $("thoughts-panel");
  panel.hidden = !t || app.view !== "play";
  if (!t) return;
  $("thoughts-head").textContent = thoughtsHead(t);
  $("thoughts-pv").textContent = t.kind === "alphabeta" && t.pv.length ? `principal variation: ${t.pv.join("  ")}` : "";
  $("thoughts-table").replaceChildren(...(t.kind === "tree" ? [thoughtsTable(t)] : []));
  app.thoughtsView.fit();
  drawPosition($("thoughts-board"), before, { width: THOUGHTS_W, height: THOUGHTS_H, overlay: t.moves, view: app.thoughtsView });
}
