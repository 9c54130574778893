// A bot's page in the arena (GET /bots/NAME; a person's, GET /people/NAME), from its twin
// /api/bots/NAME (/api/people/NAME): its rating after every rated match as a chart (Chart.js,
// Debian's libjs-chart.js, inline in the page), each version's first match marked; its versions;
// its mean think time, CPU and wait for a CPU a game; its out-reasons counted by code; why and
// when it was paused; and its matches, each with everyone at the table, its place in every
// rotation and its rating change. Read again when the stream says one of its matches ended or
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
    const found = marks(bot, all);
    canvas.dataset.points = String(all.length);
    canvas.dataset.marks = found.map((m) => m.index + ":" + m.label).join(",");
    const note = document.getElementById("chart-note");
    if (typeof Chart === "undefined") {
      note.textContent = "The chart needs Chart.js (Debian's libjs-chart.js) on the arena's machine; " +
        "the matches below have every figure.";
      return;
    }
    note.textContent = all.length ? "One point a rated match; a dashed line where a version played its first." :
      "No rated match yet.";
    const data = {
      labels: all.map((p) => "match " + p.match),
      datasets: [
        { label: "rating", data: all.map((p) => p.after.mu), borderColor: "#1d4ed8", backgroundColor: "#1d4ed8",
          pointRadius: 3, tension: 0 },
        { label: "rated (less three deviations)", data: all.map((p) => p.conservative),
          borderColor: "#98a2b3", backgroundColor: "#98a2b3", pointRadius: 0, borderDash: [2, 2], tension: 0 },
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
    about.append((bot.kind === "person" ? "A person" : bot.kind === "house" ? "A house bot" : "A remote bot") +
      (bot.kind === "person" ? "" : " of " + bot.owner) + (bot.anchor !== null ? ", the anchor (held at " +
      arena.fixed(bot.anchor) + ")" : "") + ". Now: ");
    about.append(el("strong", "status " + bot.status, arena.STATUS[bot.status] || bot.status));
    about.append(bot.not_queued ? " (not queued: " + bot.not_queued + ")." : ".");
    const paused = document.getElementById("paused");
    paused.hidden = !bot.paused;
    paused.textContent = bot.paused ? "Paused" + (bot.paused_at ? " since " + arena.when(bot.paused_at) : "") +
      ": " + bot.paused + ". It plays again once the organiser enables it, or it passes its check as it connects." : "";
  }
  function drawTables(bot) {
    arena.table(document.getElementById("versions"),
      [{ text: "version" }, { text: "since" }, "rating", "rated", "matches", { text: "conformance check" }],
      bot.versions.map((v) => [v.version || "(none)", arena.when(v.since), arena.rating(v.rating),
        arena.fixed(v.conservative), v.matches_played,
        v.checked ? "passed " + arena.when(v.checked) : v.check_failed ? "failed: " + v.check_failed :
          bot.kind === "remote" ? "not yet" : "not needed"]));
    const g = bot.games;
    // A remote bot's CPU is its own machine's: the arena has no figure, and says so.
    const figure = (x) => x === null ? "not measured" : arena.fixed(x, 1);
    arena.table(document.getElementById("per-game"),
      ["games", "think time (ms)", "CPU (ms)", "waits for a CPU (ms)"],
      [[g.games, figure(g.think_ms), figure(g.cpu_ms), figure(g.cpu_wait_ms)]]);
    const out = Object.entries(g.out).sort((a, b) => b[1] - a[1]);
    document.getElementById("out-none").hidden = out.length > 0;
    document.getElementById("out").hidden = out.length === 0;
    arena.table(document.getElementById("out"), [{ text: "code" }, "games"], out);
    const all = points(bot).reverse();
    arena.table(document.getElementById("matches"),
      [{ text: "match" }, { text: "finished" }, { text: "version" }, { text: "at the table (rank)" },
       { text: "its places" }, "rank", "change"],
      all.map((m) => {
        const table = el("span");
        m.table.forEach((t, i) => {
          if (i) table.append(", ");
          const kind = t.bot === bot.name ? bot.kind : "";
          table.append(t.bot === bot.name ? el("strong", null, t.bot) :
            arena.link(arena.accountPath(kind, t.bot), t.bot), " (" + t.rank + ")");
        });
        const change = el("span", m.change >= 0 ? "good" : "bad", arena.signed(m.change));
        return [arena.link("/matches/" + m.match, "match " + m.match), arena.when(m.finished),
          bot.versions[m.version].version || "(none)", table,
          m.games.map((p) => arena.place(p.place) + (p.out_code ? " (" + p.out_code + ")" : "")).join(", "),
          m.rank, change];
      }));
  }
  function read() {
    arena.get(twin).then((bot) => {
      drawAbout(bot);
      drawChart(bot);
      drawTables(bot);
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
