/* Levels made from 3D models (the model's options, its report beside the editor), and the folder's files (a
 * puzzle, a picture or a model opened from it). */
"use strict";

/* --- meshes ------------------------------------------------------------------------------------ */

function meshOptions() {
  return { size: Number($("mesh-size").value) || undefined, hide: $("mesh-hide").value, line_solvable: $("mesh-line").checked,
    up: $("mesh-up").value, turn: $("mesh-turn").value };
}

/* A model's level: into the 3D editor, with how the model was turned and why, its warnings and a picture of it. */
function makeLevel(res) {
  $("mesh-status").textContent = "";
  if (res.data.cancelled) return;
  if (res.data.error) { say(res.data.error); return; }
  const report = res.data.report;
  const turned = report.orientation;
  $("mesh-why").textContent = turned ? `up ${turned.up}, turned ${turned.turn}\u00b0: ${turned.why}` : "";
  $("mesh-why").dataset.up = turned ? turned.up : "";
  $("mesh-why").dataset.turn = turned ? turned.turn : "";
  $("mesh-warnings").innerHTML = "";
  for (const w of report.warnings || []) {
    const li = document.createElement("li");
    li.textContent = w;
    $("mesh-warnings").appendChild(li);
  }
  $("mesh-notes").textContent = `made ${report.size.join("x")}: ${(report.notes || []).join("; ")}`;
  $("level-shape").src = res.data.solution_png;
  $("level-model").hidden = $("model-options").hidden = false;
  loadLevel(res.data.level);
}

async function remesh() {
  say("");
  $("mesh-status").textContent = "making...";
  makeLevel(await api("/api/remesh", { options: meshOptions() }));
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
  if (isPage(name)) return scanOpen(name);
  say("");
  const seq = ++state.importSeq;
  if (!isModel(name)) newPicture();
  const options = isModel(name) ? meshOptions() : pictureOptions();
  const res = await api("/api/open", { name, options });
  if (seq !== state.importSeq) return;
  if (isModel(name)) makeLevel(res);
  else if (res.data.level) { $("level-model").hidden = $("model-options").hidden = true; loadLevel(res.data.level); }
  else imported(res, name, seq);
}

