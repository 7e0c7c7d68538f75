// nonogen: play a Picross 3D level in the browser with three.js. No build step, no network:
// "three" resolves through the page's import map to the vendored module inlined as a data: URL.
import * as THREE from "three";

const P = JSON.parse(document.getElementById("puzzle").textContent);
const [X, Y, Z] = P.size;
const N = X * Y * Z;
const INTACT = 0, BROKEN = 1, PAINTED = 2;   // what the player has done to each cube
const AXES = ["x", "y", "z"];

const idx = (x, y, z) => (x * Y + y) * Z + z;
const coords = (i) => [Math.floor(i / (Y * Z)), Math.floor(i / Z) % Y, i % Z];
const inBox = (x, y, z) => x >= 0 && y >= 0 && z >= 0 && x < X && y < Y && z < Z;

// --- axes -------------------------------------------------------------------------------------------
// nonogen's frame: x to the right, y DOWN (y = 0 is the top layer), z AWAY from the viewer (z = 0 is
// the front). three.js: x right, y UP, z TOWARDS the viewer. Negating y and z together is a half turn
// about the x axis, a proper rotation: the model stays upright and is not mirrored.
function worldPosition(x, y, z) {
  return new THREE.Vector3(x - (X - 1) / 2, (Y - 1) / 2 - y, (Z - 1) / 2 - z);
}

// BoxGeometry's six material slots in order +x, -x, +y, -y, +z, -z (world), each with the nonogen
// step to the neighbouring cube behind that face and the axis of the line the face looks along.
const FACES = [
  { normal: [1, 0, 0], step: [1, 0, 0], axis: "x" },
  { normal: [-1, 0, 0], step: [-1, 0, 0], axis: "x" },
  { normal: [0, 1, 0], step: [0, -1, 0], axis: "y" },
  { normal: [0, -1, 0], step: [0, 1, 0], axis: "y" },
  { normal: [0, 0, 1], step: [0, 0, -1], axis: "z" },
  { normal: [0, 0, -1], step: [0, 0, 1], axis: "z" },
];

// The clue of the line through cube (x, y, z) along `axis`: clues.x[y][z], clues.y[x][z], clues.z[x][y].
function clueOf(axis, x, y, z) {
  const table = P.clues[axis];
  return axis === "x" ? table[y][z] : axis === "y" ? table[x][z] : table[x][y];
}

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

// --- textures: a cube face with its clue, drawn on a canvas -----------------------------------------------------
const TEX = 128;
const STYLE = {
  base: { fill: "#f3ede0", edge: "#a39a86", ink: "#2a2722" },
  painted: { fill: "#5f9be0", edge: "#2f5f9e", ink: "#0d2342" },
  wrong: { fill: "#e8746b", edge: "#a3332b", ink: "#2b0705" },
  strike: { fill: "#d83a2e", edge: "#7a1911", ink: "#ffffff" },
};
const textureCache = new Map();
const materialCache = new Map();

function faceTexture(variant, clue) {
  const key = `${variant}|${clue ? clue.join("/") : "-"}`;
  if (textureCache.has(key)) return textureCache.get(key);
  const style = STYLE[variant];
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = TEX;
  const g = canvas.getContext("2d");
  g.fillStyle = style.fill;
  g.fillRect(0, 0, TEX, TEX);
  g.strokeStyle = style.edge;
  g.lineWidth = 8;                          // half of it shows: neighbouring faces make a 8 px seam
  g.strokeRect(0, 0, TEX, TEX);
  if (clue) drawClue(g, clue, style.ink);
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  texture.anisotropy = 4;
  textureCache.set(key, texture);
  return texture;
}

// Plain number: one group; number in a circle: two groups; in a square: three or more (as in Picross 3D).
function drawClue(g, [count, groups], ink) {
  const c = TEX / 2;
  g.fillStyle = g.strokeStyle = ink;
  g.lineWidth = 7;
  if (groups === 2) { g.beginPath(); g.arc(c, c, 50, 0, 2 * Math.PI); g.stroke(); }
  if (groups >= 3) g.strokeRect(c - 47, c - 47, 94, 94);
  const size = count >= 10 ? (groups > 1 ? 52 : 64) : groups > 1 ? 66 : 80;
  g.font = `bold ${size}px system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif`;
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillText(String(count), c, c + size * 0.05);
}

function clueMaterial(variant, clue) {
  const key = `${variant}|${clue ? clue.join("/") : "-"}`;
  if (!materialCache.has(key)) materialCache.set(key, new THREE.MeshLambertMaterial({ map: faceTexture(variant, clue) }));
  return materialCache.get(key);
}

// Finished model: the cube's own colour, with a light seam so neighbouring cubes stay distinct.
let seamTexture = null;
function colorMaterial(hex) {
  const key = `color|${hex}`;
  if (materialCache.has(key)) return materialCache.get(key);
  if (!seamTexture) {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = TEX;
    const g = canvas.getContext("2d");
    g.fillStyle = "#ffffff";
    g.fillRect(0, 0, TEX, TEX);
    g.strokeStyle = "rgba(0, 0, 0, 0.28)";
    g.lineWidth = 6;
    g.strokeRect(0, 0, TEX, TEX);
    seamTexture = new THREE.CanvasTexture(canvas);
    seamTexture.colorSpace = THREE.SRGBColorSpace;
  }
  const material = new THREE.MeshLambertMaterial({ color: new THREE.Color(hex), map: seamTexture });
  materialCache.set(key, material);
  return material;
}

// --- scene -------------------------------------------------------------------------------------------------------
const canvas = document.getElementById("view");
const stage = document.getElementById("stage");
const statusEl = document.getElementById("status");
let renderer;
try {
  // transparent clear colour: the stage's CSS gradient shows behind the cubes
  renderer = new THREE.WebGLRenderer({ canvas, antialias: true, alpha: true, preserveDrawingBuffer: true });
} catch (err) {
  statusEl.textContent = "This page needs WebGL, which this browser does not offer.";
  statusEl.className = "status bad";
  throw err;
}
renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
renderer.setClearColor(0x000000, 0);
const scene = new THREE.Scene();
const camera = new THREE.PerspectiveCamera(35, 1, 0.1, 1000);
scene.add(new THREE.AmbientLight(0xffffff, 1.35));
const sun = new THREE.DirectionalLight(0xffffff, 1.5);
sun.position.set(0.45, 1, 0.75);            // from above, a little right and in front: three distinct face shades
scene.add(sun);

const geometry = new THREE.BoxGeometry(1, 1, 1);
const meshes = new Array(N);
for (let i = 0; i < N; i++) {
  const mesh = new THREE.Mesh(geometry, []);
  mesh.position.copy(worldPosition(...coords(i)));
  mesh.userData.index = i;
  meshes[i] = mesh;
  scene.add(mesh);
}
let pickable = [];                          // the meshes a click can hit: shown and on the surface

function variantOf(i) {
  if (state[i] === PAINTED) return wrong.has(i) ? "wrong" : "painted";
  return "base";
}

function setMaterials(i, variant) {
  const [x, y, z] = coords(i);
  if (solved) {
    const hex = P.colors[x][y][z] || "#e8913a";
    meshes[i].material = colorMaterial(hex);
    return;
  }
  meshes[i].material = FACES.map((f) => clueMaterial(variant, clueOf(f.axis, x, y, z)));
}

// Show what is left; cubes buried on all six sides are skipped (they cannot be seen or clicked).
function refreshScene() {
  pickable = [];
  for (let i = 0; i < N; i++) {
    const [x, y, z] = coords(i);
    let show = present(x, y, z);
    if (show) show = FACES.some((f) => !present(x + f.step[0], y + f.step[1], z + f.step[2]));
    meshes[i].visible = show;
    if (show) { setMaterials(i, variantOf(i)); pickable.push(meshes[i]); }
  }
  document.getElementById("strikes").textContent = `${strikes} / ${STRIKE_LIMIT}`;
  document.getElementById("undo").disabled = history.length === 0 || solved;
  requestRender();
}

// --- camera: a small orbit around the box (OrbitControls is not part of the three.js core) -------------------------------
const DEFAULT_VIEW = { theta: 0.55, phi: 1.08 };   // from the front, a bit to the right and above
const view = { theta: DEFAULT_VIEW.theta, phi: DEFAULT_VIEW.phi, distance: 10 };
const boxRadius = 0.5 * Math.hypot(X, Y, Z);

function fitDistance() {
  const halfFov = THREE.MathUtils.degToRad(camera.fov / 2);
  const halfFovX = Math.atan(Math.tan(halfFov) * camera.aspect);
  return (boxRadius / Math.sin(Math.min(halfFov, halfFovX))) * 1.05;
}

function placeCamera() {
  const { theta, phi, distance } = view;
  camera.position.set(
    distance * Math.sin(phi) * Math.sin(theta),
    distance * Math.cos(phi),
    distance * Math.sin(phi) * Math.cos(theta),
  );
  camera.up.set(0, 1, 0);
  camera.lookAt(0, 0, 0);
  camera.updateMatrixWorld();
}

function resetView() {
  view.theta = DEFAULT_VIEW.theta;
  view.phi = DEFAULT_VIEW.phi;
  view.distance = fitDistance();
  placeCamera();
  requestRender();
}

function resize() {
  const w = Math.max(1, stage.clientWidth), h = Math.max(1, stage.clientHeight);
  renderer.setSize(w, h, false);
  camera.aspect = w / h;
  camera.updateProjectionMatrix();
  placeCamera();
  requestRender();
}

let renderQueued = false;
function requestRender() {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => { renderQueued = false; renderer.render(scene, camera); });
}

// --- pointer input: drag turns, wheel and pinch zoom, a click without movement acts on a cube ------------------------------
const pointers = new Map();                 // pointerId -> {x, y, startX, startY, button}
let dragged = false;
let pinchDistance = 0;

function pinchSpan() {
  const [a, b] = Array.from(pointers.values());
  return Math.hypot(a.x - b.x, a.y - b.y);
}

function onPointerDown(e) {
  e.preventDefault();
  canvas.setPointerCapture(e.pointerId);
  pointers.set(e.pointerId, { x: e.clientX, y: e.clientY, startX: e.clientX, startY: e.clientY, button: e.button });
  if (pointers.size === 1) dragged = false;
  if (pointers.size === 2) { dragged = true; pinchDistance = pinchSpan(); }
}

function onPointerMove(e) {
  const p = pointers.get(e.pointerId);
  if (!p) return;
  const dx = e.clientX - p.x, dy = e.clientY - p.y;
  p.x = e.clientX;
  p.y = e.clientY;
  if (pointers.size === 2) {
    const span = pinchSpan();
    if (pinchDistance > 0 && span > 0) zoom(pinchDistance / span);
    pinchDistance = span;
    return;
  }
  if (!dragged && Math.hypot(e.clientX - p.startX, e.clientY - p.startY) < 5) return;
  dragged = true;
  view.theta -= dx * 0.01;
  view.phi = THREE.MathUtils.clamp(view.phi - dy * 0.01, 0.05, Math.PI - 0.05);
  placeCamera();
  requestRender();
}

function onPointerUp(e) {
  const p = pointers.get(e.pointerId);
  if (!p) return;
  pointers.delete(e.pointerId);
  if (e.type === "pointerup" && !dragged && pointers.size === 0) {
    const hit = cubeAt(e.clientX, e.clientY);
    if (hit >= 0) act(hit, p.button === 2 ? "paint" : mode);
  }
}

function zoom(factor) {
  const fit = fitDistance();
  view.distance = THREE.MathUtils.clamp(view.distance * factor, fit * 0.25, fit * 3);
  placeCamera();
  requestRender();
}

const raycaster = new THREE.Raycaster();
function cubeAt(clientX, clientY) {
  const rect = canvas.getBoundingClientRect();
  const ndc = new THREE.Vector2(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
  raycaster.setFromCamera(ndc, camera);
  const hits = raycaster.intersectObjects(pickable, false);
  return hits.length ? hits[0].object.userData.index : -1;
}

// --- game actions ------------------------------------------------------------------------------------------------------------
function say(text, kind = "") {
  statusEl.textContent = text;
  statusEl.className = "status" + (kind ? " " + kind : "");
}

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
    flash(i);
    save();
    refreshScene();
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
  wrong.delete(i);
  save();
  refreshScene();
  say(outOfStrikes() ? "Undone; the strikes stay." : "Undone.");
}

function flash(i) {
  const mesh = meshes[i];
  mesh.material = FACES.map((f) => clueMaterial("strike", clueOf(f.axis, ...coords(i))));
  requestRender();
  setTimeout(() => { setMaterials(i, variantOf(i)); requestRender(); }, 450);
}

function afterChange() {
  if (!solved && isSolved()) finish();
  save();
  refreshScene();
  if (!solved) say("");                     // an old message would be stale now
}

function finish() {
  solved = true;
  for (const axis of AXES) setSlice(axis, 0, false);
  wrong.clear();
  const it = P.name ? ` It is: ${P.name}.` : "";
  if (P.name) document.querySelector("h1").textContent = P.name;
  say((strikes ? `Solved! (${strikes} strike${strikes === 1 ? "" : "s"})` : "Solved! Not a single strike.") + it, "solved");
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
  if (wrong.size) say(`${wrong.size} painted cube${wrong.size === 1 ? " is" : "s are"} not part of the shape (shown red).`, "bad");
  else say(`No mistakes so far; ${left} cube${left === 1 ? "" : "s"} still to break.`);
}

function setSlice(axis, k, refresh = true) {
  const length = { x: X, y: Y, z: Z }[axis];
  slice[axis] = THREE.MathUtils.clamp(Math.round(k), 0, length - 1);
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
  wrong.clear();
  save();
  refreshScene();
  say("Started again.");
}

// --- saving --------------------------------------------------------------------------------------------------------------------
function save() {
  try {
    localStorage.setItem(P.key, JSON.stringify({ version: 1, state: Array.from(state), strikes }));
  } catch (err) { /* storage full or disabled: play on without saving */ }
}

function restore() {
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem(P.key) || "null"); } catch (err) { saved = null; }
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
// Canvas pixel (CSS pixels from the canvas's top-left corner) of a point on a face of cube (x, y, z)
// that the camera sees unobstructed, or null when no face of it can be seen from here.
function screenPoint(x, y, z) {
  if (!inBox(x, y, z)) return null;
  const i = idx(x, y, z);
  if (!meshes[i].visible) return null;
  const rect = canvas.getBoundingClientRect();
  const centre = worldPosition(x, y, z);
  for (const f of FACES) {
    if (present(x + f.step[0], y + f.step[1], z + f.step[2])) continue;
    const normal = new THREE.Vector3(...f.normal);
    const faceCentre = centre.clone().addScaledVector(normal, 0.5);
    if (normal.dot(camera.position.clone().sub(faceCentre)) <= 0) continue;
    // try the face centre first, then points towards its corners
    const [u, v] = [0, 1, 2].filter((a) => f.normal[a] === 0).map((a) => new THREE.Vector3().setComponent(a, 1));
    for (const [a, b] of [[0, 0], [0.3, 0.3], [-0.3, 0.3], [0.3, -0.3], [-0.3, -0.3]]) {
      const point = faceCentre.clone().addScaledVector(u, a).addScaledVector(v, b).project(camera);
      if (Math.abs(point.x) > 0.98 || Math.abs(point.y) > 0.98) continue;
      const px = ((point.x + 1) / 2) * rect.width, py = ((1 - point.y) / 2) * rect.height;
      if (cubeAt(rect.left + px, rect.top + py) === i) return { x: px, y: py };
    }
  }
  return null;
}

// Where cube (x, y, z)'s centre lands on the canvas, and how far it is from the camera.
function project(x, y, z) {
  const rect = canvas.getBoundingClientRect();
  const world = worldPosition(x, y, z);
  const p = world.clone().project(camera);
  return { x: ((p.x + 1) / 2) * rect.width, y: ((1 - p.y) / 2) * rect.height, depth: world.distanceTo(camera.position) };
}

const NAMES = ["intact", "broken", "painted"];
window.nonogenPlay = {
  state: () => ({
    size: [X, Y, Z], mode, strikes, strikeLimit: STRIKE_LIMIT, solved, slice: { ...slice }, undo: history.length,
    cubes: Array.from({ length: X }, (_, x) => Array.from({ length: Y }, (_, y) =>
      Array.from({ length: Z }, (_, z) => NAMES[state[idx(x, y, z)]]))),
  }),
  solved: () => solved,
  breakCube: (x, y, z) => (inBox(x, y, z) ? smash(idx(x, y, z)) : "outside"),
  paintCube: (x, y, z) => (inBox(x, y, z) ? paint(idx(x, y, z)) : "outside"),
  screenPoint,
  project,
  worldPosition: (x, y, z) => worldPosition(x, y, z).toArray(),
  setSlice: (axis, k) => setSlice(axis, k),
  setView: (theta, phi) => { view.theta = theta; view.phi = phi; placeCamera(); renderer.render(scene, camera); },
  render: () => renderer.render(scene, camera),   // draw now, e.g. before a screenshot
};

// --- start -------------------------------------------------------------------------------------------------------------------------
function wire() {
  canvas.addEventListener("pointerdown", onPointerDown);
  canvas.addEventListener("pointermove", onPointerMove);
  canvas.addEventListener("pointerup", onPointerUp);
  canvas.addEventListener("pointercancel", onPointerUp);
  canvas.addEventListener("contextmenu", (e) => e.preventDefault());
  canvas.addEventListener("wheel", (e) => { e.preventDefault(); zoom(Math.exp(e.deltaY * 0.0015)); }, { passive: false });
  for (const b of document.querySelectorAll(".modes .mode")) b.addEventListener("click", () => setMode(b.dataset.mode));
  for (const axis of AXES) {
    const input = document.getElementById(`slice-${axis}`);
    input.max = String({ x: X, y: Y, z: Z }[axis] - 1);
    input.addEventListener("input", () => setSlice(axis, Number(input.value)));
  }
  document.getElementById("check").addEventListener("click", check);
  document.getElementById("undo").addEventListener("click", undo);
  document.getElementById("reset").addEventListener("click", reset);
  document.getElementById("reset-view").addEventListener("click", resetView);
  window.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z") { e.preventDefault(); undo(); }
    else if (e.key === "b") setMode("break");
    else if (e.key === "p") setMode("paint");
  });
  new ResizeObserver(resize).observe(stage);
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
renderer.render(scene, camera);
