// The seasons' pages in the arena (GET /seasons, GET /seasons/NAME), from their twins
// /api/seasons and /api/seasons/NAME (docs/arena.md, "Seasons"): every season and its state; a
// season's board (as it stands while it is open, frozen from its close) with its tiers and
// finalists, its finals as they stand (each place, its verdict against the next and how sure),
// and its rules. Read again as matches end (the stream), at most every two seconds.
"use strict";
(function () {
  const { el } = arena;
  const name = decodeURIComponent(location.pathname.split("/")[2] || "");
  const STATE = { open: "open", finals: "playing its finals", over: "over" };
  const VERDICT = { ahead: "ahead", even: "cannot be told apart", unsettled: "not settled yet", last: "" };

  function drawList(doc) {
    document.getElementById("title").textContent = "Seasons";
    document.title = "Seasons in the arena";
    const rows = doc.seasons.map((s) => [arena.link("/seasons/" + encodeURIComponent(s.name), s.name),
      STATE[s.state] || s.state, arena.when(s.starts), arena.when(s.closes), s.finalists]);
    arena.table(document.getElementById("seasons"),
      [{ text: "season" }, { text: "state" }, { text: "starts", narrow: true }, { text: "closes" },
       { name: "finalists", narrow: true }], rows);
    document.getElementById("none").hidden = rows.length > 0;
  }
  function drawBoard(board, which) {
    const rows = board[which];
    const table = document.getElementById(which);
    arena.table(table, ["#", { text: which === "bots" ? "bot" : "person" }, { text: "tier" },
      "rating", { name: "matches", narrow: true }, { text: "finals", narrow: true }],
    rows.map((r) => [r.rank, arena.link(arena.accountPath(r.kind, r.name), r.name), r.tier,
      arena.shown(r.rating, r.provisional), r.matches, r.finalist ? "finalist" : ""]));
    [...table.querySelectorAll("tr")].slice(1).forEach((tr, i) => { tr.dataset.name = rows[i].name; });
    table.closest("section").hidden = rows.length === 0 && which === "people";
  }
  function drawFinals(f) {
    const part = document.getElementById("finals-part");
    part.hidden = !f || !f.places;
    if (part.hidden) return;
    document.getElementById("finals-about").textContent = (f.over ? "Over" : "Playing") + ": stage " +
      f.stage + " of " + f.stages + (f.over ? "" : " (" + f.field + " finalists), " + f.rounds +
      " rounds of it played, " + f.wanted + " matches of this round to play") + ". Each round is one deal " +
      "played by every pair both ways. A share is of the points against the field of the last stage a bot " +
      "played; a place is judged against the next below by their games together (how sure: the " +
      "likelihood that it is the stronger).";
    const rows = f.places;
    const table = document.getElementById("finals");
    arena.table(table, ["place", { text: "bot" }, "share", { text: "against the next" },
      { name: "how sure", narrow: true }, { name: "last stage", narrow: true }, { name: "games", narrow: true }],
    rows.map((p) => [p.place, arena.link(arena.accountPath(p.kind, p.name), p.name),
      arena.fixed(100 * p.share, 0) + "%", VERDICT[p.against_next] || p.against_next,
      p.against_next === "last" ? "" : arena.fixed(100 * p.los, 0) + "% over " + p.pairs + " pairs",
      p.stage, p.games]));
    [...table.querySelectorAll("tr")].slice(1).forEach((tr, i) => {
      tr.dataset.name = rows[i].name;
      tr.dataset.verdict = rows[i].against_next;
    });
  }
  function drawSeason(s) {
    document.getElementById("title").textContent = "Season " + s.name;
    document.title = "Season " + s.name + " in the arena";
    document.body.dataset.state = s.state;
    document.getElementById("about").textContent = "Season " + s.name + " is " + (STATE[s.state] || s.state) +
      ": from " + arena.when(s.starts) + " to " + arena.when(s.closes) +
      (s.ended ? "; its finals ended " + arena.when(s.ended) : "") + ".";
    drawFinals(s.finals);
    drawBoard(s.board, "bots");
    drawBoard(s.board, "people");
    document.getElementById("board-about").textContent = (s.board.frozen ? "Frozen at its close" :
      "As it stands") + ": every account rated over the season's " + s.board.matches + " matches alone, " +
      "from the first rating; the ladder's ratings are its own.";
    const r = s.rules;
    document.getElementById("rules").textContent = "Its finals: the best " + r.finalists +
      " of its house and hosted bots at its close, in stages of " + r.fields.join(", ") + ", each at most " +
      r.deals + " deals. Two neighbours are settled when one is ahead by " + r.sprt.elo1 +
      " Elo or more, or neither is (a sequential test on their games, wrong at most " +
      arena.fixed(100 * r.sprt.alpha, 0) + "% of the time). Its tiers: " +
      r.tiers.map((t) => t.name + " (to " + t.percent + "%)").join(", ") + ".";
  }
  const read = arena.calm(() => {
    arena.get(name ? "/api/seasons/" + encodeURIComponent(name) : "/api/seasons").then((doc) => {
      if (name) drawSeason(doc); else drawList(doc);
      arena.drawn();
    }).catch(arena.failed);
  }, 2000);
  arena.follow((event) => { if (event === "match") read(); });
  read();
})();
