// nonogen studio: the 3D editor's view. The server joins this file after the play page's three.js view
// (nonogen/export/assets/play3d_view.js) into the frame's one ES module, so it uses that file's names: the box
// (X, Y, Z, N, idx, coords, inBox), its faces (FACES), the scene, camera, canvas and stage, the cubes (meshes,
// pickable, showCubes, dress), the keyboard's cube frame (showCursor), the orbit camera (view, resetView, resize,
// requestRender, zoom, turnView, onPointerDown, onPointerMove, pointers, dragged), the raycaster and P, the level
// it draws (P.clues, P.colors: updated here before each drawing). The studio's page (level.js) holds the level;
// this frame draws it with the proof's marks, says which cube a pointer, a finger or a key means, and asks the
// page for the edit (window.parent.StudioLevel.edit).
const host = window.parent.StudioLevel;

// --- what the page last showed --------------------------------------------------------------------------------------
let cells = new Uint8Array(N);               // palette entry per cube (0: no cube)
let palette = ["#ffffff"];
let hiddenLines = new Set();                 // "axis,i,j" of the clues the level hides
let givens = new Set();                      // cube indices revealed to the player
let marks = { ambiguous: new Set(), edits: new Set(), list: { ambiguous: [], edits: [] } };
let look = "colours";                        // "colours": the model; "clues": what the player sees
let tool = "add";                            // add, remove, paint, given
let boxMode = false;                         // a drag (or a finger's) selects a box instead of turning
const slice = { x: 0, y: 0, z: 0 };          // layers hidden: x from the right, y from the top, z from the front
const cursor = [0, Y - 1, 0];                // the keyboard's cube
let anchor = null;                           // a box's first corner from the keyboard (B), until used or Escape
let dragBox = null;                          // {id, from, to} while a box is dragged
let hover = null;                            // the cube the mouse's tool would act on now (an Add: the empty cell)
let mouseAt = null;                          // where the mouse last was over the canvas, {clientX, clientY}

const sliced = (x, y, z) => x >= X - slice.x || y < slice.y || z < slice.z;
const present = (x, y, z) => inBox(x, y, z) && cells[idx(x, y, z)] > 0 && !sliced(x, y, z);

// --- clues and looks ------------------------------------------------------------------------------------------------
function lineClue(values) {
  let count = 0, groups = 0, last = 0;
  for (const v of values) { if (v && !last) groups += 1; count += v; last = v; }
  return [count, Math.max(1, Math.min(groups, 3))];
}

// Every line's clue from the cubes (null where the level hides it), and every cube's colour, for the view.
function dressLevel() {
  const filled = (x, y, z) => (cells[idx(x, y, z)] > 0 ? 1 : 0);
  const table = (A, B, line) => Array.from({ length: A }, (_, a) => Array.from({ length: B }, (_, b) => line(a, b)));
  const clue = (axis, a, b, values) => (hiddenLines.has(`${axis},${a},${b}`) ? null : lineClue(values));
  const along = (n, at) => Array.from({ length: n }, (_, k) => at(k));
  P.clues = {
    x: table(Y, Z, (y, z) => clue("x", y, z, along(X, (x) => filled(x, y, z)))),
    y: table(X, Z, (x, z) => clue("y", x, z, along(Y, (y) => filled(x, y, z)))),
    z: table(X, Y, (x, y) => clue("z", x, y, along(Z, (z) => filled(x, y, z)))),
  };
  P.colors = table(X, Y, (x, y) => along(Z, (z) => palette[cells[idx(x, y, z)]] || null));
}

function variantOf(i) {
  if (look === "colours") return "solved";
  if (marks.edits.has(i)) return "hint";
  if (marks.ambiguous.has(i)) return "wrong";
  return givens.has(i) ? "painted" : "base";
}

// --- marks drawn over the cubes: ambiguity, the suggested edit, the revealed cubes, the box, the floor ------------
const unit = new THREE.BoxGeometry(1, 1, 1);
const unitEdges = new THREE.EdgesGeometry(unit);
const looks = {
  ambiguous: { fill: new THREE.MeshBasicMaterial({ color: 0xe8321f, transparent: true, opacity: 0.3, depthTest: false, depthWrite: false }),
    edge: new THREE.LineBasicMaterial({ color: 0xc0210f, depthTest: false }), grow: 1.04 },
  edits: { fill: new THREE.MeshBasicMaterial({ color: 0xffc400, transparent: true, opacity: 0.45, depthTest: false, depthWrite: false }),
    edge: new THREE.LineBasicMaterial({ color: 0x8a6a00, depthTest: false }), grow: 1.1 },
  givens: { edge: new THREE.LineBasicMaterial({ color: 0x1d3f8a }), grow: 1.02 },
  box: { fill: new THREE.MeshBasicMaterial({ color: 0x1d70b8, transparent: true, opacity: 0.18, depthTest: false, depthWrite: false }),
    edge: new THREE.LineBasicMaterial({ color: 0x1d70b8, depthTest: false }), grow: 1.02 },
};
const overlay = new THREE.Group();
scene.add(overlay);
// The cube under the mouse, before the click: drawn apart from the overlay (it moves with every mouse move, and
// the overlay's marks are rebuilt only when the level changes). Green where a cube goes, red where one goes away.
const HOVER_COLOURS = { add: 0x2a9d3f, remove: 0xd62828, paint: 0x1d70b8, given: 0x1d3f8a };
const hoverFill = new THREE.MeshBasicMaterial({ transparent: true, opacity: 0.3, depthTest: false, depthWrite: false });
const hoverEdge = new THREE.LineBasicMaterial({ depthTest: false });
const hoverMark = new THREE.Group();
hoverMark.add(new THREE.Mesh(unit, hoverFill), new THREE.LineSegments(unitEdges, hoverEdge));
hoverMark.scale.setScalar(1.06);
hoverMark.traverse((o) => { o.renderOrder = 9; });
hoverMark.visible = false;
scene.add(hoverMark);
const MAX_MARKS = 3000;                      // beyond this, marks are counted in the page, not drawn

// A box from cube lo to cube hi (inclusive) drawn in `style` (looks): a translucent fill and its edges.
function markBox(lo, hi, style) {
  const { fill, edge, grow } = looks[style];
  const a = worldPosition(...lo), b = worldPosition(...hi);
  const centre = a.clone().add(b).multiplyScalar(0.5);
  const size = new THREE.Vector3(Math.abs(a.x - b.x) + grow, Math.abs(a.y - b.y) + grow, Math.abs(a.z - b.z) + grow);
  for (const object of [fill && new THREE.Mesh(unit, fill), new THREE.LineSegments(unitEdges, edge)]) {
    if (!object) continue;
    object.position.copy(centre);
    object.scale.copy(size);
    object.renderOrder = 8;
    overlay.add(object);
  }
}

// The box's outline and its floor's grid: where a cube can go, and the layer a click on the floor fills.
{
  const ink = new THREE.LineBasicMaterial({ color: 0x9aa1ad, transparent: true, opacity: 0.55 });
  const bounds = new THREE.LineSegments(unitEdges, ink);
  bounds.scale.set(X, Y, Z);
  scene.add(bounds);
  const points = [];
  for (let x = 0; x <= X; x++) points.push(x - X / 2, -Y / 2, -Z / 2, x - X / 2, -Y / 2, Z / 2);
  for (let z = 0; z <= Z; z++) points.push(-X / 2, -Y / 2, z - Z / 2, X / 2, -Y / 2, z - Z / 2);
  const grid = new THREE.BufferGeometry();
  grid.setAttribute("position", new THREE.Float32BufferAttribute(points, 3));
  scene.add(new THREE.LineSegments(grid, ink));
}

function drawMarks() {
  overlay.clear();
  let drawn = 0;
  for (const style of ["ambiguous", "edits"]) {
    for (const cube of marks.list[style]) if (drawn++ < MAX_MARKS) markBox(cube, cube, style);
  }
  if (look === "colours") for (const i of givens) if (drawn++ < MAX_MARKS && present(...coords(i))) markBox(coords(i), coords(i), "givens");
  const box = dragBox ? [dragBox.from, dragBox.to] : anchor ? [anchor, cursor] : null;
  if (box) markBox(box[0].map((v, a) => Math.min(v, box[1][a])), box[0].map((v, a) => Math.max(v, box[1][a])), "box");
  requestRender();
}

function redraw() {
  showCubes(present, variantOf);
  drawMarks();
  showHover();  // the cubes changed under the mouse: what it points at now
}

// --- which cube a pointer means --------------------------------------------------------------------------------------
const floor = new THREE.Plane(new THREE.Vector3(0, 1, 0), Y / 2);   // the bottom of the box: world y = -Y/2

// What is under the pointer: a shown cube's face ({cube, face, next: the cell in front of that face}), or a cell of
// the floor ({cube: null, next}), or null.
function aim(clientX, clientY) {
  const rect = canvas.getBoundingClientRect();
  const ndc = new THREE.Vector2(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
  raycaster.setFromCamera(ndc, camera);
  const hit = raycaster.intersectObjects(pickable, false)[0];
  if (hit) {  // the face by its normal: a cube in one colour is one material, and its faces all say material 0
    const n = hit.face.normal, face = FACES.findIndex((f) => f.normal[0] === Math.round(n.x)
      && f.normal[1] === Math.round(n.y) && f.normal[2] === Math.round(n.z));
    const cube = coords(hit.object.userData.index), step = FACES[face].step;
    return { cube, face, next: cube.map((v, a) => v + step[a]) };
  }
  const point = raycaster.ray.intersectPlane(floor, new THREE.Vector3());
  if (!point) return null;
  const x = Math.floor(point.x + X / 2), z = Math.floor(Z / 2 - point.z);
  return x >= 0 && x < X && z >= 0 && z < Z ? { cube: null, face: -1, next: [x, Y - 1, z] } : null;
}

// The cell a tool acts on at `aimed`: a new cube goes in front of the face (or on the floor), the others take the
// cube itself (a box from the floor starts at the floor's cell).
function cellFor(aimed, how, forBox = false) {
  if (!aimed) return null;
  const cell = how === "add" ? aimed.next : aimed.cube || (forBox ? aimed.next : null);
  return cell && inBox(...cell) ? cell : null;
}

function boxCells(a, b) {
  const lo = a.map((v, k) => Math.min(v, b[k])), hi = a.map((v, k) => Math.max(v, b[k])), out = [];
  for (let x = lo[0]; x <= hi[0]; x++) for (let y = lo[1]; y <= hi[1]; y++) for (let z = lo[2]; z <= hi[2]; z++) out.push([x, y, z]);
  return out;
}

function ask(how, list) {
  const shown = list.filter((c) => !sliced(...c));
  if (!shown.length) { host.say(list.length ? "that layer is hidden by the slicers: show it first" : ""); return; }
  host.edit(how, shown);
}

// --- pointer, finger, wheel ------------------------------------------------------------------------------------------
function onDown(e) {
  if ((boxMode || e.shiftKey) && e.button === 0 && pointers.size === 0 && !dragBox) {
    const from = cellFor(aim(e.clientX, e.clientY), tool, true);
    if (from) {
      e.preventDefault();
      canvas.setPointerCapture(e.pointerId);
      dragBox = { id: e.pointerId, from, to: from };
      drawMarks();
      return;
    }
  }
  onPointerDown(e);
}

function onMove(e) {
  if (dragBox && e.pointerId === dragBox.id) {
    const to = cellFor(aim(e.clientX, e.clientY), tool, true);
    if (to && to.join() !== dragBox.to.join()) { dragBox.to = to; drawMarks(); }
    return;
  }
  if (e.pointerType === "mouse") mouseAt = pointers.size ? null : { clientX: e.clientX, clientY: e.clientY };
  showHover();
  onPointerMove(e);
}

// The hover mark at the cube the tool would act on where the mouse is (none while a button is down: that turns).
function showHover() {
  const cell = (mouseAt && cellFor(aim(mouseAt.clientX, mouseAt.clientY), tool)) || null;
  if (String(cell) === String(hover) && hoverMark.visible === !!cell) return;
  hover = cell;
  hoverMark.visible = !!cell;
  if (cell) {
    hoverMark.position.copy(worldPosition(...cell));
    hoverFill.color.setHex(HOVER_COLOURS[tool]);
    hoverEdge.color.setHex(HOVER_COLOURS[tool]);
  }
  requestRender();
}

function onUp(e) {
  if (dragBox && e.pointerId === dragBox.id) {
    const box = dragBox;
    dragBox = null;
    drawMarks();
    if (e.type === "pointerup") ask(tool, boxCells(box.from, box.to));
    return;
  }
  const p = pointers.get(e.pointerId);
  if (!p) return;
  pointers.delete(e.pointerId);
  if (e.pointerType === "mouse" && e.type === "pointerup") mouseAt = { clientX: e.clientX, clientY: e.clientY };
  if (e.type !== "pointerup" || dragged || pointers.size) { showHover(); return; }
  const how = p.button === 2 ? "remove" : tool;  // the right button removes, whatever the tool
  const cell = cellFor(aim(e.clientX, e.clientY), how);
  if (!cell) { showHover(); return; }
  cursor.splice(0, 3, ...cell);                  // the keyboard carries on from the last cube clicked
  ask(how, [cell]);
}

// --- keys: a cube cursor through the box, the tools at it, a box from B to the cursor ----------------------------------
const MOVES = { ArrowLeft: [-1, 0, 0], ArrowRight: [1, 0, 0], ArrowUp: [0, -1, 0], ArrowDown: [0, 1, 0],
  PageUp: [0, 0, -1], PageDown: [0, 0, 1] };
const TURN = Math.PI / 8;

function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) { host.key(e); return; }
  let move = MOVES[e.key];
  if (move && e.shiftKey && move[0]) { e.preventDefault(); turnView(move[0] * TURN); return; }
  if (move && e.shiftKey) move = [0, 0, move[1]];
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const how = { " ": tool, Enter: tool, Insert: "add", "+": "add", Delete: "remove", Backspace: "remove" }[key];
  if (move) {
    for (let a = 0; a < 3; a++) cursor[a] = Math.max(0, Math.min([X, Y, Z][a] - 1, cursor[a] + move[a]));
  } else if (how) {
    ask(how, anchor ? boxCells(anchor, cursor) : [cursor.slice()]);
    anchor = null;
  } else if (key === "b") {
    anchor = anchor ? null : cursor.slice();
  } else if (key === "Escape" && anchor) {
    anchor = null;
  } else {
    host.key(e);
    return;
  }
  e.preventDefault();
  showCursor(document.activeElement === canvas ? cursor : null);
  drawMarks();
  announce();
}

function announce() {
  const i = idx(...cursor);
  const what = cells[i] ? `a cube of colour ${cells[i]}` : "empty";
  const extra = (givens.has(i) ? ", revealed" : "") + (anchor ? `; a box from x ${anchor[0] + 1}, y ${anchor[1] + 1}, z ${anchor[2] + 1}` : "");
  document.getElementById("cursor-say").textContent = `x ${cursor[0] + 1}, y ${cursor[1] + 1}, z ${cursor[2] + 1}: ${what}${extra}.`;
}

// --- for the page, tests and scripts ---------------------------------------------------------------------------------
// Canvas pixel (CSS pixels from its top-left corner) where a click meets face `face` (FACES' order: +x, -x, +y (up),
// -y, +z (front), -z) of cube (x, y, z), by this view's own picking; or null when that face cannot be clicked.
function facePoint(x, y, z, face) {
  const f = FACES[face], centre = worldPosition(x, y, z).addScaledVector(new THREE.Vector3(...f.normal), 0.5);
  const [u, v] = [0, 1, 2].filter((a) => f.normal[a] === 0).map((a) => new THREE.Vector3().setComponent(a, 1));
  for (const [a, b] of [[0, 0], [0.25, 0.25], [-0.25, 0.25], [0.25, -0.25], [-0.25, -0.25]]) {
    const point = onCanvas(centre.clone().addScaledVector(u, a).addScaledVector(v, b));
    const aimed = point && aim(point.clientX, point.clientY);
    if (aimed && aimed.cube && aimed.face === face && aimed.cube.join() === [x, y, z].join()) return { x: point.x, y: point.y };
  }
  return null;
}

// Canvas pixel of the middle of floor cell (x, z) when a click there meets the floor.
function floorPoint(x, z) {
  const point = onCanvas(new THREE.Vector3(x - X / 2 + 0.5, -Y / 2, Z / 2 - z - 0.5));
  const aimed = point && aim(point.clientX, point.clientY);
  return aimed && !aimed.cube && aimed.next[0] === x && aimed.next[2] === z ? { x: point.x, y: point.y } : null;
}

function onCanvas(world) {
  const p = world.project(camera), rect = canvas.getBoundingClientRect();
  if (Math.abs(p.x) > 0.97 || Math.abs(p.y) > 0.97) return null;
  const x = ((p.x + 1) / 2) * rect.width, y = ((1 - p.y) / 2) * rect.height;
  return { x, y, clientX: rect.left + x, clientY: rect.top + y };
}

window.levelView = {
  // The level ({cells: text, palette: ["#rrggbb"], givens, hidden}) and the proof's marks ({ambiguous, edits}).
  show(level, shown) {
    const codes = "0123456789abcdefghijklmnopqrstuvwxyz";
    cells = Uint8Array.from(level.cells, (c) => codes.indexOf(c));
    palette = level.palette.slice();
    hiddenLines = new Set((level.hidden || []).map((l) => l.join()));
    givens = new Set(level.givens.map((c) => idx(...c)));
    const list = { ambiguous: (shown && shown.ambiguous) || [], edits: ((shown && shown.edits) || []).map((e) => e.slice(0, 3)) };
    marks = { list, ambiguous: new Set(list.ambiguous.map((c) => idx(...c))), edits: new Set(list.edits.map((c) => idx(...c))) };
    dressLevel();
    redraw();
    announce();
  },
  setTool(next) { tool = next; hover = null; showHover(); },
  setBox(on) { boxMode = on; },
  setLook(next) { look = next; redraw(); },
  setSlice(axis, k) { slice[axis] = Math.max(0, Math.min({ x: X, y: Y, z: Z }[axis] - 1, k)); redraw(); },
  resetView,
  setView,
  render: renderNow,
  facePoint,
  floorPoint,
  state: () => ({ size: [X, Y, Z], tool, boxMode, look, cursor: cursor.slice(), anchor: anchor && anchor.slice(), slice: { ...slice },
    box: dragBox && { from: dragBox.from.slice(), to: dragBox.to.slice() }, hover: hover && hover.slice(),
    marks: { ambiguous: marks.list.ambiguous.length, edits: marks.list.edits.length },
    view: { theta: view.theta, phi: view.phi, distance: view.distance } }),
};

canvas.addEventListener("pointerdown", onDown);
canvas.addEventListener("pointermove", onMove);
canvas.addEventListener("pointerup", onUp);
canvas.addEventListener("pointercancel", onUp);
canvas.addEventListener("pointerleave", () => { mouseAt = null; showHover(); });
canvas.addEventListener("contextmenu", (e) => e.preventDefault());
canvas.addEventListener("wheel", (e) => { e.preventDefault(); zoom(Math.exp(e.deltaY * 0.0015)); }, { passive: false });
canvas.addEventListener("keydown", onKey);
canvas.addEventListener("focus", () => { showCursor(cursor); announce(); });
canvas.addEventListener("blur", () => showCursor(null));
new ResizeObserver(resize).observe(stage);
resize();
resetView();
host.viewReady(window.levelView);
