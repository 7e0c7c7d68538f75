// nonogen: the 2D board under a mouse or fingers, and its zoom. One press paints a stroke: a click or a tap
// fills (or, in the ✕ mode, marks empty), a drag paints a run; the right button, or a finger held still on a
// cell for half a second, does the other one. Two fingers pinch the board bigger or smaller and pan it; on a
// phone the board sits in a scrolling box whose clue row and column stay pinned (play.css), a "Whole grid"
// button swaps between seeing it all and finger-sized cells, and the page itself never scrolls sideways.
// A plain script that sets window.nonogenTouch; play2d.js calls attach(game) with what a stroke changes.
"use strict";
window.nonogenTouch = (() => {
  const P = window.nonogenPage.puzzle;
  const { clamp } = window.nonogenPage;
  const W = P.width, H = P.height;
  const FINGER = 42;                         // px: a cell a finger hits, the size a phone plays at
  const MAX_CELL = 64;
  const LONG_PRESS = 500;                    // ms a finger stays on one cell to mark it empty instead
  const phone = window.matchMedia("(max-width: 600px)");
  const root = document.documentElement.style;
  let game = null, board = null, wrap = null, zoomButton = null;
  let cell = 26;                             // px: the cells' size now (the CSS variable --cell)
  let whole = false;                         // the phone shows the whole grid (the zoom button is pressed)

  // --- zoom ---------------------------------------------------------------------------------------------
  function setCell(px) {
    cell = Math.round(px);
    root.setProperty("--cell", `${cell}px`);
  }

  // The cell size at which the whole board (clues too) fits its box; clues do not scale with the cells
  // on a phone (play.css), so their room is measured at a trial size, twice to settle.
  function fitSize() {
    const box = wrap.getBoundingClientRect(), main = wrap.parentElement.getBoundingClientRect();
    const style = getComputedStyle(wrap);
    const pad = (a, b) => parseFloat(style[a]) + parseFloat(style[b]);
    const width = wrap.clientWidth - pad("paddingLeft", "paddingRight");
    const height = Math.max(main.bottom - box.top, 200) - pad("paddingTop", "paddingBottom");
    const kept = cell, left = wrap.scrollLeft, top = wrap.scrollTop;   // the trials would scroll the box
    let size = Math.min(cell, 20);
    for (let k = 0; k < 2; k++) {
      setCell(size);
      const whole = board.getBoundingClientRect();
      const clueW = whole.width - W * size, clueH = whole.height - H * size;
      size = Math.max(4, Math.floor(Math.min((width - clueW - 2) / W, (height - clueH - 2) / H)));
    }
    setCell(kept);
    wrap.scrollLeft = left;
    wrap.scrollTop = top;
    return size;
  }

  // Desktop: cells as large as the window allows, within reason (the page scrolls for a big grid).
  function fitWindow() {
    const clueCols = Math.max(1, ...P.rows.map((r) => r.length));
    const clueRows = Math.max(1, ...P.cols.map((c) => c.length));
    const byWidth = (window.innerWidth - 40) / (W + clueCols * 0.95);
    const byHeight = (window.innerHeight - 150) / (H + clueRows * 0.95);
    setCell(Math.max(14, Math.min(34, Math.floor(Math.min(byWidth, Math.max(byHeight, 18))))));
  }

  // Lay the page out for this window: on a phone the game fills the screen's height below the title and
  // the board box scrolls; the board starts at finger size, or fits whole when that is as big.
  function layout(first = false) {
    root.setProperty("--game-top", `${wrap.parentElement.getBoundingClientRect().top + window.scrollY}px`);
    if (!phone.matches) { zoomButton.hidden = true; fitWindow(); return; }
    const fit = fitSize();
    zoomButton.hidden = fit >= FINGER;
    if (fit >= FINGER) { whole = false; setCell(Math.min(fit, MAX_CELL)); }
    else if (first || whole) setCell(whole ? fit : FINGER);
    else setCell(clamp(cell, fit, MAX_CELL));
    showZoom(fit);
  }

  function showZoom(fit) {
    whole = cell <= fit;
    zoomButton.setAttribute("aria-pressed", String(whole));
    zoomButton.textContent = whole ? "\u2295 Zoom in" : "\u2296 Whole grid";
  }

  // The point of the grid under (x, y) on the screen, in cells from its top-left corner; and the scroll
  // that puts such a point back under (x, y) after the cells changed size.
  function gridPoint(x, y) {
    const r = game.cellEls[0].getBoundingClientRect();
    return { col: (x - r.left) / cell, row: (y - r.top) / cell };
  }

  function keepUnder(point, x, y) {
    const r = game.cellEls[0].getBoundingClientRect();
    wrap.scrollLeft += r.left + point.col * cell - x;
    wrap.scrollTop += r.top + point.row * cell - y;
  }

  function zoomTo(px, x, y) {
    const point = gridPoint(x, y);
    setCell(px);
    keepUnder(point, x, y);
  }

  function toggleZoom() {
    const box = wrap.getBoundingClientRect();
    const fit = fitSize();
    zoomTo(whole ? FINGER : fit, box.left + box.width / 2, box.top + box.height / 2);
    showZoom(fit);
  }

  // Scroll the board box so that cell i shows clear of the pinned clues (the keyboard's cursor moved there).
  function reveal(i) {
    const box = wrap.getBoundingClientRect(), corner = board.rows[0].cells[0].getBoundingClientRect();
    const r = game.cellEls[i].getBoundingClientRect();
    const right = box.left + wrap.clientLeft + wrap.clientWidth, bottom = box.top + wrap.clientTop + wrap.clientHeight;
    if (r.left < corner.right) wrap.scrollLeft -= corner.right - r.left;
    else if (r.right > right) wrap.scrollLeft += r.right - right;
    if (r.top < corner.bottom) wrap.scrollTop -= corner.bottom - r.top;
    else if (r.bottom > bottom) wrap.scrollTop += r.bottom - bottom;
  }

  // --- strokes ------------------------------------------------------------------------------------------
  // One press decides what the stroke does from the first cell: paint `to` over cells that held what the
  // first cell held (`from`), or clear cells that already hold the value. After the first move to another
  // cell the stroke is locked to that row or column, as in most nonogram apps, and every cell between two
  // pointer positions is visited, so a fast drag leaves no gaps.
  let stroke = null;

  function cellIndexAt(x, y) {
    const el = document.elementFromPoint(x, y);
    const td = el && el.closest ? el.closest("td.cell") : null;
    if (!td || !board.contains(td)) return -1;
    return Number(td.dataset.row) * W + Number(td.dataset.col);
  }

  function startStroke(i, pointer, how) {
    const target = game.target(how);
    const from = game.valueAt(i);
    stroke = {
      pointer, last: i, r0: Math.floor(i / W), c0: i % W, axis: null,
      from, to: from === target ? game.UNKNOWN : target, touched: new Set(), changes: [],
    };
    strokeCell(i);
  }

  function strokeCell(i) {
    if (game.isGiven(i) || stroke.touched.has(i)) return;
    stroke.touched.add(i);
    if (game.valueAt(i) !== stroke.from) return;
    stroke.changes.push([i, stroke.from, stroke.to]);
    game.set(i, stroke.to);
  }

  function strokeTo(i) {
    if (i < 0 || i === stroke.last) return;
    let r = Math.floor(i / W), c = i % W;
    if (stroke.axis === null) stroke.axis = Math.abs(c - stroke.c0) >= Math.abs(r - stroke.r0) ? "row" : "col";
    if (stroke.axis === "row") r = stroke.r0;
    else c = stroke.c0;
    const lr = Math.floor(stroke.last / W), lc = stroke.last % W;
    const steps = Math.max(Math.abs(r - lr), Math.abs(c - lc));
    for (let k = 1; k <= steps; k++) strokeCell((lr + Math.sign(r - lr) * k) * W + lc + Math.sign(c - lc) * k);
    stroke.last = r * W + c;
  }

  function endStroke() {
    const done = stroke;
    stroke = null;
    if (done) game.commit(done.changes);
  }

  // Two fingers came: what the first one painted is taken back, as if it never touched.
  function dropStroke() {
    if (!stroke) return;
    for (const [i, before] of stroke.changes.reverse()) game.set(i, before);
    stroke = null;
  }

  // --- fingers ------------------------------------------------------------------------------------------
  // A finger waits before it paints: lifted on the same cell it is a tap (the tool), moved to another
  // cell it paints a run from the first, held still it marks empty (or, in the ✕ mode, fills).
  const fingers = new Map();                 // pointerId -> {x, y} of each finger on the board
  let pending = null;                        // {i, pointer, timer}: a finger down, not yet painting
  let pinch = null;                          // {distance, cell, point, fit, frame}: two fingers zooming and panning

  const middle = () => {
    const [a, b] = [...fingers.values()];
    return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, distance: Math.hypot(a.x - b.x, a.y - b.y) };
  };

  function clearPending() {
    if (!pending) return;
    clearTimeout(pending.timer);
    game.cellEls[pending.i].classList.remove("pressed");
    pending = null;
  }

  function fingerDown(e, i) {
    fingers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (fingers.size === 2) {                 // pinch and pan: whatever the first finger began is undone
      clearPending();
      dropStroke();
      const m = middle();
      const fit = phone.matches ? fitSize() : 8;
      pinch = { distance: Math.max(m.distance, 1), cell, point: gridPoint(m.x, m.y), fit, frame: 0 };
      return;
    }
    if (fingers.size > 2 || pinch || i < 0 || !game.press(i)) return;
    if (!window.nonogenAssists.on.longpress) {      // switched off: the finger paints at once, as a mouse does
      startStroke(i, e.pointerId, "press");
      return;
    }
    const timer = setTimeout(() => {
      if (!pending || pending.timer !== timer) return;
      const { i: at, pointer } = pending;
      clearPending();
      startStroke(at, pointer, "long");
      if (navigator.vibrate) navigator.vibrate(15);
    }, LONG_PRESS);
    pending = { i, pointer: e.pointerId, timer };
    game.cellEls[i].classList.add("pressed");
  }

  function fingerMove(e) {
    if (!fingers.has(e.pointerId)) return;
    fingers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pinch) {                              // each finger moves in its own event: once a frame, both are read
      if (!pinch.frame) pinch.frame = requestAnimationFrame(followPinch);
      return;
    }
    if (pending && pending.pointer === e.pointerId) {
      const i = cellIndexAt(e.clientX, e.clientY);
      if (i < 0 || i === pending.i) return;
      const { i: first, pointer } = pending;
      clearPending();
      startStroke(first, pointer, "press");
    }
    if (stroke && stroke.pointer === e.pointerId) strokeTo(cellIndexAt(e.clientX, e.clientY));
  }

  // The cells as much bigger as the fingers are further apart, and the grid point that was between them there again.
  function followPinch() {
    pinch.frame = 0;
    if (fingers.size < 2) return;
    const m = middle();
    setCell(clamp(pinch.cell * (m.distance / pinch.distance), Math.min(pinch.fit, FINGER), MAX_CELL));
    keepUnder(pinch.point, m.x, m.y);
    showZoom(pinch.fit);
  }

  function fingerUp(e) {
    if (!fingers.has(e.pointerId)) return;
    if (pinch && pinch.frame) { cancelAnimationFrame(pinch.frame); followPinch(); }   // where the fingers left it
    fingers.delete(e.pointerId);
    if (pinch) { if (fingers.size === 0) pinch = null; return; }   // the rest of a pinch paints nothing
    if (pending && pending.pointer === e.pointerId) {
      const { i, pointer } = pending;
      clearPending();
      if (e.type === "pointerup") startStroke(i, pointer, "press");
    }
    if (stroke && stroke.pointer === e.pointerId) endStroke();
  }

  // --- the pointer's events -----------------------------------------------------------------------------
  function onPointerDown(e) {
    const td = e.target.closest("td.cell");
    if (e.pointerType === "touch") {
      if (td) e.preventDefault();
      fingerDown(e, td ? Number(td.dataset.row) * W + Number(td.dataset.col) : -1);
      return;
    }
    if (!td || (e.pointerType === "mouse" && e.button !== 0 && e.button !== 2)) return;
    e.preventDefault();
    if (td.hasPointerCapture && td.hasPointerCapture(e.pointerId)) td.releasePointerCapture(e.pointerId);
    const i = Number(td.dataset.row) * W + Number(td.dataset.col);
    if (game.press(i)) startStroke(i, e.pointerId, e.button === 2 ? "right" : "press");
  }

  function onPointerMove(e) {
    if (e.pointerType === "touch") { if (fingers.has(e.pointerId)) { e.preventDefault(); fingerMove(e); } return; }
    if (!stroke || e.pointerId !== stroke.pointer) return;
    e.preventDefault();
    strokeTo(cellIndexAt(e.clientX, e.clientY));
  }

  function onPointerUp(e) {
    if (e.pointerType === "touch") { fingerUp(e); return; }
    if (stroke && e.pointerId === stroke.pointer) endStroke();
  }

  // game: {board, cellEls, UNKNOWN, valueAt(i), isGiven(i), target(how), set(i, v), press(i), commit(changes)}:
  // press(i) moves the keyboard's cursor there and says whether the cell may change; target(how) is what a
  // "press", a "long" press or the "right" button paints; set(i, v) changes and draws one cell.
  function attach(g) {
    game = g;
    board = g.board;
    wrap = board.parentElement;
    zoomButton = document.getElementById("zoom");
    board.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("pointermove", onPointerMove, { passive: false });
    document.addEventListener("pointerup", onPointerUp);
    document.addEventListener("pointercancel", onPointerUp);
    board.addEventListener("contextmenu", (e) => e.preventDefault());   // also a long press's menu
    zoomButton.addEventListener("click", toggleZoom);
    window.addEventListener("resize", () => layout());
    layout(true);
  }

  return { attach, reveal, zoom: () => ({ cell, whole, phone: phone.matches }) };
})();
