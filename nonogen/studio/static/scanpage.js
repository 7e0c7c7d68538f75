/* The page beside a scanned puzzle's clues (scan.js): the part of the page that holds the puzzle, drawn with each
 * suspect clue outlined (red), the clues set by the person (green) and the one being typed (blue), the clue being
 * typed enlarged under it, and which clue a click on the page lands on. */
"use strict";

async function showPage() {
  const p = scan.p, image = new Image();
  $("scan-page").dataset.ready = "";
  image.src = p.view.image;
  try { await image.decode(); } catch (err) { $("scan-status").textContent = "the page could not be shown"; return; }
  if (scan.p !== p) return;
  scan.image = image;
  drawPage();
  $("scan-page").dataset.ready = scan.k;
}

/* A line's boxes on the page (its numbers; an empty line: the margin beside it), in the page part's pixels. */
function lineBoxes(kind, i) {
  const v = scan.p.view, boxes = (kind === "row" ? v.rows : v.cols)[i];
  if (boxes.length) return boxes;
  const pitch = (v.xs[v.xs.length - 1] - v.xs[0]) / (v.xs.length - 1);
  return [kind === "row" ? [v.xs[0] - 2 * pitch, v.ys[i], v.xs[0] - 2, v.ys[i + 1]]
    : [v.xs[i], v.ys[0] - 2 * pitch, v.xs[i + 1], v.ys[0] - 2]];
}

function drawPage() {
  const v = scan.p && scan.p.view, image = scan.image, canvas = $("scan-image");
  if (!v || !image) return;
  const room = pageRoom();
  scan.scale = Math.min(3, room / v.width, 700 / v.height);
  const width = v.width * scan.scale, height = v.height * scan.scale;
  sized(canvas, width, height);
  const g = canvas.getContext("2d");
  g.setTransform(canvas.width / v.width, 0, 0, canvas.height / v.height, 0, 0);
  g.imageSmoothingEnabled = scan.scale < 1;
  g.drawImage(image, 0, 0, v.width, v.height);
  const named = new Set(scan.suspects.map((s) => s.line)), editing = scan.editing;
  for (const kind of ["row", "column"]) {
    clueOfAll(kind).forEach((_, i) => {
      const line = `${kind} ${i + 1}`, current = editing && editing.kind === kind && editing.i === i;
      const colour = current ? "#1d70b8" : named.has(line) ? "#d0021b" : scan.set.has(line) ? "#1e7e34" : "";
      if (!colour) return;
      g.strokeStyle = colour;
      g.lineWidth = (current ? 3 : 2) / scan.scale;
      for (const [x0, y0, x1, y1] of lineBoxes(kind, i)) g.strokeRect(x0 - 2, y0 - 2, x1 - x0 + 4, y1 - y0 + 4);
    });
  }
  drawZoom();
}

/* The clue being typed as the page prints it, enlarged (up to 4 times) under the page: its numbers and the margin
 * up to the grid, so a long clue of a large puzzle reads at a glance. */
function drawZoom() {
  const zoom = $("scan-zoom"), e = scan.editing, v = scan.p && scan.p.view;
  zoom.hidden = !(e && scan.image);
  if (zoom.hidden) return;
  const boxes = lineBoxes(e.kind, e.i), pitch = (v.xs[v.xs.length - 1] - v.xs[0]) / (v.xs.length - 1);
  const row = e.kind === "row", along = pitch / 2, across = pitch / 6;  // the line's neighbours barely show
  const x0 = Math.max(0, row ? Math.min(...boxes.map((b) => b[0])) - along : v.xs[e.i] - across);
  const y0 = Math.max(0, row ? v.ys[e.i] - across : Math.min(...boxes.map((b) => b[1])) - along);
  const x1 = Math.min(v.width, row ? v.xs[0] + along : v.xs[e.i + 1] + across);
  const y1 = Math.min(v.height, row ? v.ys[e.i + 1] + across : v.ys[0] + along);
  const k = Math.min(4, pageRoom() / (x1 - x0), 320 / (y1 - y0));
  sized(zoom, (x1 - x0) * k, (y1 - y0) * k);
  const g = zoom.getContext("2d");
  g.setTransform(zoom.width / (x1 - x0), 0, 0, zoom.height / (y1 - y0), 0, 0);
  g.drawImage(scan.image, x0, y0, x1 - x0, y1 - y0, 0, 0, x1 - x0, y1 - y0);
}

function clueOfAll(kind) { return kind === "row" ? scan.p.rows : scan.p.cols; }

/* The line whose clue is under a click on the page: its numbers' boxes first, then the margin beside the grid. */
function lineAt(e) {
  const v = scan.p.view, rect = $("scan-image").getBoundingClientRect();
  const x = (e.clientX - rect.left) / scan.scale, y = (e.clientY - rect.top) / scan.scale;
  for (const kind of ["row", "column"]) {
    const found = (kind === "row" ? v.rows : v.cols).findIndex((boxes) =>
      boxes.some(([x0, y0, x1, y1]) => x >= x0 - 3 && x <= x1 + 3 && y >= y0 - 3 && y <= y1 + 3));
    if (found >= 0) return [kind, found];
  }
  const band = (lines, at) => lines.findIndex((p, k) => k < lines.length - 1 && at >= p && at < lines[k + 1]);
  if (x < v.xs[0] && band(v.ys, y) >= 0) return ["row", band(v.ys, y)];
  if (y < v.ys[0] && band(v.xs, x) >= 0) return ["column", band(v.xs, x)];
  return null;
}

