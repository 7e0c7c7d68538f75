// nonogen: the 2D page's assists, each a switch the player turns on (all off at first; the choice is kept in
// this browser, under "nonogen-assists-2d", for every puzzle):
//   show mistakes   every cell that differs from the stored picture is flagged as the player sets it: a fill
//                   of the wrong colour or where the picture is empty, an empty-mark where it is filled;
//   mark obvious    a ring on every unknown cell that line logic (linesolve.js, the engine's) proves empty in
//                   its row or its column, read alone, from the player's own marks; no cascade: a ring counts
//                   for nothing until the player marks the cell, so each ring follows from what is on the grid;
//   line progress   the clue of every line where line logic settles a cell the grid does not show yet (from the
//                   player's marks and, with mark obvious on, its rings): the lines worth a look now;
//   long press      (on at first) a finger held still on a cell does the other thing (marks empty, or fills in
//                   the ✕ mode); off, a finger only taps and drags, for players whose fingers rest by accident.
// A plain script that sets window.nonogenAssists; play2d.js draws what compute(values) returns.
"use strict";
window.nonogenAssists = (() => {
  const P = window.nonogenPage.puzzle;
  const STORE = "nonogen-assists-2d";
  const NAMES = ["mistakes", "obvious", "progress"];          // the assists, counted on the button
  const on = { mistakes: false, obvious: false, progress: false, longpress: true };
  const solution = P.solution.flat();

  try {
    const kept = JSON.parse(localStorage.getItem(STORE) || "{}");
    for (const name of NAMES) on[name] = kept[name] === true;
    on.longpress = kept.longpress !== false;
  } catch (err) { /* nothing kept, or storage off: all off */ }

  function keep() {
    try { localStorage.setItem(STORE, JSON.stringify({ version: 1, ...on })); } catch (err) { /* unsaved */ }
  }

  // A value the stored picture does not have there (-1 unknown, 0 empty, 1.. colours).
  const isMistake = (v, want) => (v > 0 && v !== want) || (v === 0 && want > 0);

  // What the switches that are on show for the grid `values` (the player's own, row by row):
  // {mistakes: Set of cells, obvious: Set of cells, progress: {row: Set, col: Set} of line indices}.
  function compute(values) {
    const out = { mistakes: new Set(), obvious: new Set(), progress: { row: new Set(), col: new Set() } };
    if (on.mistakes) values.forEach((v, i) => { if (isMistake(v, solution[i])) out.mistakes.add(i); });
    if (!on.obvious && !on.progress) return out;
    const read = (grid) => window.nonogenLine.everyLine(P.rows, P.cols, grid, P.palette.length) || [];
    const lines = read(values);
    if (on.obvious) {
      for (const line of lines) if (!line.contradiction) for (const t of line.empty) out.obvious.add(line.at[t]);
    }
    if (on.progress) {
      for (const line of out.obvious.size ? read(shown(values, out)) : lines) {
        if (!line.contradiction && line.settled.length) out.progress[line.kind].add(line.index);
      }
    }
    return out;
  }

  // The grid as the player sees it: their marks and the obvious rings as empty cells.
  function shown(values, result) {
    const grid = Array.from(values);
    for (const i of result.obvious) grid[i] = 0;
    return grid;
  }

  // The switches (#assist-mistakes, ...) and the button that opens their panel, which counts those on.
  function wire(onChange) {
    const toggle = document.getElementById("assists-toggle"), panel = document.getElementById("assists");
    const label = () => {
      const n = NAMES.filter((name) => on[name]).length;
      toggle.textContent = n ? `Assists (${n})` : "Assists";
    };
    toggle.addEventListener("click", () => {
      panel.hidden = !panel.hidden;
      toggle.setAttribute("aria-expanded", String(!panel.hidden));
    });
    for (const name of [...NAMES, "longpress"]) {
      const box = document.getElementById(`assist-${name}`);
      box.checked = on[name];
      box.addEventListener("change", () => {
        on[name] = box.checked;
        keep();
        label();
        onChange();
      });
    }
    label();
  }

  return { on, compute, shown, wire, isMistake };
})();
