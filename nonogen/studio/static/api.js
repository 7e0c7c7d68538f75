/* The page's link to its server: this run's token, this tab's id, JSON calls and the streamed check.
 * The token comes in the page (the server puts it in a meta tag; the URL that brought it is cleaned out of the
 * address bar at once); every API call carries it, and the tab id that keeps this tab's pictures and levels
 * apart from every other tab's on the server. The token is kept in this page's history entry, which a reload
 * keeps and only this origin reads (unlock.js takes it back in), never in a cookie: a cookie of 127.0.0.1 is
 * sent to every port of it, so every other local web server would get it (see guard.py). The address may also
 * name a file of the folder to open at once (`&open=NAME`: `nonogen studio FOLDER --open NAME`). */
"use strict";

const StudioApi = (() => {
  const token = document.querySelector('meta[name="nonogen-token"]').content;
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  const tab = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  const HEADERS = { "X-Nonogen-Token": token, "X-Nonogen-Tab": tab };
  const opening = new URLSearchParams(location.search).get("open") || "";  // `nonogen studio --open NAME`
  history.replaceState({ nonogenToken: token }, "", location.pathname);

  /* A JSON call (body: an object, or raw bytes with their headers); {status, data}. */
  async function call(path, body, raw) {
    const init = { method: body === undefined ? "GET" : "POST", headers: { ...HEADERS } };
    if (raw) { init.body = body; Object.assign(init.headers, raw); }
    else if (body !== undefined) { init.body = JSON.stringify(body); init.headers["Content-Type"] = "application/json"; }
    let res;
    try { res = await fetch(path, init); } catch (err) { return { status: 0, data: { error: "the studio's server cannot be reached: " + err.message } }; }
    let data;
    try { data = await res.json(); } catch (err) { data = { error: `the server answered ${res.status}` }; }
    return { status: res.status, data };
  }

  /* The check of `doc`: each JSON line to onMessage as it comes; an error answer to onError. Abort with `signal`. */
  function check(doc, signal, onMessage, onError) {
    return stream("/api/check", { doc }, signal, onMessage, onError);
  }

  /* A streamed answer (JSON lines) to `body`: each line to onMessage (false: stop reading); an error to onError. */
  async function stream(path, body, signal, onMessage, onError) {
    const res = await fetch(path, { method: "POST", signal, body: JSON.stringify(body),
      headers: { ...HEADERS, "Content-Type": "application/json" } });
    if (!res.ok) {
      let data;
      try { data = await res.json(); } catch (err) { data = { error: `the server answered ${res.status}` }; }
      onError(data.error);
      return;
    }
    const reader = res.body.getReader(), decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let at;
      while ((at = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 1);
        if (onMessage(JSON.parse(line)) === false) return;
      }
    }
  }

  /* The address of this tab's level page for the frame (a frame sends no headers: the token goes in the query). */
  function levelUrl(n) {
    return `/level.html?tab=${tab}&token=${encodeURIComponent(token)}&n=${n}`;
  }

  /* The address of this tab's puzzle as a play page, for the test-solve frame. */
  function playUrl(n) {
    return `/play.html?tab=${tab}&token=${encodeURIComponent(token)}&n=${n}`;
  }

  return { call, check, stream, levelUrl, playUrl, tab, opening };
})();
