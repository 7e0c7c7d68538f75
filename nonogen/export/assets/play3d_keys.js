// nonogen: keyboard play and the hint on the Picross 3D page. A cube cursor moves along x and y and through the
// layers; the layers in front of it are sliced away, so the cube it frames can always be seen, as a click needs.
// Keys do what the mouse does (break, paint), and H asks line logic (linesolve3d.js) for the next cube. Where the
// cursor goes, an aria-live line tells a screen reader: the position, the cube there, the clues of its lines.
// The letter keys are the player's choice (keymap.js, kept under "nonogen-keys-3d"), as nathsou/Picross3D lets a
// player pick QWERTY or AZERTY. Part of the page's one ES module (html.py): its functions use the names of
// play3d_view.js and play3d.js, and play3d.js calls wireKeys() when the page starts: before that, nothing here
// runs but reading the chosen keys.
const cursor = [0, 0, 0];                    // the keyboard's cube [x, y, z]
let hint = null;                             // what the last Hint found (nonogenLine3d.nextCube), until a change
const TURN = Math.PI / 8;                    // Shift+left/right turns the view this far

// Arrows move in the layer; PageUp/PageDown (or Shift+up/down) step through the layers, front to back.
const MOVES = {
  ArrowLeft: [-1, 0, 0], ArrowRight: [1, 0, 0], ArrowUp: [0, -1, 0], ArrowDown: [0, 1, 0],
  PageUp: [0, 0, -1], PageDown: [0, 0, 1],
};

// Keys the player may choose, besides the fixed ones (arrows, Page Up/Down, Space, Enter, Delete, Backspace,
// Shift+arrows, Ctrl+Z): [action, what it does, default key ("": none)]. A layout sets them at one press.
const keymap = window.nonogenKeymap("3d", [
  ["left", "cursor left", ""], ["right", "cursor right", ""], ["up", "cursor up", ""], ["down", "cursor down", ""],
  ["front", "one layer towards the front", ""], ["deeper", "one layer deeper", ""],
  ["turnLeft", "turn the model left", ""], ["turnRight", "turn the model right", ""],
  ["break", "break the cube", "x"], ["paint", "paint or unpaint the cube", "f"],
  ["breakMode", "Break mode", "b"], ["paintMode", "Paint mode", "p"], ["hint", "hint", "h"],
], {                                         // the left hand on the letters, the right on the mouse or arrows
  qwerty: { up: "w", left: "a", down: "s", right: "d", front: "q", deeper: "e" },
  azerty: { up: "z", left: "q", down: "s", right: "d", front: "a", deeper: "e" },
});
const BOUND_MOVES = {                        // the chosen keys that move the cursor, as the fixed ones do
  left: MOVES.ArrowLeft, right: MOVES.ArrowRight, up: MOVES.ArrowUp, down: MOVES.ArrowDown,
  front: MOVES.PageUp, deeper: MOVES.PageDown,
};

function moveCursor([dx, dy, dz]) {
  const before = cursor.join();
  cursor[0] = clamp(cursor[0] + dx, 0, X - 1);
  cursor[1] = clamp(cursor[1] + dy, 0, Y - 1);
  cursor[2] = clamp(cursor[2] + dz, 0, Z - 1);
  followCursor(cursor.join() === before ? "Edge. " : "");
}

// Slice away the layers in front of the cursor, and any slice that hides it: the framed cube shows.
function followCursor(prefix = "") {
  const [x, y, z] = cursor;
  setSlice("z", z, false);
  setSlice("x", Math.min(slice.x, X - 1 - x), false);
  setSlice("y", Math.min(slice.y, y), false);
  refreshScene();
  showCursor(cursorShown() ? cursor : null);
  announceCursor(prefix);
}

// For a screen reader (the page's aria-live line): "x 2, y 1, z 3: unknown. Clues: left-to-right 3, ...".
// Positions count from 1: x from the left, y from the top, z from the front. Said again only when it changes.
function announceCursor(prefix = "") {
  const [x, y, z] = cursor;
  const i = idx(x, y, z);
  const what = ({ [BROKEN]: "broken", [PAINTED]: "painted" })[state[i]] || "unknown";
  const clues = AXES.map((axis) => {
    const clue = clueOf(axis, x, y, z);
    return `${LINE_NAMES[axis]} ${clue ? clueText(clue) : "no clue"}`;
  });
  document.getElementById("cursor-say").textContent =
    `${prefix}x ${x + 1}, y ${y + 1}, z ${z + 1}: ${what}${locked[i] ? " (given)" : ""}. Clues: ${clues.join(", ")}.`;
}

// The frame shows while the model has the focus, until the level is solved: then the model shows clean.
const cursorShown = () => document.activeElement === canvas && !solved;

const where = ([x, y, z]) => `column ${x + 1}, row ${y + 1}, layer ${z + 1}`;
const LINE_NAMES = { x: "left-to-right", y: "top-to-bottom", z: "front-to-back" };
const clueText = ([n, groups]) => `${n}${groups === 2 ? " in a circle" : groups >= 3 ? " in a square" : ""}`;

// Space and Enter do what a click does in the current mode; X/Delete break and F paints whatever the mode.
function keyAct(how) {
  if (solved) { say("Solved already!", "solved"); return; }
  const i = idx(...cursor);
  if (state[i] === BROKEN) { say(`The cube at ${where(cursor)} is broken already.`); return; }
  act(i, how);
  announceCursor();                          // the cube's new state, if it changed
}

function showHint() {
  if (solved) { say("Solved already!", "solved"); return; }
  const known = (x, y, z) => ({ [BROKEN]: 0, [PAINTED]: 1 })[state[idx(x, y, z)]] ?? -1;
  hint = window.nonogenLine3d.nextCube([X, Y, Z], P.clues, known);
  if (!hint) {
    refreshScene();
    say("No single line tells more from your cubes: try what crossing lines allow together, or Check.");
    return;
  }
  cursor.splice(0, 3, ...hint.cube);
  followCursor();
  const line = `its ${LINE_NAMES[hint.axis]} line (clue ${clueText(hint.clue)})`;
  if (hint.contradiction) {
    say(`The ${LINE_NAMES[hint.axis]} line through ${where(hint.cube)} (clue ${clueText(hint.clue)}) cannot `
      + "meet its clue with your painted cubes: look for a mistake there.", "bad");
  } else if (hint.value === 0) {
    say(`Hint: the yellow cube (${where(hint.cube)}) is not part of the shape: ${line} proves it. Break it.`);
  } else {
    say(`Hint: the yellow cube (${where(hint.cube)}) is part of the shape: ${line} proves it. Paint it.`);
  }
}

const isHint = (i) => hint !== null && i === idx(...hint.cube);

function onViewKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const bound = keymap.actionOf(key);
  const turn = { turnLeft: -TURN, turnRight: TURN }[bound];
  if (turn) { e.preventDefault(); turnView(turn); return; }
  let move = MOVES[key] || BOUND_MOVES[bound];
  if (move && e.shiftKey && move[0]) { e.preventDefault(); turnView(move[0] * TURN); return; }
  if (move && e.shiftKey) move = [0, 0, move[1]];
  if (move) { e.preventDefault(); moveCursor(move); return; }
  const how = { " ": mode, Enter: mode, Delete: "break", Backspace: "break" }[key]
    || { break: "break", paint: "paint" }[bound];
  if (how) { e.preventDefault(); keyAct(how); }
}

function onPageKey(e) {
  const key = e.key.toLowerCase();
  if ((e.ctrlKey || e.metaKey) && key === "z") { e.preventDefault(); undo(); return; }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const bound = keymap.actionOf(key);
  if (bound === "breakMode") setMode("break");
  else if (bound === "paintMode") setMode("paint");
  else if (bound === "hint") showHint();
}

function wireKeys() {
  canvas.addEventListener("keydown", onViewKey);
  canvas.addEventListener("focus", () => { showCursor(cursorShown() ? cursor : null); announceCursor(); });
  canvas.addEventListener("blur", () => showCursor(null));
  window.addEventListener("keydown", onPageKey);
  keymap.wire();
}
