/* Editing the document: undo and redo over every edit, the tools, a new blank grid, a resize from any side,
 * and the title, author and licence fields. */
"use strict";

const TOOLS = ["paint", "line", "rect", "fill", "given", "select", "region", "outline", "cutout", "brush", "redraw"];
const SIDES = { top: [1, 0], bottom: [1, 0], left: [0, 1], right: [0, 1] };  // [rows, columns] a side adds
const NEW_COLOURS = ["#000000", "#d62828", "#1d70b8", "#2a9d3f", "#f6c90e", "#8e44ad", "#e67e22", "#16a085"];

/* --- history ----------------------------------------------------------------------------------- */

/* An edit is finished: the document goes into the history (nothing happens when it did not change). */
function commit() {
  if (state.doc && history.commit(state.doc)) hideConfirm();
  showHistory();
}

function showHistory() {
  $("undo").disabled = !history.canUndo();
  $("redo").disabled = !history.canRedo();
  $("undo").dataset.depth = history.at;  // tests and scripts read where in the history the page is
}

function undo() { restore(history.undo()); }
function redo() { restore(history.redo()); }

function restore(doc) {
  if (!doc) return;
  showDoc(doc);
  edited();
}

const TOOL_KEYS = { p: "paint", l: "line", r: "rect", f: "fill", g: "given", s: "select", a: "region", o: "outline",
  b: "brush", d: "redraw", c: "cutout" };

/* Ctrl+Z undoes, Ctrl+Y and Ctrl+Shift+Z redo; P, L, R, F, G and S pick a tool, and with a picture A, O, C, B and D
 * its tracing tools; V shows or hides the picture under the grid; Escape drops the selection. Not in a text
 * field (which keeps its own keys). */
function onKey(e) {
  if (e.altKey || $("puzzle-view").hidden || state.solving) return;
  if (e.target.closest("input:not([type=color]):not([type=range]), select, textarea")) return;
  const key = e.key.toLowerCase();
  if (!(e.ctrlKey || e.metaKey)) {
    if (e.shiftKey) return;
    if (TOOL_KEYS[key] && (!TRACE_TOOLS.includes(TOOL_KEYS[key]) || state.trace)) useTool(TOOL_KEYS[key]);
    else if (key === "v" && state.trace) showPicture(!$("trace-show").checked);
    else if (e.key === "Escape") selectArea(null);
    return;
  }
  if (key === "z" && !e.shiftKey) undo();
  else if (key === "y" || (key === "z" && e.shiftKey)) redo();
  else return;
  e.preventDefault();
}

/* --- tools ------------------------------------------------------------------------------------- */

function useTool(tool) {
  board.tool = tool;
  for (const t of TOOLS) $("tool-" + t).setAttribute("aria-pressed", String(t === tool));
  if (tool === "brush") inkWanted();
}

/* --- a new grid, a resize ---------------------------------------------------------------------- */

/* A blank grid of the size and colour count in the "New grid" fields: a new document with a new history. */
function newGrid() {
  const width = whole($("new-width").value, 1, 100), height = whole($("new-height").value, 1, 100);
  const colours = whole($("new-colors").value, 1, NEW_COLOURS.length);
  if (!width || !height || !colours) { say(`a new grid is 1 to 100 cells a side, with 1 to ${NEW_COLOURS.length} colours`); return; }
  say("");
  state.importSeq++;  // a picture still being read no longer lands on this grid
  state.pictureId = null;
  state.stem = "";
  traceOff();
  $("picture-options").hidden = true;
  $("folder-files").value = "";
  const palette = [{ rgb: "#ffffff", name: "" }].concat(NEW_COLOURS.slice(0, colours).map((rgb) => ({ rgb, name: "" })));
  const grid = Array.from({ length: height }, () => new Array(width).fill(0));
  board.active = 1;
  loadDoc({ grid, palette, givens: [], title: "", author: "", license: "", reference: null, frame: null }, []);
}

function whole(text, lo, hi) {
  const n = Number(text);
  return Number.isInteger(n) && n >= lo && n <= hi ? n : 0;
}

/* One row or column more (delta 1) or less (-1) on `side`; givens move with their cells. */
function resize(side, delta) {
  const doc = state.doc, H = doc.grid.length, W = doc.grid[0].length;
  const [dr, dc] = SIDES[side].map((v) => v * delta);
  if (H + dr < 1 || W + dc < 1 || H + dr > 100 || W + dc > 100) { say("a grid is 1 to 100 cells a side"); return; }
  say("");
  const top = side === "top" ? dr : 0, left = side === "left" ? dc : 0;  // how far the old cells move
  const grid = Array.from({ length: H + dr }, (_, r) => Array.from({ length: W + dc }, (_, c) => {
    const row = doc.grid[r - top];
    return row !== undefined && row[c - left] !== undefined ? row[c - left] : 0;
  }));
  const givens = doc.givens.map(([r, c]) => [r + top, c + left])
    .filter(([r, c]) => r >= 0 && c >= 0 && r < H + dr && c < W + dc);
  // the picture's luma no longer lines up with the cells; the picture's grid moves with them
  const frame = doc.frame ? { top: doc.frame.top + top, left: doc.frame.left + left } : null;
  selectArea(null);
  showDoc({ ...doc, grid, givens, reference: null, frame });
  edited();
  commit();
}

function showSize() {
  if (state.doc) $("size").textContent = `${state.doc.grid[0].length} x ${state.doc.grid.length}`;
}

/* --- title, author, licence -------------------------------------------------------------------- */

const FIELDS = { "doc-title": "title", "doc-author": "author", "doc-license": "license" };

function showFields() {
  for (const [id, key] of Object.entries(FIELDS)) $(id).value = state.doc[key] || "";
  showSize();
}

function fieldChanged(id) {
  const editing = $("scan-view").hidden && state.doc;  // a scanned puzzle's fields are read when it is saved
  if (editing) state.doc[FIELDS[id]] = $(id).value;
  if (id === "doc-title") setSaveName();
  if (editing) commit();
}

function wireEditing() {
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  document.addEventListener("keydown", onKey);
  for (const tool of TOOLS) $("tool-" + tool).addEventListener("click", () => useTool(tool));
  $("new-grid").addEventListener("click", newGrid);
  for (const button of document.querySelectorAll("#resize button")) {
    button.addEventListener("click", () => resize(button.dataset.side, Number(button.dataset.delta)));
  }
  for (const id of Object.keys(FIELDS)) $(id).addEventListener("change", () => fieldChanged(id));
}
