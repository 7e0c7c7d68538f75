// nonogen: complete line logic for one Picross 3D line, the same answers as nonogen.solve.line3d.solve_line_3d,
// and the 3D page's hint: the cube that line logic settles next from what the player has broken and painted.
// Computed here from the clues, as the 2D hint is, rather than from an order written at export: the hint then
// follows the player's own cubes (any order of play, painted cubes that are wrong) instead of one fixed path.
"use strict";
window.nonogenLine3d = (() => {
  // A clue is [count, groups]: `count` cubes in `groups` runs (3 means three or more). `known` holds -1
  // (unknown), 0 (empty) or 1 (cube) per cell. Returns every value some completion of the line allows
  // (-1 where both remain), or null when none fits. Dynamic programming over (cubes so far, runs so far
  // capped at 3, previous cell), forwards and then backwards.
  function solveLine3d(count, groups, known) {
    const L = known.length, S = (count + 1) * 8;
    const code = (c, k, last) => (c * 4 + k) * 2 + last;
    const step = (s, v) => {
      const last = s & 1, k = (s >> 1) & 3, c = s >> 3;
      if (!v) return code(c, k, 0);
      const c1 = c + 1, k1 = Math.min(3, k + (last ? 0 : 1));
      if (c1 > count || (groups === 1 && k1 > 1) || (groups === 2 && k1 > 2)) return -1;
      return code(c1, k1, 1);
    };
    const options = (i) => (known[i] < 0 ? [0, 1] : [known[i]]);
    const forward = [new Uint8Array(S)];
    forward[0][0] = 1;
    for (let i = 0; i < L; i++) {
      const next = new Uint8Array(S);
      forward[i].forEach((on, s) => { if (on) for (const v of options(i)) { const t = step(s, v); if (t >= 0) next[t] = 1; } });
      forward.push(next);
    }
    const want = count === 0 ? 0 : Math.min(groups, 3);
    let alive = new Uint8Array(S);
    forward[L].forEach((on, s) => {
      const k = (s >> 1) & 3;
      if (on && s >> 3 === count && (k === want || (want === 3 && k >= 3))) alive[s] = 1;
    });
    const possible = new Array(L).fill(0);    // bit 1: empty possible, bit 2: cube possible
    for (let i = L - 1; i >= 0; i--) {
      const keep = new Uint8Array(S);
      forward[i].forEach((on, s) => {
        if (!on) return;
        for (const v of options(i)) {
          const t = step(s, v);
          if (t >= 0 && alive[t]) { keep[s] = 1; possible[i] |= 1 << v; }
        }
      });
      alive = keep;
    }
    if (!alive.some((on) => on)) return null;
    return possible.map((p) => (p === 3 ? -1 : p === 2 ? 1 : 0));
  }

  // Every clued line of a box of size [X, Y, Z], in a fixed order (lines along x, then y, then z):
  // {axis, at: the two other coordinates, clue, cells: [x, y, z] per position along the axis}.
  function lines(size, clues) {
    const [X, Y, Z] = size, out = [];
    const add = (axis, at, clue, n, cell) => {
      if (clue) out.push({ axis, at, clue, cells: Array.from({ length: n }, (_, t) => cell(t)) });
    };
    for (let y = 0; y < Y; y++) for (let z = 0; z < Z; z++) add("x", [y, z], clues.x[y][z], X, (t) => [t, y, z]);
    for (let x = 0; x < X; x++) for (let z = 0; z < Z; z++) add("y", [x, z], clues.y[x][z], Y, (t) => [x, t, z]);
    for (let x = 0; x < X; x++) for (let y = 0; y < Y; y++) add("z", [x, y], clues.z[x][y], Z, (t) => [x, y, t]);
    return out;
  }

  // The hint on the player's cubes (`known(x, y, z)`: -1 untouched, 0 broken, 1 painted): the line whose line
  // logic settles the most untouched cubes (the first such line on a tie), and in it the first cube to break,
  // else the first to paint: {axis, at, clue, cube: [x, y, z], value: 0 | 1, settled}. When painted cubes
  // already break a line's clue: {axis, at, clue, cube: the line's first painted cube, contradiction: true}.
  // null when no single line tells more.
  function nextCube(size, clues, known) {
    let best = null;
    for (const line of lines(size, clues)) {
      const values = line.cells.map((c) => known(...c));
      const narrowed = solveLine3d(line.clue[0], line.clue[1], values);
      const { axis, at, clue } = line;
      if (narrowed === null) {
        const first = values.indexOf(1);
        return { axis, at, clue, cube: line.cells[Math.max(0, first)], contradiction: true };
      }
      const settled = narrowed.map((v, t) => (values[t] < 0 && v >= 0 ? t : -1)).filter((t) => t >= 0);
      if (!settled.length || (best && settled.length <= best.settled)) continue;
      const pick = settled.find((t) => narrowed[t] === 0) ?? settled[0];
      best = { axis, at, clue, cube: line.cells[pick], value: narrowed[pick], settled: settled.length };
    }
    return best;
  }

  return { solveLine3d, nextCube };
})();
