/* The locked note's one script. The studio's page keeps this run's token in its own history entry, not in the
 * address bar and never in a cookie (a cookie of 127.0.0.1 reaches every port of it: see guard.py). A reload
 * asks for the page without the token and lands on the note: the token found in the entry is sent once, in the
 * URL, as the printed URL sends it. A token that does not open the page (the studio has restarted since) is
 * taken out of the address bar, and the note stays. */
"use strict";

(() => {
  const kept = history.state && history.state.nonogenToken;
  if (new URLSearchParams(location.search).has("token")) {
    history.replaceState(null, "", location.pathname);
  } else if (typeof kept === "string" && kept) {
    location.replace(location.pathname + "?token=" + encodeURIComponent(kept));
  }
})();
