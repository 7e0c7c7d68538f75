// nonogen: the three.js view of the Picross 3D page: the box of cubes, their faces drawn with the clues, an
// orbit camera (drag, wheel, pinch), and which cube is under a click. It knows nothing of the rules: the game
// (play3d.js) says which cubes stand and how each looks. html.py joins play.js, this file and play3d.js into
// the page's one ES module, so play3d.js uses the names defined here; "three" resolves through the page's
// import map to the vendored module inlined as a data: URL, so no build step and no network.
import * as THREE from "three";

// --- the box: its size, and cube i = (x * Y + y) * Z + z ---------------------------------------------------
const P = window.nonogenPage.puzzle;
const [X, Y, Z] = P.size;
const N = X * Y * Z;

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

// --- textures: a cube face with its clue, drawn on a canvas -----------------------------------------------------
const TEX = 128;
const STYLE = {
  base: { fill: "#f3ede0", edge: "#a39a86", ink: "#2a2722" },
  painted: { fill: "#5f9be0", edge: "#2f5f9e", ink: "#0d2342" },
  wrong: { fill: "#e8746b", edge: "#a3332b", ink: "#2b0705" },
  strike: { fill: "#d83a2e", edge: "#7a1911", ink: "#ffffff" },
  hint: { fill: "#ffd84d", edge: "#a07c00", ink: "#3a2c00" },
};
const materialCache = new Map();

// A face-sized canvas filled with `fill` and framed by `edge`, as a three.js texture once `draw` has added to it.
function tile(fill, edge, lineWidth, draw = () => {}) {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = TEX;
  const g = canvas.getContext("2d");
  g.fillStyle = fill;
  g.fillRect(0, 0, TEX, TEX);
  g.strokeStyle = edge;
  g.lineWidth = lineWidth;
  g.strokeRect(0, 0, TEX, TEX);
  draw(g);
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
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
  if (materialCache.has(key)) return materialCache.get(key);
  const style = STYLE[variant];
  // a line width of 8: half of it shows, so neighbouring faces make an 8 px seam
  const map = tile(style.fill, style.edge, 8, (g) => clue && drawClue(g, clue, style.ink));
  map.anisotropy = 4;
  materialCache.set(key, new THREE.MeshLambertMaterial({ map }));
  return materialCache.get(key);
}

// Finished model: the cube's own colour, with a light seam so neighbouring cubes stay distinct.
let seamTexture = null;
function colorMaterial(hex) {
  const key = `color|${hex}`;
  if (materialCache.has(key)) return materialCache.get(key);
  seamTexture = seamTexture || tile("#ffffff", "rgba(0, 0, 0, 0.28)", 6);
  const material = new THREE.MeshLambertMaterial({ color: new THREE.Color(hex), map: seamTexture });
  materialCache.set(key, material);
  return material;
}

// --- scene -------------------------------------------------------------------------------------------------------
const canvas = document.getElementById("view");
const stage = document.getElementById("stage");
let renderer;
try {
  // transparent clear colour: the stage's CSS gradient shows behind the cubes
  renderer = new THREE.WebGLRenderer({ canvas, antialias: true, alpha: true, preserveDrawingBuffer: true });
} catch (err) {
  window.nonogenPage.say("This page needs WebGL, which this browser does not offer.", "bad");
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

// How cube i looks: a clue on each face in the `variant` style (STYLE), or "solved": the model's own colour.
function dress(i, variant) {
  const [x, y, z] = coords(i);
  if (variant === "solved") meshes[i].material = colorMaterial(P.colors[x][y][z] || "#e8913a");
  else meshes[i].material = FACES.map((f) => clueMaterial(variant, clueOf(f.axis, x, y, z)));
}

// Show the cubes that are `present(x, y, z)`, dressed as `variantOf(i)` says; cubes buried on all six sides
// are skipped (they cannot be seen or clicked).
function showCubes(present, variantOf) {
  pickable = [];
  for (let i = 0; i < N; i++) {
    const [x, y, z] = coords(i);
    let show = present(x, y, z);
    if (show) show = FACES.some((f) => !present(x + f.step[0], y + f.step[1], z + f.step[2]));
    meshes[i].visible = show;
    if (show) { dress(i, variantOf(i)); pickable.push(meshes[i]); }
  }
  requestRender();
}

// --- the keyboard's cursor: a frame of bars around one cube, drawn over everything so it shows inside the box too --
const cursorFrame = new THREE.Group();
{
  const ink = new THREE.MeshBasicMaterial({ color: 0x1f5fc8, depthTest: false, transparent: true });
  const tint = new THREE.MeshBasicMaterial({ color: 0x2f6fd0, depthTest: false, transparent: true, opacity: 0.14 });
  const half = 0.56, bar = 0.07;
  for (let a = 0; a < 3; a++) {
    const dims = [bar, bar, bar];
    dims[a] = 2 * half + bar;
    for (const [u, v] of [[-1, -1], [-1, 1], [1, -1], [1, 1]]) {
      const mesh = new THREE.Mesh(new THREE.BoxGeometry(...dims), ink);
      const at = [0, 0, 0];
      at[(a + 1) % 3] = u * half;
      at[(a + 2) % 3] = v * half;
      mesh.position.set(...at);
      cursorFrame.add(mesh);
    }
  }
  cursorFrame.traverse((o) => { o.renderOrder = 10; });
  const glass = new THREE.Mesh(new THREE.BoxGeometry(2 * half, 2 * half, 2 * half), tint);
  glass.renderOrder = 9;                    // under the bars, which then keep their colour
  cursorFrame.add(glass);
  cursorFrame.visible = false;
  scene.add(cursorFrame);
}

// Frame cube [x, y, z], or hide the frame (null).
function showCursor(cube) {
  cursorFrame.visible = !!cube;
  if (cube) cursorFrame.position.copy(worldPosition(...cube));
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

// --- pointer input: a drag (one finger or two) turns, wheel and pinch zoom, a click without movement acts on a cube --
const pointers = new Map();                 // pointerId -> {x, y, startX, startY, button, still}
let dragged = false;
let pinchDistance = 0;

function pinchSpan() {
  const [a, b] = Array.from(pointers.values());
  return Math.hypot(a.x - b.x, a.y - b.y);
}

function onPointerDown(e) {
  e.preventDefault();
  canvas.setPointerCapture(e.pointerId);
  pointers.set(e.pointerId, {
    x: e.clientX, y: e.clientY, startX: e.clientX, startY: e.clientY, button: e.button,
    still: e.pointerType === "touch" ? 10 : 5,   // a finger's tap wobbles more than a mouse's click
  });
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
    orbit(dx / 2, dy / 2);  // the fingers' midpoint moved by half this finger's move: two fingers together turn
    return;
  }
  if (!dragged && Math.hypot(e.clientX - p.startX, e.clientY - p.startY) < p.still) return;
  dragged = true;
  orbit(dx, dy);
}

// Turn the view as a drag of (dx, dy) pixels does.
function orbit(dx, dy) {
  view.theta -= dx * 0.01;
  view.phi = THREE.MathUtils.clamp(view.phi - dy * 0.01, 0.05, Math.PI - 0.05);
  placeCamera();
  requestRender();
}

function onPointerUp(e, onCubeClick) {
  const p = pointers.get(e.pointerId);
  if (!p) return;
  pointers.delete(e.pointerId);
  if (e.type === "pointerup" && !dragged && pointers.size === 0) {
    const hit = cubeAt(e.clientX, e.clientY);
    if (hit >= 0) onCubeClick(hit, p.button);
  }
}

// Turn the view by `dTheta` around the vertical axis (the keyboard's way to see other sides).
function turnView(dTheta) {
  view.theta += dTheta;
  placeCamera();
  requestRender();
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

// Drag turns, wheel and pinch zoom; a click that did not move calls onCubeClick(index, button).
function wireView(onCubeClick) {
  const up = (e) => onPointerUp(e, onCubeClick);
  canvas.addEventListener("pointerdown", onPointerDown);
  canvas.addEventListener("pointermove", onPointerMove);
  canvas.addEventListener("pointerup", up);
  canvas.addEventListener("pointercancel", up);
  canvas.addEventListener("contextmenu", (e) => e.preventDefault());
  canvas.addEventListener("wheel", (e) => { e.preventDefault(); zoom(Math.exp(e.deltaY * 0.0015)); }, { passive: false });
  new ResizeObserver(resize).observe(stage);
}

// --- for tests and scripts (play3d.js passes these on in window.nonogenPlay) --------------------------------------------
// Canvas pixel (CSS pixels from the canvas's top-left corner) of a point on a face of cube (x, y, z)
// that the camera sees unobstructed, or null when no face of it can be seen from here.
function screenPoint(x, y, z, present) {
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

// Turn to (theta, phi) and draw at once, e.g. before a screenshot.
function setView(theta, phi) { view.theta = theta; view.phi = phi; placeCamera(); renderNow(); }
function renderNow() { renderer.render(scene, camera); }
