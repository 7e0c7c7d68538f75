/* The picture a grid was imported from, for tracing: beside the grid, and under its cells.
 *
 * The worker sends the picture as the importer decoded it (upright); the import says which part of it the grid
 * shows (state.trace.box: [left, top, right, bottom] as fractions of the picture, beyond 0 and 1 where it was
 * padded) for a grid of state.trace.size; the document says where that grid lies on the grid of now
 * (doc.frame: rows or columns added on the top or the left since move it). Under the grid, the cells let the
 * picture through by the opacity slider's share (board.see), so the grid stays editable over it; V shows and
 * hides it. Every tracing request goes through traceAsk(), one at a time, so none replaces another on the server. */
"use strict";

let traceChain = Promise.resolve();

/* A tracing question to the server (/api/trace), after the ones asked before it; the picture's fields added. */
function traceAsk(body) {
  const t = state.trace;
  const full = t ? { picture_id: t.pictureId, size: t.size, box: t.box, ...body } : body;
  const answer = traceChain.then(() => api("/api/trace", full));
  traceChain = answer.catch(() => {});
  return answer;
}

/* A picture was imported (d: the import's answer): its tracing state; the picture itself is fetched once. */
function traceOn(d) {
  const same = state.trace && state.trace.pictureId === state.pictureId ? state.trace : null;
  state.trace = { pictureId: state.pictureId, box: d.frame, size: [d.grid.length, d.grid[0].length],
    grid: d.grid.map((row) => row.slice()), palette: d.palette.map((c) => c.rgb),
    image: same ? same.image : null, ink: null, inkKey: "" };
  $("trace-tools").hidden = false;
  if (!same) {
    $("trace-beside").dataset.ready = "";
    fetchPicture(state.trace);
  }
  drawPicture();
  inkWanted();
}

/* No picture behind the grid (a blank grid, a puzzle file): the tracing tools go, the picture too. */
function traceOff() {
  state.trace = null;
  $("trace-tools").hidden = true;
  if (TRACE_TOOLS.includes(board.tool)) useTool("paint");
  showPicture(false);
}

async function fetchPicture(trace) {
  const res = await traceAsk({ op: "picture" });
  if (state.trace !== trace && (!state.trace || state.trace.pictureId !== trace.pictureId)) return;
  if (res.data.error) { traceSay(res.data.error); return; }
  const image = new Image();
  image.src = res.data.image;
  try { await image.decode(); } catch (err) { traceSay("the picture could not be shown"); return; }
  if (!state.trace || state.trace.pictureId !== trace.pictureId) return;
  state.trace.image = image;
  drawPicture();
  $("trace-beside").dataset.ready = trace.pictureId;
}

/* --- drawing it -------------------------------------------------------------------------------- */

function drawPicture() {
  const t = state.trace, beside = $("trace-beside");
  const wasHidden = beside.hidden;
  beside.hidden = !t || !t.image;
  if (wasHidden !== beside.hidden && state.doc) board.fit();  // the grid gives the picture its room
  if (!t || !t.image) { placeUnder(); return; }
  const canvas = $("trace-picture"), image = t.image;
  const width = 240, height = Math.round(width * image.naturalHeight / image.naturalWidth);
  sized(canvas, width, height);
  const g = canvas.getContext("2d");
  g.setTransform(canvas.width / width, 0, 0, canvas.height / height, 0, 0);
  g.drawImage(image, 0, 0, width, height);
  const [l, tp, r, b] = t.box;
  g.strokeStyle = "#1d70b8";
  g.lineWidth = 2;
  g.setLineDash([5, 3]);
  g.strokeRect(l * width, tp * height, (r - l) * width, (b - tp) * height);
  placeUnder();
}

function sized(canvas, width, height) {
  const ratio = window.devicePixelRatio || 1;
  canvas.style.width = width + "px";
  canvas.style.height = height + "px";
  canvas.width = Math.max(1, Math.round(width * ratio));
  canvas.height = Math.max(1, Math.round(height * ratio));
}

/* The picture under the cells: a canvas over exactly the cells' area (below the table), the picture's framed part
 * drawn where the imported grid lies now, paper elsewhere. */
function placeUnder() {
  const canvas = $("trace-under"), t = state.trace, doc = state.doc;
  const on = Boolean($("trace-show").checked && t && t.image && doc && doc.frame && board.cells && board.cells.length);
  canvas.hidden = !on;
  if (!on) return;
  const H = doc.grid.length, W = doc.grid[0].length, wrap = canvas.parentElement;
  const first = board.cells[0][0].getBoundingClientRect(), last = board.cells[H - 1][W - 1].getBoundingClientRect();
  const outer = wrap.getBoundingClientRect();
  const width = last.right - first.left, height = last.bottom - first.top;
  canvas.style.left = (first.left - outer.left - wrap.clientLeft + wrap.scrollLeft) + "px";
  canvas.style.top = (first.top - outer.top - wrap.clientTop + wrap.scrollTop) + "px";
  sized(canvas, width, height);
  const g = canvas.getContext("2d");
  g.setTransform(canvas.width / width, 0, 0, canvas.height / height, 0, 0);
  g.fillStyle = "#ffffff";
  g.fillRect(0, 0, width, height);
  const [rows, cols] = t.size, cw = width / W, ch = height / H;
  const iw = t.image.naturalWidth, ih = t.image.naturalHeight, [l, tp, r, b] = t.box;
  // the frame's source rectangle, clipped to the picture (the padding stays paper), and where it lands
  const sx0 = Math.max(0, l * iw), sy0 = Math.max(0, tp * ih), sx1 = Math.min(iw, r * iw), sy1 = Math.min(ih, b * ih);
  const scaleX = cols * cw / ((r - l) * iw), scaleY = rows * ch / ((b - tp) * ih);
  const dx = doc.frame.left * cw + (sx0 - l * iw) * scaleX, dy = doc.frame.top * ch + (sy0 - tp * ih) * scaleY;
  if (sx1 > sx0 && sy1 > sy0) {
    g.drawImage(t.image, sx0, sy0, sx1 - sx0, sy1 - sy0, dx, dy, (sx1 - sx0) * scaleX, (sy1 - sy0) * scaleY);
  }
}

/* Show (or hide) the picture under the grid; the cells let it through by the opacity slider's share. */
function showPicture(on) {
  $("trace-show").checked = Boolean(on && state.trace);
  board.see = $("trace-show").checked ? Number($("trace-opacity").value) / 100 : 0;
  $("trace-opacity-value").textContent = $("trace-opacity").value + "%";
  if (state.doc) board.refresh();
  placeUnder();
}

/* --- points of the picture --------------------------------------------------------------------- */

/* The point of the picture under a click in cell `at` (x, y as fractions of the picture), or null off it. */
function gridPoint([r, c], e) {
  const t = state.trace, frame = state.doc.frame;
  if (!t || !frame) return null;
  const rect = board.cells[r][c].getBoundingClientRect();
  const fx = Math.min(0.999, Math.max(0, (e.clientX - rect.left) / rect.width));
  const fy = Math.min(0.999, Math.max(0, (e.clientY - rect.top) / rect.height));
  const gx = (c - frame.left + fx) / t.size[1], gy = (r - frame.top + fy) / t.size[0];
  const [l, tp, right, b] = t.box;
  const x = l + gx * (right - l), y = tp + gy * (b - tp);
  return x >= 0 && x <= 1 && y >= 0 && y <= 1 ? [x, y] : null;
}

/* The point of the picture under a click on the picture beside the grid. */
function besidePoint(e) {
  const rect = $("trace-picture").getBoundingClientRect();
  return [Math.min(1, Math.max(0, (e.clientX - rect.left) / rect.width)),
    Math.min(1, Math.max(0, (e.clientY - rect.top) / rect.height))];
}

/* The cell of the grid of now at (row, col) of the imported grid, or null when it is off the grid. */
function fromImport(r, c) {
  const frame = state.doc.frame, R = r + frame.top, C = c + frame.left;
  return R >= 0 && C >= 0 && R < state.doc.grid.length && C < state.doc.grid[0].length ? [R, C] : null;
}

function wirePicture() {
  $("trace-show").addEventListener("change", () => showPicture($("trace-show").checked));
  $("trace-opacity").addEventListener("input", () => showPicture(true));
  new ResizeObserver(() => placeUnder()).observe($("board"));
  window.addEventListener("resize", () => placeUnder());
}
