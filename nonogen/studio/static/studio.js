/* The studio page: the document, the server's answers, the panels. The board itself is board.js, the calls to
 * the server api.js. Every edit sends the whole document to /api/check; the answer streams back as JSON lines
 * (verdict, ambiguous cells, grade and replay). A newer edit aborts the older request, and the
 * server stops the older check, so the page never waits for a grid that is gone. */
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
  doc: null,            // {grid, palette, givens, title, reference}
  pictureId: null,
  analysis: { ambiguous: [], replay: null },
  suggestion: null,
  checkSeq: 0, checkAbort: null,
  importSeq: 0,
  levels: 0,
  stem: "",             // the opened file's name without its suffix: the name saves suggest
};
const board = new StudioBoard.Board($("board"), () => edited());

function say(text) {
  const box = $("message");
  box.textContent = text || "";
  box.hidden = !text;
}

function show(view) {
  $("welcome").hidden = true;
  $("puzzle-view").hidden = view !== "puzzle";
  $("mesh-view").hidden = view !== "mesh";
  for (const id of ["edit-tools", "suggest", "save"]) $(id).hidden = view !== "puzzle";
  if (view === "mesh") $("picture-options").hidden = true;
}

/* --- loading ----------------------------------------------------------------------------------- */

function isModel(name) { return /\.(stl|obj|ply|glb|gltf|off)$/i.test(name); }

async function upload(file) {
  say("");
  $("folder-files").value = "";  // the board shows the dropped file now, not the one chosen in the folder before
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
  loadDoc({ grid: d.grid, palette: d.palette, givens: d.givens || [], title: d.title || "", reference: d.reference || null },
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

function loadDoc(doc, warnings) {
  state.doc = doc;
  state.analysis = { ambiguous: [], replay: null };
  state.suggestion = null;
  $("suggestion").textContent = "";
  $("apply").hidden = true;
  for (const id of ["q-fidelity", "q-specks", "q-fill"]) $(id).textContent = "-";  // the last picture's, until measured
  $("save-status").textContent = "";
  $("save-status").dataset.saved = "";
  board.active = Math.min(board.active, doc.palette.length - 1) || 1;
  board.load(doc);
  drawPalette();
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

function setVerdict(status, text) {
  $("verdict").dataset.status = status;
  $("verdict").textContent = text;
}

function checked(m, started) {
  if (m.error) { say(m.error); setVerdict("error", "error"); return; }
  if (m.cancelled) return;
  say("");
  if (m.verdict) {
    setVerdict(m.verdict, m.verdict);
    $("difficulty").textContent = m.verdict === "unique" ? `(solved by ${m.difficulty} logic)` : (m.message || "");
    $("latency").textContent = `verdict in ${Math.round(performance.now() - started)} ms`;
    $("latency").dataset.ms = Math.round(performance.now() - started);
    $("grade").textContent = "...";
  }
  if (m.ambiguous) {
    state.analysis.ambiguous = m.ambiguous;
    $("ambiguous-count").textContent = m.ambiguous.length + (m.complete ? "" : "+");
    mark();
  }
  if (m.replay) {
    $("grade").textContent = m.grade ? `${m.grade} ${m.grade_name} (score ${m.score})` : "-";
    state.analysis.replay = m.replay;
    const last = m.replay.kinds.length - 1;
    $("replay").max = last;
    $("replay").value = last;
    showQuality(m.quality);
    mark();
    $("verdict").dataset.done = state.checkSeq;
  }
}

function mark() {
  const replay = state.analysis.replay;
  const upTo = replay ? Number($("replay").value) : null;
  const ambiguous = $("verdict").dataset.status === "multiple" ? state.analysis.ambiguous : [];
  const s = state.suggestion;
  board.mark(ambiguous, replay, upTo, s ? s.givens.concat(s.edits) : []);
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

/* --- palette ----------------------------------------------------------------------------------- */

function drawPalette() {
  const box = $("palette");
  box.innerHTML = "";
  state.doc.palette.forEach((color, i) => {
    const item = document.createElement("span");
    item.className = "swatch" + (i === board.active ? " active" : "");
    item.dataset.color = i;
    const pick = document.createElement("input");
    pick.type = "color";
    pick.value = color.rgb;
    pick.title = color.name + (i === 0 ? " (background)" : "");
    pick.addEventListener("input", () => { color.rgb = pick.value; color.name = ""; board.refresh(); });
    pick.addEventListener("change", () => edited());
    const use = document.createElement("button");
    use.type = "button";
    use.className = "use";
    use.textContent = i === 0 ? "bg" : String(i);
    use.addEventListener("click", () => { board.active = i || board.active; drawPalette(); });
    item.append(pick, use);
    if (i > 0 && state.doc.palette.length > 2) {
      const drop = document.createElement("button");
      drop.type = "button";
      drop.className = "drop-color";
      drop.textContent = "\u00d7";
      drop.title = "remove this colour (its cells become background)";
      drop.addEventListener("click", () => removeColor(i));
      item.append(drop);
    }
    box.appendChild(item);
  });
}

function removeColor(index) {
  const doc = state.doc;
  doc.grid = doc.grid.map((row) => row.map((v) => (v === index ? 0 : v > index ? v - 1 : v)));
  doc.palette.splice(index, 1);
  board.active = Math.min(board.active, doc.palette.length - 1);
  board.load(doc);
  drawPalette();
  edited();
}

function addColor() {
  const spare = ["#d62828", "#1d70b8", "#2a9d3f", "#f6c90e", "#8e44ad", "#e67e22", "#16a085", "#7f8c8d"];
  const used = new Set(state.doc.palette.map((c) => c.rgb));
  state.doc.palette.push({ rgb: spare.find((c) => !used.has(c)) || "#555555", name: "" });
  board.active = state.doc.palette.length - 1;
  board.refresh();
  drawPalette();
  edited();
}

/* --- suggestions ------------------------------------------------------------------------------- */

async function suggest(goal) {
  $("suggestion").textContent = "searching...";
  $("apply").hidden = true;
  const seq = state.checkSeq;
  const res = await api("/api/suggest", { doc: state.doc, goal, grade: Number($("grade-goal").value) });
  if (seq !== state.checkSeq || res.data.cancelled) { $("suggestion").textContent = ""; return; }
  if (res.data.error) { $("suggestion").textContent = res.data.error; return; }
  const s = res.data;
  state.suggestion = s;
  const parts = [];
  if (s.givens.length) parts.push(`reveal ${s.givens.length} cell${s.givens.length > 1 ? "s" : ""} as givens`);
  if (s.edits.length) parts.push(`change ${s.edits.length} cell${s.edits.length > 1 ? "s" : ""}`);
  const then = `then ${s.status}${s.grade ? ", grade " + s.grade : ""}`;
  $("suggestion").textContent = parts.length ? `${parts.join(" and ")} (outlined in blue); ${then}` +
    (s.message ? ` (${s.message})` : "") : `nothing to do: ${s.message || "already there"}`;
  $("apply").hidden = !parts.length;
  mark();
  check();  // the verdict again (the suggestion stopped it), with the suggested cells outlined
}

function applySuggestion() {
  const s = state.suggestion;
  if (!s) return;
  for (const [r, c, v] of s.edits) state.doc.grid[r][c] = v;
  const have = new Set(state.doc.givens.map(([r, c]) => r + "," + c));
  for (const [r, c] of s.givens) if (!have.has(r + "," + c)) state.doc.givens.push([r, c]);
  board.refresh();
  $("suggestion").textContent = "applied";
  edited();
}

/* --- saving ------------------------------------------------------------------------------------ */

function setSaveName() {
  const [, , ext] = FORMATS.find(([f]) => f === $("save-format").value);
  const stem = (state.stem || state.doc.title || "puzzle").replace(/[^\w.-]+/g, "-").replace(/^[.-]+/, "") || "puzzle";
  $("save-name").value = stem + ext;
}

async function save(overwrite) {
  $("save-confirm").hidden = true;
  $("save-status").textContent = "saving...";
  const name = $("save-name").value;
  const res = await api("/api/save", { doc: state.doc, name, format: $("save-format").value, overwrite });
  if (res.status === 409) {
    $("save-question").textContent = `${name} exists in the folder.`;
    $("save-confirm").hidden = false;
    $("save-status").textContent = "";
    return;
  }
  const d = res.data;
  $("save-status").textContent = d.error ? d.error
    : `saved ${d.saved}` + (d.dropped.length ? ` (this format drops: ${d.dropped.join(", ")})` : "");
  $("save-status").dataset.saved = d.error ? "" : d.saved;
  if (!d.error) listFiles();
}

/* --- meshes ------------------------------------------------------------------------------------ */

function meshOptions() {
  return { size: Number($("mesh-size").value) || 10, hide: $("mesh-hide").value, line_solvable: $("mesh-line").checked };
}

function makeLevel(res) {
  if (res.data.cancelled) return;
  if (res.data.error) { say(res.data.error); return; }
  show("mesh");
  const report = res.data.report;
  $("mesh-verdict").textContent = report.status;
  $("mesh-verdict").dataset.status = report.status;
  $("mesh-grade").textContent = report.grade ? `${report.grade} (${report.grade_name})` : "-";
  $("mesh-notes").textContent = `${report.size ? report.size.join("x") : ""} ${(report.notes || []).join("; ")}`;
  $("level-shape").src = res.data.solution_png;
  $("level-frame").src = StudioApi.levelUrl(++state.levels);  // a page of its own: a srcdoc frame would take this page's CSP
  $("mesh-name").value = (report.model || "level").replace(/\.[^.]*$/, "") + "-level";
}

async function remesh() {
  say("");
  $("mesh-verdict").textContent = "making...";
  $("mesh-verdict").dataset.status = "checking";
  makeLevel(await api("/api/remesh", { options: meshOptions() }));
}

async function saveLevel(overwrite) {
  $("mesh-confirm").hidden = true;
  const name = $("mesh-name").value;
  const res = await api("/api/save", { level: true, name, overwrite });
  if (res.status === 409) {
    $("mesh-question").textContent = `${name} exists in the folder.`;
    $("mesh-confirm").hidden = false;
    return;
  }
  $("mesh-status").textContent = res.data.error || `saved ${res.data.saved}`;
  if (!res.data.error) listFiles();
}

/* --- the folder -------------------------------------------------------------------------------- */

async function listFiles() {
  const res = await api("/api/files");
  if (res.data.error) return;
  $("folder-name").textContent = "folder: " + res.data.folder;
  const select = $("folder-files");
  const chosen = select.value;
  select.innerHTML = "";
  select.add(new Option("choose a file in the folder...", ""));
  for (const f of res.data.files) {
    const option = document.createElement("option");
    option.value = f.name;
    option.textContent = `${f.name} (${f.kind})`;
    select.appendChild(option);
  }
  if (chosen) select.value = chosen;
}

async function openFile() {
  const name = $("folder-files").value;
  if (!name) return;
  say("");
  const seq = ++state.importSeq;
  if (!isModel(name)) newPicture();
  const options = isModel(name) ? meshOptions() : pictureOptions();
  const res = await api("/api/open", { name, options });
  if (seq !== state.importSeq) return;
  if (isModel(name)) makeLevel(res); else imported(res, name, seq);
}

/* --- wiring ------------------------------------------------------------------------------------ */

function wire() {
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    if (e.dataTransfer.files.length) upload(e.dataTransfer.files[0]);
  });
  $("file").addEventListener("change", () => { if ($("file").files.length) upload($("file").files[0]); $("file").value = ""; });
  $("open").addEventListener("click", openFile);
  // one side given keeps the picture's aspect: the other side follows
  $("opt-width").addEventListener("change", () => { $("opt-height").value = ""; });
  $("opt-height").addEventListener("change", () => { $("opt-width").value = ""; });
  for (const id of ["opt-width", "opt-height", "opt-mode", "opt-colors", "opt-fit", "opt-invert", "opt-threshold-auto"]) {
    $(id).addEventListener("change", reimport);
  }
  $("opt-threshold").addEventListener("input", () => {
    $("opt-threshold-auto").checked = false;
    $("threshold-value").textContent = $("opt-threshold").value;
    reimport();
  });
  $("add-color").addEventListener("click", addColor);
  for (const tool of ["paint", "given"]) {
    $("tool-" + tool).addEventListener("click", () => {
      board.tool = tool;
      for (const t of ["paint", "given"]) $("tool-" + t).setAttribute("aria-pressed", String(t === tool));
    });
  }
  for (const button of document.querySelectorAll("#suggest button[data-goal]")) {
    button.addEventListener("click", () => suggest(button.dataset.goal));
  }
  $("apply").addEventListener("click", applySuggestion);
  $("replay").addEventListener("input", mark);
  for (const [value, label] of FORMATS) $("save-format").add(new Option(label, value));
  $("save-format").addEventListener("change", setSaveName);
  $("save-button").addEventListener("click", () => save(false));
  $("overwrite").addEventListener("click", () => save(true));
  $("cancel-save").addEventListener("click", () => { $("save-confirm").hidden = true; });
  $("remesh").addEventListener("click", remesh);
  $("mesh-save").addEventListener("click", () => saveLevel(false));
  $("mesh-overwrite").addEventListener("click", () => saveLevel(true));
  listFiles();
}

wire();
window.nonogenStudio = { state, board };
