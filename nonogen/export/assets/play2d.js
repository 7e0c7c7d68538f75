// nonogen: play a 2D nonogram (black and white or colour) in the browser. No build step, no network.
// State, rules, drawing and input live here. html.py puts three scripts in front of this one: play.js (what
// the 3D page shares), linesolve.js (the hint's line logic) and play2d_board.js (builds the board).
"use strict";
(() => {
  const { puzzle: P, say, loadProgress, saveProgress, onClick, count, clamp } = window.nonogenPage;
  const W = P.width, H = P.height, N = W * H;
  const UNKNOWN = -1, EMPTY = 0;               // cell values; 1.. are palette indices
  const NOT_GIVEN = -2;

  // --- state -----------------------------------------------------------------------------------
  const cells = new Int16Array(N).fill(UNKNOWN);
  const given = new Int16Array(N).fill(NOT_GIVEN);
  for (const [r, c, v] of P.givens) given[r * W + c] = v;
  const undoStack = [], redoStack = [];        // each entry: a list of [index, before, after]
  let tool = 1;                                // the colour a left click paints
  let markMode = false;                        // touch-friendly stand-in for the right button
  let wrong = new Set();                       // cells flagged by the last Check
  let cursor = 0;                              // the keyboard's cell
  let hint = null;                             // the line the last Hint pointed at
  const crossed = new Set();                   // clue numbers crossed off by hand: "row:3:1", "col:0:2"
  const timer = { before: 0, since: null };    // ms played in earlier visits, and when this stretch began

  const solution = P.solution.flat();
  const at = (r, c) => cells[r * W + c];
  const isGiven = (i) => given[i] !== NOT_GIVEN;

  function applyGivens() {
    for (let i = 0; i < N; i++) if (isGiven(i)) cells[i] = given[i];
  }

  // --- clue logic --------------------------------------------------------------------------------
  // Run-length encoding of a line with background (unknown or marked empty) dropped: what the
  // line's clue would be if the player's marks were the answer. Matches nonogen.clues.line_clue.
  function lineClue(values) {
    const out = [];
    let prev = 0;
    for (const raw of values) {
      const v = raw > 0 ? raw : 0;
      if (v > 0) {
        if (v === prev) out[out.length - 1][0] += 1;
        else out.push([1, v]);
      }
      prev = v;
    }
    return out;
  }
  const sameClue = (a, b) => a.length === b.length && a.every((x, i) => x[0] === b[i][0] && x[1] === b[i][1]);
  const rowValues = (r) => Array.from({ length: W }, (_, c) => at(r, c));
  const colValues = (c) => Array.from({ length: H }, (_, r) => at(r, c));
  const rowDone = (r) => sameClue(lineClue(rowValues(r)), P.rows[r]);
  const colDone = (c) => sameClue(lineClue(colValues(c)), P.cols[c]);

  // Solved means every line meets its clue: any grid that does counts, not only the stored picture.
  function isSolved() {
    for (let r = 0; r < H; r++) if (!rowDone(r)) return false;
    for (let c = 0; c < W; c++) if (!colDone(c)) return false;
    return true;
  }

  // --- the board (built by play2d_board.js) and the tool ------------------------------------------------
  const board = document.getElementById("board");
  const { cells: cellEls, rowClues: rowClueEls, colClues: colClueEls } = window.nonogenBoard.build(board, isGiven);

  function selectTool(index) {
    tool = index;
    setMarkMode(false);
    for (const b of document.querySelectorAll("#palette .swatch")) {
      b.setAttribute("aria-checked", String(Number(b.dataset.color) === index));
    }
  }

  function setMarkMode(on) {
    markMode = on;
    document.getElementById("mark-mode").setAttribute("aria-pressed", String(on));
  }

  // --- drawing ---------------------------------------------------------------------------------------
  function paintCell(i) {
    const v = cells[i], td = cellEls[i];
    td.style.background = v > 0 ? P.palette[v].rgb : "";
    td.classList.toggle("marked", v === EMPTY);
    td.classList.toggle("wrong", wrong.has(i));
    td.classList.toggle("cursor", i === cursor);
    td.classList.toggle("hint", hint !== null && (hint.kind === "row" ? Math.floor(i / W) : i % W) === hint.index);
  }

  function refreshClues() {
    for (let r = 0; r < H; r++) rowClueEls[r].classList.toggle("done", rowDone(r));
    for (let c = 0; c < W; c++) colClueEls[c].classList.toggle("done", colDone(c));
    for (const [els, kind] of [[rowClueEls, "row"], [colClueEls, "col"]]) {
      els.forEach((el, k) => el.classList.toggle("hint", hint !== null && hint.kind === kind && hint.index === k));
    }
    for (const num of board.querySelectorAll(".num[data-cross]")) num.classList.toggle("crossed", crossed.has(num.dataset.cross));
  }

  function refreshAll() {
    for (let i = 0; i < N; i++) paintCell(i);
    board.classList.toggle("solved", isSolved());   // the CSS hides empty-marks on the solved picture
    refreshClues();
    document.getElementById("undo").disabled = undoStack.length === 0;
    document.getElementById("redo").disabled = redoStack.length === 0;
  }

  function announceIfSolved() {
    if (isSolved()) { say("Solved! Every line meets its clue.", "solved"); return true; }
    return false;
  }

  // --- changes, undo and saving ---------------------------------------------------------------------
  // A stroke is everything one press of the pointer (or one button) changed; undo takes it back whole.
  function commit(changes) {
    if (changes.length === 0) return;
    undoStack.push(changes);
    redoStack.length = 0;
    afterChange();
  }

  function afterChange() {
    hint = null;                             // the marks changed: the old hint may no longer hold
    if (isSolved()) stopTimer();
    save();
    refreshAll();
    if (!announceIfSolved()) say("");        // an old message would be stale now
  }

  function replay(from, to, which) {
    const changes = from.pop();
    if (!changes) return;
    for (const [i, before, after] of changes) {
      cells[i] = which === "undo" ? before : after;
      wrong.delete(i);
    }
    to.push(changes);
    afterChange();
  }
  const undo = () => replay(undoStack, redoStack, "undo");
  const redo = () => replay(redoStack, undoStack, "redo");

  // Set every changeable cell to what `valueOf(i)` says, as one undoable stroke.
  function bulkSet(valueOf) {
    const changes = [];
    for (let i = 0; i < N; i++) {
      if (isGiven(i)) continue;
      const v = valueOf(i);
      if (v !== cells[i]) { changes.push([i, cells[i], v]); cells[i] = v; }
    }
    wrong = new Set();
    commit(changes);
    return changes.length;
  }

  function save() {
    saveProgress({ cells: Array.from(cells), crossed: Array.from(crossed), ms: elapsed() });
  }

  function restore() {
    const saved = loadProgress();
    if (!saved || !Array.isArray(saved.cells) || saved.cells.length !== N) return false;
    saved.cells.forEach((v, i) => {
      const ok = Number.isInteger(v) && v >= UNKNOWN && v < P.palette.length;
      cells[i] = ok ? v : UNKNOWN;
    });
    applyGivens();                       // givens always win over whatever was stored
    if (Array.isArray(saved.crossed)) saved.crossed.forEach((key) => crossed.add(String(key)));
    if (Number.isFinite(saved.ms) && saved.ms > 0) timer.before = saved.ms;
    return saved.cells.some((v, i) => v !== UNKNOWN && !isGiven(i));
  }

  // --- pointer input -----------------------------------------------------------------------------------
  // One press decides what the stroke does from the first cell: paint `to` over cells that held
  // what the first cell held (`from`), or clear cells that already hold the tool's value. After the
  // first move to another cell the stroke is locked to that row or column, as in most nonogram apps,
  // and every cell between two pointer positions is visited, so a fast drag leaves no gaps.
  let stroke = null;

  function cellIndexAt(x, y) {
    const el = document.elementFromPoint(x, y);
    const td = el && el.closest ? el.closest("td.cell") : null;
    if (!td || !board.contains(td)) return -1;
    return Number(td.dataset.row) * W + Number(td.dataset.col);
  }

  function strokeCell(i) {
    if (isGiven(i) || stroke.touched.has(i)) return;
    stroke.touched.add(i);
    if (cells[i] !== stroke.from) return;
    stroke.changes.push([i, cells[i], stroke.to]);
    cells[i] = stroke.to;
    wrong.delete(i);
    paintCell(i);
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

  function onPointerDown(e) {
    const td = e.target.closest("td.cell");
    if (!td || (e.pointerType === "mouse" && e.button !== 0 && e.button !== 2)) return;
    e.preventDefault();
    if (td.hasPointerCapture && td.hasPointerCapture(e.pointerId)) td.releasePointerCapture(e.pointerId);
    const i = Number(td.dataset.row) * W + Number(td.dataset.col);
    const before = cursor;
    cursor = i;                              // the keyboard carries on from the last cell touched
    paintCell(before);
    if (isGiven(i)) { say("That cell is given and cannot be changed."); paintCell(i); return; }
    const target = e.button === 2 || markMode ? EMPTY : tool;
    const clearing = cells[i] === target;
    stroke = {
      pointer: e.pointerId, last: i, r0: Math.floor(i / W), c0: i % W, axis: null,
      from: cells[i], to: clearing ? UNKNOWN : target, touched: new Set(), changes: [],
    };
    strokeCell(i);
  }

  function onPointerMove(e) {
    if (!stroke || e.pointerId !== stroke.pointer) return;
    e.preventDefault();
    strokeTo(cellIndexAt(e.clientX, e.clientY));
  }

  function onPointerUp(e) {
    if (!stroke || e.pointerId !== stroke.pointer) return;
    const done = stroke;
    stroke = null;
    commit(done.changes);
  }

  // --- buttons and keys ------------------------------------------------------------------------------------
  function check() {
    if (announceIfSolved()) return;
    wrong = new Set();
    for (let i = 0; i < N; i++) {
      const v = cells[i], want = solution[i];
      // filled with the wrong colour (or where the picture is empty), or marked empty where it is filled
      if ((v > 0 && v !== want) || (v === EMPTY && want > 0)) wrong.add(i);
    }
    refreshAll();
    if (wrong.size === 0) say("No mistakes so far. Keep going!");
    else say(`${count(wrong.size, "mistake")} marked.`, "bad");
  }

  function reveal() {
    if (!window.confirm("Reveal the solution? Undo brings your own grid back.")) return;
    bulkSet((i) => (solution[i] > 0 ? solution[i] : UNKNOWN));
    if (isSolved()) say("Solved! (revealed)", "solved");
  }

  function reset() {
    const n = bulkSet(() => UNKNOWN);
    say(n ? "Grid cleared. Undo brings it back." : "Nothing to clear.");
  }

  // --- keyboard play: a cell cursor on the focused board -------------------------------------------------------
  const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

  function moveCursor(dr, dc) {
    const r = clamp(Math.floor(cursor / W) + dr, 0, H - 1);
    const c = clamp((cursor % W) + dc, 0, W - 1);
    const before = cursor;
    cursor = r * W + c;
    paintCell(before);
    paintCell(cursor);
    board.setAttribute("aria-activedescendant", cellEls[cursor].id);
  }

  // Space/Enter fills with the tool, x (or .) marks empty, Delete/Backspace clears; again on the same value clears.
  function keyAct(target) {
    if (isGiven(cursor)) { say("That cell is given and cannot be changed."); return; }
    const to = target === UNKNOWN || cells[cursor] === target ? UNKNOWN : target;
    if (to === cells[cursor]) return;
    const change = [cursor, cells[cursor], to];
    cells[cursor] = to;
    wrong.delete(cursor);
    commit([change]);
  }

  function onBoardKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (MOVES[e.key]) { e.preventDefault(); moveCursor(...MOVES[e.key]); }
    else if (e.key === " " || e.key === "Enter") { e.preventDefault(); keyAct(markMode ? EMPTY : tool); }
    else if (e.key === "x" || e.key === "X" || e.key === ".") { e.preventDefault(); e.stopPropagation(); keyAct(EMPTY); }
    else if (e.key === "Delete" || e.key === "Backspace") { e.preventDefault(); keyAct(UNKNOWN); }
  }

  function onKey(e) {
    const mod = e.ctrlKey || e.metaKey;
    const key = e.key.toLowerCase();
    if (mod && key === "z" && !e.shiftKey) { e.preventDefault(); undo(); }
    else if (mod && (key === "y" || (key === "z" && e.shiftKey))) { e.preventDefault(); redo(); }
    else if (!mod && /^[1-9]$/.test(e.key) && Number(e.key) < P.palette.length) selectTool(Number(e.key));
    else if (!mod && key === "x") setMarkMode(!markMode);
    else if (!mod && key === "h") showHint();
  }

  // --- hint: the line that nonogen's line logic advances on the player's own marks ---------------------------
  function showHint() {
    if (isSolved()) { say("Solved already!", "solved"); return; }
    hint = window.nonogenLine.nextLine(P.rows, P.cols, Array.from(cells), P.palette.length);
    refreshAll();
    if (!hint) { say("No single line tells more from your marks: try what two crossing lines allow, or Check."); return; }
    const name = `${hint.kind === "row" ? "Row" : "Column"} ${hint.index + 1}`;
    if (hint.contradiction) say(`${name} cannot meet its clue with your marks: look for a mistake there.`, "bad");
    else say(`Hint: ${name}. Line logic settles ${count(hint.cells.length, "more cell")} there.`);
  }

  // --- timer: time spent on the page until solved, kept with the progress -----------------------------------------
  const elapsed = () => timer.before + (timer.since === null ? 0 : Date.now() - timer.since);
  const clock = (ms) => { const t = Math.floor(ms / 1000); return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, "0")}`; };
  function tick() { document.getElementById("timer").textContent = clock(elapsed()); }
  function startTimer() { if (timer.since === null && !isSolved()) timer.since = Date.now(); tick(); }
  function stopTimer() { timer.before = elapsed(); timer.since = null; tick(); }

  function onClueClick(e) {
    const num = e.target.closest(".num[data-cross]");
    if (!num) return;
    if (crossed.has(num.dataset.cross)) crossed.delete(num.dataset.cross);
    else crossed.add(num.dataset.cross);
    save();
    refreshClues();
  }

  function wire() {
    board.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("pointermove", onPointerMove);
    document.addEventListener("pointerup", onPointerUp);
    document.addEventListener("pointercancel", onPointerUp);
    board.addEventListener("contextmenu", (e) => e.preventDefault());
    board.addEventListener("click", onClueClick);
    board.addEventListener("keydown", onBoardKey);
    board.addEventListener("focus", () => paintCell(cursor));
    document.addEventListener("keydown", onKey);
    document.addEventListener("visibilitychange", () => (document.hidden ? stopTimer() : startTimer()));
    setInterval(() => { if (timer.since !== null) tick(); }, 1000);
    onClick({ hint: showHint, "mark-mode": () => setMarkMode(!markMode), undo, redo, check, reveal, reset });
    window.addEventListener("resize", window.nonogenBoard.fitCellSize);
  }

  // --- start -----------------------------------------------------------------------------------------------
  applyGivens();
  const restored = restore();
  window.nonogenBoard.palette(selectTool);
  selectTool(1);
  window.nonogenBoard.fitCellSize();
  wire();
  refreshAll();
  startTimer();
  if (!announceIfSolved() && restored) say("Progress restored.");

  // For tests and scripts: read-only views of the game.
  window.nonogenPlay = {
    state: () => ({
      width: W, height: H, tool, markMode,
      cells: Array.from({ length: H }, (_, r) => rowValues(r)),
      wrong: Array.from(wrong).sort((a, b) => a - b).map((i) => [Math.floor(i / W), i % W]),
      undo: undoStack.length, redo: redoStack.length,
      cursor: [Math.floor(cursor / W), cursor % W],
      hint: hint && { ...hint }, crossed: Array.from(crossed).sort(),
      timer: { ms: elapsed(), running: timer.since !== null, text: document.getElementById("timer").textContent },
    }),
    solved: isSolved,
    solveLine: window.nonogenLine.solveLine,
  };
})();
