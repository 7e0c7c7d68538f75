/* The studio's board: the grid with its clues, drawn on with the tools (pencil, line, rectangle, flood fill,
 * givens, and tools other modules add: the tracing tools of trace.js), with the engine's findings on top. It
 * knows nothing about the server: it draws a document, calls onEdit() after every change a check should see and
 * onCommit() when an edit is finished (a stroke ends). With a picture under it (`see`, 0 to 1), its cells let
 * the picture through: background by that share, other colours by half of it. */
"use strict";

function lineClue(values) {
  const clue = [];
  let run = 0, color = 0;
  for (const v of values.concat([0])) {
    if (v === color && v !== 0) { run++; continue; }
    if (color !== 0) clue.push([run, color]);
    color = v; run = 1;
  }
  return clue;
}

function inkOn(rgb) {
  const n = parseInt(rgb.slice(1), 16);
  const luma = 0.299 * (n >> 16) + 0.587 * ((n >> 8) & 255) + 0.114 * (n & 255);
  return luma > 150 ? "#111111" : "#ffffff";
}

function translucent(rgb, alpha) {
  const n = parseInt(rgb.slice(1), 16);
  return `rgba(${n >> 16}, ${(n >> 8) & 255}, ${n & 255}, ${alpha.toFixed(3)})`;
}

const MAX_CELL = 40, MIN_CELL = 12, WANTED_CELL = 24;  // px: the cell size the grid takes when it fits

class Board {
  constructor(table, onEdit, onCommit) {
    this.table = table;
    this.onEdit = onEdit;
    this.onCommit = onCommit;
    this.doc = null;
    this.active = 1;          // palette index painted
    this.tool = "paint";      // "paint" (pencil), "line", "rect", "fill" or "given"
    this.painting = null;     // the value a drag paints, while the button is down
    this.shape = null;        // a line or rectangle being drawn: {from, value, base}
    this.custom = {};         // tools of other modules by name: {down(at, event), over(at), up()}
    this.using = null;        // the custom tool whose button is down
    this.see = 0;             // how much of a picture under the grid shows through the cells (0: none)
    table.addEventListener("mousedown", (e) => this.down(e));
    table.addEventListener("mouseover", (e) => this.over(e));
    table.addEventListener("contextmenu", (e) => { if (e.target.closest("td.cell")) e.preventDefault(); });
    document.addEventListener("mouseup", () => this.up());
    window.addEventListener("resize", () => { if (this.doc) this.fit(); });
  }

  /* Cells as large as the space allows: the whole width, and the height down to WANTED_CELL px (below that
   * the page scrolls rather than shrink the cells further). Clues are sized from the cell. */
  fit() {
    const wrap = this.table.parentElement, grid = this.doc.grid;
    const H = grid.length, W = grid[0].length;
    const rowClue = Math.max(1, ...grid.map((row) => lineClue(row).length));
    const colClue = Math.max(1, ...grid[0].map((_, c) => lineClue(grid.map((row) => row[c])).length));
    const beside = wrap.nextElementSibling;  // the picture beside the grid takes its room first
    const width = wrap.parentElement.clientWidth - 24 - (beside && !beside.hidden ? beside.offsetWidth + 12 : 0);
    const height = window.innerHeight - wrap.getBoundingClientRect().top - 60;
    const byWidth = width / (W + 0.75 * rowClue + 1), byHeight = height / (H + 0.75 * colClue + 1);
    const cell = Math.floor(Math.max(MIN_CELL, Math.min(MAX_CELL, byWidth, Math.max(byHeight, WANTED_CELL))));
    this.table.style.setProperty("--cell", cell + "px");
    this.table.dataset.cell = cell;
  }

  /* A new document (or a new size): rebuild the table. */
  load(doc) {
    this.doc = doc;
    const H = doc.grid.length, W = doc.grid[0].length;
    this.table.innerHTML = "";
    const head = this.table.insertRow();
    head.insertCell().className = "corner";
    this.colClues = [];
    for (let c = 0; c < W; c++) {
      const td = head.insertCell();
      td.className = "col-clue";
      td.dataset.col = c;
      this.colClues.push(td);
    }
    this.cells = [];
    this.rowClues = [];
    for (let r = 0; r < H; r++) {
      const tr = this.table.insertRow();
      const clue = tr.insertCell();
      clue.className = "row-clue";
      clue.dataset.row = r;
      this.rowClues.push(clue);
      const row = [];
      for (let c = 0; c < W; c++) {
        const td = tr.insertCell();
        td.className = "cell";
        td.dataset.r = r;
        td.dataset.c = c;
        if (c % 5 === 4 && c !== W - 1) td.classList.add("edge-right");
        if (r % 5 === 4 && r !== H - 1) td.classList.add("edge-bottom");
        row.push(td);
      }
      this.cells.push(row);
    }
    this.refresh();
    this.fit();
  }

  /* Colours, givens and every clue drawn again from the document (after a palette change, say). While a
   * stroke is drawn the clues wait for its end: clues that grow would move the grid under the pointer. */
  refresh() {
    const grid = this.doc.grid;
    this.givens = new Set(this.doc.givens.map(([r, c]) => r + "," + c));
    grid.forEach((row, r) => row.forEach((_, c) => this.paintCell(r, c)));
    if (!this.stroking()) this.drawClues();
  }

  drawClues() {
    const grid = this.doc.grid;
    grid.forEach((_, r) => this.drawClue(this.rowClues[r], lineClue(grid[r]), false));
    grid[0].forEach((_, c) => this.drawClue(this.colClues[c], lineClue(grid.map((row) => row[c])), true));
  }

  stroking() { return this.painting !== null || this.shape !== null || this.using !== null; }

  paintCell(r, c) {
    const td = this.cells[r][c], value = this.doc.grid[r][c], rgb = this.doc.palette[value].rgb;
    td.style.background = this.see > 0 ? translucent(rgb, 1 - (value === 0 ? this.see : this.see / 2)) : rgb;
    td.classList.toggle("given", this.givens.has(r + "," + c));
  }

  drawClue(td, clue, vertical) {
    td.innerHTML = "";
    const palette = this.doc.palette, colored = palette.length > 2;
    for (const [length, color] of clue) {
      const span = document.createElement("span");
      span.className = "num";
      span.textContent = length;
      if (colored) {
        span.style.background = palette[color].rgb;
        span.style.color = inkOn(palette[color].rgb);
      }
      td.appendChild(span);
      if (vertical) td.appendChild(document.createElement("br"));
    }
  }

  cellOf(e) {
    const td = e.target.closest("td.cell");
    return td ? [Number(td.dataset.r), Number(td.dataset.c)] : null;
  }

  down(e) {
    const at = this.cellOf(e);
    if (!at) return;
    e.preventDefault();
    const [r, c] = at;
    if (this.tool === "given") return this.toggleGiven(r, c);
    if (this.custom[this.tool]) {
      this.using = this.custom[this.tool];
      return this.using.down(at, e);
    }
    const now = this.doc.grid[r][c];
    const value = e.button === 2 ? 0 : this.active;
    if (this.tool === "fill") {
      if (now !== value) this.draw(StudioTools.flood(this.doc.grid, at), value);
      return this.onCommit();
    }
    if (this.tool === "line" || this.tool === "rect") {
      this.shape = { from: at, value, base: this.doc.grid.map((row) => row.slice()) };
      return this.draw([at], value);
    }
    this.painting = e.button === 2 || now === this.active ? 0 : this.active;
    this.set(r, c, this.painting);
  }

  over(e) {
    const at = this.cellOf(e);
    if (!at) return;
    if (this.using) {
      if (this.using.over) this.using.over(at);
    } else if (this.shape) {  // the shape from where the button went down to here, over the grid as it was
      this.doc.grid = this.shape.base.map((row) => row.slice());
      this.draw(StudioTools[this.tool](this.shape.from, at), this.shape.value);
    } else if (this.painting !== null) {
      this.set(at[0], at[1], this.painting);
    }
  }

  up() {
    if (!this.stroking()) return;
    const using = this.using;
    this.painting = this.shape = this.using = null;
    this.drawClues();
    if (!using) this.onCommit();
    else if (using.up) using.up();  // a custom tool commits its own edit (one that waits for the server, later)
  }

  toggleGiven(r, c) {
    const key = r + "," + c;
    this.doc.givens = this.givens.has(key)
      ? this.doc.givens.filter(([gr, gc]) => gr !== r || gc !== c) : this.doc.givens.concat([[r, c]]);
    this.givens = new Set(this.doc.givens.map(([gr, gc]) => gr + "," + gc));
    this.paintCell(r, c);
    this.onEdit();
    this.onCommit();
  }

  /* Many cells at once (a shape, a fill): every cell and clue drawn again, one check. */
  draw(cells, value) {
    for (const [r, c] of cells) this.doc.grid[r][c] = value;
    this.refresh();
    this.onEdit();
  }

  /* Cells set to values of their own (`[row, col, value]`, a tracing tool's answer): one check; the clues wait
   * for the end of a stroke. */
  put(changes) {
    for (const [r, c, v] of changes) this.doc.grid[r][c] = v;
    this.refresh();
    this.onEdit();
  }

  /* One cell changed by hand: its colour, its row's and column's clues, then the engine is asked again. */
  set(r, c, value) {
    const grid = this.doc.grid;
    if (grid[r][c] === value) return;
    grid[r][c] = value;
    this.paintCell(r, c);
    if (!this.stroking()) {
      this.drawClue(this.rowClues[r], lineClue(grid[r]), false);
      this.drawClue(this.colClues[c], lineClue(grid.map((row) => row[c])), true);
    }
    this.onEdit();
  }

  /* The ambiguity map: per cell, how many ambiguous cells it settles (heat: that share of all of them). */
  heat(scores, before) {
    this.cells.forEach((row, r) => row.forEach((td, c) => {
      const n = scores ? scores.get(r + "," + c) : undefined;
      const on = n !== undefined && n > 0;
      td.classList.toggle("heat", on);
      td.style.setProperty("--heat", on ? (0.25 + 0.75 * n / Math.max(1, before)).toFixed(2) : "0");
      if (on) td.dataset.settles = n; else delete td.dataset.settles;
    }));
  }

  /* The engine's findings: ambiguous cells, and how far the line-logic replay has come at step `upTo`. */
  mark(ambiguous, replay, upTo, suggested) {
    const amb = new Set((ambiguous || []).map(([r, c]) => r + "," + c));
    const hint = new Set((suggested || []).map(([r, c]) => r + "," + c));
    this.cells.forEach((row, r) => row.forEach((td, c) => {
      const key = r + "," + c;
      td.classList.toggle("amb", amb.has(key));
      td.classList.toggle("suggested", hint.has(key));
      const step = replay ? replay.step[r][c] : 0;
      // faded: not yet fixed at this step of the replay; cells never fixed fade only before the last step
      const last = replay ? replay.kinds.length - 1 : 0;
      td.classList.toggle("later", replay !== null && upTo !== null && (step < 0 ? upTo < last : step > upTo));
      td.classList.toggle("open", replay !== null && step < 0);
    }));
  }
}

window.StudioBoard = { Board, lineClue, inkOn, translucent };
