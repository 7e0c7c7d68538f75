// nonogen: play a 2D nonogram (black and white or colour) in the browser. No build step, no network.
// State, rules, drawing, saving and the keyboard live here. html.py puts in front of this one: play.js (what
// the 3D page shares), keymap.js (the player's keys), linesolve.js (line logic for the hint and the assists),
// play2d_board.js (builds the board), play2d_assists.js (the assists' switches) and play2d_touch.js (mouse,
// fingers and zoom: it paints strokes through the `game` this file hands it).
"use strict";
(() => {
  const { puzzle: P, say, loadProgress, saveProgress, onClick, count, clamp } = window.nonogenPage;
  // Keys: the player may give each action a letter, digit or sign key (keymap.js); the fixed ones always work.
  const KEY_ACTIONS = [                      // [action, what it does, default key ("": only the fixed keys)]
    ["left", "cursor left", ""], ["right", "cursor right", ""], ["up", "cursor up", ""], ["down", "cursor down", ""],
    ["fill", "fill the cell (again: clear it)", ""], ["mark", "mark the cell empty (off the grid: the \u2715 mode)", "x"],
    ["clear", "clear the cell", ""], ["hint", "hint", "h"],
  ];
  const KEY_LAYOUTS = {                      // the left hand on the letters, the right on the mouse
    qwerty: { up: "w", left: "a", down: "s", right: "d" }, azerty: { up: "z", left: "q", down: "s", right: "d" },
  };
  const FIXED_KEYS = {
    ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down",
    " ": "fill", Enter: "fill", Delete: "clear", Backspace: "clear", ".": "mark",
  };
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
  let assisted = null;                         // what the assists that are on show (play2d_assists.js compute)
  const ever = { started: false, solved: false };   // kept in the record for a site's index: once true, true
  let cursor = 0;                              // the keyboard's cell
  let hint = null;                             // the line the last Hint pointed at
  const crossed = new Set();                   // clue numbers crossed off by hand: "row:3:1", "col:0:2"
  const timer = { before: 0, since: null };    // ms played in earlier visits, and when this stretch began

  const solution = P.solution.flat();
  const assists = window.nonogenAssists;
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
  const keymap = window.nonogenKeymap("2d", KEY_ACTIONS, KEY_LAYOUTS);
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
  // Flagged: by the last Check, or at once while "show mistakes" is on.
  const flagged = (i) => wrong.has(i) || (assists.on.mistakes && assists.isMistake(cells[i], solution[i]));

  function paintCell(i) {
    const v = cells[i], td = cellEls[i];
    td.style.background = v > 0 ? P.palette[v].rgb : "";
    td.classList.toggle("marked", v === EMPTY);
    td.classList.toggle("obvious", v === UNKNOWN && assisted !== null && assisted.obvious.has(i));
    td.classList.toggle("wrong", flagged(i));
    td.classList.toggle("cursor", i === cursor);
    td.classList.toggle("hint", hint !== null && (hint.kind === "row" ? Math.floor(i / W) : i % W) === hint.index);
  }

  function refreshClues() {
    for (let r = 0; r < H; r++) rowClueEls[r].classList.toggle("done", rowDone(r));
    for (let c = 0; c < W; c++) colClueEls[c].classList.toggle("done", colDone(c));
    for (const [els, kind] of [[rowClueEls, "row"], [colClueEls, "col"]]) {
      els.forEach((el, k) => {
        el.classList.toggle("hint", hint !== null && hint.kind === kind && hint.index === k);
        el.classList.toggle("progress", assisted !== null && assisted.progress[kind].has(k));
      });
    }
    for (const num of board.querySelectorAll(".num[data-cross]")) num.classList.toggle("crossed", crossed.has(num.dataset.cross));
  }

  function refreshAll() {
    assisted = assists.compute(Array.from(cells));
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

  // The record a site's index reads: `started` once the player has set a cell, `solved` once every line has met
  // its clue (by play or Reveal); both stay true after an undo or a Reset.
  function save() {
    ever.started = ever.started || cells.some((v, i) => v !== UNKNOWN && !isGiven(i));
    ever.solved = ever.solved || isSolved();
    saveProgress({
      cells: Array.from(cells), crossed: Array.from(crossed), ms: elapsed(), started: ever.started, solved: ever.solved,
    });
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
    ever.started = saved.started === true;
    ever.solved = saved.solved === true;
    if (typeof saved.started !== "boolean" || typeof saved.solved !== "boolean") save();   // a record from before
    return saved.cells.some((v, i) => v !== UNKNOWN && !isGiven(i));
  }

  // --- what a stroke of the mouse or a finger (play2d_touch.js) may do to the grid ----------------------------
  // A press moves the keyboard's cursor to its cell (the keyboard carries on from there); a given cell stays.
  function press(i) {
    const before = cursor;
    cursor = i;
    paintCell(before);
    paintCell(i);
    if (isGiven(i)) { say("That cell is given and cannot be changed."); return false; }
    return true;
  }

  const strokeGame = {
    board, cellEls, UNKNOWN, press, isGiven, commit,
    valueAt: (i) => cells[i],
    // "press": the tool (the ✕ mode: empty); "long" (a finger held still): the other one; "right": empty
    target: (how) => (how === "right" || (how === "long") !== markMode ? EMPTY : tool),
    set(i, v) { cells[i] = v; wrong.delete(i); paintCell(i); },
  };

  // --- buttons and keys ------------------------------------------------------------------------------------
  function check() {
    if (announceIfSolved()) return;
    wrong = new Set();
    // filled with the wrong colour (or where the picture is empty), or marked empty where it is filled
    for (let i = 0; i < N; i++) if (assists.isMistake(cells[i], solution[i])) wrong.add(i);
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
  const MOVES = { up: [-1, 0], down: [1, 0], left: [0, -1], right: [0, 1] };

  function moveCursor(dr, dc) {
    const r = clamp(Math.floor(cursor / W) + dr, 0, H - 1);
    const c = clamp((cursor % W) + dc, 0, W - 1);
    const before = cursor;
    cursor = r * W + c;
    paintCell(before);
    paintCell(cursor);
    window.nonogenTouch.reveal(cursor);
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

  // What a key asks for: the player's own key for an action first (keymap.js), else the fixed keys.
  const actionOf = (e) => keymap.actionOf(e.key) || FIXED_KEYS[e.key];

  function onBoardKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const action = actionOf(e);
    if (MOVES[action]) { e.preventDefault(); moveCursor(...MOVES[action]); }
    else if (action === "fill") { e.preventDefault(); keyAct(markMode ? EMPTY : tool); }
    else if (action === "mark") { e.preventDefault(); e.stopPropagation(); keyAct(EMPTY); }
    else if (action === "clear") { e.preventDefault(); keyAct(UNKNOWN); }
  }

  function onKey(e) {
    const mod = e.ctrlKey || e.metaKey;
    const key = e.key.toLowerCase();
    if (mod && key === "z" && !e.shiftKey) { e.preventDefault(); undo(); return; }
    if (mod && (key === "y" || (key === "z" && e.shiftKey))) { e.preventDefault(); redo(); return; }
    if (mod || e.altKey) return;
    const action = actionOf(e);
    if (action === "mark") setMarkMode(!markMode);
    else if (action === "hint") showHint();
    else if (!action && /^[1-9]$/.test(e.key) && Number(e.key) < P.palette.length) selectTool(Number(e.key));
  }

  // --- hint: the line that nonogen's line logic advances on the player's own marks ---------------------------
  function showHint() {
    if (isSolved()) { say("Solved already!", "solved"); return; }
    const seen = assisted ? assists.shown(cells, assisted) : Array.from(cells);   // the obvious dots count
    hint = window.nonogenLine.nextLine(P.rows, P.cols, seen, P.palette.length);
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
    window.nonogenTouch.attach(strokeGame);
    board.addEventListener("click", onClueClick);
    board.addEventListener("keydown", onBoardKey);
    board.addEventListener("focus", () => paintCell(cursor));
    document.addEventListener("keydown", onKey);
    document.addEventListener("visibilitychange", () => (document.hidden ? stopTimer() : startTimer()));
    setInterval(() => { if (timer.since !== null) tick(); }, 1000);
    onClick({ hint: showHint, "mark-mode": () => setMarkMode(!markMode), undo, redo, check, reveal, reset });
    assists.wire(refreshAll);
    keymap.wire();
    // a phone seldom has keys: their list starts folded there, behind its summary
    if (window.matchMedia("(max-width: 600px)").matches) document.getElementById("keys-help").open = false;
  }

  // --- start -----------------------------------------------------------------------------------------------
  applyGivens();
  const restored = restore();
  window.nonogenBoard.palette(selectTool);
  selectTool(1);
  wire();
  refreshAll();
  startTimer();
  if (!announceIfSolved() && restored) say("Progress restored.");

  // For tests and scripts: read-only views of the game.
  const cellList = (test) => Array.from({ length: N }, (_, i) => i).filter(test).map((i) => [Math.floor(i / W), i % W]);
  window.nonogenPlay = {
    state: () => ({
      width: W, height: H, tool, markMode,
      cells: Array.from({ length: H }, (_, r) => rowValues(r)),
      wrong: cellList((i) => flagged(i)),
      obvious: cellList((i) => cells[i] === UNKNOWN && assisted.obvious.has(i)),
      progress: { rows: [...assisted.progress.row].sort((a, b) => a - b), cols: [...assisted.progress.col].sort((a, b) => a - b) },
      assists: { ...assists.on }, keys: keymap.keys(), zoom: window.nonogenTouch.zoom(), saved: loadProgress(),
      undo: undoStack.length, redo: redoStack.length,
      cursor: [Math.floor(cursor / W), cursor % W],
      hint: hint && { ...hint }, crossed: Array.from(crossed).sort(),
      timer: { ms: elapsed(), running: timer.since !== null, text: document.getElementById("timer").textContent },
    }),
    solved: isSolved,
    solveLine: window.nonogenLine.solveLine,
  };
})();
