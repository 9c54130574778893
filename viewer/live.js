// The live tournament page (tournament run|resume --serve): follows the server's event stream
// (/events, Server-Sent Events) and draws the standings with their intervals, the SPRT, the
// games running with their boards peel by peel, and the games just finished, each linking to
// its replay page. A reconnection (the browser's own, with Last-Event-ID) gets the events it
// missed, or a fresh snapshot. Every text from a bot or a log is set with textContent.
"use strict";
(function () {
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = String(text);
    return e;
  };
  const signed = (x) => (x >= 0 ? "+" : "") + Math.round(x);
  const pct = (x) => (100 * x).toFixed(1) + "%";
  let standings = null, over = null;
  const running = new Map();  // game -> newBoards(...) with its game, deal and rotation
  let finished = [];

  function newGame(g) {
    return Object.assign(newBoards(g.seats), { game: g.game, deal: g.deal, rotation: g.rotation });  // grid.js
  }
  const fold = foldBoards;

  function drawStandings() {
    const table = document.getElementById("standings");
    table.textContent = "";
    if (!standings) return;
    const head = el("tr");
    ["#", "bot", "Elo", "95% interval", "games", "wins", "win rate"].forEach((h, i) =>
        head.appendChild(el("th", i === 1 ? "text" : "", h)));
    table.appendChild(head);
    standings.bots.forEach((b, i) => {
      const tr = el("tr");
      tr.dataset.bot = b.name;
      tr.dataset.games = String(b.games);
      [i + 1, b.name, signed(b.elo), "[" + signed(b.elo_low) + ", " + signed(b.elo_high) + "]",
       b.games, b.wins, pct(b.win_rate)].forEach((c, j) => tr.appendChild(el("td", j === 1 ? "text" : "", c)));
      table.appendChild(tr);
    });
    const progress = document.getElementById("progress");
    progress.textContent = standings.done + " of " + standings.games + " games done" +
        (standings.stopped ? " (stopped: " + standings.stopped + ")" : "");
    progress.dataset.done = String(standings.done);
    const sprt = document.getElementById("sprt");
    sprt.textContent = "";
    const p = standings.pairs, t = standings.sprt;
    if (p) sprt.appendChild(el("div", null, "On game pairs: " + signed(p.elo) + " Elo [" + signed(p.elo_low) + ", " +
        signed(p.elo_high) + "] over " + p.pairs + " pairs; likelihood of superiority " + pct(p.los)));
    if (t) sprt.appendChild(el("div", null, "SPRT (elo0 " + t.elo0 + ", elo1 " + t.elo1 + "): LLR " + t.llr.toFixed(2) +
        " in [" + t.lower_bound.toFixed(2) + ", " + t.upper_bound.toFixed(2) + "], " + t.decision));
  }

  function drawGame(game) {
    let box = document.querySelector('section.live-game[data-game="' + game.game + '"]');
    if (!box) {
      box = el("section", "live-game");
      box.dataset.game = String(game.game);
      document.getElementById("running").appendChild(box);
    }
    box.textContent = "";
    box.appendChild(el("h3", null, "game " + game.game + " (deal " + game.deal + ", rotation " + game.rotation + ")" +
        (game.bunch === null ? "" : ": " + game.bunch + " in the bunch")));
    box.appendChild(seatBoards(game));  // grid.js
    box.dataset.peels = String(game.peels.reduce((a, b) => a + b, 0));
  }
  function drawRunning() {
    const holder = document.getElementById("running");
    holder.querySelectorAll("section.live-game").forEach((s) => {
      if (!running.has(Number(s.dataset.game))) s.remove();
    });
    running.forEach(drawGame);
    document.getElementById("idle").hidden = running.size > 0;
  }
  function drawFinished() {
    const list = document.getElementById("finished");
    list.textContent = "";
    finished.slice().reverse().forEach((g) => {
      const li = el("li");
      li.dataset.game = String(g.game);
      li.appendChild(el("span", null, "game " + g.game + ": " + g.seats.join(" vs ") + ": " + g.end +
          (g.winner === null ? ", no winner" : ", " + g.winner + " won") + " "));
      if (g.page) {
        const a = el("a", null, "replay");
        a.href = g.page;
        li.appendChild(a);
      }
      list.appendChild(li);
    });
  }
  function drawOver() {
    const status = document.getElementById("connection");
    if (over) { status.textContent = "over: " + over; status.className = "over"; }
    document.body.dataset.over = over ? "1" : "";
  }

  const source = new EventSource("/events");
  const status = document.getElementById("connection");
  source.onopen = () => { if (!over) { status.textContent = "live"; status.className = "live"; } };
  source.onerror = () => {
    if (over) { source.close(); return; }
    status.textContent = "reconnecting...";
    status.className = "reconnecting";
  };
  source.addEventListener("snapshot", (e) => {
    const s = JSON.parse(e.data);
    standings = s.standings;
    over = s.over;
    running.clear();
    s.running.forEach((g) => {
      const game = newGame(g);
      g.records.forEach((r) => fold(game, r));
      running.set(g.game, game);
    });
    finished = s.finished;
    document.body.dataset.events = String((Number(document.body.dataset.events) || 0) + 1);
    document.getElementById("title").textContent = "Tournament: " + s.bots.join(", ");
    drawStandings(); drawRunning(); drawFinished(); drawOver();
  });
  source.addEventListener("game_started", (e) => {
    const g = JSON.parse(e.data);
    running.set(g.game, newGame(g));
    drawRunning();
  });
  ["start", "input", "usage", "greeted", "hands_dealt", "peel_accepted", "peel_stale", "dumped",
   "dump_refused", "disqualified", "game_over"].forEach((name) =>
    source.addEventListener(name, (e) => {
      const m = JSON.parse(e.data);
      const game = running.get(m.game);
      if (!game) return;
      fold(game, m.record);
      if (m.record.decision) drawGame(game);
    }));
  source.addEventListener("result", (e) => {
    running.delete(JSON.parse(e.data).game);
    drawRunning();
  });
  source.addEventListener("game_done", (e) => {
    finished.push(JSON.parse(e.data));
    if (finished.length > 20) finished.shift();
    drawFinished();
  });
  source.addEventListener("standings", (e) => { standings = JSON.parse(e.data); drawStandings(); });
  source.addEventListener("finished", (e) => {
    over = JSON.parse(e.data).why;
    running.clear();
    drawRunning(); drawOver();
    source.close();
  });
})();
