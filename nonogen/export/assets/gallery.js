// The gallery page (nonogen gallery): filter and sort the rows, pick puzzles, download the selection file.
// Rows carry their sort keys as data attributes (data-name, data-grade, data-recog, data-cells, data-kinds);
// nothing here fetches anything: the selection leaves the page as a Blob download.
(function () {
  "use strict";
  const config = JSON.parse(document.getElementById("gallery").textContent);
  const body = document.querySelector("#puzzles tbody");
  const rows = Array.from(body.querySelectorAll("tr.puzzle"));
  const grade = document.getElementById("grade");
  const warning = document.getElementById("warning");
  const sort = document.getElementById("sort");
  const download = document.getElementById("download");
  const preview = document.getElementById("selection");

  function number(row, key) {
    const text = row.dataset[key];
    return text === "" || text === undefined ? null : Number(text);
  }

  // Missing values sort last whichever way a key runs; ties fall back to the name.
  const keys = {
    grade: (row) => [number(row, "grade"), 1],
    recog: (row) => [number(row, "recog"), -1],
    size: (row) => [number(row, "cells"), 1],
    name: () => [null, 1],
  };

  function compare(a, b) {
    const [x, way] = keys[sort.value](a);
    const [y] = keys[sort.value](b);
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return (x - y) * way;
    }
    return a.dataset.name < b.dataset.name ? -1 : a.dataset.name > b.dataset.name ? 1 : 0;
  }

  function passes(row) {
    const g = grade.value;
    if (g === "none" && row.dataset.grade !== "") return false;
    if (g !== "" && g !== "none" && row.dataset.grade !== g) return false;
    const kinds = row.dataset.kinds ? row.dataset.kinds.split("|") : [];
    const w = warning.value;
    if (w === "none") return kinds.length === 0;
    if (w === "some") return kinds.length > 0;
    if (w.startsWith("kind:")) return kinds.includes(w.slice(5));
    return true;
  }

  function show() {
    rows.sort(compare);
    let shown = 0;
    for (const row of rows) {
      body.appendChild(row);
      row.hidden = !passes(row);
      if (!row.hidden) shown += 1;
    }
    document.getElementById("shown").textContent = `${shown} of ${rows.length} shown`;
  }

  function picked() {
    return rows.filter((row) => row.querySelector("input.pick").checked).map((row) => row.dataset.name);
  }

  function selectionText() {
    return JSON.stringify({ collection: config.collection, names: picked() }, null, 1) + "\n";
  }

  function update() {
    const names = picked();
    for (const row of rows) row.classList.toggle("picked", row.querySelector("input.pick").checked);
    document.getElementById("count").textContent = `${names.length} selected`;
    download.disabled = names.length === 0;
    preview.textContent = names.length ? selectionText() : "";
  }

  function save() {
    const blob = new Blob([selectionText()], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = config.file;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 60000);
  }

  grade.addEventListener("change", show);
  warning.addEventListener("change", show);
  sort.addEventListener("change", show);
  body.addEventListener("change", update);
  document.getElementById("select-shown").addEventListener("click", () => {
    for (const row of rows) if (!row.hidden) row.querySelector("input.pick").checked = true;
    update();
  });
  document.getElementById("clear").addEventListener("click", () => {
    for (const row of rows) row.querySelector("input.pick").checked = false;
    update();
  });
  download.addEventListener("click", save);
  show();
  update();
  window.nonogenGallery = { picked, selectionText };
})();
