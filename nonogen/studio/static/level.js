/* The 3D editor, the page's side: the level (a document like the 2D grid's: the page holds it and sends it whole
 * with every edit), its undo history, the tools, the palette and the layers, and the proof's answers after each
 * edit (/api/level/check, streamed: the verdict with the hidden clues and the grade; for an ambiguous shape the
 * ambiguous cubes, then the edit that settles them). The level is drawn in a frame (edit3d.html: the play page's
 * three.js view and edit3d_view.js), which turns clicks, drags, fingers and keys into StudioLevel.edit calls. Saving
 * and test-playing a level are levelsave.js; a model made into a level is mesh.js. */
"use strict";

const LEVEL_TOOLS = ["add", "remove", "paint", "given"];
const LEVEL_KEYS = { a: "add", e: "remove", c: "paint", g: "given" };
const CUBE_CODES = "0123456789abcdefghijklmnopqrstuvwxyz";
const LEVEL_COLOURS = ["#e8913a", "#1d70b8", "#2a9d3f", "#d62828", "#f6c90e", "#8e44ad", "#16a085", "#333333"];
const MAX_LEVEL_SIDE = 40;

const level = {
  doc: null,            // {size, cells, palette, givens, hidden, title, author, license, source}
  history: [], at: -1,  // snapshots of the level after each edit; each keeps the hidden clues proved for it
  session: "",          // the workers' name for this level (each new level gets a new one)
  seq: 0, abort: null,
  view: null,           // the frame's levelView once it has started
  frames: 0,            // frames loaded so far (a new box size loads a new one)
  shownSize: "",        // the size of the box the frame was loaded for
  colour: 1, tool: "add", box: false, look: "colours",
  ambiguous: [], suggestion: null, verdict: "",
};

/* --- a level on screen ------------------------------------------------------------------------------ */

/* A new level (a blank box, a model's, an opened file's): it starts a new history and a new session. */
function loadLevel(doc) {
  level.doc = { title: "", author: "", license: "", source: "", givens: [], hidden: null, ...doc };
  level.history = [];
  level.at = -1;
  level.session = "level-" + Math.random().toString(36).slice(2, 10);
  level.shownSize = "";  // a new level gets a new view: its camera, layers and cursor start afresh
  level.colour = 1;
  commitLevel();
  show("level");
  $("level-title").value = level.doc.title;
  setLevelSaveName();
  drawLevelPalette();
  levelEdited(false);
}

/* The level drawn in its frame, loaded again for a new level (the view's box is fixed for its life). */
function showLevel() {
  const size = level.doc.size.join("x");
  if (size !== level.shownSize) {
    level.shownSize = size;
    level.view = null;
    ["x", "y", "z"].forEach((axis, k) => {
      $("level-slice-" + axis).max = String(level.doc.size[k] - 1);
      $("level-slice-" + axis).value = "0";
    });
    $("edit3d-frame").src = `/static/edit3d.html?n=${++level.frames}`;
    return;  // the frame calls viewReady once its view has started
  }
  if (!level.view) return;
  const s = level.suggestion;
  level.view.show({ cells: level.doc.cells, palette: level.doc.palette.map((c) => c.rgb), givens: level.doc.givens,
    hidden: level.doc.hidden }, { ambiguous: level.verdict === "multiple" ? level.ambiguous : [],
    edits: s ? s.edits : [] });
  $("level-size").textContent = level.doc.size.join(" x ");
}

/* --- editing ---------------------------------------------------------------------------------------- */

/* What the frame (or a suggestion) asks: `how` (add, remove, paint, given) on the cubes `list` ([x, y, z]). */
function editLevel(how, list) {
  say("");
  const doc = level.doc, [, Y, Z] = doc.size, chars = doc.cells.split(""), code = CUBE_CODES[level.colour];
  let changed = false;
  for (const [x, y, z] of list) {
    const i = (x * Y + y) * Z + z, before = chars[i];
    if (how === "add" && before === "0") chars[i] = code;
    else if (how === "remove") chars[i] = "0";
    else if (how === "paint" && before !== "0") chars[i] = code;
    changed = changed || chars[i] !== before;
  }
  if (how === "given") {
    const key = (c) => c.join(), have = new Set(doc.givens.map(key)), all = list.every((c) => have.has(key(c)));
    const drop = new Set(list.map(key));
    doc.givens = all ? doc.givens.filter((c) => !drop.has(key(c))) : doc.givens.concat(list.filter((c) => !have.has(key(c))));
    changed = true;
  }
  if (!changed) return;
  doc.cells = chars.join("");
  levelEdited(true);
}

function levelEdited(commit) {
  level.suggestion = null;
  $("level-suggestion").textContent = "";
  $("level-apply").hidden = $("level-reveal").hidden = true;
  if (commit) commitLevel();
  hideLevelConfirm();
  showLevel();
  checkLevel();
}

/* --- history: every edit one step; undo and redo bring back the cubes with the clues proved hidden for them ---- */

function levelKey(doc) {
  const { size, cells, palette, givens, title, author, license, source } = doc;
  return JSON.stringify({ size, cells, palette, givens, title, author, license, source });
}

function commitLevel() {
  const key = levelKey(level.doc);
  if (level.at >= 0 && level.history[level.at].key === key) return;
  level.history.splice(level.at + 1);
  level.history.push({ key, hidden: level.doc.hidden });
  if (level.history.length > 300) level.history.shift();
  level.at = level.history.length - 1;
  showLevelHistory();
}

function showLevelHistory() {
  $("level-undo").disabled = level.at <= 0;
  $("level-redo").disabled = level.at >= level.history.length - 1;
  $("level-undo").dataset.depth = level.at;
}

function undoLevel(step) {
  const at = level.at + step;
  if (at < 0 || at >= level.history.length) return;
  level.at = at;
  level.doc = { ...JSON.parse(level.history[at].key), hidden: level.history[at].hidden };
  $("level-title").value = level.doc.title;
  drawLevelPalette();
  showLevelHistory();
  levelEdited(false);
}

/* --- the proof -------------------------------------------------------------------------------------- */

function levelOptions() {
  const hide = $("mesh-hide").value;
  return { hide: hide === "" ? null : Number(hide), line_solvable: $("mesh-line").checked };
}

async function checkLevel() {
  const seq = ++level.seq;
  if (level.abort) level.abort.abort();
  const abort = level.abort = new AbortController();
  const started = performance.now();
  setLevelVerdict("checking", "checking...");
  $("level-verdict").dataset.seq = seq;
  const body = { doc: level.doc, options: levelOptions(), session: level.session };
  try {
    await StudioApi.stream("/api/level/check", body, abort.signal, (m) => {
      if (seq !== level.seq) return false;
      levelAnswered(m, started);
      return true;
    }, (error) => { if (seq === level.seq) { say(error); setLevelVerdict("error", "error"); } });
  } catch (err) {
    if (err.name === "AbortError" || seq !== level.seq) return;
    say("the studio's server cannot be reached: " + err.message);
  }
  if (seq !== level.seq) return;
  $("level-verdict").dataset.done = seq;  // tests and scripts wait for this
  const then = level.then;  // what waited for this proof (a save after its fix)
  level.then = null;
  if (then) then();
}

function setLevelVerdict(status, text) {
  $("level-verdict").dataset.status = status;
  $("level-verdict").textContent = text;
}

function levelAnswered(m, started) {
  if (m.error) { say(m.error); setLevelVerdict("error", "error"); return; }
  if (m.cancelled) return;
  if (m.verdict) {
    level.verdict = m.verdict;
    setLevelVerdict(m.verdict, m.verdict === "multiple" ? "not unique" : m.verdict);
    if ("hidden" in m) level.doc.hidden = level.history[level.at].hidden = m.hidden;
    const shown = m.grade ? `${m.grade} ${m.grade_name} (score ${m.score})` : m.grade_name === "not unique" ? "none: not unique" : "-";
    $("level-grade").textContent = shown;
    const total = m.clues_total, hid = m.clues_hidden;
    $("level-hidden").textContent = hid === null || hid === undefined ? "-" : `${hid} of ${total} (${Math.round((100 * hid) / total)} %)`;
    $("level-how").textContent = m.verdict === "unique" ? `${m.how}; ${m.line_solvable ? "line logic solves it" : "needs search beyond line logic"}`
      : m.verdict === "multiple" ? "the shape has more than one solution with every clue shown: finding the cubes that differ..." : m.message || "";
    level.ambiguous = [];
    $("level-ambiguous").textContent = m.verdict === "multiple" ? "..." : "0";
    const ms = Math.round(performance.now() - started);
    $("level-latency").textContent = `answered in ${ms} ms`;
    $("level-latency").dataset.ms = ms;
  }
  if (m.ambiguous && m.verdict === undefined) {
    level.ambiguous = m.ambiguous;
    $("level-ambiguous").textContent = m.ambiguous.length + (m.complete ? "" : "+");
    $("level-how").textContent = `${m.ambiguous.length} cube${m.ambiguous.length === 1 ? "" : "s"} can go either way (red)`;
  }
  if (m.suggestion) showLevelSuggestion(m.suggestion);
  showLevel();
}

/* --- the suggestion: the one-cube edit that settles an ambiguous shape, or cubes to reveal ---------------- */

function showLevelSuggestion(s) {
  level.suggestion = s;
  const at = ([x, y, z]) => `x ${x + 1}, y ${y + 1}, z ${z + 1}`;
  const edits = s.edits.map((e) => (e[3] ? "add a cube at " : "remove the cube at ") + at(e));
  const then = s.status === "unique" ? "then it is unique" : s.message;
  const parts = [];
  if (edits.length) parts.push(`${edits.join(", ")} (yellow): ${then}`);
  if (s.givens.length) parts.push(`${edits.length ? "or " : ""}reveal ${s.givens.length} cube${s.givens.length > 1 ? "s" : ""} to the player`);
  $("level-suggestion").textContent = parts.length ? parts.join("; ") : s.message;
  $("level-apply").hidden = !s.edits.length;
  $("level-reveal").hidden = !s.givens.length;
}

function applyLevelSuggestion(givens) {
  const s = level.suggestion;
  if (!s) return;
  if (givens) { editLevel("given", s.givens.filter((c) => !level.doc.givens.some((g) => g.join() === c.join()))); return; }
  const chars = level.doc.cells.split(""), [, Y, Z] = level.doc.size;
  for (const [x, y, z, v] of s.edits) chars[(x * Y + y) * Z + z] = v ? CUBE_CODES[level.colour] : "0";
  level.doc.cells = chars.join("");
  levelEdited(true);
}

/* --- tools, palette, look, layers, keys ------------------------------------------------------------- */

function useLevelTool(tool) {
  level.tool = tool;
  for (const t of LEVEL_TOOLS) $("level-tool-" + t).setAttribute("aria-pressed", String(t === tool));
  if (level.view) level.view.setTool(tool);
}

function setLevelBox(on) {
  level.box = on;
  $("level-box").setAttribute("aria-pressed", String(on));
  if (level.view) level.view.setBox(on);
}

function setLevelLook(look) {
  level.look = look;
  $("level-look").value = look;
  if (level.view) level.view.setLook(look);
}

function drawLevelPalette() {
  const box = $("level-palette");
  box.innerHTML = "";
  level.doc.palette.forEach((colour, i) => {
    if (i === 0) return;  // entry 0 stands for "no colour"
    const item = document.createElement("span");
    item.className = "swatch" + (i === level.colour ? " active" : "");
    const pick = document.createElement("input");
    pick.type = "color";
    pick.value = colour.rgb;
    pick.addEventListener("change", () => { colour.rgb = pick.value; colour.name = ""; levelEdited(true); });
    const use = document.createElement("button");
    use.type = "button";
    use.textContent = String(i);
    use.title = `paint with colour ${i} (key ${i})`;
    use.addEventListener("click", () => pickLevelColour(i));
    item.append(pick, use);
    box.appendChild(item);
  });
}

function pickLevelColour(i) {
  if (i < 1 || i >= level.doc.palette.length) return;
  level.colour = i;
  drawLevelPalette();
}

function addLevelColour() {
  const palette = level.doc.palette;
  if (palette.length > 20) { say("a level has at most 20 colours"); return; }
  palette.push({ rgb: LEVEL_COLOURS[(palette.length - 1) % LEVEL_COLOURS.length], name: "" });
  level.colour = palette.length - 1;
  drawLevelPalette();
  commitLevel();
}

/* Keys on the page and in the frame (which sends the keys its cursor does not use): A, E, C, G pick a tool; B the
 * box; V the look; 1-9 a colour; Ctrl+Z undoes, Ctrl+Y and Ctrl+Shift+Z redo. Not in a text field. */
function onLevelKey(e) {
  if (e.altKey || $("level-view").hidden || e.target.closest && e.target.closest("input:not([type=range]), select, textarea")) return;
  const key = e.key.toLowerCase();
  if (e.ctrlKey || e.metaKey) {
    if (key === "z" && !e.shiftKey) undoLevel(-1);
    else if (key === "y" || (key === "z" && e.shiftKey)) undoLevel(1);
    else return;
  } else if (LEVEL_KEYS[key]) useLevelTool(LEVEL_KEYS[key]);
  else if (key === "b") setLevelBox(!level.box);
  else if (key === "v") setLevelLook(level.look === "colours" ? "clues" : "colours");
  else if (/^[1-9]$/.test(key)) pickLevelColour(Number(key));
  else return;
  e.preventDefault();
}

/* A blank box of the size in the "New box" fields, empty or filled with colour 1: a new level. */
function newBox() {
  const size = ["box-x", "box-y", "box-z"].map((id) => whole($(id).value, 1, MAX_LEVEL_SIDE));
  if (size.includes(0)) { say(`a box is 1 to ${MAX_LEVEL_SIDE} cubes a side`); return; }
  say("");
  $("folder-files").value = "";
  state.importSeq++;
  $("level-model").hidden = $("model-options").hidden = true;
  const fill = $("box-full").checked ? "1" : "0";
  loadLevel({ size, cells: fill.repeat(size[0] * size[1] * size[2]), palette: [{ rgb: "#ffffff", name: "none" },
    { rgb: LEVEL_COLOURS[0], name: "" }, { rgb: LEVEL_COLOURS[1], name: "" }], givens: [], hidden: null });
}

/* The frame's door into the page (same origin): its box, its view once started, the edits and keys it asks. */
window.StudioLevel = {
  frameBox: () => ({ size: level.doc.size, clues: { x: [], y: [], z: [] }, colors: [], givens: [] }),
  viewReady(view) {
    if ($("edit3d-frame").contentWindow.levelView !== view) return;  // a frame replaced meanwhile
    level.view = view;
    view.setTool(level.tool);
    view.setBox(level.box);
    view.setLook(level.look);
    for (const axis of ["x", "y", "z"]) view.setSlice(axis, Number($("level-slice-" + axis).value));
    showLevel();
  },
  edit: editLevel,
  key: onLevelKey,
  say,
};

function wireLevel() {
  for (const tool of LEVEL_TOOLS) $("level-tool-" + tool).addEventListener("click", () => useLevelTool(tool));
  $("level-box").addEventListener("click", () => setLevelBox(!level.box));
  $("level-look").addEventListener("change", () => setLevelLook($("level-look").value));
  $("level-undo").addEventListener("click", () => undoLevel(-1));
  $("level-redo").addEventListener("click", () => undoLevel(1));
  $("level-add-colour").addEventListener("click", addLevelColour);
  $("level-apply").addEventListener("click", () => applyLevelSuggestion(false));
  $("level-reveal").addEventListener("click", () => applyLevelSuggestion(true));
  $("new-box").addEventListener("click", newBox);
  $("level-rehide").addEventListener("click", () => { level.doc.hidden = null; checkLevel(); });
  for (const id of ["mesh-hide", "mesh-line"]) $(id).addEventListener("change", () => { if (level.doc) { level.doc.hidden = null; checkLevel(); } });
  for (const axis of ["x", "y", "z"]) {
    $("level-slice-" + axis).addEventListener("input", () => level.view && level.view.setSlice(axis, Number($("level-slice-" + axis).value)));
  }
  $("level-title").addEventListener("change", () => { level.doc.title = $("level-title").value; commitLevel(); setLevelSaveName(); });
  document.addEventListener("keydown", onLevelKey);
}
