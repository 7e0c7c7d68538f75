/* Tools that draw from the picture (picture.js shows it), and two that clean any grid. Each one is one edit: one
 * undo step, checked by the engine as any stroke.
 *
 * Region (A): a click on a cell (or on the picture beside the grid) fills the cells the picture's region there
 * covers by half (the region: the connected part of about the clicked colour, within the tolerance; the worker
 * finds it in the picture). Outline (O): the same region's boundary cells. Cut out (C): drag a box around a
 * thing in the picture and the cells it covers by half take the colour (the worker's graph cut tells it from the
 * ground around it, where a click's region would leak into a ground of its own colour). Threshold brush (B): each cell under
 * the brush becomes ink when the picture there is darker than around it by the offset, else background (the
 * worker sends that map once per picture and offset; the brush paints from it as it moves). Redraw area (D):
 * the cells of a dragged rectangle as the import made them. Select (S) drags a selection; Remove specks clears
 * parts (and fills holes) of fewer cells than asked, in the selection or the whole grid. The right button draws
 * background with the region, outline and brush. */
"use strict";

const TRACE_TOOLS = ["region", "outline", "cutout", "brush", "redraw"];

function traceSay(text) { $("trace-status").textContent = text || ""; }

/* A tracing edit is done (changed cells or not): counted, so tests and scripts can wait for it. */
function traced(text) {
  traceSay(text);
  $("board").dataset.traced = (Number($("board").dataset.traced) || 0) + 1;
}

/* `changes` ([row, col, value] of the grid of now, only those that change) into the document: one edit. */
function traceApply(changes, text) {
  const grid = state.doc.grid, real = changes.filter(([r, c, v]) => grid[r][c] !== v);
  if (real.length) {
    board.put(real);
    commit();
  }
  traced(text + (real.length ? "" : " (nothing changed)"));
}

/* --- region and outline ------------------------------------------------------------------------ */

async function fromRegion(point, value, which) {
  if (!point) { traced("that cell is not over the picture"); return; }
  const doc = state.doc;
  traceSay("finding the region...");
  const res = await traceAsk({ op: "region", point, tolerance: Number($("trace-tolerance").value) });
  if (state.doc !== doc) { traced("the grid changed meanwhile: click again"); return; }
  if (res.data.error) { traced(res.data.error); return; }
  const cells = res.data[which === "outline" ? "outline" : "cells"];
  const changes = cells.map(([r, c]) => fromImport(r, c)).filter(Boolean).map(([r, c]) => [r, c, value]);
  if (!cells.length) {
    traced("the region covers no cell by half: raise the tolerance, or click a larger area");
    return;
  }
  traceApply(changes, `${which === "outline" ? "outlined" : "filled"} ${changes.length} cells ` +
    `(the region is ${Math.round(100 * res.data.share)}% of the grid)`);
}

const regionTool = (which) => ({
  down(at, e) { fromRegion(gridPoint(at, e), e.button === 2 ? 0 : board.active, which); },
});

function besideClick(e) {
  e.preventDefault();
  if (!state.trace || !["region", "outline"].includes(board.tool)) {
    traceSay("choose Region or Outline to draw from a point of the picture");
    return;
  }
  fromRegion(besidePoint(e), e.button === 2 ? 0 : board.active, board.tool);
}

/* --- cut out a thing from a box ---------------------------------------------------------------- */

async function cutOut([top, left, bottom, right]) {
  showArea(null);
  const t = state.trace, frame = state.doc.frame, doc = state.doc;
  const area = [Math.max(0, top - frame.top), Math.max(0, left - frame.left),
    Math.min(t.size[0] - 1, bottom - frame.top), Math.min(t.size[1] - 1, right - frame.left)];
  if (area[0] > area[2] || area[1] > area[3]) { traced("that box is not over the picture"); return; }
  traceSay("cutting out...");
  const res = await traceAsk({ op: "cutout", area });
  if (state.doc !== doc) { traced("the grid changed meanwhile: drag again"); return; }
  if (res.data.error) { traced(res.data.error); return; }
  const value = board.active, cells = res.data.cells;
  if (!cells.length) { traced("nothing stands out in that box: drag a box around the thing, a little larger"); return; }
  const changes = cells.map(([r, c]) => fromImport(r, c)).filter(Boolean).map(([r, c]) => [r, c, value]);
  traceApply(changes, `cut out ${changes.length} cells (${Math.round(100 * res.data.share)}% of the grid)`);
}

/* --- the threshold brush ----------------------------------------------------------------------- */

/* Ask for the threshold map of this picture and offset unless it is here or on its way. */
async function inkWanted() {
  const t = state.trace;
  if (!t || board.tool !== "brush") return;
  const offset = Number($("trace-offset").value), key = `${t.pictureId} ${t.box} ${offset}`;
  if (t.inkKey === key) return;
  t.inkKey = key;
  t.ink = null;
  $("tool-brush").dataset.ready = "";
  const res = await traceAsk({ op: "threshold", offset });
  if (state.trace !== t || t.inkKey !== key) return;
  if (res.data.error) { t.inkKey = ""; traceSay(res.data.error); return; }
  t.ink = res.data.ink;
  $("tool-brush").dataset.ready = key;
}

function brushAt([r, c]) {
  const t = state.trace, size = Math.max(1, Math.min(15, Number($("trace-brush").value) || 1));
  const changes = [], from = Math.floor((size - 1) / 2);
  for (let R = r - from; R < r - from + size; R++) {
    for (let C = c - from; C < c - from + size; C++) {
      const ir = R - state.doc.frame.top, ic = C - state.doc.frame.left;
      if (R < 0 || C < 0 || R >= state.doc.grid.length || C >= state.doc.grid[0].length) continue;
      if (ir < 0 || ic < 0 || ir >= t.size[0] || ic >= t.size[1]) continue;  // not over the picture
      const value = brush.erase ? 0 : t.ink[ir][ic] ? board.active : 0;
      if (state.doc.grid[R][C] !== value) changes.push([R, C, value]);
    }
  }
  if (changes.length) board.put(changes);
}

const brush = {
  erase: false, on: false,
  down(at, e) {
    this.on = Boolean(state.trace && state.trace.ink);
    if (!this.on) { traceSay("reading the picture for the brush..."); inkWanted(); return; }
    this.erase = e.button === 2;
    brushAt(at);
  },
  over(at) { if (this.on) brushAt(at); },
  up() {
    if (!this.on) return;
    this.on = false;
    commit();
    traced("brushed from the picture");
  },
};

/* --- rectangles: redraw an area, select one ---------------------------------------------------- */

function showArea(a, b) {
  const area = a && b ? rectOf(a, b) : null;
  board.cells.forEach((row, r) => row.forEach((td, c) => td.classList.toggle("area", Boolean(area) &&
    r >= area[0] && r <= area[2] && c >= area[1] && c <= area[3])));
}

function rectOf([r0, c0], [r1, c1]) {
  return [Math.min(r0, r1), Math.min(c0, c1), Math.max(r0, r1), Math.max(c0, c1)];
}

function dragged(done) {
  return {
    down(at) { this.from = this.to = at; showArea(at, at); },
    over(at) { this.to = at; showArea(this.from, at); },
    up() { done(rectOf(this.from, this.to)); },
  };
}

/* The import's colour index -> this palette's: the same colour, else the nearest (the palette may have changed). */
function paletteMap() {
  const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const mine = state.doc.palette.map((c) => rgb(c.rgb));
  return state.trace.palette.map((hex) => {
    const want = rgb(hex);
    let best = 0, bestD = Infinity;
    mine.forEach((have, i) => {
      const d = have.reduce((s, v, k) => s + (v - want[k]) ** 2, 0);
      if (d < bestD) { best = i; bestD = d; }
    });
    return best;
  });
}

function redraw([top, left, bottom, right]) {
  showArea(null);
  const t = state.trace, frame = state.doc.frame, map = paletteMap(), changes = [];
  for (let r = top; r <= bottom; r++) {
    for (let c = left; c <= right; c++) {
      const ir = r - frame.top, ic = c - frame.left;
      if (ir >= 0 && ic >= 0 && ir < t.size[0] && ic < t.size[1]) changes.push([r, c, map[t.grid[ir][ic]]]);
    }
  }
  traceApply(changes, `redrew ${changes.length} cells from the picture`);
}

/* The selection (null: none, the whole grid), outlined on the board until a new document or Escape. */
function selectArea(area) {
  state.selection = area;
  if (board.cells) {
    board.cells.forEach((row, r) => row.forEach((td, c) => td.classList.toggle("selected", Boolean(area) &&
      r >= area[0] && r <= area[2] && c >= area[1] && c <= area[3])));
    showArea(null);
  }
  $("specks").textContent = area ? "Remove specks in the selection" : "Remove specks";
  $("specks").dataset.scope = area ? area.join(",") : "";
}

async function removeSpecks() {
  const doc = state.doc, minPart = Math.max(2, Math.min(100, Number($("specks-size").value) || 2));
  const res = await traceAsk({ op: "specks", doc, min_part: minPart, area: state.selection || undefined });
  if (state.doc !== doc) { traced("the grid changed meanwhile: press again"); return; }
  if (res.data.error) { traced(res.data.error); return; }
  const n = res.data.changes.length;
  traceApply(res.data.changes, `removed parts and holes under ${minPart} cells: ${n} cells changed`);
}

function wireTracing() {
  board.custom.region = regionTool("region");
  board.custom.outline = regionTool("outline");
  board.custom.brush = brush;
  board.custom.redraw = dragged(redraw);
  board.custom.cutout = dragged(cutOut);
  board.custom.select = dragged(selectArea);
  const beside = $("trace-picture");
  beside.addEventListener("mousedown", besideClick);
  beside.addEventListener("contextmenu", (e) => e.preventDefault());
  $("specks").addEventListener("click", removeSpecks);
  for (const [id, unit] of [["trace-tolerance", ""], ["trace-offset", ""]]) {
    $(id).addEventListener("input", () => { $(id + "-value").textContent = $(id).value + unit; });
  }
  $("trace-offset").addEventListener("change", inkWanted);
  wirePicture();
}
