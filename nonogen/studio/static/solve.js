/* Test-solving the puzzle in the page (the play page that `nonogen html` writes, in a frame: its clues, fill
 * and mark, its check for solved), and the ambiguity map: per cell, how many of the ambiguous cells a given
 * there, or a one-cell change there, settles, as the engine proves it (streamed by /api/map). */
"use strict";

/* --- test-solve -------------------------------------------------------------------------------- */

async function testSolve() {
  $("test-solve").disabled = true;
  const res = await api("/api/play", { doc: state.doc });
  $("test-solve").disabled = false;
  if (res.data.cancelled) return;  // a newer test-solve page of this tab took its place
  if (res.data.error) { say(res.data.error); return; }
  state.solving = true;
  show("solve");
  $("solve-frame").src = StudioApi.playUrl(++state.plays);  // a page of its own, with the play page's own CSP
}

function backToEditing() {
  state.solving = false;
  $("solve-frame").src = "about:blank";
  show("puzzle");
  board.fit();
}

/* --- the ambiguity map ------------------------------------------------------------------------- */

/* After a check: map a grid that is not unique, when the map is on and this grid has none yet. Never while
 * the check runs: the map takes the check's place on the server, and the grade would never come. */
function mapWanted() {
  const checkDone = $("verdict").dataset.done === String(state.checkSeq);
  if ($("map-mode").value !== "off" && $("verdict").dataset.status === "multiple" && !state.map && checkDone) {
    requestMap();
  }
}

async function requestMap() {
  const seq = state.checkSeq;
  const map = state.map = { verdict: null, before: null, given: new Map(), change: new Map(), done: false,
    complete: false, timeout: false };
  if (state.checkAbort) state.checkAbort.abort();
  const abort = state.checkAbort = new AbortController();  // the next edit's check stops it
  drawMap();
  const current = () => seq === state.checkSeq && state.map === map;
  try {
    await StudioApi.stream("/api/map", { doc: state.doc }, abort.signal, (m) => {
      if (!current() || m.cancelled) return false;
      if (m.error) { say(m.error); return false; }
      if (m.verdict !== undefined) map.verdict = m.verdict;
      if (m.before !== undefined) map.before = m.before;
      if (m.cell) {
        const key = m.cell.join(",");
        if (m.given !== undefined) map.given.set(key, m.given);
        if (m.change !== undefined) map.change.set(key, m.change);
      }
      if (m.done) Object.assign(map, { done: true, complete: m.complete === true, timeout: m.timeout === true });
      drawMap();
      return true;
    }, (error) => { if (current()) say(error); });
  } catch (err) {
    if (err.name !== "AbortError" && current()) say("the studio's server cannot be reached: " + err.message);
  }
}

function drawMap() {
  const mode = $("map-mode").value, map = state.map, status = $("map-status");
  const on = mode !== "off" && map !== null && $("verdict").dataset.status === "multiple";
  const scores = on ? map[mode] : null;
  board.heat(scores, on ? map.before || 0 : 0);
  status.dataset.done = on && map.done ? "1" : "";
  status.dataset.complete = on && map.done && map.complete ? "1" : "";
  if (!on) {
    const verdict = $("verdict").dataset.status;
    status.textContent = mode === "off" || verdict === "checking" || verdict === "multiple" ? ""
      : "the map shows what settles a grid that is not unique";
    return;
  }
  status.textContent = !map.done ? `mapping... (${scores.size} cells so far)` : mapSummary(map, mode, scores);
}

/* What a finished map says: never a count the engine did not prove. A map whose proof ran out of time before
 * it knew the ambiguous cells maps nothing, and says so; one cut short says which cells it covers. */
function mapSummary(map, mode, scores) {
  if (map.before === null) {
    return map.timeout ? "The map ran out of time before the engine could prove which cells are ambiguous: " +
      "nothing is mapped." : `The map could not be made (${map.verdict}).`;
  }
  const best = Math.max(0, ...scores.values());
  const what = mode === "given" ? "A given" : "A one-cell change";
  const covers = map.complete ? "." : map.timeout ? " (only the cells tried before the map ran out of time)."
    : " (only the cells the map tries: those nearest the ambiguity).";
  return `${what} in the brightest cell settles ${best} of the ${map.before} ambiguous cells; the number in a ` +
    "cell is how many it settles" + covers;
}

function wireSolving() {
  $("test-solve").addEventListener("click", testSolve);
  $("back-to-edit").addEventListener("click", backToEditing);
  $("map-mode").addEventListener("change", () => { drawMap(); mapWanted(); });
}
