// A bot's page in the arena (GET /bots/NAME; a person's, GET /people/NAME), from its twin
// /api/bots/NAME (/api/people/NAME): its rating after every rated match as a chart (Chart.js,
// Debian's libjs-chart.js, inline in the page), each version's first match marked; its versions
// (a bot's: a person has one, and the page says nothing of versions); its mean think time a
// game, and its CPU where the arena measured it (a house bot's); why it was out of games, in
// words; why and when it was paused; and its matches, each with everyone at the table, its place
// in every rotation and its rating change. One rating is shown: the mean, "?" while provisional. Read again when the stream says one of its matches ended or
// its status changed.
"use strict";
(function () {
  const { el } = arena;
  const person = location.pathname.startsWith("/people/");
  const name = decodeURIComponent(location.pathname.split("/")[2] || "");
  const twin = (person ? "/api/people/" : "/api/bots/") + encodeURIComponent(name);
  let chart = null;

  // Every rated match of every version, in the order they finished: one point each.
  function points(bot) {
    const all = [];
    bot.versions.forEach((v, i) => v.matches.forEach((m) => all.push(Object.assign({ version: i }, m))));
    all.sort((a, b) => (a.finished < b.finished ? -1 : a.finished > b.finished ? 1 : a.match - b.match));
    return all;
  }
  // Each version's first match, as the chart marks it: its index among the points.
  function marks(bot, all) {
    const found = [];
    bot.versions.forEach((v, i) => {
      const first = all.findIndex((p) => p.version === i);
      if (first >= 0) found.push({ index: first, label: v.version || "(no version)" });
    });
    return found;
  }
  const versionMarks = {
    id: "versionMarks",
    afterDatasetsDraw(c, args, options) {
      const { ctx, chartArea, scales } = c;
      ctx.save();
      ctx.strokeStyle = "#8a5a00";
      ctx.fillStyle = "#8a5a00";
      ctx.setLineDash([4, 3]);
      ctx.font = "11px system-ui, sans-serif";
      (options.marks || []).forEach((m) => {
        const x = scales.x.getPixelForValue(m.index);
        ctx.beginPath();
        ctx.moveTo(x, chartArea.top);
        ctx.lineTo(x, chartArea.bottom);
        ctx.stroke();
        ctx.fillText(m.label, x + 3, chartArea.top + 11);
      });
      ctx.restore();
    },
  };
  function drawChart(bot) {
    const all = points(bot), canvas = document.getElementById("chart");
    const found = bot.kind === "person" ? [] : marks(bot, all);  // a person has no versions
    canvas.dataset.points = String(all.length);
    canvas.dataset.marks = found.map((m) => m.index + ":" + m.label).join(",");
    const note = document.getElementById("chart-note");
    if (typeof Chart === "undefined") {
      note.textContent = "The chart needs Chart.js (Debian's libjs-chart.js) on the arena's machine; " +
        "the matches below have every figure.";
      return;
    }
    note.textContent = !all.length ? "No rated match yet." : bot.kind === "person" ? "One point a rated match." :
      "One point a rated match; a dashed line where a version played its first.";
    const data = {
      labels: all.map((p) => "match " + p.match),
      datasets: [
        { label: "rating", data: all.map((p) => p.after.mu), borderColor: "#1d4ed8", backgroundColor: "#1d4ed8",
          pointRadius: 3, tension: 0 },
      ],
    };
    const options = {
      animation: false, maintainAspectRatio: false, responsive: true,
      scales: { x: { ticks: { maxTicksLimit: 12 } }, y: { title: { display: true, text: "rating" } } },
      plugins: { versionMarks: { marks: found } },
    };
    if (chart) { chart.data = data; chart.options = options; chart.update(); }
    else chart = new Chart(canvas, { type: "line", data: data, options: options, plugins: [versionMarks] });
    window.ratingChart = chart;
  }
  function drawAbout(bot) {
    document.getElementById("title").textContent = bot.name;
    document.title = bot.name + " in the arena";
    const about = document.getElementById("about");
    about.textContent = "";
    const now = bot.versions[bot.versions.length - 1];
    const played = now ? now.matches_played : 0;
    // A hosted bot: its author's code, which the arena runs on its own machine (its newest
    // version submitted, not connected).
    const hosted = now && now.hosted;
    about.append((bot.kind === "person" ? "A person" : bot.kind === "house" ?
      "A house bot of the arena's" : (hosted ? "A hosted bot of " : "A remote bot of ") + bot.owner) +
      (hosted ? ", its code run by the arena on a core of its own" : "") + (bot.about ? ": " + bot.about : "") +
      (bot.anchor !== null ? ". It is the anchor: its rating is held at " + arena.fixed(bot.anchor, 0) +
        ", and every other is measured against it" : "") + ". ");
    if (now && bot.anchor === null) {
      about.append("Rating ", el("strong", "rating", arena.shown(now.rating, played < arena.PROVISIONAL_MATCHES)),
        played < arena.PROVISIONAL_MATCHES ? " (provisional: " + played + " of its first " +
          arena.PROVISIONAL_MATCHES + " matches). " : ". ");
    }
    about.append("Now: ");
    about.append(el("strong", "status " + bot.status, arena.STATUS[bot.status] || bot.status));
    about.append(bot.not_queued ? " (not queued: " + bot.not_queued + ")." : ".");
    const paused = document.getElementById("paused");
    paused.hidden = !bot.paused;
    paused.textContent = bot.paused ? "Paused" + (bot.paused_at ? " since " + arena.when(bot.paused_at) : "") +
      ": " + bot.paused + ". It plays again once the organiser enables it, or it passes its check as it connects." : "";
  }
  function drawTables(bot) {
    // A person has one entry, and is not checked: no versions to show.
    document.getElementById("versions-part").hidden = bot.kind === "person";
    arena.table(document.getElementById("versions"),
      [{ text: "version" }, { text: "since", narrow: true }, "rating", "matches",
       { text: "checked before it played" }],
      bot.versions.map((v) => [(v.version || "(none said)") + (v.hosted ? " (hosted)" : ""), arena.when(v.since),
        arena.shown(v.rating, v.matches_played < arena.PROVISIONAL_MATCHES), v.matches_played,
        v.checked ? "passed " + arena.when(v.checked) : v.check_failed ? "failed: " + v.check_failed :
          bot.kind === "remote" ? "not yet" : "a house bot: not checked"]));
    const g = bot.games;
    // CPU is measured on the arena's machine (a house bot's): a remote bot's or a person's is
    // their own machine's, and no column is shown for it.
    const measured = g.cpu_ms !== null, thought = g.think_ms !== null;
    // A race is judged fair or contended where the arena ran every player (docs/arena.md).
    // A remote bot's round trip to the arena: part of every move it makes (docs/arena.md).
    const judged = g.fair_races + g.contended_races > 0, linked = g.round_trip_ms !== null;
    arena.table(document.getElementById("per-game"),
      // On a phone, the races' counts are left out (the match's page says each game's).
      ["games"].concat(thought ? ["thinking (s)"] : [], measured ? ["CPU (s)", "waited for a CPU (s)"] : [],
                       judged ? [{ name: "fair races", narrow: true }, { name: "contended races", narrow: true }] : [],
                       linked ? ["round trip (ms)"] : []),
      [[g.games].concat(thought ? [seconds(g.think_ms)] : [],
                        measured ? [seconds(g.cpu_ms), seconds(g.cpu_wait_ms)] : [],
                        judged ? [g.fair_races, g.contended_races] : [],
                        linked ? [arena.fixed(g.round_trip_ms, 1)] : [])]);
    const out = Object.entries(g.out).sort((a, b) => b[1] - a[1]);
    document.getElementById("out-none").hidden = out.length > 0;
    document.getElementById("out").hidden = out.length === 0;
    arena.table(document.getElementById("out"), [{ text: "why" }, "games"],
      out.map(([code, n]) => [arena.out(code), n]));
    const all = points(bot).reverse();
    arena.table(document.getElementById("matches"),
      [{ text: "match" }, { text: "finished", narrow: true }].concat(
       bot.kind === "person" ? [] : [{ text: "version", narrow: true }],
       [{ text: "at the table (place in the match)" }, { text: "its places, game by game", narrow: true },
        "place", "change"]),
      all.map((m) => {
        const table = el("span");
        m.table.forEach((t, i) => {
          if (i) table.append(", ");
          const kind = t.bot === bot.name ? bot.kind : "";
          table.append(t.bot === bot.name ? el("strong", null, t.bot) :
            arena.link(arena.accountPath(kind, t.bot), t.bot), " (" + t.rank + ")");
        });
        const change = el("span", m.change >= 0 ? "good" : "bad", arena.signed(m.change, 1));
        return [arena.link("/matches/" + m.match, "match " + m.match), arena.when(m.finished)].concat(
          bot.kind === "person" ? [] : [bot.versions[m.version].version || "(none said)"], [table,
          m.games.map((p) => arena.place(p.place) + (p.out_code ? " (" + arena.out(p.out_code) + ")" : "")).join(", "),
          arena.place(m.rank), change]);
      }));
  }
  // Its place in each season: its rank and tier on the season's board, and in its finals.
  function drawSeasons(bot) {
    const seasons = bot.seasons || [];
    document.getElementById("seasons-part").hidden = seasons.length === 0;
    arena.table(document.getElementById("seasons"),
      [{ text: "season" }, { text: "tier" }, "rank", { text: "finals" }],
      seasons.map((s) => [arena.link("/seasons/" + encodeURIComponent(s.season), s.season), s.tier, s.rank,
        s.finals_place ? "place " + s.finals_place + (s.state === "over" ? "" : " so far") :
          s.finalist ? "a finalist" : ""]));
  }
  function seconds(ms) { return ms === null ? "" : arena.fixed(ms / 1000, 1); }
  function read() {
    arena.get(twin).then((bot) => {
      drawAbout(bot);
      drawChart(bot);
      drawTables(bot);
      drawSeasons(bot);
      arena.drawn();
    }).catch(arena.failed);
  }
  const again = arena.calm(read, 1000);
  arena.follow((event, data) => {
    if (event === "snapshot") return;
    if (event === "match" && !(data.entrants || []).some((e) => e.bot === name)) return;
    again();  // a match of its, or a status (its own may have changed, even to none said)
  });
  read();
})();
