// nonogen: complete line logic for one nonogram line, the same answers as nonogen.solve.line.solve_line.
// The play page's hint runs it over the player's own marks to find a line that line logic advances.
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

  // The line that line logic advances most on the player's marks (-1 unknown, 0 empty, 1.. colours):
  // {kind: "row"|"col", index, cells: [positions it settles]} or, when the marks already break a
  // line's clue, {kind, index, contradiction: true}; null when no single line tells more.
  function nextLine(rows, cols, values, colours) {
    if (colours > 30) return null;           // masks are 32-bit integers
    const H = rows.length, W = cols.length, all = (1 << colours) - 1;
    const mask = (v) => (v < 0 ? all : 1 << v);
    let best = null;
    const consider = (kind, index, clue, line) => {
      const narrowed = solveLine(clue, line.map(mask));
      if (narrowed === null) return { kind, index, contradiction: true };
      const settled = [];
      narrowed.forEach((m, t) => { if (line[t] < 0 && (m & (m - 1)) === 0) settled.push(t); });
      if (settled.length && (!best || settled.length > best.cells.length)) best = { kind, index, cells: settled };
      return null;
    };
    for (let r = 0; r < H; r++) {
      const bad = consider("row", r, rows[r], values.slice(r * W, r * W + W));
      if (bad) return bad;
    }
    for (let c = 0; c < W; c++) {
      const bad = consider("col", c, cols[c], Array.from({ length: H }, (_, r) => values[r * W + c]));
      if (bad) return bad;
    }
    return best;
  }

  return { solveLine, nextLine };
})();
