// The game page: folds the event log into the state at any moment and draws it. The log is
// embedded as JSON in a replay page; a live page (host --serve) embeds null and takes the
// records from the server's event stream, drawing the game again as each one comes, at its
// newest moment unless the reader has stepped back. Every text that came from a bot (commands,
// grids, reasons) is set with textContent: none of it is ever markup.
"use strict";
(function () {
  let timer = null;        // playing: the next step's timeout
  let following = true;    // live: the reader is at the newest moment
  let firstDraw = true;
  let live = false;        // the page follows a game being played
  // An arena's game ({match, rotation}): a public page, its players named from the match's API,
  // a link back to the match, opened at its end, no command shown (an operator's paths).
  const arenaGame = (() => {
    const e = document.getElementById("arena-game");
    return e ? JSON.parse(e.textContent) : null;
  })();
  let names = null;  // an arena game's players by seat, once read
  // How a game ended, in words.
  const ENDS = { bananas: "bananas", last_player_standing: "the last player left",
                 everyone_out: "everyone out", game_timeout: "time ran out",
                 stalled: "the game stalled", aborted: "stopped" };

  function show(records) {
    if (timer) clearTimeout(timer);
    timer = null;
    const start = records[0].start;
    const result = (records[records.length - 1] || {}).result || null;
    const n = start.players.length;

    // Bytes as the log holds them: a string, or {"hex": "..."} for bytes that are not UTF-8.
    function bytes(value) {
      if (value === null || value === undefined) return "";
      if (typeof value === "string") return value;
      if (value.hex) {
        let out = "";
        for (let i = 0; i + 1 < value.hex.length; i += 2)
          out += String.fromCharCode(parseInt(value.hex.substr(i, 2), 16));
        return out;
      }
      return String(value);
    }
    const commands = start.players.map(bytes);
    const seat = (p) => names && names[p] ? names[p] : "player " + (p + 1);
    const seconds = (t) => (t / 1e9).toFixed(3) + " s";

    // The moments one can step to: every decision.
    const moments = [];
    records.forEach((r, i) => { if (r.decision) moments.push(i); });

    function describe(d) {
      switch (d.type) {
        case "greeted": return seat(d.player) + " said hello (protocol version " + d.version + ")";
        case "hands_dealt": return "hands dealt (" + d.hands.map((h) => h.length).join(", ") + " tiles)";
        case "peel_accepted": return seat(d.player) + " peeled (#" + d.number + "), " + d.bunch + " left in the bunch";
        case "peel_stale": return seat(d.player) + "'s peel was stale (it reflects #" + d.number +
            ", now #" + d.current + "): its grid lacks " + d.unseen;
        case "dumped": return seat(d.player) + " dumped " + d.letter + " and got " + d.tiles;
        case "dump_refused": return seat(d.player) + " could not dump " + d.letter + ": " + d.bunch + " left in the bunch";
        case "disqualified": return seat(d.player) + " is out: " + bytes(d.reason);
        case "game_over": return "game over: " + (ENDS[d.end] || d.end) + (d.winner === null || d.winner === undefined ? ", no winner" : ", " + seat(d.winner) + " won");
        default: return d.type;
      }
    }

    // The state after record `upto` (an index into records).
    function stateAt(upto) {
      const s = { grids: Array(n).fill(null), previous: Array(n).fill(null), out: Array(n).fill(null),
                  peels: Array(n).fill(0), bunch: null, over: null, t: 0 };
      const pending = Array(n).fill(null);
      for (let i = 0; i <= upto && i < records.length; i++) {
        const r = records[i];
        s.t = r.t || s.t;
        if (r.input && r.input.type === "peel") pending[r.input.player] = bytes(r.input.grid);
        const d = r.decision;
        if (!d) continue;
        if (d.type === "peel_accepted") {
          s.previous = s.grids.slice();
          s.previous.lastPeeler = d.player;
          s.grids[d.player] = pending[d.player];
          s.peels[d.player] += 1;
          s.bunch = d.bunch;
        } else if (d.type === "dump_refused") {
          s.bunch = d.bunch;
        } else if (d.type === "disqualified") {
          s.out[d.player] = bytes(d.reason);
        } else if (d.type === "game_over") {
          s.over = d;
        }
      }
      return s;
    }

    // A grid's tiles within their bounding box (viewer/grid.js, before this script).
    const parseGrid = tileBox;
    function letterAt(text, x, y) {
      if (!text) return ".";
      const w = parseInt(text.substr(0, 3), 10), h = parseInt(text.substr(3, 3), 10);
      if (x < 0 || y < 0 || x >= w || y >= h) return ".";
      return text[6 + y * w + x] || ".";
    }

    const el = (tag, cls, text) => {
      const e = document.createElement(tag);
      if (cls) e.className = cls;
      if (text !== undefined) e.textContent = text;
      return e;
    };

    // The page's parts.
    // The seed as text: a seed goes up to 2^64-1, and a JSON number read here is a double,
    // exact only up to 2^53, so the records carry it as "seed_text" too (docs/live.md). A live
    // game's start hides its seed; its result says it.
    const seedText = (part) => !part ? null : typeof part.seed_text === "string" ? part.seed_text :
        Number.isSafeInteger(part.seed) ? String(part.seed) : null;
    const seed = seedText(start) !== null ? seedText(start) : seedText(result);
    const title = arenaGame ? "Match " + arenaGame.match + ", game " + (arenaGame.rotation + 1) +
        (names ? ": " + names.join(", ") : "") :
        "Bananagrams game, " + (seed === null ? "seed said at its end" : "seed " + seed) + ", " + n + " players";
    document.getElementById("title").textContent = title;
    document.title = title;
    // The command that deals the same game again, once the seed is known: the seed, what of the
    // start is not the host's default (the tiles' sets, the word list, the legacy dialect, the
    // clocks), and the players' commands in their seats, quoted for sh.
    const quote = (text) => /^[A-Za-z0-9_\/.,:=@%+-]+$/.test(text) ? text :
        "'" + text.replace(/'/g, "'\\''") + "'";
    const again = document.getElementById("again");
    if (seed === null || arenaGame) {
      again.hidden = true;
    } else {
      const words = ["host", "--seed", seed];
      if (start.sets && start.sets !== 1) words.push("--sets", String(start.sets));
      if (bytes(start.dictionary)) words.push("--dict", quote(bytes(start.dictionary)));
      if (start.dialect && start.dialect !== "v1") words.push("--legacy-dialect", start.dialect);
      if (typeof start.ready_timeout_ms === "number" && start.ready_timeout_ms !== 10000)
        words.push("--ready-timeout", String(start.ready_timeout_ms / 1000));
      if (typeof start.game_timeout_ms === "number" && start.game_timeout_ms !== 600000)
        words.push("--game-timeout", String(start.game_timeout_ms / 1000));
      // A log before version 4 had no stall clock: 0 plays it so again.
      const stall = typeof start.stall_timeout_ms === "number" ? start.stall_timeout_ms : 0;
      if (stall !== 30000)
        words.push("--stall-timeout", String(stall / 1000));
      if (typeof start.kill_grace_ms === "number" && start.kill_grace_ms !== 2000)
        words.push("--kill-grace", String(start.kill_grace_ms));
      commands.forEach((c) => words.push(quote(c)));
      document.getElementById("replay").textContent = words.join(" ");
      again.hidden = false;
    }
    const slider = document.getElementById("step");
    slider.max = String(Math.max(0, moments.length - 1));
    const picker = document.getElementById("picker");
    const chosen = picker.value;
    while (picker.options.length > 1) picker.remove(1);
    commands.forEach((c, p) => {
      const o = el("option", null, seat(p));
      o.value = String(p);
      picker.appendChild(o);
    });
    if ([...picker.options].some((o) => o.value === chosen)) picker.value = chosen;

    // The events, each a link to its moment.
    const list = document.getElementById("events");
    list.textContent = "";
    moments.forEach((index, m) => {
      const d = records[index].decision;
      if (d.type === "greeted") return;
      const li = el("li", d.type === "peel_stale" ? "stale" : d.type === "disqualified" ? "disqualified" : "");
      li.dataset.moment = String(m);
      const a = el("a", null, "[" + seconds(records[index].t) + "] " + describe(d));
      a.href = "#step=" + records[index].seq;
      a.addEventListener("click", (e) => { e.preventDefault(); go(m); });
      li.appendChild(a);
      list.appendChild(li);
    });

    // The bunch over time: 144 tiles a set less the hands at the deal; two fewer a dump (three
    // out, one back); a disqualified player's hand back into it; and what every accepted peel and
    // refused dump says it holds.
    (function plot() {
      const points = [];
      let bunch = null;
      const hands = Array(n).fill(0), out = Array(n).fill(false);
      records.forEach((r) => {
        const d = r.decision;
        if (!d) return;
        if (d.type === "hands_dealt") {
          d.hands.forEach((hand, p) => { hands[p] = hand.length; });
          bunch = 144 * (start.sets || 1) - hands.reduce((sum, size) => sum + size, 0);
        } else if (d.type === "dumped" && bunch !== null) {
          hands[d.player] += 2;
          bunch -= 2;
        } else if (d.type === "disqualified" && bunch !== null && !out[d.player]) {
          out[d.player] = true;
          bunch += hands[d.player];
          hands[d.player] = 0;
        } else if (d.type === "peel_accepted") {
          hands.forEach((size, p) => { if (!out[p]) hands[p] = size + 1; });
          bunch = d.bunch;
        } else if (d.type === "dump_refused") {
          bunch = d.bunch;
        } else {
          return;
        }
        if (bunch !== null) points.push([r.t, bunch]);
      });
      if (result && records.length) points.push([records[records.length - 1].t, result.bunch]);
      const svg = document.getElementById("bunch");
      svg.textContent = "";
      svg.style.display = "";
      svg.dataset.bunch = points.map((p) => p[1]).join(",");
      if (points.length < 2) { svg.style.display = "none"; return; }
      const W = 320, H = 90, tMax = points[points.length - 1][0] || 1;
      const bMax = Math.max(...points.map((p) => p[1]), 1);
      const path = points.map((p, i) => (i ? "L" : "M") + (4 + (W - 8) * p[0] / tMax).toFixed(1) + "," +
          (H - 4 - (H - 8) * p[1] / bMax).toFixed(1)).join(" ");
      const line = document.createElementNS("http://www.w3.org/2000/svg", "path");
      line.setAttribute("d", path);
      line.setAttribute("fill", "none");
      line.setAttribute("stroke", "#c9a94a");
      line.setAttribute("stroke-width", "2");
      svg.appendChild(line);
      const label = document.createElementNS("http://www.w3.org/2000/svg", "text");
      label.setAttribute("x", "8"); label.setAttribute("y", "14"); label.setAttribute("font-size", "11");
      label.textContent = "bunch: " + bMax + " -> " + points[points.length - 1][1];
      svg.appendChild(label);
    })();

    // The result table.
    document.getElementById("result").textContent = "";
    if (result) {
      const table = document.getElementById("result");
      const head = el("tr");
      // On a phone the narrow columns go (the page's sheet): who, how it ended, its place, its
      // moves and tiles stay.
      const narrow = ["protocol", "CPU (s)", "waited for a CPU (ms)", "memory (MiB)"];
      ["seat", "result", "place", "protocol", "peels", "dumps", "tiles", "CPU (s)", "waited for a CPU (ms)",
       "memory (MiB)", arenaGame ? "player" : "command"].forEach((h) =>
          head.appendChild(el("th", (h === "command" || h === "player" || h === "result" ||
            h === "protocol" ? "text" : "") + (narrow.includes(h) ? " narrow" : ""), h)));
      table.appendChild(head);
      result.players.forEach((p, i) => {
        const row = el("tr");
        row.appendChild(el("td", "", String(i + 1)));
        row.appendChild(el("td", "text", p.outcome + (p.reason ? ": " + bytes(p.reason) : "")));
        row.appendChild(el("td", "", String(p.rank)));
        row.appendChild(el("td", "text narrow", p.protocol === "legacy-v1" ? "the original" : p.protocol));
        row.appendChild(el("td", "", String(p.peels)));
        row.appendChild(el("td", "", String(p.dumps)));
        row.appendChild(el("td", "", String(p.tiles)));
        // What its processes used, where its cgroup counted it (logs of version 2).
        row.appendChild(el("td", "narrow", p.cpu_ms == null ? "-" : (p.cpu_ms / 1000).toFixed(3)));
        // How long it waited for a CPU in the race (logs of version 7): "≥" for a lower bound, "-"
        // where it could not be had (the note says why, on hover).
        const wait = el("td", "", p.cpu_wait_ms == null ? "-" :
            (p.cpu_wait_note ? "\u2265" : "") + p.cpu_wait_ms.toFixed(1));
        wait.className = "wait narrow";
        if (p.cpu_wait_note) wait.title = p.cpu_wait_note;
        row.appendChild(wait);
        row.appendChild(el("td", "narrow", p.memory_peak_bytes == null ? "-" :
            (p.memory_peak_bytes / 1048576).toFixed(1)));
        // A remote seat's race includes its network (logs of version 6): its round trip.
        const remote = !p.remote ? "" : " (remote: round trip " + (p.remote.rtt_ms == null ?
            "not measured" : p.remote.rtt_ms.toFixed(2) + " ms, at most " +
            p.remote.rtt_max_ms.toFixed(2) + " ms") + ")";
        row.appendChild(el("td", "text", arenaGame ? seat(i) : bytes(p.command) + remote));
        table.appendChild(row);
      });
      // Whether the race was run on equal terms (logs of version 7).
      const fair = document.getElementById("contention");
      if (fair) {
        fair.textContent = result.contended === true
            ? "Contended: a player waited for a CPU longer than the host allows in the " +
              result.race_ms.toFixed(1) + " ms race: it was not run on equal terms."
            : result.contended === false ? "Not contended: no player waited long for a CPU in the " +
              result.race_ms.toFixed(1) + " ms race."
            : "race_ms" in result ? "Contention not known: a player's wait for a CPU could not be had." : "";
        fair.dataset.contended = String(result.contended);
      }
    }

    // What each player wrote to stderr, where it was kept (a tournament's --logs).
    const kept = document.getElementById("stderr-data");
    if (kept && firstDraw) {
      const texts = JSON.parse(kept.textContent);
      const section = document.getElementById("stderr");
      section.appendChild(el("h2", null, "What the players wrote to stderr"));
      for (let p = 0; p < n; p++) {
        const text = texts[p] || "";
        const lines = text ? text.replace(/\n$/, "").split("\n").length : 0;
        const box = el("details", "stderr");
        box.dataset.player = String(p);
        box.appendChild(el("summary", null, seat(p) + ": " + (lines ? lines + (lines === 1 ? " line" : " lines") : "nothing")));
        if (lines) box.appendChild(el("pre", null, text));
        section.appendChild(box);
      }
    }

    // A replay page opens at its first moment; a live one at its newest, and stays there unless
    // the reader steps back.
    let current = !live ? (firstDraw ? 0 : Math.min(Number(slider.value), moments.length - 1))
        : following ? moments.length - 1 : Math.min(Number(slider.value), moments.length - 1);
    function draw() {
      if (!moments.length) {
        document.getElementById("current").textContent = "waiting for the players";
        return;
      }
      const index = moments[current];
      const s = stateAt(index);
      const d = records[index].decision;
      document.getElementById("clock").textContent =
          "event " + (current + 1) + " of " + moments.length + ", at " + seconds(records[index].t);
      const now = document.getElementById("current");
      now.textContent = describe(d);
      now.className = d.type;
      const boards = document.getElementById("boards");
      boards.textContent = "";
      const only = picker.value === "all" ? null : Number(picker.value);
      const shown = only === null ? n : 1;
      document.documentElement.style.setProperty("--cell",
          (shown > 16 ? 9 : shown > 4 ? 14 : shown > 2 ? 18 : 22) + "px");
      for (let p = 0; p < n; p++) {
        if (only !== null && p !== only) continue;
        const won = s.over && s.over.winner === p;
        const box = el("section", "player" + (s.out[p] ? " out" : "") + (won ? " won" : "") +
            (shown > 16 ? " compact" : ""));
        box.dataset.player = String(p);
        box.title = arenaGame ? seat(p) : commands[p];
        box.appendChild(el("h3", null, seat(p) + (won ? " (won)" : "")));
        if (!arenaGame) box.appendChild(el("div", "command", commands[p]));
        box.appendChild(el("div", "status", s.out[p] ? "out: " + s.out[p] : s.peels[p] + (s.peels[p] === 1 ? " peel" : " peels")));
        const grid = parseGrid(s.grids[p]);
        if (!grid || !grid.rows.length) {
          box.appendChild(el("div", "empty-board", "no grid yet"));
          box.dataset.rows = "";
        } else {
          const board = el("div", "board");
          board.style.gridTemplateColumns = "repeat(" + grid.width + ", var(--cell))";
          const before = s.previous.lastPeeler === p ? s.previous[p] : s.grids[p];
          grid.rows.forEach((row, y) => {
            for (let x = 0; x < row.length; x++) {
              const c = row[x];
              if (c === ".") { board.appendChild(el("div", "cell")); continue; }
              const fresh = letterAt(before, grid.left + x, grid.top + y) !== c;
              board.appendChild(el("div", "cell tile" + (fresh ? " new" : ""), c));
            }
          });
          box.appendChild(board);
          box.dataset.rows = grid.rows.join("|");
        }
        boards.appendChild(box);
      }
      list.querySelectorAll("li").forEach((li) => li.classList.toggle("at", Number(li.dataset.moment) === current));
      const at = list.querySelector("li.at");
      if (at && at.scrollIntoView) at.scrollIntoView({ block: "nearest" });
      slider.value = String(current);
    }
    function go(m) {
      current = Math.max(0, Math.min(moments.length - 1, m));
      following = current === moments.length - 1;
      draw();
    }

    // Playing: each event at its own time, scaled by the speed.
    const play = document.getElementById("play");
    function stop() { if (timer) clearTimeout(timer); timer = null; play.textContent = "play"; }
    function tick() {
      if (current >= moments.length - 1) return stop();
      const speed = Number(document.getElementById("speed").value);
      const wait = (records[moments[current + 1]].t - records[moments[current]].t) / 1e6 / speed;
      timer = setTimeout(() => { go(current + 1); tick(); }, Math.min(2000, Math.max(0, wait)));
    }
    stop();
    // Set, not added: a live page draws the game again with every record.
    play.onclick = () => {
      if (timer) return stop();
      play.textContent = "pause";
      if (current >= moments.length - 1) go(0);
      tick();
    };
    document.getElementById("back").onclick = () => { stop(); go(current - 1); };
    document.getElementById("forward").onclick = () => { stop(); go(current + 1); };
    slider.oninput = () => { stop(); go(Number(slider.value)); };
    picker.onchange = draw;

    // #step=last, or #step=SEQ (a record's sequence number): where a replay page opens.
    const wanted = firstDraw && /step=(\w+)/.exec(location.hash);
    // An arena's game, over, opens at its end.
    if ((wanted && wanted[1] === "last") || (firstDraw && !wanted && arenaGame))
      current = Math.max(0, moments.length - 1);
    else if (wanted) {
      const seq = Number(wanted[1]);
      const m = moments.findIndex((i) => records[i].seq >= seq);
      current = m < 0 ? moments.length - 1 : m;
    }
    if (moments.length) following = current === moments.length - 1;
    firstDraw = false;
    draw();
  }

  const embedded = JSON.parse(document.getElementById("log").textContent);
  if (embedded && arenaGame) {
    const back = document.getElementById("to-match");
    back.href = "/matches/" + arenaGame.match;
    back.textContent = "\u2190 Match " + arenaGame.match;
    back.hidden = false;
    // Its players' names, from the match's document (the seats of this game's rotation).
    fetch("/api/matches/" + arenaGame.match, { cache: "no-store" }).then((r) => r.json()).then((m) => {
      const game = m.games.find((g) => g.rotation === arenaGame.rotation);
      if (!game) return;
      names = game.seats.map((s) => s.bot);
      show(embedded);
      document.body.dataset.names = names.join(",");
    }).catch(() => { /* the page stays with the seats' numbers */ });
  }
  if (embedded) { show(embedded); return; }

  // Live: the records so far (a snapshot), then each as it is written (docs/live.md).
  live = true;
  let records = [];
  let over = false;
  const source = new EventSource("/events");
  const status = document.getElementById("connection");
  const drawOver = () => {
    status.textContent = "over"; status.className = "over";
    document.body.dataset.over = "1";
  };
  source.onopen = () => { if (!over) { status.textContent = "live"; status.className = "live"; } };
  source.onerror = () => {
    if (over) { source.close(); return; }
    status.textContent = "reconnecting..."; status.className = "reconnecting";
  };
  source.addEventListener("snapshot", (e) => {
    const s = JSON.parse(e.data);
    records = s.records;
    over = s.over;
    document.body.dataset.events = String((Number(document.body.dataset.events) || 0) + 1);
    if (records.length) show(records);
    if (over) { drawOver(); source.close(); }
  });
  // Drawn again for what came, at most every tenth of a second: a fast game sends hundreds of
  // records a second, and drawing each would keep the page from its reader.
  let drawing = null;
  const redraw = () => {
    if (drawing) return;
    drawing = setTimeout(() => { drawing = null; if (records.length) show(records); }, 100);
  };
  ["start", "input", "usage", "result", "greeted", "hands_dealt", "peel_accepted", "peel_stale",
   "dumped", "dump_refused", "disqualified", "game_over"].forEach((name) =>
    source.addEventListener(name, (e) => {
      records.push(JSON.parse(e.data).record);
      document.body.dataset.events = String((Number(document.body.dataset.events) || 0) + 1);
      if (name !== "input" && name !== "usage") redraw();
    }));
  source.addEventListener("finished", () => {
    over = true;
    source.close();
    if (drawing) clearTimeout(drawing);
    drawing = null;
    show(records);
    drawOver();
  });
})();
