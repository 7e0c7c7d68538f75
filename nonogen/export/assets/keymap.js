// nonogen: the keys a player may change on a play page. Each action may have one letter, digit or sign key
// of the player's choice; the page's fixed keys (arrows, Space, ...) work besides. A layout sets them all at
// one press, or one action's button takes the next key pressed. The choice is kept in this browser (play.js
// chosenKeys, under "nonogen-keys-" + kind) and shown in the page's list of keys: each <kbd data-action> in
// #keys, a button per action in #key-list, the layouts' buttons in #key-layouts, a line in #key-note.
// A plain script (like play.js) that sets window.nonogenKeymap(kind, actions, layouts) -> {actionOf, wire, keys}:
// actions are [action, what it does, default key ("": none)], layouts {name: {action: key}} besides "default".
"use strict";
window.nonogenKeymap = (kind, ACTIONS, layouts) => {
  const DEFAULTS = Object.fromEntries(ACTIONS.map(([action, , key]) => [action, key]));
  const LAYOUTS = { default: DEFAULTS };
  for (const [name, keys] of Object.entries(layouts)) LAYOUTS[name] = { ...DEFAULTS, ...keys };
  const chosen = window.nonogenPage.chosenKeys(kind, DEFAULTS);
  let waitingFor = null;                     // the action whose button was pressed: the next key becomes its key

  // The action whose key is `key` (one character, any case), or undefined.
  const actionOf = (key) => (key.length === 1 ? chosenAction(key.toLowerCase()) : undefined);
  const chosenAction = (key) => ACTIONS.find(([action]) => chosen.keys[action] === key)?.[0];
  const label = (key) => (key ? key.toUpperCase() : "");
  const whatItDoes = (action) => ACTIONS.find(([a]) => a === action)[1];
  const sameKeys = (layout) => ACTIONS.every(([action]) => chosen.keys[action] === layout[action]);
  const note = (text) => { document.getElementById("key-note").textContent = text; };

  // The page's list of keys, each action's button and the layout buttons, as the keys are now.
  function show() {
    for (const kbd of document.querySelectorAll("#keys kbd[data-action]")) {
      const key = chosen.keys[kbd.dataset.action];
      kbd.textContent = label(key);
      kbd.hidden = !key;
    }
    for (const button of document.querySelectorAll("#key-list button")) {
      const action = button.dataset.action;
      button.textContent = action === waitingFor ? "press a key\u2026" : label(chosen.keys[action]) || "none";
    }
    for (const b of document.querySelectorAll("#key-layouts button")) {
      b.setAttribute("aria-pressed", String(sameKeys(LAYOUTS[b.dataset.layout])));
    }
  }

  function setKey(action, key) {
    const other = key ? chosenAction(key) : undefined;
    if (other && other !== action) chosen.keys[other] = "";   // one key, one action: the old one gives it up
    chosen.keys[action] = key;
    chosen.save();
    waitingFor = null;
    show();
    const now = key ? `${label(key)}: ${whatItDoes(action)}.` : `${whatItDoes(action)}: no key of its own now.`;
    note(other && other !== action ? `${now} ${whatItDoes(other)} has no key of its own now.` : now);
  }

  // While an action's button waits, the next key press is its new key; it goes to nothing else (capture phase).
  function onWaitingKey(e) {
    if (!waitingFor || ["Tab", "Shift", "Control", "Alt", "Meta", "CapsLock"].includes(e.key)) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    if (e.key === "Escape") { waitingFor = null; show(); note("Unchanged."); return; }
    if (e.key === "Delete" || e.key === "Backspace") { setKey(waitingFor, ""); return; }
    const key = e.key.length === 1 && e.key !== " " && !e.ctrlKey && !e.metaKey && !e.altKey ? e.key.toLowerCase() : null;
    if (key) setKey(waitingFor, key);
    else note("Pick a letter, digit or sign key (Escape: keep the old one, Delete: none).");
  }

  function wire() {
    const list = document.getElementById("key-list");
    for (const [action, what] of ACTIONS) {
      const row = document.createElement("li");
      const name = document.createElement("span");
      name.id = `key-what-${action}`;
      name.textContent = what;
      const button = document.createElement("button");
      button.type = "button";
      button.id = `key-${action}`;
      button.dataset.action = action;
      button.setAttribute("aria-labelledby", `${name.id} ${button.id}`);
      button.addEventListener("click", () => {
        if (waitingFor === action) return;  // a second Space or click while waiting keeps waiting
        waitingFor = action;
        show();
        note(`Press the new key for "${what}" (Escape: keep the old one, Delete: none).`);
      });
      button.addEventListener("blur", () => { if (waitingFor === action) { waitingFor = null; show(); } });
      row.append(name, " ", button);
      list.append(row);
    }
    for (const b of document.querySelectorAll("#key-layouts button")) {
      b.addEventListener("click", () => {
        Object.assign(chosen.keys, LAYOUTS[b.dataset.layout]);
        chosen.save();
        show();
        note(`Keys: ${b.textContent}.`);
      });
    }
    window.addEventListener("keydown", onWaitingKey, true);
    show();
  }

  return { actionOf, wire, keys: () => ({ ...chosen.keys }) };
};
