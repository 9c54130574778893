// What the arena's pages share (the leaderboard, a bot's page, a match's, /live): making
// elements (text always set as text: nothing from a bot or a person reaches a page as markup),
// reading the API, the figures as the pages write them, and following the event stream
// (/events), with the connection's state in the header. Each page's own script comes after.
"use strict";
const arena = {
  el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  },
  link(href, text) {
    const a = arena.el("a", null, text);
    a.href = href;
    return a;
  },
  // A JSON document of the API, or a rejection that says which and why.
  get(path) {
    return fetch(path, { cache: "no-store" }).then((r) =>
      r.ok ? r.json() : Promise.reject(new Error(path + ": HTTP " + r.status)));
  },
  fixed(x, digits) { return x === null || x === undefined ? "" : Number(x).toFixed(digits === undefined ? 2 : digits); },
  signed(x, digits) { return x === null || x === undefined ? "" : (x >= 0 ? "+" : "") + arena.fixed(x, digits); },
  rating(belief) { return arena.fixed(belief.mu) + " \u00b1 " + arena.fixed(belief.sigma); },
  // The one rating a person reads: the mean, to a tenth, marked "?" while provisional (the
  // bar beside it, where there is one, shows how sure it is).
  shown(belief, provisional) { return arena.fixed(belief.mu, 1) + (provisional ? "?" : ""); },
  PROVISIONAL_MATCHES: 10,
  // Why a player was out of a game, in words, by its code (core/out_code.cpp's labels).
  OUT: { protocol_error: "broke the protocol", illegal_peel: "peeled a grid that is not legal",
         illegal_dump: "dumped a tile it did not hold", not_ready: "not ready in time",
         could_not_start: "could not start", exited: "stopped running", killed: "was killed",
         closed_output: "closed its output", stopped_reading: "stopped reading",
         flooded: "sent too much", out_of_memory: "used too much memory", left: "left the game",
         other: "out for another reason" },
  out(code) { return arena.OUT[code] || code; },
  // An ISO time (as the API gives it, UTC) as a short local one.
  when(iso) {
    if (!iso) return "";
    const t = new Date(iso);
    return isNaN(t) ? iso : t.toLocaleString([], { dateStyle: "short", timeStyle: "short" });
  },
  place(n) { return n === 0 ? "out" : ordinal(n); },  // grid.js
  // What an account is doing now (the API's status), as the pages say it.
  STATUS: { playing: "playing", checking: "being checked", queued: "queued", away: "not connected",
            paused: "paused", disabled: "disabled" },
  accountPath(kind, name) { return (kind === "person" ? "/people/" : "/bots/") + encodeURIComponent(name); },
  // A table's rows: `head` the column names (a name is a figure's column, right aligned; {text}
  // a text's; {name, narrow} or {text, narrow} one left out on a phone), each row an array of
  // cells (text, or an element).
  table(table, head, rows) {
    table.textContent = "";
    const tr = arena.el("tr");
    const kind = (h) => (h.text ? "text" : "") + (h.narrow ? " narrow" : "");
    head.forEach((h) => tr.appendChild(arena.el("th", kind(h), h.text || h.name || h)));
    table.appendChild(tr);
    rows.forEach((row) => {
      const r = arena.el("tr");
      row.forEach((cell, i) => {
        const td = arena.el("td", kind(head[i]));
        if (cell instanceof Node) td.appendChild(cell); else td.textContent = cell === null || cell === undefined ? "" : String(cell);
        r.appendChild(td);
      });
      table.appendChild(r);
    });
  },
  // The page's state for those who read it (and the tests): a failure, or how many times drawn.
  failed(error) {
    document.body.dataset.failed = String(error && error.message || error);
    const p = arena.el("p", "bad", "Could not be read: " + (error && error.message || error));
    document.querySelector(".report").prepend(p);
  },
  drawn() {
    document.body.dataset.drawn = String((Number(document.body.dataset.drawn) || 0) + 1);
    document.getElementById("updated").textContent = "updated " + new Date().toLocaleTimeString();
  },
  // The event stream: `on(name, data)` for each of the arena's events (snapshot, begin, match,
  // status); a reconnection is the browser's own.
  follow(on) {
    const status = document.getElementById("connection");
    const source = new EventSource("/events");
    source.onopen = () => { status.textContent = "live"; status.className = "live"; };
    source.onerror = () => { status.textContent = "reconnecting..."; status.className = "reconnecting"; };
    ["snapshot", "begin", "match", "status"].forEach((name) =>
      source.addEventListener(name, (e) => on(name, JSON.parse(e.data))));
    return source;
  },
  // `f` at most once in `ms`, the last call's turn kept: a burst of events, one redraw.
  calm(f, ms) {
    let timer = null, again = false;
    return function run() {
      if (timer) { again = true; return; }
      f();
      timer = setTimeout(() => { timer = null; if (again) { again = false; run(); } }, ms);
    };
  },
};
