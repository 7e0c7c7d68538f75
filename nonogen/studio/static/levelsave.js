/* Saving a level into the folder, in every 3D format nonogen writes (a level folder as `nonogen mesh` writes it,
 * nonogen-3d JSON, nathsou/Picross3D JSON, ytakata69's text, the play page), and test-playing it. The server proves
 * the level unique as the file will hold it (the two games' formats drop revealed cubes); when it is not, nothing
 * is written and the page asks, with the fix: cubes to reveal, hidden clues to show again, or cubes to change. */
"use strict";

const LEVEL_FORMATS = [
  ["folder", "level folder (what nonogen mesh writes)", ""], ["nonogen-3d", "nonogen-3d JSON (.json)", ".json"],
  ["picross3d-nathsou", "nathsou/Picross3D JSON (.json)", ".json"],
  ["picross3d-ytakata", "ytakata69 picross3d text (.txt)", ".txt"], ["html", "play page (.html)", ".html"],
];

function setLevelSaveName() {
  if (!level.doc) return;
  const [kind, , ext] = LEVEL_FORMATS.find(([f]) => f === $("level-format").value);
  const from = (level.doc.source || "").replace(/\.[^.]*$/, "") || level.doc.title || "level";
  const stem = from.replace(/[^\w.-]+/g, "-").replace(/^[.-]+/, "") || "level";
  $("level-name").value = stem + (kind === "folder" ? "-level" : ext);
}

function hideLevelConfirm() {
  $("level-save-confirm").hidden = $("level-unique-confirm").hidden = true;
}

/* Save; `overwrite` and `accept` are the author's answers (replace the file; write it although it is not unique). */
async function saveLevel(overwrite, accept) {
  hideLevelConfirm();
  level.saving = { overwrite };
  const name = $("level-name").value, status = $("level-save-status");
  status.textContent = "saving...";
  status.dataset.saved = "";
  const res = await api("/api/level/save", { doc: level.doc, name, format: $("level-format").value, overwrite, accept });
  if (res.data.cancelled) return;  // a newer save of this tab took its place
  if (res.status === 409) {
    status.textContent = "";
    $("level-save-question").textContent = `${name} exists in the folder.`;
    $("level-save-confirm").hidden = false;
    return;
  }
  if (res.data.confirm) {
    status.textContent = "";
    level.fix = res.data.confirm.fix;
    $("level-unique-question").textContent = `${res.data.confirm.message}. Fix: ${describeFix(level.fix)}.`;
    $("level-unique-confirm").hidden = false;
    return;
  }
  if (res.data.error) { status.textContent = res.data.error; return; }
  const dropped = res.data.dropped && res.data.dropped.length ? ` (the format drops ${res.data.dropped.join(", ")})` : "";
  status.textContent = `saved ${res.data.saved}${res.data.status === "unique" ? ", proved unique as saved" : ""}${dropped}`;
  status.dataset.saved = res.data.saved;
  listFiles();
}

function describeFix(fix) {
  const n = (k, what) => `${k} ${what}${k === 1 ? "" : "s"}`;
  const parts = [];
  if (fix.givens.length) parts.push(`reveal ${n(fix.givens.length, "cube")}`);
  if (fix.shown.length) parts.push(`show ${n(fix.shown.length, "hidden clue")} again`);
  if (fix.edits.length) parts.push(`change ${n(fix.edits.length, "cube")}`);
  return (parts.join(" and ") || "none found") + (fix.status === "unique" ? "" : " (still not unique)");
}

/* The fix into the level (one edit, in the history), then, once the proof has answered, the save again: proved
 * again as the file will hold it before it writes. */
function fixLevelAndSave() {
  const fix = level.fix, doc = level.doc, [, Y, Z] = doc.size;
  const gone = new Set(fix.shown.map((l) => l.join()));
  doc.hidden = (doc.hidden || []).filter((l) => !gone.has(l.join()));
  doc.givens = doc.givens.concat(fix.givens);
  const chars = doc.cells.split("");
  for (const [x, y, z, v] of fix.edits) chars[(x * Y + y) * Z + z] = v ? CUBE_CODES[level.colour] : "0";
  doc.cells = chars.join("");
  const overwrite = level.saving.overwrite;
  level.then = () => saveLevel(overwrite, false);  // once the proof has chosen the hidden clues of the fixed level
  levelEdited(true);
}

/* --- test-play: the level's play page in a frame -------------------------------------------------------- */

async function testPlay() {
  const res = await api("/api/level/play", { doc: level.doc });
  if (res.data.cancelled) return;
  if (res.data.error) { say(res.data.error); return; }
  $("level-frame").src = StudioApi.levelUrl(++state.levels);
  $("level-play").hidden = false;
  $("level-edit").hidden = true;
}

function backToLevel() {
  $("level-play").hidden = true;
  $("level-edit").hidden = false;
  $("level-frame").src = "about:blank";
}

function wireLevelSaving() {
  const select = $("level-format");
  for (const [kind, label] of LEVEL_FORMATS) select.add(new Option(label, kind));
  select.addEventListener("change", setLevelSaveName);
  $("level-save-button").addEventListener("click", () => { level.accepted = false; saveLevel(false, false); });
  $("level-overwrite").addEventListener("click", () => saveLevel(true, level.accepted));
  $("level-cancel-save").addEventListener("click", hideLevelConfirm);
  $("level-fix-and-save").addEventListener("click", fixLevelAndSave);
  $("level-save-anyway").addEventListener("click", () => { level.accepted = true; saveLevel(level.saving.overwrite, true); });
  $("level-cancel-unique").addEventListener("click", hideLevelConfirm);
  $("level-test-play").addEventListener("click", testPlay);
  $("level-back").addEventListener("click", backToLevel);
}
