/* The drawing tools' geometry, pure: which cells a line, a rectangle or a flood fill covers. board.js paints them. */
"use strict";

const StudioTools = (() => {
  /* The cells of a straight line from a to b (Bresenham: one cell per step along the longer side). */
  function line([r0, c0], [r1, c1]) {
    const cells = [], dr = Math.abs(r1 - r0), dc = Math.abs(c1 - c0);
    const sr = r0 < r1 ? 1 : -1, sc = c0 < c1 ? 1 : -1;
    let err = dc - dr, r = r0, c = c0;
    for (;;) {
      cells.push([r, c]);
      if (r === r1 && c === c1) return cells;
      const e2 = 2 * err;
      if (e2 > -dr) { err -= dr; c += sc; }
      if (e2 < dc) { err += dc; r += sr; }
    }
  }

  /* The outline of the rectangle with corners a and b. */
  function rect([r0, c0], [r1, c1]) {
    const top = Math.min(r0, r1), bottom = Math.max(r0, r1), left = Math.min(c0, c1), right = Math.max(c0, c1);
    const cells = [];
    for (let r = top; r <= bottom; r++) {
      for (let c = left; c <= right; c++) {
        if (r === top || r === bottom || c === left || c === right) cells.push([r, c]);
      }
    }
    return cells;
  }

  /* The cells of the same colour as (r, c) reached through row and column neighbours. */
  function flood(grid, [r, c]) {
    const H = grid.length, W = grid[0].length, colour = grid[r][c];
    const seen = new Uint8Array(H * W), cells = [], todo = [[r, c]];
    seen[r * W + c] = 1;
    while (todo.length) {
      const [y, x] = todo.pop();
      cells.push([y, x]);
      for (const [ny, nx] of [[y - 1, x], [y + 1, x], [y, x - 1], [y, x + 1]]) {
        if (ny >= 0 && ny < H && nx >= 0 && nx < W && !seen[ny * W + nx] && grid[ny][nx] === colour) {
          seen[ny * W + nx] = 1;
          todo.push([ny, nx]);
        }
      }
    }
    return cells;
  }

  return { line, rect, flood };
})();
