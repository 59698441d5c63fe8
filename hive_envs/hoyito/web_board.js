// Hoyito II's drawing on the web page (its definition's web_drawer; the positions of
// hive_envs/hoyito/web_board.py, registered with registerBoard, board.js): North's row above (its
// holes n..2n-1 run right to left), South's below, each side's captured counters in its store.
"use strict";

(() => {
  function pitCentre(hole, n, left, top, pit, gap) {
    const row = hole < n ? 1 : 0, col = hole < n ? hole : 2 * n - 1 - hole;
    return [left + col * (pit + gap) + pit / 2, top + row * (pit + 2 * gap) + pit / 2, row];
  }

  registerBoard({
    draw(ctx) {
      const { position, field, width, height } = ctx;
      const n = position.holes_per_row, gap = 8, pit = Math.min(60, (width - 260) / n - gap);
      const left = (width - n * (pit + gap)) / 2, top = height / 2 - pit - gap;
      const legal = new Map((ctx.interactive ? position.moves : []).map((m) => [m.hole, m.name]));
      for (let hole = 0; hole < 2 * n; hole++) {
        const [cx, cy, row] = pitCentre(hole, n, left, top, pit, gap);
        const last = hole === position.last;
        const g = el("g", { "data-hole": hole, class: "pit" }, field);
        el("circle", { cx, cy, r: pit / 2, fill: "rgb(140,95,55)", stroke: last ? LAST_MOVE : "rgb(40,25,10)", "stroke-width": last ? 5 : 2, class: last ? "last-to" : "" }, g);
        el("text", { x: cx, y: cy + 7, "text-anchor": "middle", "font-size": 20, fill: "#fff" }, g, position.holes[hole]);
        el("text", { x: cx, y: row === 0 ? cy - pit / 2 - 6 : cy + pit / 2 + 16, "text-anchor": "middle", "font-size": 11 }, field, hole);
        if (legal.has(hole)) {
          g.classList.add("clickable");
          el("circle", { cx, cy, r: pit / 2 + 3, fill: "none", class: "dest", "data-move": legal.get(hole) }, g);
          g.addEventListener("click", () => ctx.onMove(legal.get(hole)));
        }
      }
      [[1, "North", left - 110, top], [0, "South", left + n * (pit + gap) + 10, top + pit + 2 * gap]].forEach(([seat, name, x, y]) => {
        el("rect", { x, y, width: 100, height: pit, rx: 8, fill: "rgb(140,95,55)", stroke: position.to_move === seat && !position.over ? "rgb(250,220,60)" : "rgb(40,25,10)", "stroke-width": 3 }, field);
        el("text", { x: x + 50, y: y + pit / 2 + 6, "text-anchor": "middle", "font-size": 16, fill: "#fff" }, field, `${name}: ${position.captured[seat]}`);
      });
      const rows = ctx.overlay || [];
      rows.filter((row) => !row.played).slice(0, 5).concat(rows.filter((row) => row.played)).forEach((row) => {
        const [cx, cy, r] = pitCentre(row.hole, n, left, top, pit, gap);
        const g = el("g", { class: row.played ? "thought played" : "thought", "data-move": row.name }, field);
        const label = el("text", { x: cx, y: r === 1 ? cy + pit / 2 + 32 : cy - pit / 2 - 22, "text-anchor": "middle", "font-size": 13, "font-weight": row.played ? "bold" : "normal", fill: row.played ? PLAYED : THOUGHT },
                         g, row.played && row.visits === undefined ? "played" : thoughtLabel(row));
        el("title", {}, label, thoughtTip(row));
      });
    },
  });
})();
