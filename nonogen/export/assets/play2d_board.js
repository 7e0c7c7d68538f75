// nonogen: the 2D page's board, built once from the puzzle: the clue numbers (on colour puzzles, boxes in
// the clue's colour with readable ink), the grid of cells and the colour picker (the cells' size is
// play2d_touch.js's). Only building lives here, in window.nonogenBoard; play2d.js holds the game and draws its
// state onto these elements.
"use strict";
window.nonogenBoard = (() => {
  const P = window.nonogenPage.puzzle;
  const W = P.width, H = P.height;
  const COLOR = P.palette.length > 2;          // colour puzzles get coloured clue boxes and a picker

  // --- readable ink on a coloured clue box --------------------------------------------------------
  function luminance(hex) {
    const ch = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((u) => (u <= 0.03928 ? u / 12.92 : ((u + 0.055) / 1.055) ** 2.4));
    return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
  }
  // Pick whichever of black and white has the higher WCAG contrast ratio against the box.
  const inkOn = (hex) => ((luminance(hex) + 0.05) / 0.05 >= 1.05 / (luminance(hex) + 0.05) ? "#111" : "#fff");
  // `share` of the way from one #rrggbb colour to another.
  const mix = (hex, to, share) => "#" + [1, 3, 5].map((i) => {
    const a = parseInt(hex.slice(i, i + 2), 16), b = parseInt(to.slice(i, i + 2), 16);
    return Math.round(a + (b - a) * share).toString(16).padStart(2, "0");
  }).join("");

  // --- the board ---------------------------------------------------------------------------------------
  function clueNumber(length, color) {
    const span = document.createElement("span");
    span.className = "num";
    span.textContent = String(length);
    if (COLOR) {
      const rgb = P.palette[color].rgb;
      span.classList.add("boxed");
      span.style.background = rgb;
      span.style.color = inkOn(rgb);
      span.title = P.palette[color].name;
    }
    return span;
  }

  function clueStack(items, kind, line) {
    const stack = document.createElement("div");
    stack.className = "stack";
    items.forEach(([length, color], k) => {
      const num = clueNumber(length, color);
      num.dataset.cross = `${kind}:${line}:${k}`;
      num.title = (num.title ? num.title + "; " : "") + "click to cross off";
      stack.appendChild(num);
    });
    if (items.length === 0) {              // an empty line: a plain 0, never a coloured box
      const zero = document.createElement("span");
      zero.className = "num";
      zero.textContent = "0";
      stack.appendChild(zero);
    }
    return stack;
  }

  // Fill the <table> `board`: a row of column clues, then each row's clue and cells (`isGiven(i)` marks the
  // givens). Returns what the game draws on: cells[r * W + c], rowClues[r], colClues[c].
  // The board is the background colour (palette entry 0) as solution.png paints it: a cell left
  // empty is background, so the solved grid is the picture, and every fill stands out from it as
  // the importer keeps each colour apart from the background (white is only the usual one).
  function build(board, isGiven) {
    const cells = new Array(W * H), rowClues = [], colClues = [];
    const paper = P.palette[0].rgb, ink = inkOn(paper) === "#fff" ? "#ffffff" : "#111111";
    board.style.setProperty("--paper", paper);
    board.style.setProperty("--dot", mix(paper, ink, 0.5));   // the empty-mark, seen on any background
    if (ink === "#ffffff") {               // a dark background: light grid lines, as dark ones on white
      board.style.setProperty("--line", mix(paper, ink, 0.3));
      board.style.setProperty("--thick", mix(paper, ink, 0.8));
    }
    board.tabIndex = 0;
    board.setAttribute("role", "grid");
    board.setAttribute("aria-label", "puzzle grid: arrows move, space fills, x marks empty, Delete clears");
    const head = board.insertRow();
    head.insertCell().className = "corner";
    for (let c = 0; c < W; c++) {
      const td = head.insertCell();
      td.className = "clue col-clue";
      td.dataset.col = c;
      td.appendChild(clueStack(P.cols[c], "col", c));
      colClues.push(td);
    }
    for (let r = 0; r < H; r++) {
      const tr = board.insertRow();
      const clue = tr.insertCell();
      clue.className = "clue row-clue";
      clue.dataset.row = r;
      clue.appendChild(clueStack(P.rows[r], "row", r));
      rowClues.push(clue);
      for (let c = 0; c < W; c++) {
        const td = tr.insertCell();
        td.className = "cell";
        if (c % 5 === 4 || c === W - 1) td.classList.add("thick-r");   // a guide line every 5 cells, a frame
        if (r % 5 === 4 || r === H - 1) td.classList.add("thick-b");
        if (c === 0) td.classList.add("first-c");
        if (r === 0) td.classList.add("first-r");
        td.dataset.row = r;
        td.dataset.col = c;
        td.id = `cell-${r}-${c}`;
        if (isGiven(r * W + c)) td.classList.add("given");
        cells[r * W + c] = td;
      }
    }
    return { cells, rowClues, colClues };
  }

  // The colour picker (colour puzzles only): one button per colour, labelled with the key that picks it.
  function palette(onPick) {
    const box = document.getElementById("palette");
    if (!COLOR) { box.hidden = true; return; }
    P.palette.forEach((color, index) => {
      if (index === 0) return;
      const b = document.createElement("button");
      b.type = "button";
      b.className = "swatch";
      b.style.background = color.rgb;
      b.style.color = inkOn(color.rgb);
      b.textContent = String(index);           // the key that picks it; hues alone can look alike
      const name = document.createElement("span");
      name.className = "swatch-name";
      name.textContent = color.name.replace(/^\S+ \((.+)\)$/, "$1");  // "1 (red)": the key shows the "1"
      b.appendChild(name);
      b.title = `${color.name} (key ${index})`;
      b.setAttribute("aria-label", `${color.name}, key ${index}`);
      b.dataset.color = index;
      b.setAttribute("role", "radio");
      b.addEventListener("click", () => onPick(index));
      box.appendChild(b);
    });
  }

  return { build, palette };
})();
