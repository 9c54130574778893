// What is playing in the arena now (GET /live), from its twin /api/live. The spectators' rule
// (docs/arena.md, "Spectators") is said at the top: a match is shown once every rotation of it is
// over, for while it plays its deal is played again with the seats turned. So the matches
// playing now are named with how far they are, and the boards shown are those of the match
// just over: its rotations side by side, replayed from their logs (/api/matches/ID/games/R) as
// they were played, sped up. The next match to end is replayed after. Every text from a bot or
// a log is set as text.
"use strict";
(function () {
  const { el } = arena;
  // The replay's pace against the games' own: 8, or ?speed=N (from 0.25 to 64: 1 watches a
  // match as it was played).
  const asked = Number(new URLSearchParams(location.search).get("speed"));
  const SPEED = asked >= 0.25 && asked <= 64 ? asked : 8;
  const STEP_MS = 100;      // how often the replay moves on
  let shown = null;         // the match being replayed: {id, games: [{boards, records, next, t0}], start}
  let next = null;          // the id of the match to replay once this one is done
  let timer = null;

  function drawLists(live) {
    document.getElementById("rule").textContent = live.rule;
    const playing = document.getElementById("playing");
    playing.textContent = "";
    live.playing.forEach((p) => {
      const li = el("li");
      li.dataset.match = String(p.match);
      li.append(arena.link("/matches/" + p.match, "match " + p.match), ": " + p.bots.join(", ") + ", game " +
        Math.min(p.games_over + 1, p.games) + " of " + p.games);
      playing.append(li);
    });
    document.getElementById("idle").hidden = live.playing.length > 0;
    const recent = document.getElementById("recent");
    recent.textContent = "";
    live.recent.forEach((r) => {
      const li = el("li");
      li.append(arena.link("/matches/" + r.match, "match " + r.match), " " + (r.state === "void" ? "void" : "rated") +
        ", over " + arena.when(r.finished));
      recent.append(li);
    });
  }
  function drawShown() {
    const holder = document.getElementById("shown");
    holder.textContent = "";
    if (!shown) return;
    shown.games.forEach((g) => {
      const box = el("section", "live-game rotation");
      box.dataset.rotation = String(g.rotation);
      box.append(el("h3", null, "Rotation " + (g.rotation + 1) + (g.boards.bunch === null ? "" : ": " +
        g.boards.bunch + " in the bunch") + (g.next >= g.records.length ? ", over" : "")));
      box.append(seatBoards(g.boards));  // grid.js
      holder.append(box);
    });
    const moved = shown.games.reduce((n, g) => n + g.next, 0);
    document.body.dataset.moves = String(moved);
  }
  // One step of the replay: every record whose time has come, folded into its game's boards.
  function step() {
    const at = (performance.now() - shown.start) * 1e6 * SPEED;  // in the logs' nanoseconds
    let left = false;
    shown.games.forEach((g) => {
      while (g.next < g.records.length && (g.records[g.next].t || 0) - g.t0 <= at)
        foldBoards(g.boards, g.records[g.next++]);  // grid.js
      if (g.next < g.records.length) left = true;
    });
    drawShown();
    if (left) { timer = setTimeout(step, STEP_MS); return; }
    timer = null;
    document.body.dataset.replayed = String(shown.id);
    document.getElementById("shown-about").textContent = "Match " + shown.id + ", replayed at " + SPEED +
      "x: over. The next match to end is replayed here.";
    if (next !== null && next !== shown.id) replay(next);
  }
  function replay(id) {
    if (timer) { next = id; return; }  // after the one under way
    next = null;
    arena.get("/api/matches/" + id).then((m) => {
      if (!m.games.length) return null;
      return Promise.all(m.games.map((g) => arena.get("/api/matches/" + id + "/games/" + g.rotation)
        .then((log) => ({ rotation: g.rotation, seats: g.seats.map((s) => s.bot), records: log.records }))));
    }).then((games) => {
      if (!games) return;
      shown = { id: id, start: performance.now(), games: games.map((g) => ({
        rotation: g.rotation, records: g.records, next: 0, boards: newBoards(g.seats),  // grid.js
        t0: g.records.length ? g.records[0].t || 0 : 0 })) };
      document.body.dataset.replaying = String(id);
      const about = document.getElementById("shown-about");
      about.textContent = "Match " + id + ", replayed at " + SPEED + "x as it was played: ";
      about.append(arena.link("/matches/" + id, "its page"));
      step();
    }).catch((e) => {
      // A match whose logs were not kept has no boards to show.
      document.getElementById("shown-about").textContent = "match " + id + " cannot be replayed: " + e.message;
    });
  }
  function read(replayNewest) {
    arena.get("/api/live").then((live) => {
      drawLists(live);
      arena.drawn();
      const newest = live.recent.find((r) => r.state === "rated");
      if (replayNewest && newest && (!shown || shown.id !== newest.match)) replay(newest.match);
    }).catch(arena.failed);
  }
  arena.follow((event, data) => {
    if (event === "match" && data.state === "rated") replay(data.id);
    if (event !== "snapshot") read(false);
  });
  read(true);
  setInterval(() => read(false), 5000);  // how far the matches playing are: no event says it
})();
