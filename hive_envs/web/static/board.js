// Drawing a position on an SVG board, for any game: the game's own drawing is its definition's
// web_drawer, a script the page loads by the game's name (/boards/NAME.js, app.js), which registers
// itself with registerBoard; a position the server sends names its game. A drawing puts what must stay
// in place (a game's reserves) in `fixed` and the playing field in `field`, which the board's view
// zooms (wheel, buttons) and pans (drag).
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const BOARDS = {};  // game name -> { draw(ctx), region(options)? }: see drawPosition

// Called by a game's drawing script as it runs: the page loaded it for the game its tag names.
function registerBoard(board) {
  BOARDS[document.currentScript.dataset.game] = board;
}
const LAST_MOVE = "rgb(255,0,200)";
const THOUGHT = "rgba(0,90,255,0.85)", PLAYED = "rgb(255,140,0)";

function el(name, attrs, parent, text) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

function hexPoints(cx, cy, radius) {
  const points = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 180) * (60 * k - 30);
    points.push(`${(cx + radius * Math.cos(a)).toFixed(1)},${(cy + radius * Math.sin(a)).toFixed(1)}`);
  }
  return points.join(" ");
}

function signed(value) {
  return value === null || value === undefined ? "—" : (value >= 0 ? "+" : "") + value.toFixed(2);
}

function thoughtTip(row) {  // shown on hover over a move the player considered
  if (row.visits === undefined) return `${row.name}: played`;
  return `${row.name}: policy ${(100 * row.probability).toFixed(1)}%, ${row.visits} visits, value ${signed(row.value)}`;
}

function thoughtLabel(row) {
  if (row.visits === undefined) return "▶";
  return row.visits ? `${row.visits}` : `${Math.round(100 * row.probability)}%`;
}

// The zoom and pan of one board: kept across redraws of the same game, reset by fit().
class BoardView {
  constructor(svg, onChange) {
    this.svg = svg;
    this.onChange = onChange || (() => {});
    this.fit();
    this.dragged = false;
    let start = null;
    svg.addEventListener("pointerdown", (e) => { start = { x: e.clientX, y: e.clientY, panX: this.panX, panY: this.panY }; this.dragged = false; });
    svg.addEventListener("pointermove", (e) => {
      if (!start || !(e.buttons & 1)) return;
      const [dx, dy] = this.toBoard(e.clientX - start.x, e.clientY - start.y);
      if (!this.dragged && Math.hypot(dx, dy) < 5) return;
      this.dragged = true;
      this.panX = start.panX + dx; this.panY = start.panY + dy;
      this.apply();
    });
    svg.addEventListener("pointerup", () => { start = null; });
    svg.addEventListener("pointerleave", () => { start = null; });
    svg.addEventListener("click", (e) => {  // the end of a drag is no click on a tile
      if (this.dragged) { e.stopPropagation(); e.preventDefault(); this.dragged = false; }
    }, true);
    svg.addEventListener("wheel", (e) => {
      e.preventDefault();
      const box = svg.getBoundingClientRect();
      const [x, y] = this.toBoard(e.clientX - box.left, e.clientY - box.top);
      this.zoomBy(e.deltaY < 0 ? 1.2 : 1 / 1.2, x, y);
    }, { passive: false });
  }

  toBoard(dx, dy) {  // screen pixels -> board units
    const box = this.svg.getBoundingClientRect(), [, , w] = this.svg.getAttribute("viewBox").split(" ").map(Number);
    const scale = w / (box.width || w);
    return [dx * scale, dy * scale];
  }

  fit() { this.zoom = 1; this.panX = 0; this.panY = 0; this.apply(); }

  zoomBy(factor, x, y) {  // about the board point (x, y), the field's centre by default
    const zoom = Math.min(6, Math.max(0.25, this.zoom * factor));
    if (this.field && x !== undefined) {
      const [cx, cy] = this.centre;  // keep the point under (x, y) where it is
      const fx = (x - cx - this.panX) / this.zoom, fy = (y - cy - this.panY) / this.zoom;
      this.panX = x - cx - fx * zoom; this.panY = y - cy - fy * zoom;
    }
    this.zoom = zoom;
    this.apply();
  }

  attach(field, centre) { this.field = field; this.centre = centre; this.apply(); }

  apply() {
    if (!this.field) return;
    const [cx, cy] = this.centre;
    this.field.setAttribute("transform",
      `translate(${(cx + this.panX).toFixed(1)},${(cy + this.panY).toFixed(1)}) scale(${this.zoom.toFixed(3)}) translate(${-cx},${-cy})`);
    this.onChange(this);
  }
}

// Draw `position` on `svg` (width x height board units). options: interactive (the legal moves can be
// clicked), overlay (thought rows to draw), bands (room for what stays in place, e.g. reserves),
// view (a BoardView), selected / onPick / onMove (the clicks).
function drawPosition(svg, position, options) {
  const { width, height } = options;
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  if (!position) return;
  const board = BOARDS[position.game];
  if (!board) throw new Error(`this page has no drawing for positions of the game ${position.game}`);
  const clip = `${svg.id}-clip`;
  const fixed = el("g", { class: "fixed" }, svg);
  const region = board.region ? board.region(options) : { top: 0, bottom: height };
  const defs = el("defs", {}, svg);
  el("rect", { x: 0, y: region.top, width, height: region.bottom - region.top }, el("clipPath", { id: clip }, defs));
  const field = el("g", { class: "field" }, el("g", { "clip-path": `url(#${clip})` }, svg));
  board.draw({ ...options, svg, fixed, field, region, position });
  if (options.view) options.view.attach(field, [width / 2, (region.top + region.bottom) / 2]);
}
