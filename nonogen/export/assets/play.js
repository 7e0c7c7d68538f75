// nonogen: what both play pages share, so the 2D game (play2d.js) and the 3D game (play3d.js) each have it
// once: the puzzle blob, the status line, progress kept in this browser, toolbar buttons, a few words.
// A plain script that sets window.nonogenPage, so that the 2D page's classic script and the 3D page's
// ES module can both carry it (nonogen/export/html.py puts it in front of each page's game).
"use strict";
window.nonogenPage = (() => {
  const puzzle = JSON.parse(document.getElementById("puzzle").textContent);
  const statusEl = document.getElementById("status");

  // The line under the toolbar; `kind` ("bad", "solved") colours it.
  function say(text, kind = "") {
    statusEl.textContent = text;
    statusEl.className = "status" + (kind ? " " + kind : "");
  }

  // Progress lives in localStorage under the page's key, a hash of the clues, so what was kept for one
  // puzzle never loads into another. Storage may be full or disabled (private mode): play goes on unsaved.
  function loadProgress() {
    try { return JSON.parse(localStorage.getItem(puzzle.key) || "null"); } catch (err) { return null; }
  }

  function saveProgress(fields) {
    try {
      localStorage.setItem(puzzle.key, JSON.stringify({ version: 1, ...fields }));
    } catch (err) { /* storage full or disabled: play on without saving */ }
  }

  // Toolbar buttons by id: onClick({ undo, check, ... }).
  function onClick(handlers) {
    for (const [id, handler] of Object.entries(handlers)) document.getElementById(id).addEventListener("click", handler);
  }

  // --- the keys a player chose, kept per page kind (the 3D page's; the 2D page may use it the same way) ---
  // localStorage["nonogen-keys-" + kind] holds {version: 1, keys: {action: key}}. What was not stored, or is
  // not a string, or names an action the page no longer has, falls back to `defaults`. Returns {keys, save}:
  // the page changes `keys` in place and save() keeps them; with storage off they last until the page closes.
  function chosenKeys(kind, defaults) {
    const storageKey = `nonogen-keys-${kind}`;
    let stored = {};
    try { stored = JSON.parse(localStorage.getItem(storageKey) || "{}").keys || {}; } catch (err) { stored = {}; }
    const keys = { ...defaults };
    for (const action of Object.keys(defaults)) if (typeof stored[action] === "string") keys[action] = stored[action];
    const save = () => {
      try { localStorage.setItem(storageKey, JSON.stringify({ version: 1, keys })); } catch (err) { /* unsaved */ }
    };
    return { keys, save };
  }

  const count = (n, noun) => `${n} ${noun}${n === 1 ? "" : "s"}`;   // "1 mistake", "3 mistakes"
  const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));

  return { puzzle, say, loadProgress, saveProgress, onClick, count, clamp, chosenKeys };
})();
