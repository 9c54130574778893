// The tournament report: standings with their rating intervals as error bars, wins by seat, the
// head-to-head table, disqualifications by code, and every game linking to its replay page.
// Bot names and reasons are set with textContent only.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("report").textContent);
  const s = data.standings;
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const signed = (x) => (x >= 0 ? "+" : "") + Math.round(x);
  const pct = (x) => (100 * x).toFixed(1) + "%";
  // A table whose first `texts` columns are text (left-aligned), the others numbers.
  function table(id, header, rows, texts) {
    const t = document.getElementById(id);
    const head = el("tr");
    header.forEach((h, i) => head.appendChild(el("th", i < texts ? "text" : "", h)));
    t.appendChild(head);
    if (!rows.length) {
      const tr = el("tr");
      const td = el("td", "text muted", "none");
      td.colSpan = header.length;
      tr.appendChild(td);
      t.appendChild(tr);
    }
    rows.forEach((cells) => {
      const tr = el("tr");
      cells.forEach((c, i) => {
        const td = el("td", i < texts ? "text" : "");
        if (c instanceof Node) td.appendChild(c); else td.textContent = String(c);
        tr.appendChild(td);
      });
      t.appendChild(tr);
    });
    return t;
  }
  document.getElementById("title").textContent = "Tournament report: " + s.done + " of " + s.games +
      " games done" + (s.stopped ? " (stopped: " + s.stopped + ")" : "") +
      (s.contended ? ", " + s.contended + " contended" : "") + (s.replays ? ", " + s.replays + " replayed" : "");

  const standings = table("standings",
      ["#", "bot", "Elo", "95% interval", "games", "wins", "win rate", "mean standing", "disqualified", "stale peels",
       "CPU s a game", "CPU wait ms a game", "peak MiB"],
      s.bots.map((b, i) => [i + 1, b.name, signed(b.elo), "[" + signed(b.elo_low) + ", " + signed(b.elo_high) + "]",
                            b.games, b.wins, pct(b.win_rate), b.mean_standing.toFixed(2), b.disqualified, b.stale_peels,
                            b.cpu_ms == null ? "-" : (b.cpu_ms / 1000).toFixed(3),
                            b.cpu_wait_ms == null ? "-" : b.cpu_wait_ms.toFixed(1),
                            b.memory_peak_bytes == null ? "-" : (b.memory_peak_bytes / 1048576).toFixed(1)]), 2);
  standings.querySelectorAll("tr").forEach((tr, i) => {
    if (i === 0) return;
    const b = s.bots[i - 1];
    tr.dataset.bot = b.name;
    tr.dataset.elo = b.elo.toFixed(3);
    tr.dataset.wins = String(b.wins);
    tr.dataset.games = String(b.games);
  });

  // What each rating is; for two bots, the pair score with its likelihood of superiority and
  // the SPRT.
  const notes = data.notes || {};
  document.getElementById("elo-note").textContent = notes.elo || "";
  (function pairs() {
    const holder = document.getElementById("pairs");
    const p = s.pairs, t = s.sprt;
    const name = (id) => (s.bots.find((b) => b.bot === id) || { name: "?" }).name;
    if (p) {
      const line = el("p", null, name(0) + " against " + name(1) + " on " + p.pairs + " game pairs: score " +
          p.score.toFixed(3) + ", Elo " + signed(p.elo) + " [" + signed(p.elo_low) + ", " + signed(p.elo_high) +
          "], likelihood of superiority " + (100 * p.los).toFixed(1) + "%");
      line.id = "pair-line";
      line.dataset.los = p.los.toFixed(4);
      holder.appendChild(line);
      holder.appendChild(el("p", "muted", notes.pairs || ""));
    }
    if (t) holder.appendChild(el("p", null, "SPRT elo0=" + t.elo0 + " elo1=" + t.elo1 + ": LLR " + t.llr.toFixed(2) +
        " in [" + t.lower_bound.toFixed(2) + ", " + t.upper_bound.toFixed(2) + "], " + t.decision));
  })();

  // Ratings with their intervals as error bars, on a scale with round ticks.
  (function bars() {
    const svg = document.getElementById("ratings");
    const ns = "http://www.w3.org/2000/svg";
    const W = 640, row = 26, H = row * s.bots.length + 30;
    svg.setAttribute("width", W); svg.setAttribute("height", H);
    const lo = Math.min(...s.bots.map((b) => b.elo_low), -50), hi = Math.max(...s.bots.map((b) => b.elo_high), 50);
    const x = (v) => 160 + (W - 180) * (v - lo) / (hi - lo || 1);
    const add = (tag, attrs, text) => {
      const e = document.createElementNS(ns, tag);
      Object.entries(attrs).forEach(([k, v]) => e.setAttribute(k, v));
      if (text !== undefined) e.textContent = text;
      svg.appendChild(e);
      return e;
    };
    // About five ticks: 1, 2 or 5 times a power of ten apart.
    const span = hi - lo, raw = span / 5, power = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 5, 10].map((m) => m * power).find((v) => v >= raw);
    const ticks = [];
    for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) ticks.push(v);
    ticks.forEach((v) => {
      add("line", { x1: x(v), x2: x(v), y1: 4, y2: H - 20, stroke: v === 0 ? "#98a2b3" : "#eaecf0" });
      add("text", { x: x(v), y: H - 6, "font-size": 11, "text-anchor": "middle" }, v === 0 ? "0" : signed(v))
          .classList.add("tick");
    });
    s.bots.forEach((b, i) => {
      const y = 16 + i * row;
      add("text", { x: 4, y: y + 4, "font-size": 12 }, b.name);
      add("line", { x1: x(b.elo_low), x2: x(b.elo_high), y1: y, y2: y, stroke: "#1d2330", "stroke-width": 2 });
      add("line", { x1: x(b.elo_low), x2: x(b.elo_low), y1: y - 5, y2: y + 5, stroke: "#1d2330" });
      add("line", { x1: x(b.elo_high), x2: x(b.elo_high), y1: y - 5, y2: y + 5, stroke: "#1d2330" });
      add("circle", { cx: x(b.elo), cy: y, r: 4, fill: "#c9a94a" }).dataset.bot = b.name;
    });
  })();

  table("seats", ["seat", "games", "wins", "win rate"],
        data.seats.map((seat, i) => [i + 1, seat.games, seat.wins, seat.games ? pct(seat.wins / seat.games) : "-"]), 1);

  const names = s.bots.map((b) => b.name);
  table("head", ["bot"].concat(names.map((_, i) => "#" + (i + 1))),
        s.bots.map((b, r) => ["#" + (r + 1) + " " + b.name].concat(s.bots.map((o) => {
          const cell = s.head_to_head[b.bot][o.bot];
          return b.bot === o.bot || !cell.games ? "-" : pct(cell.points / cell.games);
        }))), 1);

  const dq = [];
  s.bots.forEach((b) => Object.entries(b.disqualifications).forEach(([kind, count]) => dq.push([b.name, kind, count])));
  table("disqualifications", ["bot", "kind", "times"], dq, 2);

  table("games", ["game", "seats", "deal", "rotation", "end", "winner"],
        data.games.map((g) => {
          const link = g.page ? el("a", null, String(g.id)) : String(g.id);
          if (g.page) link.href = g.page;
          // Contention, and replays (resume --replay-contended): the first play is shown, not counted.
          const notes = (g.contended ? " (contended)" : "") +
              (g.replay_of ? " (replays game " + g.replay_of + ")" : "") +
              (g.replayed_by ? " (replayed by game " + g.replayed_by + ": not counted)" : "");
          return [link, g.seats.join(", "), g.deal, g.rotation, (g.end || g.state) + notes, g.winner || "-"];
        }), 2);
})();
