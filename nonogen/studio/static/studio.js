/* The studio page: the document, loading it, and the engine's answers about it. The board is board.js, the
 * calls to the server api.js; editing (history, tools, size, fields) is edit.js, the palette palette.js,
 * suggestions and saving save.js, test-solving and the ambiguity map solve.js, models and the folder mesh.js, the 3D
 * editor level.js and levelsave.js (its view: edit3d.html),
 * the picture beside and under the grid picture.js and the tools that trace it trace.js, scanned puzzle pages in
 * clue mode scan.js, the wiring main.js. Every edit sends the whole document to /api/check; the answer streams back as JSON
 * lines (verdict, ambiguous cells, grade and replay). A newer edit aborts the older request, and the server
 * stops the older check, so the page never waits for a grid that is gone. */
"use strict";

const $ = (id) => document.getElementById(id);
const api = StudioApi.call;
const FORMATS = [
  ["nonogen", "nonogen JSON (.json, keeps givens)", ".json"], ["non", ".non", ".non"], ["cnon", ".cnon (colour)", ".cnon"],
  ["webpbn", "webpbn XML (.xml)", ".xml"], ["g", "Olšák .g", ".g"], ["nin", ".nin", ".nin"],
  ["pdf", "PDF sheet", ".pdf"], ["pdf-solution", "PDF solution", ".pdf"], ["png", "PNG sheet", ".png"],
  ["svg", "SVG sheet", ".svg"], ["html", "play page (.html)", ".html"],
];

const state = {
  doc: null,            // {grid, palette, givens, title, author, license, reference, frame}
  pictureId: null,
  analysis: { ambiguous: [], replay: null },
  suggestion: null,
  map: null,            // the grid's ambiguity map: {verdict, before, given: Map, change: Map, done, complete, timeout}
  checkSeq: 0, checkAbort: null,
  importSeq: 0,
  levels: 0,
  plays: 0,             // test-solve pages shown so far (each frame address is new)
  solving: false,       // the test-solve frame is up
  stem: "",             // the opened file's name without its suffix: the name saves suggest
  trace: null,          // the picture behind the grid, for tracing (picture.js): {pictureId, box, size, grid, ...}
  selection: null,      // the selected cells: [top, left, bottom, right], or null for the whole grid
};
const board = new StudioBoard.Board($("board"), () => edited(), () => commit());
const history = new StudioHistory();

function say(text) {
  const box = $("message");
  box.textContent = text || "";
  box.hidden = !text;
}

function show(view) {
  if (view !== "solve" && state.solving) backToEditing();  // a new document ends a test-solve
  $("welcome").hidden = true;
  $("puzzle-view").hidden = view !== "puzzle";
  $("level-view").hidden = view !== "level";
  $("solve-view").hidden = view !== "solve";
  $("scan-view").hidden = view !== "scan";
  for (const id of ["edit-tools", "suggest"]) $(id).hidden = view !== "puzzle";
  $("save").hidden = view !== "puzzle" && view !== "scan";  // a scanned puzzle is saved from its clues (scan.js)
  for (const id of ["level-tools", "level-save"]) $(id).hidden = view !== "level";
  $("trace-tools").hidden = view !== "puzzle" || !state.trace;
  if (view === "level" || view === "scan") $("picture-options").hidden = true;
  if (view !== "level" && level.abort) { level.abort.abort(); level.seq++; }  // a level's proof is of no use now
  if (view === "puzzle" && state.doc) board.fit();  // sized once it is on screen: hidden, it has no room
}

/* --- loading ----------------------------------------------------------------------------------- */

function isModel(name) { return /\.(stl|obj|ply|glb|gltf|off)$/i.test(name); }

async function upload(file) {
  say("");
  $("folder-files").value = "";  // the board shows the dropped file now, not the one chosen in the folder before
  if (isPage(file.name)) return scanUpload(file);
  if (isModel(file.name)) return makeLevel(await api("/api/mesh?options=" + encodeURIComponent(JSON.stringify(meshOptions())),
    file, { "X-File-Name": encodeURIComponent(file.name) }));
  const seq = ++state.importSeq;
  newPicture();
  const res = await api("/api/picture?options=" + encodeURIComponent(JSON.stringify(pictureOptions())), file,
    { "Content-Type": "application/octet-stream", "X-File-Name": encodeURIComponent(file.name) });
  if (seq === state.importSeq) imported(res, file.name, seq);
}

function imported(res, name, seq) {
  $("board").dataset.imported = seq;  // which import the board shows (tests and scripts wait on it)
  if (res.data.cancelled) return;
  if (res.data.error) { say(res.data.error); return; }
  state.pictureId = res.data.picture_id || null;
  $("picture-options").hidden = !state.pictureId;
  const d = res.data;
  // a picture's file name would give the answer away: its puzzle is titled by its size (as `nonogen image` does);
  // the name only suggests the file name to save under
  if (name) state.stem = name.replace(/\.[^.]*$/, "");
  const traceable = Boolean(state.pictureId && d.frame && d.grid);
  if (traceable) traceOn(d); else traceOff();
  loadDoc({ grid: d.grid, palette: d.palette, givens: d.givens || [], title: d.title || "", author: d.author || "",
    license: d.license || "", reference: d.reference || null, frame: traceable ? { top: 0, left: 0 } : null },
  d.warnings || []);
  if (d.quality) showQuality(d.quality);
  if (state.pictureId && d.grid) {
    $("opt-width").value = d.grid[0].length;
    $("opt-height").value = d.grid.length;
    if (d.import && d.import.threshold !== undefined) $("threshold-value").textContent = d.import.threshold;
  }
}

/* A new picture is read at its own size: the last picture's width and height do not carry over. */
function newPicture() {
  $("opt-width").value = "";
  $("opt-height").value = "";
}

/* A new document on screen (a picture, a file, a blank grid): everything about the last one goes, its
 * history too. */
function loadDoc(doc, warnings) {
  history.reset(doc);
  selectArea(null);
  showDoc(doc);
  state.suggestion = null;
  $("suggestion").textContent = "";
  $("apply").hidden = true;
  for (const id of ["q-fidelity", "q-specks", "q-fill"]) $(id).textContent = "-";  // the last picture's, until measured
  $("save-status").textContent = "";
  $("save-status").dataset.saved = "";
  $("warnings").innerHTML = "";
  for (const w of warnings) {
    const li = document.createElement("li");
    li.textContent = w;
    $("warnings").appendChild(li);
  }
  show("puzzle");
  setSaveName();
  edited();
}

/* The document drawn (after a load, an undo, a resize): board, palette, fields, buttons. */
function showDoc(doc) {
  state.doc = doc;
  // the last grid's findings go: a replay with a row fewer made every check after "+top" or "+bottom" throw
  state.analysis = { ambiguous: [], replay: null };
  hideConfirm();
  board.active = Math.min(board.active, doc.palette.length - 1) || 1;
  board.load(doc);
  placeUnder();
  drawPalette();
  showFields();
  showHistory();
}

function pictureOptions() {
  const o = { mode: $("opt-mode").value, fit: $("opt-fit").value, invert: $("opt-invert").checked };
  const w = $("opt-width").value, h = $("opt-height").value, k = $("opt-colors").value;
  if (w) o.width = Number(w);
  if (h) o.height = Number(h);
  if (k) o.colors = Number(k);
  if (!$("opt-threshold-auto").checked) o.threshold = Number($("opt-threshold").value);
  return o;
}

async function reimport() {
  if (!state.pictureId) return;
  say("");
  const seq = ++state.importSeq;
  const res = await api("/api/import", { picture_id: state.pictureId, options: pictureOptions() });
  if (seq === state.importSeq) imported(res, null, seq);
}

/* --- checking ---------------------------------------------------------------------------------- */

function edited() {
  state.suggestion = null;
  state.map = null;
  $("apply").hidden = true;
  $("givens-count").textContent = state.doc.givens.length;
  check();
}

async function check() {
  const seq = ++state.checkSeq;
  if (state.checkAbort) state.checkAbort.abort();
  const abort = state.checkAbort = new AbortController();
  const started = performance.now();  // an edit asks at once, so this is the edit's time too
  setVerdict("checking", "checking...");
  try {
    await StudioApi.check(state.doc, abort.signal, (message) => {
      if (seq !== state.checkSeq) return false;
      checked(message, started);
      return true;
    }, (error) => { if (seq === state.checkSeq) { say(error); setVerdict("", "-"); } });
  } catch (err) {
    if (err.name !== "AbortError" && seq === state.checkSeq) say("the studio's server cannot be reached: " + err.message);
  }
}

function setVerdict(status, text) { verdictIn("verdict", status, text); }

/* A verdict shown in the element `id`: its status in data-status (the colours, and what tests wait for). */
function verdictIn(id, status, text) {
  $(id).dataset.status = status;
  $(id).textContent = text;
}

function checked(m, started) {
  if (m.error) { say(m.error); setVerdict("error", "error"); return; }
  if (m.cancelled) return;
  say("");
  if (m.verdict) {
    setVerdict(m.verdict, m.verdict === "multiple" ? "not unique" : m.verdict);
    $("difficulty").textContent = m.verdict === "unique" ? `(solved by ${m.difficulty} logic)`
      : m.verdict === "multiple" ? "finding the cells that can go either way..." : (m.message || "");
    $("latency").textContent = `verdict in ${Math.round(performance.now() - started)} ms`;
    $("latency").dataset.ms = Math.round(performance.now() - started);
    $("grade").textContent = "...";
  }
  if (m.ambiguous) {
    state.analysis.ambiguous = m.ambiguous;
    const count = m.ambiguous.length + (m.complete ? "" : "+");
    $("ambiguous-count").textContent = count;
    if ($("verdict").dataset.status === "multiple") {
      $("difficulty").textContent = `${count} cell${count === "1" ? "" : "s"} can go either way (striped red)`;
    }
    mark();
  }
  if (m.replay) {
    $("grade").textContent = m.grade ? `${m.grade} ${m.grade_name} (score ${m.score})`
      : m.grade_name === "not unique" ? "none: not unique" : "-";
    state.analysis.replay = m.replay;
    const last = m.replay.kinds.length - 1;
    $("replay").max = last;
    $("replay").value = last;
    showQuality(m.quality);
    mark();
    $("verdict").dataset.done = state.checkSeq;
    mapWanted();
  }
}

function mark() {
  const replay = state.analysis.replay;
  const upTo = replay ? Number($("replay").value) : null;
  const ambiguous = $("verdict").dataset.status === "multiple" ? state.analysis.ambiguous : [];
  const s = state.suggestion;
  board.mark(ambiguous, replay, upTo, s ? s.givens.concat(s.edits) : []);
  drawMap();
  if (replay) {
    const open = replay.step.flat().filter((v) => v < 0).length;
    $("replay-label").textContent = `step ${upTo} of ${replay.kinds.length - 1} (${replay.kinds[upTo]})` +
      (open ? `; ${open} cells line logic and lookahead leave open` : "");
  }
}

function showQuality(q) {
  if (!q) return;
  const pct = (v) => (v === null || v === undefined ? "-" : Math.round(100 * v) + "%");
  const score = q.recognisability !== undefined ? q.recognisability : q.fidelity;  // older reports: SSIM alone
  if (score !== null && score !== undefined) $("q-fidelity").textContent = score.toFixed(2);
  $("q-specks").textContent = pct(q.speck_share);
  $("q-fill").textContent = pct(q.fill_share);
}

