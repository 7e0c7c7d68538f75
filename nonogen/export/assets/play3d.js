// nonogen: play a Picross 3D level in the browser: the rules, the player's state, saving and the controls.
// html.py joins play.js and keymap.js (what the 2D page shares), play3d_view.js (the three.js scene, camera and
// picking, whose names this file uses: P, X, Y, Z, N, idx, inBox, showCubes, dress, ...), linesolve3d.js,
// play3d_keys.js (keyboard play, the player's keys and the hint: cursor, hint, wireKeys) and this file into one
// ES module. Touch plays as the mouse does (play3d_view.js); the slicers have finger-sized - and + buttons.
const { say, loadProgress, saveProgress, onClick, count, clamp } = window.nonogenPage;
const INTACT = 0, BROKEN = 1, PAINTED = 2;   // what the player has done to each cube
const AXES = ["x", "y", "z"];
const LAYERS = { x: X, y: Y, z: Z };         // layers along each axis, for the slicers

// --- state ----------------------------------------------------------------------------------------------
const solution = new Uint8Array(N);
for (let x = 0; x < X; x++) for (let y = 0; y < Y; y++) for (let z = 0; z < Z; z++) {
  solution[idx(x, y, z)] = P.solution[x][y][z] ? 1 : 0;
}
const state = new Uint8Array(N);             // INTACT / BROKEN / PAINTED
const locked = new Uint8Array(N);            // givens: the player cannot change them
const wrong = new Set();                     // painted cubes the last Check flagged
let strikes = 0;
const STRIKE_LIMIT = P.strike_limit || 5;    // this many strikes end a try, as in the game
let mode = "break";
let solved = false;
const history = [];                          // undo: [index, state before, state after] per action
const outOfStrikes = () => strikes >= STRIKE_LIMIT;
const slice = { x: 0, y: 0, z: 0 };          // layers hidden: x from the right, y from the top, z from the front

function applyGivens() {
  for (const [x, y, z, v] of P.givens) {
    const i = idx(x, y, z);
    state[i] = v ? PAINTED : BROKEN;
    locked[i] = 1;
  }
}

function isSolved() {
  for (let i = 0; i < N; i++) if (!solution[i] && state[i] !== BROKEN) return false;
  return true;
}

function sliced(x, y, z) {
  return x >= X - slice.x || y < slice.y || z < slice.z;
}
const present = (x, y, z) => inBox(x, y, z) && state[idx(x, y, z)] !== BROKEN && !sliced(x, y, z);

// How the view dresses cube i (a style of play3d_view.js, or the model's colours once solved).
function variantOf(i) {
  if (solved) return "solved";
  if (isHint(i)) return "hint";
  if (state[i] === PAINTED) return wrong.has(i) ? "wrong" : "painted";
  return "base";
}

function refreshScene() {
  showCubes(present, variantOf);
  document.getElementById("strikes").textContent = `${strikes} / ${STRIKE_LIMIT}`;
  document.getElementById("undo").disabled = history.length === 0 || solved;
}

// --- game actions ------------------------------------------------------------------------------------------------------------
function act(i, how) {
  return how === "paint" ? paint(i) : smash(i);
}

// Break a cube: only cubes outside the shape go; breaking part of the shape costs a strike instead.
function smash(i) {
  if (solved) return "solved";
  if (outOfStrikes()) { sayOut(); return "over"; }
  if (state[i] === BROKEN) return "broken";
  if (state[i] === PAINTED) { say("Painted cubes cannot be broken. Unpaint it first (Paint mode)."); return "painted"; }
  if (solution[i]) {
    strikes += 1;
    if (outOfStrikes()) sayOut();
    else say(`Strike ${strikes} of ${STRIKE_LIMIT}! That cube is part of the shape.`, "bad");
    save();
    refreshScene();
    flash(i);                               // after the redraw, which would paint over the red
    return "strike";
  }
  record(i, BROKEN);
  afterChange();
  return "broken";
}

function paint(i) {
  if (solved) return "solved";
  if (outOfStrikes()) { sayOut(); return "over"; }
  if (locked[i]) { say("That cube is given and cannot be changed."); return "locked"; }
  if (state[i] === BROKEN) return "broken";
  record(i, state[i] === PAINTED ? INTACT : PAINTED);
  wrong.delete(i);
  afterChange();
  return state[i] === PAINTED ? "painted" : "intact";
}

function sayOut() {
  say(`Out of strikes (${STRIKE_LIMIT} of ${STRIKE_LIMIT}): this try is over. Reset starts the level again.`, "bad");
}

function record(i, after) {
  history.push([i, state[i], after]);
  state[i] = after;
}

// Undo takes back breaks and paints, one at a time; strikes stay counted, as in the game.
function undo() {
  if (solved || !history.length) return;
  const [i, before] = history.pop();
  state[i] = before;
  hint = null;
  wrong.delete(i);
  save();
  refreshScene();
  say(outOfStrikes() ? "Undone; the strikes stay." : "Undone.");
}

// A strike shows on the cube for a moment, then it looks as it did.
function flash(i) {
  dress(i, "strike");
  requestRender();
  setTimeout(() => { dress(i, variantOf(i)); requestRender(); }, 450);
}

function afterChange() {
  hint = null;                              // the cubes changed: the old hint may no longer hold
  if (!solved && isSolved()) { finish(); return; }   // finish() saves and redraws
  save();
  refreshScene();
  say("");                                  // an old message would be stale now
}

function finish() {
  solved = true;
  showCursor(null);
  for (const axis of AXES) setSlice(axis, 0, false);
  wrong.clear();
  const it = P.name ? ` It is: ${P.name}.` : "";
  if (P.name) document.querySelector("h1").textContent = P.name;
  say((strikes ? `Solved! (${count(strikes, "strike")})` : "Solved! Not a single strike.") + it, "solved");
  save();                                   // solved: true in the record, also for one saved before it had that field
  refreshScene();
}

function check() {
  if (solved || isSolved()) { if (!solved) finish(); say("Solved!", "solved"); return; }
  wrong.clear();
  let left = 0;
  for (let i = 0; i < N; i++) {
    if (state[i] === PAINTED && !solution[i] && !locked[i]) wrong.add(i);
    if (!solution[i] && state[i] !== BROKEN) left += 1;
  }
  refreshScene();
  if (wrong.size) say(`${count(wrong.size, "painted cube")} ${wrong.size === 1 ? "is" : "are"} not part of the shape (shown red).`, "bad");
  else say(`No mistakes so far; ${count(left, "cube")} still to break.`);
}

function setSlice(axis, k, refresh = true) {
  slice[axis] = clamp(Math.round(k), 0, LAYERS[axis] - 1);
  const input = document.getElementById(`slice-${axis}`);
  input.value = String(slice[axis]);
  if (refresh) refreshScene();
}

function setMode(next) {
  mode = next;
  for (const b of document.querySelectorAll(".modes .mode")) b.setAttribute("aria-pressed", String(b.dataset.mode === next));
}

function reset() {
  if (!window.confirm("Start this level again? Broken cubes come back and strikes go to zero.")) return;
  state.fill(INTACT);
  locked.fill(0);
  applyGivens();
  strikes = 0;
  solved = false;
  history.length = 0;
  hint = null;
  wrong.clear();
  save();
  refreshScene();
  say("Started again.");
}

// --- saving --------------------------------------------------------------------------------------------------------------------
// A site's index of levels reads `started` (a cube broken or painted, or a strike) and `solved` from the record.
function save() {
  const started = strikes > 0 || state.some((v, i) => v !== INTACT && !locked[i]);
  saveProgress({ state: Array.from(state), strikes, started, solved });
}

function restore() {
  const saved = loadProgress();
  if (!saved || !Array.isArray(saved.state) || saved.state.length !== N) return false;
  saved.state.forEach((v, i) => {
    // a stored "broken" on a solution cube can only come from a changed level: ignore it
    state[i] = v === PAINTED ? PAINTED : v === BROKEN && !solution[i] ? BROKEN : INTACT;
  });
  strikes = Number.isInteger(saved.strikes) && saved.strikes > 0 ? saved.strikes : 0;
  applyGivens();
  return true;
}

// --- for tests and scripts --------------------------------------------------------------------------------------------------
const NAMES = ["intact", "broken", "painted"];
window.nonogenPlay = {
  state: () => ({
    size: [X, Y, Z], mode, strikes, strikeLimit: STRIKE_LIMIT, solved, slice: { ...slice }, undo: history.length,
    view: { ...view },
    cursor: [...cursor], hint: hint && { ...hint },
    cubes: Array.from({ length: X }, (_, x) => Array.from({ length: Y }, (_, y) =>
      Array.from({ length: Z }, (_, z) => NAMES[state[idx(x, y, z)]]))),
  }),
  solved: () => solved,
  breakCube: (x, y, z) => (inBox(x, y, z) ? smash(idx(x, y, z)) : "outside"),
  paintCube: (x, y, z) => (inBox(x, y, z) ? paint(idx(x, y, z)) : "outside"),
  screenPoint: (x, y, z) => screenPoint(x, y, z, present),
  project,
  worldPosition: (x, y, z) => worldPosition(x, y, z).toArray(),
  setSlice: (axis, k) => setSlice(axis, k),
  setView,
  render: renderNow,                        // draw now, e.g. before a screenshot
};

// --- start -------------------------------------------------------------------------------------------------------------------------
function wire() {
  wireView((i, button) => {
    cursor.splice(0, 3, ...coords(i));      // the keyboard carries on from the last cube clicked
    return act(i, button === 2 ? "paint" : mode);
  });
  for (const b of document.querySelectorAll(".modes .mode")) b.addEventListener("click", () => setMode(b.dataset.mode));
  for (const axis of AXES) {
    const input = document.getElementById(`slice-${axis}`);
    input.max = String(LAYERS[axis] - 1);
    input.addEventListener("input", () => setSlice(axis, Number(input.value)));
  }
  for (const b of document.querySelectorAll(".slicer .step")) {
    b.addEventListener("click", () => setSlice(b.dataset.axis, slice[b.dataset.axis] + Number(b.dataset.step)));
  }
  onClick({ check, undo, reset, hint: showHint, "reset-view": resetView });
  wireKeys();
}

applyGivens();
const restored = restore();
wire();
resize();
resetView();
if (isSolved()) finish();
else if (outOfStrikes()) sayOut();
else if (restored) say("Progress restored.");
refreshScene();
renderNow();
