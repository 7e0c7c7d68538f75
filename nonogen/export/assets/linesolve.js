// nonogen: complete line logic for one nonogram line, the same answers as nonogen.solve.line.solve_line.
// The play page's hint and its assists run it over the player's own marks (everyLine, nextLine).
"use strict";
window.nonogenLine = (() => {
  // clue: [[length, colour], ...]; domain: one bit mask per cell of the colours it may still take
  // (bit 0 = background). Returns the narrowed masks (what some placement of the clue gives each cell),
  // or null when no placement fits. Dynamic programming over (blocks placed, cells read), forwards and
  // backwards; two blocks of one colour need a background cell between them, different colours may touch.
  function solveLine(clue, domain) {
    const n = domain.length, k = clue.length;
    const gap = clue.map((b, j) => (j + 1 < k && clue[j + 1][1] === b[1] ? 1 : 0));
    const canBg = (i) => (domain[i] & 1) !== 0;
    const run = new Map();                   // colour -> cells from i on that may take it, in a row
    for (const [, color] of clue) {
      if (run.has(color)) continue;
      const r = new Int32Array(n + 1);
      for (let i = n - 1; i >= 0; i--) r[i] = domain[i] & (1 << color) ? r[i + 1] + 1 : 0;
      run.set(color, r);
    }
    const fits = (j, s) => {
      const [len, color] = clue[j];
      if (s + len + gap[j] > n || run.get(color)[s] < len) return false;
      return !gap[j] || canBg(s + len);
    };
    const table = () => Array.from({ length: k + 1 }, () => new Uint8Array(n + 1));
    const F = table(), G = table();
    F[0][0] = 1;
    for (let i = 0; i <= n; i++) {
      for (let j = 0; j <= k; j++) {
        if (!F[j][i]) continue;
        if (i < n && canBg(i)) F[j][i + 1] = 1;
        if (j < k && fits(j, i)) F[j + 1][i + clue[j][0] + gap[j]] = 1;
      }
    }
    if (!F[k][n]) return null;
    G[k][n] = 1;
    for (let i = n; i >= 0; i--) {
      for (let j = k; j >= 0; j--) {
        if (i < n && canBg(i) && G[j][i + 1]) G[j][i] = 1;
        if (j < k && fits(j, i) && G[j + 1][i + clue[j][0] + gap[j]]) G[j][i] = 1;
      }
    }
    const out = new Array(n).fill(0);
    const cover = Array.from({ length: k }, () => new Int32Array(n + 1));
    for (let i = 0; i < n; i++) {
      for (let j = 0; j <= k; j++) {
        if (F[j][i] && canBg(i) && G[j][i + 1]) out[i] |= 1;
        if (j < k && F[j][i] && fits(j, i) && G[j + 1][i + clue[j][0] + gap[j]]) {
          cover[j][i] += 1;
          cover[j][i + clue[j][0]] -= 1;
          if (gap[j]) out[i + clue[j][0]] |= 1;
        }
      }
    }
    for (let j = 0; j < k; j++) {
      let open = 0;
      for (let i = 0; i < n; i++) {
        open += cover[j][i];
        if (open > 0) out[i] |= 1 << clue[j][1];
      }
    }
    return out;
  }

  // Line logic on every row, then every column, of the grid `values` (-1 unknown, 0 empty, 1.. colours, row
  // by row): [{kind: "row"|"col", index, at: [grid index of each cell], settled: [positions line logic
  // decides among the unknown ones], empty: [those it decides are empty]}], or for a line whose marks
  // already break its clue {kind, index, at, contradiction: true}. Null when masks would not fit 32 bits.
  function everyLine(rows, cols, values, colours) {
    if (colours > 30) return null;           // masks are 32-bit integers
    const H = rows.length, W = cols.length, all = (1 << colours) - 1;
    const mask = (v) => (v < 0 ? all : 1 << v);
    const read = (kind, index, clue, at) => {
      const line = at.map((i) => values[i]);
      const narrowed = solveLine(clue, line.map(mask));
      if (narrowed === null) return { kind, index, at, contradiction: true };
      const settled = [], empty = [];
      narrowed.forEach((m, t) => {
        if (line[t] >= 0 || (m & (m - 1)) !== 0) return;
        settled.push(t);
        if (m === 1) empty.push(t);
      });
      return { kind, index, at, settled, empty };
    };
    const out = [];
    for (let r = 0; r < H; r++) out.push(read("row", r, rows[r], Array.from({ length: W }, (_, c) => r * W + c)));
    for (let c = 0; c < W; c++) out.push(read("col", c, cols[c], Array.from({ length: H }, (_, r) => r * W + c)));
    return out;
  }

  // The line that line logic advances most on the player's marks: {kind, index, cells: [positions it
  // settles]} or, when the marks already break a line's clue, the first such {kind, index, contradiction:
  // true}; null when no single line tells more.
  function nextLine(rows, cols, values, colours) {
    const lines = everyLine(rows, cols, values, colours);
    if (lines === null) return null;
    const bad = lines.find((l) => l.contradiction);
    if (bad) return { kind: bad.kind, index: bad.index, contradiction: true };
    let best = null;
    for (const l of lines) {
      if (l.settled.length && (!best || l.settled.length > best.cells.length)) {
        best = { kind: l.kind, index: l.index, cells: l.settled };
      }
    }
    return best;
  }

  return { solveLine, everyLine, nextLine };
})();
