// Hive's drawing on the web page (its definition's web_drawer; the positions of hive_envs/hive/web_board.py,
// which the page loads by the game's name and registers with registerBoard, board.js): the reserves in bands at the top
// (Black) and bottom (White) that stay in place, the hive in the field between them. Tiles are fitted
// to the field, never smaller than MIN_UNIT (tile text stays readable); a hive too tall or wide for
// that is zoomed out or panned by the board's view.
"use strict";

(() => {
  const OWNER_FILL = { w: "rgb(245,240,225)", b: "rgb(40,40,40)" };  // hive_envs/hive/render.py
  const OWNER_INK = { w: "rgb(20,20,20)", b: "rgb(245,245,245)" };
  const BAND = 64, MIN_UNIT = 50, MAX_UNIT = 80;  // board units between neighbouring cells' centres
  const ROW = 1.5 / Math.sqrt(3);

  function layout(position, overlay, width, region) {
    // the geometry of hive_envs/hive/render.py: x = q + r/2, y = r * 1.5 / sqrt(3), in neighbour units
    const cells = position.stacks.map((s) => [s.q, s.r]);
    for (const m of position.moves || []) if (m.to) cells.push(m.to);
    for (const t of overlay || []) if (t.to) cells.push(t.to);
    if (position.last_from) cells.push(position.last_from);
    if (!cells.length) cells.push([0, 0]);
    const xs = cells.map(([q, r]) => q + r / 2), ys = cells.map(([, r]) => r * ROW);
    const spanX = Math.max(...xs) - Math.min(...xs) + 1;
    const spanY = Math.max(...ys) - Math.min(...ys) + 2 / Math.sqrt(3);
    const fit = Math.min((width - 16) / spanX, (region.bottom - region.top - 8) / spanY);
    const unit = Math.max(MIN_UNIT, Math.min(fit, MAX_UNIT));
    const ox = width / 2 - (unit * (Math.max(...xs) + Math.min(...xs))) / 2;
    const oy = (region.top + region.bottom) / 2 - (unit * (Math.max(...ys) + Math.min(...ys))) / 2;
    return { unit, radius: unit / Math.sqrt(3), centre: ([q, r]) => [ox + unit * (q + r / 2), oy + unit * r * ROW] };
  }

  function tile(parent, cx, cy, radius, name, colours, attrs) {
    const g = el("g", attrs, parent);
    el("polygon", { points: hexPoints(cx, cy, radius * 0.95), fill: colours[name[1]], stroke: "#5a5a5a", "stroke-width": 2 }, g);
    el("polygon", { points: hexPoints(cx, cy, radius * 0.72), fill: OWNER_FILL[name[0]] }, g);
    el("text", { x: cx, y: cy + radius * 0.15, "text-anchor": "middle", "font-size": Math.max(12, radius * 0.5).toFixed(1), fill: OWNER_INK[name[0]], class: "tile-label" }, g, name.slice(1));
    return g;
  }

  function reserves(ctx, movable) {
    const { position, fixed, width, height } = ctx;
    position.reserves.forEach((names, seat) => {
      const y = seat === 1 ? BAND / 2 + 2 : height - BAND / 2 - 2;
      el("text", { x: 8, y: y + 5, "font-size": 14 }, fixed, position.sides[seat] + ":");
      const step = Math.min(46, (width - 80) / Math.max(1, names.length));
      names.forEach((name, i) => {
        const cx = 80 + step * i + step / 2;
        const g = tile(fixed, cx, y, step / 1.8, name, position.colours, { "data-piece": name, class: "reserve" });
        if (movable.has(name)) { g.classList.add("clickable"); g.addEventListener("click", () => ctx.onPick(name)); }
        if (ctx.selected === name) el("polygon", { points: hexPoints(cx, y, step / 1.8), fill: "none", class: "selected" }, fixed);
      });
    });
  }

  function stacks(ctx, movable, { radius, centre }) {
    const { position, field } = ctx;
    for (const stack of position.stacks) {
      const cell = [stack.q, stack.r];
      const [cx, cy] = centre(cell);
      const top = stack.pieces[stack.pieces.length - 1];
      const last = position.last && position.last[0] === stack.q && position.last[1] === stack.r;
      if (last) el("polygon", { points: hexPoints(cx, cy, radius * 1.02), fill: LAST_MOVE, class: "last-to", "data-cell": cell.join(",") }, field);
      const g = tile(field, cx, cy, last ? radius * 0.93 : radius, top, position.colours,
                     { "data-piece": top, "data-cell": cell.join(","), class: "tile" });
      el("title", {}, g, stack.pieces.length > 1 ? `stack, bottom to top: ${stack.pieces.join(" < ")}` : top);
      if (stack.pieces.length > 1) {
        const bx = cx + radius * 0.45, by = cy - radius * 0.42;
        el("circle", { cx: bx, cy: by, r: radius * 0.24, fill: "rgb(200,30,30)" }, g);
        el("text", { x: bx, y: by + radius * 0.1, "text-anchor": "middle", "font-size": Math.max(9, radius * 0.3).toFixed(1), fill: "#fff" }, g, stack.pieces.length);
        el("text", { x: cx, y: cy + radius * 0.55, "text-anchor": "middle", "font-size": Math.max(10, radius * 0.3).toFixed(1), fill: OWNER_INK[top[0]], class: "under-label" },
           g, stack.pieces.slice(0, -1).reverse().join(" "));
      }
      if (movable.has(top)) { g.classList.add("clickable"); g.addEventListener("click", () => ctx.onPick(top)); }
      if (ctx.selected === top) el("polygon", { points: hexPoints(cx, cy, radius), fill: "none", class: "selected" }, field);
    }
    if (position.last_from) {  // where the last moved piece came from
      const [cx, cy] = centre(position.last_from);
      el("polygon", { points: hexPoints(cx, cy, radius * 0.97), fill: "none", stroke: LAST_MOVE, "stroke-width": 4, "stroke-dasharray": "8 5", class: "last-from", "data-cell": position.last_from.join(",") }, field);
    }
  }

  function destinations(ctx, moves, { radius, centre }) {
    for (const m of moves.filter((m) => m.piece === ctx.selected)) {
      const [cx, cy] = centre(m.to);
      const d = el("polygon", { points: hexPoints(cx, cy, radius * 0.9), class: "dest", "data-dest": m.to.join(","), "data-move": m.name }, ctx.field);
      el("title", {}, d, m.name);
      d.addEventListener("click", (event) => { event.stopPropagation(); ctx.onMove(m.name); });
    }
  }

  function thoughts(ctx, { radius, centre }) {
    const rows = (ctx.overlay || []).filter((row) => row.to);
    const shown = rows.filter((row) => !row.played).slice(0, 5).concat(rows.filter((row) => row.played));
    shown.forEach((row, i) => {
      const colour = row.played ? PLAYED : THOUGHT;
      const [tx, ty] = centre(row.to);
      const g = el("g", { class: row.played ? "thought played" : "thought", "data-move": row.name, "data-cell": row.to.join(",") }, ctx.field);
      if (row.from) {
        const [fx, fy] = centre(row.from);
        el("line", { x1: fx, y1: fy, x2: tx, y2: ty, stroke: colour, "stroke-width": row.played || i === 0 ? 5 : 2 }, g);
      }
      const mark = el("circle", { cx: tx, cy: ty, r: radius * 0.42, fill: colour }, g);
      el("title", {}, mark, thoughtTip(row));
      el("text", { x: tx, y: ty + radius * 0.14, "text-anchor": "middle", "font-size": Math.max(11, radius * 0.36).toFixed(1), fill: "#fff" }, g, thoughtLabel(row));
    });
  }

  registerBoard({
    region: ({ bands, height }) => (bands ? { top: BAND + 4, bottom: height - BAND - 4 } : { top: 0, bottom: height }),
    draw(ctx) {
      const moves = ctx.interactive ? ctx.position.moves : [];
      const movable = new Set(moves.filter((m) => m.piece).map((m) => m.piece));
      const geometry = layout(ctx.position, ctx.overlay, ctx.width, ctx.region);
      if (ctx.bands) reserves(ctx, movable);
      stacks(ctx, movable, geometry);
      if (ctx.interactive && ctx.selected) destinations(ctx, moves, geometry);
      thoughts(ctx, geometry);
    },
  });
})();
