/* The page's wiring: every control to its handler (each module wires its own panel), then the folder's files. */
"use strict";

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
  $("replay").addEventListener("input", mark);
  wireEditing();
  wireSaving();
  wireSolving();
  wireTracing();
  $("remesh").addEventListener("click", remesh);
  wireLevel();
  wireLevelSaving();
  wireScanning();
  listFiles().then(() => {
    const name = StudioApi.opening;  // the file the command named: opened as if chosen in the folder's list
    if (!name) return;
    $("folder-files").value = name;
    if ($("folder-files").value === name) openFile(); else say(`${name}: no such file in the studio's folder`);
  });
}

wire();
window.nonogenStudio = { state, board, history, level };
