// A match's page in the arena (GET /matches/ID), from its twin /api/matches/ID: who played,
// each entrant's rank over the match and its rating before and after; and the deal's rotations
// side by side, each game's seats with their places, and a link to the game's replay page
// (/matches/ID/games/R, the host's game page) where its log was kept. A match still playing
// shows nothing of its games until every rotation is over (docs/arena.md, "Spectators"); the
// page reads it again once the stream says it is.
"use strict";
(function () {
  const { el } = arena;
  const id = Number(location.pathname.split("/")[2]);
  const kindOf = {};  // bot name -> its kind, for links (a person's page is under /people/)

  function account(name) {
    return arena.link(arena.accountPath(kindOf[name], name), name);
  }
  function drawEntrants(m) {
    const rows = m.entrants.slice().sort((a, b) => a.rank - b.rank || a.seat - b.seat);
    // The rating as every page shows it (the mean); a person's version is none of anyone's business.
    arena.table(document.getElementById("entrants"),
      ["place", { text: "entrant" }, { text: "version", narrow: true }, { name: "first seat", narrow: true },
       { name: "rating before", narrow: true }, "rating after", "change"],
      rows.map((e) => [arena.place(e.rank), account(e.bot), e.kind === "person" ? "" : e.bot_version || "",
        e.seat + 1, arena.fixed(e.before.mu, 1), arena.fixed(e.after.mu, 1),
        el("span", e.change >= 0 ? "good" : "bad", arena.signed(e.change, 1))]));
  }
  function drawGame(m, g) {
    const box = el("section", "rotation");
    box.dataset.rotation = String(g.rotation);
    const r = g.result;
    box.append(el("h3", null, "Rotation " + (g.rotation + 1) + ": " + (r.end || "not over") +
      (r.winner === null || r.winner === undefined ? ", no winner" : ", seat " + (r.winner + 1) + " won")));
    const list = el("ol", "seats");
    g.seats.forEach((s, i) => {
      const li = el("li", s.out_code ? "out" : s.place === 1 ? "won" : "");
      li.append("seat " + (i + 1) + ": ", account(s.bot), ": " + arena.place(s.place) + ", holding " + s.tiles +
        (s.tiles === 1 ? " tile, " : " tiles, ") + s.peels + (s.peels === 1 ? " peel" : " peels") +
        ", " + s.dumps + (s.dumps === 1 ? " dump" : " dumps"));
      if (s.out_code) {
        // Out, in words; the host's own words for it (a bot's author reads them) a tap away.
        const why = el("details", "why");
        why.append(el("summary", null, "out: " + arena.out(s.out_code)), el("div", "muted", s.reason));
        li.append(why);
      }
      list.append(li);
    });
    box.append(list);
    // Whether its race was fair (docs/arena.md, "Equal machines"): judged where the arena ran
    // every player on its own cores; a remote player's machine is its own.
    const fair = el("p", "race", r.contended === true
      ? "A contended race: its players waited for a CPU (its result stands; a player not ready in it was no one's fault)."
      : r.contended === false ? "A fair race: no player waited long for a CPU."
        : "Its race was not measured (a player on its own machine, or no cgroups here).");
    fair.dataset.contended = String(r.contended);
    box.append(fair);
    if (g.page) {
      const replay = arena.link(g.page, "Replay this game");
      replay.className = "replay";
      box.append(replay);
    } else {
      box.append(el("p", "muted", "its log was not kept (arena serve --logs)"));
    }
    return box;
  }
  function draw(m) {
    document.getElementById("title").textContent = "Match " + m.id;
    document.title = "Match " + m.id + " in the arena";
    document.body.dataset.state = m.state;
    const about = document.getElementById("about");
    about.textContent = (m.state === "rated" ? "Rated" : m.state === "void" ? "Void (not rated): " + m.why :
      "Playing now: its games are shown once every rotation is over") + ". Begun " + arena.when(m.started) +
      (m.finished ? ", over " + arena.when(m.finished) : "") + ". One deal, played in every rotation of the " +
      "seats; an entrant's rank is by its places summed over the rotations.";
    drawEntrants(m);
    const holder = document.getElementById("rotations");
    holder.textContent = "";
    m.games.forEach((g) => holder.append(drawGame(m, g)));
  }
  function read() {
    arena.get("/api/matches/" + id).then((m) => {
      m.entrants.forEach((e) => { kindOf[e.bot] = e.kind; });
      draw(m);
      arena.drawn();
    }).catch(arena.failed);
  }
  arena.follow((event, data) => { if (event === "match" && data.id === id) read(); });
  read();
})();
