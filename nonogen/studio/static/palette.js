/* The palette editor: a swatch per colour (background first), chosen to paint with, recoloured, added, removed.
 * Every change is an edit of the document: checked, and kept in the history. */
"use strict";

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
    pick.addEventListener("change", () => { edited(); commit(); });
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
  commit();
}

function addColor() {
  const spare = ["#d62828", "#1d70b8", "#2a9d3f", "#f6c90e", "#8e44ad", "#e67e22", "#16a085", "#7f8c8d"];
  const used = new Set(state.doc.palette.map((c) => c.rgb));
  state.doc.palette.push({ rgb: spare.find((c) => !used.has(c)) || "#555555", name: "" });
  board.active = state.doc.palette.length - 1;
  board.refresh();
  drawPalette();
  edited();
  commit();
}

