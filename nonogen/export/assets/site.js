// nonogen site: the index of a puzzle site (and of a level pack). Each play page keeps its progress in this
// browser under its puzzle's key, with `started` and `solved`; the tiles, the tally, the filters and Continue
// follow it. Over http(s) the page also links the web app manifest and registers the service worker (the site
// can then be installed and played offline); from file:// it does neither, as browsers allow neither there.
"use strict";
(() => {
  const site = JSON.parse(document.getElementById("site").textContent);
  const entries = site.entries;
  const tiles = Array.from(document.querySelectorAll("li.tile"));
  const sections = Array.from(document.querySelectorAll("section.grade"));
  const $ = (id) => document.getElementById(id);
  const FILTERS = ["f-grade", "f-kind", "f-state"].filter((id) => $(id));
  const KEPT = "nonogen-site-filters";        // sessionStorage: the filters chosen in this tab
  const what = $("tally").textContent;         // "12 puzzles and 3 3D levels"
  let states = entries.map(() => "");

  function read(store, key) {
    try { return JSON.parse(store.getItem(key) || "null"); } catch (err) { return null; }
  }

  function stateOf(saved) {
    if (!saved || typeof saved !== "object") return "";
    return saved.solved === true ? "solved" : saved.started === true ? "started" : "";
  }

  // A 2D tile shows the player's own cells once started: what they filled in, in the puzzle's colours.
  function drawCells(tile, entry, saved, state) {
    const canvas = tile.querySelector("canvas.cells");
    if (!canvas) return;
    const [w, h] = entry.size;
    const cells = saved && Array.isArray(saved.cells) && saved.cells.length === w * h ? saved.cells : null;
    canvas.hidden = !cells || !state;
    if (canvas.hidden) return;
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = entry.palette[0] || "#ffffff";
    ctx.fillRect(0, 0, w, h);
    cells.forEach((v, i) => {
      if (!Number.isInteger(v) || v <= 0 || v >= entry.palette.length) return;
      ctx.fillStyle = entry.palette[v];
      ctx.fillRect(i % w, Math.floor(i / w), 1, 1);
    });
  }

  // Continue: the started, unsolved puzzle opened last; else the first started one; else the first not solved.
  function offerContinue() {
    const button = $("continue");
    const recent = read(localStorage, site.recent);
    const started = (k) => k >= 0 && states[k] === "started";
    let k = (Array.isArray(recent) ? recent : []).map((key) => entries.findIndex((e) => e.key === key)).find(started);
    let text = "Continue";
    if (k === undefined) k = states.indexOf("started");
    if (k < 0) {
      k = states.indexOf("");
      text = states.includes("solved") ? "Next" : "Start";
    }
    button.hidden = k < 0;
    if (k < 0) return;
    button.href = entries[k].href;
    button.textContent = `${text}: ${tiles[k].querySelector(".label").textContent}`;
  }

  function filter() {
    const value = (id) => ($(id) ? $(id).value : "");
    const grade = value("f-grade"), kind = value("f-kind"), show = value("f-state");
    let shown = 0;
    tiles.forEach((tile) => {
      const state = tile.dataset.state || "";
      const ok = (!grade || tile.dataset.grade === (grade === "none" ? "" : grade))
        && (!kind || tile.dataset.kind === kind)
        && (!show || (show === "todo" ? state !== "solved" : state === show));
      tile.hidden = !ok;
      shown += ok ? 1 : 0;
    });
    sections.forEach((section) => { section.hidden = !section.querySelector("li.tile:not([hidden])"); });
    $("shown").textContent = shown === tiles.length ? "" : `${shown} of ${tiles.length} shown`;
  }

  function refresh() {
    const saved = entries.map((entry) => read(localStorage, entry.key));
    states = saved.map(stateOf);
    tiles.forEach((tile) => {
      const k = Number(tile.dataset.index), entry = entries[k], state = states[k];
      tile.dataset.state = state;
      tile.querySelector(".badge").textContent = state === "solved" ? "✓ solved" : state === "started" ? "started" : "";
      tile.querySelector(".told").textContent = state === "solved" ? entry.title : "";
      drawCells(tile, entry, saved[k], state);
    });
    const solved = states.filter((s) => s === "solved").length;
    $("tally").textContent = `${what} · ${solved} solved` + (solved === entries.length ? ", all of them!" : "");
    offerContinue();
    filter();
  }

  const kept = read(sessionStorage, KEPT) || {};
  for (const id of FILTERS) {
    const select = $(id);
    if (Array.from(select.options).some((o) => o.value === kept[id])) select.value = kept[id];
    select.addEventListener("change", () => {
      try {
        sessionStorage.setItem(KEPT, JSON.stringify(Object.fromEntries(FILTERS.map((f) => [f, $(f).value]))));
      } catch (err) { /* storage off: the filters last until the page closes */ }
      filter();
    });
  }
  window.addEventListener("pageshow", (event) => { if (event.persisted) refresh(); });  // back from a play page
  window.addEventListener("storage", refresh);                                         // another tab played
  refresh();

  if (site.install && /^https?:$/.test(location.protocol)) {
    const link = document.createElement("link");
    link.rel = "manifest";
    link.href = site.manifest;
    document.head.append(link);
    if ("serviceWorker" in navigator) navigator.serviceWorker.register(site.worker).catch(() => {});
  }
  window.nonogenSite = { refresh, states: () => states.slice() };
})();
