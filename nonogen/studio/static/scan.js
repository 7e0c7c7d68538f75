/* Scanned puzzle pages in clue mode. A picture or PDF of puzzle sheets is read by the server (/api/scan: an
 * upload; /api/scan/open: a file of the folder); one puzzle of it is on screen at a time (a chooser when the page
 * holds several): the part of the page that holds it beside its clues as read, each suspect clue outlined on
 * both, with why and how sure the reading was. A click on a clue (in the margin of the grid or on the page)
 * opens it for typing; Enter or Tab keeps it and goes to the next suspect. Each correction is proved at once
 * (/api/scan/check, streamed in the lane an edit's check takes): the verdict, the suspects named again, the
 * solution drawn when it is unique. Saving is save.js's, with the clues instead of a grid (scanClues). */
"use strict";

const scan = {
  file: "", puzzles: [], k: -1,  // the file read, its puzzles, the one on screen
  p: null,                       // the puzzle on screen: {rows, cols, rowConf, colConf, view}
  set: new Set(),                // lines the author typed or confirmed ("row 3")
  suspects: [], solution: null, ambiguous: [],
  seq: 0, abort: null, image: null,
  editing: null,                 // the clue being typed: {kind, i, td, input}
  last: "",                      // the line the editor left last (the next suspect is the one after it)
  clues: { row: [], column: [] }, cells: [],
  reading: null, readingSeq: 0,  // the "reading the page..." timer, and the reading it times
  before: "",                    // the view to go back to if the reading fails
  move: 0,                       // a correction's step to the next suspect, taken once its proof names them
  scale: 1,                      // page pixels to canvas pixels
};

/* Whether a file is read as a puzzle page: a PDF always, a picture when the Source's box says so. */
function isPage(name) { return /\.pdf$/i.test(name) || ($("scan-pictures").checked && !isModel(name)); }

async function scanUpload(file) {
  say("");
  $("folder-files").value = "";
  const seq = startReading(file.name);
  const res = await api("/api/scan", file, { "Content-Type": "application/octet-stream",
    "X-File-Name": encodeURIComponent(file.name) });
  doneReading(seq);
  if (seq === state.importSeq) scanned(res, file.name);
}

async function scanOpen(name) {
  say("");
  const seq = startReading(name);
  const res = await api("/api/scan/open", { name });
  doneReading(seq);
  if (seq === state.importSeq) scanned(res, name);
}

/* The page is being read: the scan view says so, with the seconds so far (a PDF takes a second or two). */
function startReading(name) {
  const seq = ++state.importSeq;  // a picture read meanwhile does not land on this, nor this on a newer one
  scan.before = ["puzzle", "level", "scan"].find((v) => !$(v + "-view").hidden) || "";
  show("scan");
  $("scan-body").hidden = true;
  $("scan-view").dataset.read = "";
  const started = performance.now();
  clearInterval(scan.reading);
  scan.readingSeq = seq;
  const tick = () => {
    $("scan-status").textContent = `reading ${name}... ${((performance.now() - started) / 1000).toFixed(1)} s`;
  };
  tick();
  scan.reading = setInterval(tick, 100);
  return seq;
}

/* The reading `seq` has its answer (or a newer reading or picture took its place): its clock stops. */
function doneReading(seq) {
  if (scan.readingSeq !== seq) return;
  clearInterval(scan.reading);
  $("scan-status").textContent = "";
}

/* The server's reading of the page: its puzzles, the first one on screen; an error goes back to what was shown. */
function scanned(res, name) {
  if (res.data.cancelled) return;
  if (res.data.error) {
    $("scan-view").dataset.read = "error";
    if (scan.before) show(scan.before); else { $("scan-view").hidden = true; $("welcome").hidden = false; }
    $("scan-body").hidden = !scan.p;  // a puzzle scanned before is still there
    say(res.data.error);
    return;
  }
  scan.file = name;
  scan.puzzles = res.data.puzzles;
  const which = $("scan-which");
  which.innerHTML = "";
  scan.puzzles.forEach((p, k) => {
    const n = p.suspects.length;
    which.add(new Option(`${p.label}: ${p.size[0]}x${p.size[1]}, ${n} suspect clue${n === 1 ? "" : "s"}`, k));
  });
  $("scan-choose").hidden = scan.puzzles.length < 2;
  $("scan-left-out").textContent = res.data.left_out ? `(${res.data.left_out} more not shown)` : "";
  choosePuzzle(0);
}

/* Puzzle k of the page on screen, as read: a fresh copy of its clues, its page, its proof asked for. */
function choosePuzzle(k) {
  const p = scan.puzzles[k];
  scan.k = k;
  scan.p = { rows: p.rows.map((l) => l.slice()), cols: p.cols.map((l) => l.slice()),
    rowConf: p.row_confidence.slice(), colConf: p.col_confidence.slice(), legible: p.legible, view: p.view,
    palette: p.palette, givens: p.givens, rowColours: p.row_colours.map((l) => l.slice()),
    colColours: p.col_colours.map((l) => l.slice()) };
  scan.set = new Set();
  scan.suspects = p.suspects;
  $("scan-unsure").hidden = p.legible !== false;
  showColours();
  scan.solution = null;
  scan.ambiguous = [];
  scan.image = null;
  scan.editing = null;
  scan.last = "";
  $("scan-which").value = String(k);
  $("scan-where").textContent = `read from ${p.read_from === "text" ? "the PDF's text" : "the pixels"}`;
  state.stem = scan.file.replace(/\.[^.]*$/, "") + (scan.puzzles.length > 1 ? "-" + (k + 1) : "");
  for (const id of ["doc-title", "doc-author", "doc-license"]) $(id).value = "";
  $("save-status").textContent = "";
  $("save-status").dataset.saved = "";
  hideConfirm();
  setSaveName();
  $("scan-body").hidden = false;
  buildClues();
  showPage();
  $("scan-view").dataset.read = `${scan.file}#${k}`;
  scanCheck();
  if (scan.suspects.length) openLine(scan.suspects[0].line);  // the first suspect ready for typing
}

/* --- the clue lists and the solution --------------------------------------------------------------------- */

function buildClues() {
  const table = $("scan-board"), { rows, cols } = scan.p;
  table.innerHTML = "";
  fitClues();
  scan.clues = { row: [], column: [] };
  const head = table.insertRow();
  head.insertCell().className = "corner";
  cols.forEach((_, c) => clueCell(head.insertCell(), "column", c));
  scan.cells = rows.map((_, r) => {
    const tr = table.insertRow();
    clueCell(tr.insertCell(), "row", r);
    return cols.map((__, c) => {
      const td = tr.insertCell();
      td.className = "cell";
      if (c % 5 === 4 && c !== cols.length - 1) td.classList.add("edge-right");
      if (r % 5 === 4 && r !== rows.length - 1) td.classList.add("edge-bottom");
      return td;
    });
  });
  for (const kind of ["row", "column"]) scan.clues[kind].forEach((_, i) => drawClue(kind, i));
  drawMarks();
  drawSolution();
}

/* The clue lists' width in cells (a row clue's number takes about one). */
function clueSpan() {
  const { rows, cols } = scan.p;
  return cols.length + Math.max(1, ...rows.map((l) => l.length)) + 1;
}

/* The page takes half the width (300 to 560 px), less when the clue lists need it for 16 px cells. */
function pageRoom() {
  const width = $("scan-body").clientWidth - 40;
  return Math.max(300, Math.min(560, width / 2, width - 60 - 16 * clueSpan()));
}

/* The clue lists' cells take the rest of the width (14 to 28 px), and the window's height. */
function fitClues() {
  const { rows, cols } = scan.p, longest = (lines) => Math.max(1, ...lines.map((l) => l.length));
  const byWidth = ($("scan-body").clientWidth - pageRoom() - 60) / clueSpan();
  const byHeight = (window.innerHeight - 160) / (rows.length + 0.75 * longest(cols) + 1);
  $("scan-board").style.setProperty("--cell", Math.floor(Math.max(14, Math.min(28, byWidth, byHeight))) + "px");
}

function clueCell(td, kind, i) {
  td.className = (kind === "row" ? "row-clue" : "col-clue") + " clue";
  td.dataset.line = `${kind} ${i + 1}`;
  td.addEventListener("click", (e) => { if (e.target.tagName !== "INPUT") editLine(kind, i); });
  scan.clues[kind].push(td);
}

function clueOf(kind, i) { return (kind === "row" ? scan.p.rows : scan.p.cols)[i]; }
function coloursOf(kind, i) { return (kind === "row" ? scan.p.rowColours : scan.p.colColours)[i]; }

/* A colour puzzle's colours and the letter that types each (3r: a 3 in that colour). */
function showColours() {
  const legend = $("scan-colours"), palette = scan.p.palette;
  legend.textContent = "";
  legend.hidden = !palette;
  if (!palette) return;
  legend.append("Colours (type a letter after a number, 3r, to give it that colour):");
  palette.slice(1).forEach((c, j) => {
    const swatch = document.createElement("span");
    swatch.className = "num";
    swatch.textContent = c.char;
    tint(swatch, j + 1);
    legend.append(" ", swatch, ` ${c.name}`);
  });
}

/* A colour puzzle's number in its colour: the box's fill, the digit dark or white as it reads best (board.js). */
function tint(el, k) {
  const rgb = scan.p.palette[k].rgb;
  el.style.background = rgb;
  el.style.color = inkOn(rgb);
  el.classList.add("boxed");
}

function drawClue(kind, i) {
  const td = scan.clues[kind][i];
  if (scan.editing && scan.editing.td === td) return;
  td.textContent = "";
  const numbers = clueOf(kind, i).length ? clueOf(kind, i) : [0];
  numbers.forEach((n, j) => {
    if (j && kind === "column") td.appendChild(document.createElement("br"));
    const span = document.createElement("span");
    span.className = "num";
    span.textContent = n;
    if (scan.p.palette && n) tint(span, coloursOf(kind, i)[j]);
    td.appendChild(span);
  });
}

/* Suspects outlined (red, with why and how sure in the tooltip and the list), the author's lines green. */
function drawMarks() {
  const named = new Map(scan.suspects.map((s) => [s.line, s]));
  for (const kind of ["row", "column"]) {
    scan.clues[kind].forEach((td, i) => {
      const line = `${kind} ${i + 1}`, s = named.get(line);
      td.classList.toggle("suspect", Boolean(s));
      td.classList.toggle("set", scan.set.has(line));
      td.title = s ? `${line}: ${s.why} (read with confidence ${s.confidence})` : scan.set.has(line) ? `${line}: as you typed it` : line;
    });
  }
  const list = $("scan-suspects");
  list.textContent = "";
  for (const s of scan.suspects) {
    const li = document.createElement("li"), button = document.createElement("button");
    button.type = "button";
    button.textContent = `${s.line}: ${s.clue.join(" ")}`;
    button.addEventListener("click", () => openLine(s.line));
    li.append(button, ` ${s.why} (confidence ${s.confidence})`);
    li.dataset.line = s.line;
    list.appendChild(li);
  }
  $("scan-suspect-count").textContent = scan.suspects.length;
  $("scan-set").textContent = scan.set.size;
  drawPage();
}

/* The solution in the cells (unique); for several, one of them pale, the cells a second one changes striped. */
function drawSolution() {
  const ambiguous = new Set(scan.ambiguous.map(([r, c]) => r + "," + c));
  $("scan-board").classList.toggle("several", ambiguous.size > 0);
  const given = new Map(scan.p.givens.map(([r, c, k]) => [r + "," + c, k]));
  scan.cells.forEach((row, r) => row.forEach((td, c) => {
    const k = scan.solution ? scan.solution[r][c] : 0;
    td.classList.toggle("ink", Boolean(k) && !scan.p.palette);
    td.style.background = k && scan.p.palette ? scan.p.palette[k].rgb : "";
    td.classList.toggle("amb", ambiguous.has(r + "," + c));
    td.classList.toggle("given", given.has(r + "," + c));  // printed on the page: told, not found
  }));
}

/* --- correcting a clue ----------------------------------------------------------------------------------- */

function openLine(line) {
  const [kind, n] = line.split(" ");
  editLine(kind, Number(n) - 1);
}

/* Line i's clue open for typing (its numbers selected): Enter keeps it, Tab keeps a change and moves on,
 * Escape leaves it as it was; a click elsewhere keeps it. */
function editLine(kind, i) {
  if (scan.editing) keepEdit(false);
  if (scan.editing) return;  // what was typed is no clue: it stays open to be put right
  const td = scan.clues[kind][i], input = document.createElement("input");
  input.className = "clue-input" + (kind === "column" && i >= scan.p.cols.length / 2 ? " far" : "");
  scan.move = 0;
  const chars = scan.p.palette ? coloursOf(kind, i).map((k) => scan.p.palette[k].char) : [];
  input.value = clueOf(kind, i).map((n, j) => n + (chars[j] || "")).join(" ");
  input.spellcheck = false;
  input.setAttribute("aria-label", `${kind} ${i + 1}: the numbers of its clue`);
  scan.editing = { kind, i, td, input };
  td.classList.add("current");
  td.appendChild(input);
  input.focus();
  input.select();
  input.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === "Tab") {
      e.preventDefault();
      const step = e.shiftKey ? -1 : 1;
      const kept = keepEdit(e.key === "Enter");
      if (kept === true) nextSuspect(step);
      else if (kept === "proving") scan.move = step;  // the suspects after a correction are the proof's
    } else if (e.key === "Escape") {
      e.preventDefault();
      closeEditor();
    }
  });
  input.addEventListener("blur", () => { if (scan.editing && scan.editing.input === input) keepEdit(false); });
  drawPage();
}

/* The typed numbers into the clue (`confirm`: the author says it is right even unchanged, so it is sure now);
 * the proof is asked again when the clue or its confidence changed ("proving"). False: not a clue, the editor
 * stays. */
function keepEdit(confirm) {
  const { kind, i, input } = scan.editing;
  const text = input.value.trim(), typed = typedClue(text);
  if (!typed) {
    $("scan-status").textContent = scan.p.palette
      ? "a clue is whole numbers, each with its colour's letter or none, e.g. 3r 1 2g (0 or nothing: an empty line)"
      : "a clue is whole numbers, e.g. 3 1 2 (0 or nothing: an empty line)";
    return false;
  }
  $("scan-status").textContent = "";
  const clue = clueOf(kind, i), conf = kind === "row" ? scan.p.rowConf : scan.p.colConf;
  const colours = coloursOf(kind, i), last = colours.length ? colours[colours.length - 1] : 1;
  const numbers = typed.map(([n]) => n);  // a number typed without a letter keeps the colour of the one it replaces
  const tints = typed.map(([, k], j) => k || (j < colours.length ? colours[j] : last));
  const changed = numbers.join(" ") !== clue.join(" ") || tints.join(" ") !== colours.join(" ");
  closeEditor();
  if (!changed && !confirm) return true;
  colours.splice(0, colours.length, ...tints);
  clue.splice(0, clue.length, ...numbers);
  const sure = conf[i] === 1;
  conf[i] = 1;
  scan.set.add(`${kind} ${i + 1}`);
  drawClue(kind, i);
  drawMarks();
  if (!changed && sure) return true;
  scanCheck();
  return "proving";
}

/* The typed clue as [number, colour] pairs (colour 0: none typed), zeros left out; null when it is no clue. */
function typedClue(text) {
  if (!text) return [];
  const palette = scan.p.palette, pairs = [];
  for (const word of text.split(/[\s,]+/)) {
    const m = /^([0-9]+)([a-z]?)$/i.exec(word);
    if (!m || (m[2] && !palette)) return null;
    const k = m[2] ? palette.findIndex((c, j) => j > 0 && c.char.toLowerCase() === m[2].toLowerCase()) : 0;
    if (k < 0) return null;
    if (Number(m[1]) > 0) pairs.push([Number(m[1]), k]);
  }
  return pairs;
}

function closeEditor() {
  const editing = scan.editing;
  if (!editing) return;
  scan.editing = null;
  scan.last = `${editing.kind} ${editing.i + 1}`;
  editing.td.classList.remove("current");
  editing.input.remove();
  drawClue(editing.kind, editing.i);
  drawPage();
}

/* The suspect after (step 1) or before (-1) the line left last, open for typing. */
function nextSuspect(step) {
  const lines = scan.suspects.map((s) => s.line);
  if (!lines.length) return;
  const at = lines.indexOf(scan.last);
  const next = at < 0 ? (step > 0 ? 0 : lines.length - 1) : (at + step + lines.length) % lines.length;
  if (lines[next] !== scan.last) openLine(lines[next]);
}

/* --- the proof ------------------------------------------------------------------------------------------- */

function scanClues() {
  return { rows: scan.p.rows, cols: scan.p.cols, palette: scan.p.palette, row_colours: scan.p.rowColours,
    col_colours: scan.p.colColours, givens: scan.p.givens,
    row_confidence: scan.p.rowConf, col_confidence: scan.p.colConf,
    legible: scan.p.legible, confirmed: [...scan.set],
    title: $("doc-title").value, author: $("doc-author").value, license: $("doc-license").value };
}

async function scanCheck() {
  const seq = ++scan.seq;
  if (scan.abort) scan.abort.abort();
  const abort = scan.abort = new AbortController();
  const started = performance.now();
  verdictIn("scan-verdict", "checking", "checking...");
  $("scan-grade").textContent = "...";
  try {
    await StudioApi.stream("/api/scan/check", { clues: scanClues() }, abort.signal, (m) => {
      if (seq !== scan.seq) return false;
      scanChecked(m, started);
      return true;
    }, (error) => { if (seq === scan.seq) { say(error); verdictIn("scan-verdict", "error", "error"); } });
  } catch (err) {
    if (err.name !== "AbortError" && seq === scan.seq) say("the studio's server cannot be reached: " + err.message);
  }
  if (seq === scan.seq) $("scan-verdict").dataset.done = seq;
}

function scanChecked(m, started) {
  if (m.error) { say(m.error); verdictIn("scan-verdict", "error", "error"); return; }
  if (m.cancelled) return;
  if (m.verdict) {
    say("");
    verdictIn("scan-verdict", m.verdict, m.verdict === "multiple" ? "not unique" : m.verdict);
    $("scan-difficulty").textContent = m.verdict === "unique" ? `(solved by ${m.difficulty} logic)` : m.message || "";
    $("scan-latency").textContent = `verdict in ${Math.round(performance.now() - started)} ms`;
    $("scan-grade").textContent = "-";
    scan.suspects = m.suspects;
    scan.solution = null;
    scan.ambiguous = [];
    drawMarks();
    drawSolution();
    if (scan.move && !scan.editing) nextSuspect(scan.move);
    scan.move = 0;
  }
  if (m.solution) {
    scan.solution = m.solution;
    scan.ambiguous = m.ambiguous;
    drawSolution();
  }
  if (m.grade !== undefined) $("scan-grade").textContent = m.grade ? `${m.grade} ${m.grade_name}` : "-";
}

/* Enter or Tab with no clue open (and nothing else taking keys) opens the next suspect. */
function scanKey(e) {
  if ($("scan-view").hidden || scan.editing || !scan.p || (e.key !== "Enter" && e.key !== "Tab")) return;
  if (e.target !== document.body && (!e.target.closest("#scan-view") || e.target.closest("input, select, button"))) return;
  e.preventDefault();
  nextSuspect(e.shiftKey ? -1 : 1);
}

function wireScanning() {
  $("scan-which").addEventListener("change", () => choosePuzzle(Number($("scan-which").value)));
  $("scan-image").addEventListener("click", (e) => {
    const at = scan.p && lineAt(e);
    if (at) editLine(at[0], at[1]);
  });
  document.addEventListener("keydown", scanKey);
  window.addEventListener("resize", () => { if (scan.p) { fitClues(); drawPage(); } });
}
