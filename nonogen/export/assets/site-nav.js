// nonogen site: the play page's navigation bar keeps this page's puzzle first among those opened last, so the
// index's Continue button can offer it again (the list's storage key is the bar's data-recent). Storage full or
// off: Continue falls back to the first started puzzle.
"use strict";
(() => {
  const KEEP = 200;
  try {
    const recentKey = document.querySelector("nav.site-nav").dataset.recent;
    const key = JSON.parse(document.getElementById("puzzle").textContent).key;
    const list = JSON.parse(localStorage.getItem(recentKey) || "[]");
    const rest = Array.isArray(list) ? list.filter((k) => typeof k === "string" && k !== key) : [];
    localStorage.setItem(recentKey, JSON.stringify([key, ...rest].slice(0, KEEP)));
  } catch (err) { /* storage full or off */ }
})();
