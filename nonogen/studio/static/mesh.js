/* Levels made from 3D models, and the folder's files (a puzzle, a picture or a model opened from it). */
"use strict";

/* --- meshes ------------------------------------------------------------------------------------ */

function meshOptions() {
  return { size: Number($("mesh-size").value) || 10, hide: $("mesh-hide").value, line_solvable: $("mesh-line").checked };
}

function makeLevel(res) {
  if (res.data.cancelled) return;
  if (res.data.error) { say(res.data.error); return; }
  show("mesh");
  const report = res.data.report;
  const multiple = report.status === "multiple";  // "not unique" says it: a grade would read as "hard"
  $("mesh-verdict").textContent = multiple ? "not unique" : report.status;
  $("mesh-verdict").dataset.status = report.status;
  $("mesh-grade").textContent = report.grade && !multiple ? `${report.grade} (${report.grade_name})` : "-";
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
  if (res.data.cancelled) return;  // a newer save of this tab took its place
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

