/* Suggestions (givens or cell changes that reach a goal) and saving into the folder. Saving asks first
 * before it replaces a file, and before it writes a puzzle that is not unique as the file would hold it (the
 * server proves it; a format without givens loses them): the question names the problem and offers the fix. */
"use strict";

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
  const then = s.status === "multiple" ? "then still not unique" : `then ${s.status}${s.grade ? ", grade " + s.grade : ""}`;
  $("suggestion").textContent = parts.length ? `${parts.join(" and ")} (outlined in blue); ${then}` +
    (s.message ? ` (${s.message})` : "") : `nothing to do: ${s.message || "already there"}`;
  $("apply").hidden = !parts.length;
  mark();
  check();  // the verdict again (the suggestion stopped it), with the suggested cells outlined
}

function applySuggestion() {
  if (!state.suggestion) return;
  applyFix(state.suggestion);
  $("suggestion").textContent = "applied";
}

/* Cell changes and givens into the document: one edit, checked and kept in the history. */
function applyFix(fix) {
  for (const [r, c, v] of fix.edits) state.doc.grid[r][c] = v;
  const have = new Set(state.doc.givens.map(([r, c]) => r + "," + c));
  for (const [r, c] of fix.givens) if (!have.has(r + "," + c)) state.doc.givens.push([r, c]);
  board.refresh();
  edited();
  commit();
}

/* --- saving ------------------------------------------------------------------------------------ */

function setSaveName() {
  const [, , ext] = FORMATS.find(([f]) => f === $("save-format").value);
  const stem = (state.stem || (state.doc && state.doc.title) || "puzzle").replace(/[^\w.-]+/g, "-").replace(/^[.-]+/, "") || "puzzle";
  $("save-name").value = stem + ext;
}

/* Save; `overwrite` and `accept` are the author's answers to the two questions (replace the file; write it
 * although it is not unique). */
async function save(overwrite, accept) {
  hideConfirm();
  state.saving = { overwrite, accept };
  $("save-status").textContent = "saving...";
  const name = $("save-name").value;
  const body = { name, format: $("save-format").value, overwrite, accept };
  if ($("scan-view").hidden) body.doc = state.doc; else body.clues = scanClues();  // a scanned puzzle: its clues
  const res = await api("/api/save", body);
  if (res.data.cancelled) return;  // a newer save of this tab took its place: its answer says what happened
  if (res.data.confirm) { askUnique(res.data.confirm); return; }
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


/* The puzzle as the file would hold it is not unique: say why, outline the fix, and wait for the author. */
function askUnique(problem) {
  const fix = problem.fix || { givens: [], edits: [] }, parts = [];  // a scanned puzzle's fix is the author's
  if (fix.givens.length) parts.push(`add ${fix.givens.length} given${fix.givens.length > 1 ? "s" : ""}`);
  if (fix.edits.length) parts.push(`change ${fix.edits.length} cell${fix.edits.length > 1 ? "s" : ""}`);
  const fixes = fix.status === "unique" && parts.length > 0;
  $("unique-question").textContent = `Not saved: ${problem.message}.` + (fixes
    ? ` To make it unique, ${parts.join(" and ")} (outlined in blue).` : problem.fix ? " No fix was found in time." : "");
  $("unique-confirm").dataset.format = problem.format;
  $("fix-and-save").hidden = !fixes;
  $("fix-and-save").textContent = `${parts.join(" and ").replace(/^./, (ch) => ch.toUpperCase())}, then save`;
  $("unique-confirm").hidden = false;
  $("unique-confirm").scrollIntoView({ block: "nearest" });
  $("save-status").textContent = "";
  state.suggestion = fixes ? { givens: fix.givens, edits: fix.edits, fix: true } : null;
  if (problem.fix) mark();
}

function fixAndSave() {
  const fix = state.suggestion;
  if (!fix) return;
  const { overwrite } = state.saving;
  applyFix(fix);
  save(overwrite, false);
}

/* A question about a document that has changed since is stale: both go. */
function hideConfirm() {
  $("save-confirm").hidden = true;
  $("unique-confirm").hidden = true;
}

function wireSaving() {
  for (const button of document.querySelectorAll("#suggest button[data-goal]")) {
    button.addEventListener("click", () => suggest(button.dataset.goal));
  }
  $("apply").addEventListener("click", applySuggestion);
  for (const [value, label] of FORMATS) $("save-format").add(new Option(label, value));
  $("save-format").addEventListener("change", setSaveName);
  $("save-button").addEventListener("click", () => save(false, false));
  $("overwrite").addEventListener("click", () => save(true, state.saving.accept));
  $("cancel-save").addEventListener("click", hideConfirm);
  $("fix-and-save").addEventListener("click", fixAndSave);
  $("save-anyway").addEventListener("click", () => save(state.saving.overwrite, true));
  $("cancel-unique").addEventListener("click", () => { hideConfirm(); state.suggestion = null; mark(); });
}
