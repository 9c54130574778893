// The arena's leaderboard (GET /): the bots' board and the people's, apart, as /api/leaderboard
// and /api/people give them (the same rows in the same order): one rating a row (the mean,
// "?" while provisional), drawn beside a bar over its interval (the rating plus and minus three
// deviations, on one scale for both boards), a house bot's words of what it is, the anchor
// named and explained, and what each is doing now. Read again whenever the stream says a
// match began or ended or someone's status changed. Sortable by any column, by click or by the
// keyboard (the headings are buttons); the API's order (the rank) until then.
"use strict";
(function () {
  const { el } = arena;
  const boards = { bots: null, people: null };
  const sorts = { bots: { key: "rank", down: false }, people: { key: "rank", down: false } };
  const columns = [
    { key: "rank", name: "#", value: (r) => r.rank },
    { key: "name", name: "name", text: true, value: (r) => r.name.toLowerCase() },
    { key: "owner", name: "owner", text: true, value: (r) => r.owner.toLowerCase(), narrow: true },
    // On a phone (narrow: left out) the rank, the name, the rating's bar and what each is doing
    // now stay.
    { key: "rating", name: "rating", text: true, value: (r) => r.rating.mu },
    { key: "matches", name: "matches", value: (r) => r.matches, narrow: true },
    { key: "last", name: "last match", text: true, value: (r) => r.last_match || "", narrow: true },
    { key: "status", name: "now", text: true, value: (r) => r.status },
  ];

  // One scale for every bar on the page: the lowest low end to the highest high end.
  function scale() {
    const rows = [].concat(boards.bots || [], boards.people || []);
    if (!rows.length) return null;
    const lo = Math.min(...rows.map((r) => r.rating.mu - 3 * r.rating.sigma));
    const hi = Math.max(...rows.map((r) => r.rating.mu + 3 * r.rating.sigma));
    return { lo: lo, span: Math.max(hi - lo, 1e-9) };
  }
  function bar(row, s) {
    const box = el("div", "interval");
    const low = row.rating.mu - 3 * row.rating.sigma, high = row.rating.mu + 3 * row.rating.sigma;
    const span = el("span", "span");
    span.style.left = (100 * (low - s.lo) / s.span) + "%";
    span.style.width = (100 * (high - low) / s.span) + "%";
    const mean = el("span", "mean");
    mean.style.left = (100 * (row.rating.mu - s.lo) / s.span) + "%";
    box.append(span, mean);
    box.title = "somewhere from " + arena.fixed(low, 1) + " to " + arena.fixed(high, 1) +
      "; ranked by the low end";
    const cell = el("div", "rating-cell");
    const figure = el("span", "figure", arena.shown(row.rating, row.provisional));
    if (row.provisional) figure.title = "provisional: fewer than " + arena.PROVISIONAL_MATCHES + " matches";
    cell.append(figure, box);
    return cell;
  }
  function cells(row, s) {
    const name = el("span");
    name.append(arena.link(arena.accountPath(row.kind, row.name), row.name));
    if (row.kind === "house") name.append(" ", el("span", "tag quiet", "house"));
    if (row.anchor !== null) {
      const tag = el("span", "tag quiet", "anchor");
      tag.title = "its rating is held at " + arena.fixed(row.anchor, 0) + ": every other is measured against it";
      name.append(" ", tag);
    }
    if (row.about) name.append(el("span", "about", row.about));
    // A remote bot races over its own network: its round trip is part of every move it makes.
    if (row.round_trip_ms !== null && row.round_trip_ms !== undefined)
      name.append(el("span", "about", "round trip " + arena.fixed(row.round_trip_ms, 1) + " ms"));
    const status = el("span", "status " + row.status, arena.STATUS[row.status] || row.status);
    if (row.paused) status.append(el("span", "why", row.paused));  // why, on any screen
    return [row.rank, name, row.owner, bar(row, s), row.matches, arena.when(row.last_match), status];
  }
  function draw(which) {
    const table = document.getElementById(which);
    const rows = (boards[which] || []).slice();
    document.getElementById(which + "-none").hidden = rows.length > 0;
    table.hidden = rows.length === 0;
    const sort = sorts[which], column = columns.find((c) => c.key === sort.key);
    rows.sort((a, b) => {
      const x = column.value(a), y = column.value(b);
      const order = x < y ? -1 : x > y ? 1 : a.rank - b.rank;
      return sort.down ? -order : order;
    });
    table.textContent = "";
    const head = el("tr");
    columns.forEach((c) => {
      const th = el("th", (c.text ? "text" : "") + (c.narrow ? " narrow" : ""));
      const button = el("button", "sort", c.name);
      button.type = "button";
      button.dataset.key = c.key;
      button.addEventListener("click", () => {
        sorts[which] = { key: c.key, down: sort.key === c.key ? !sort.down : c.key === "rating" ||
                         c.key === "matches" || c.key === "last" };
        draw(which);
        table.querySelector('button[data-key="' + c.key + '"]').focus();
      });
      th.setAttribute("aria-sort", sort.key === c.key ? (sort.down ? "descending" : "ascending") : "none");
      th.append(button);
      head.append(th);
    });
    table.append(head);
    const s = scale();
    rows.forEach((row) => {
      const tr = el("tr", row.provisional ? "provisional" : "");
      tr.dataset.name = row.name;
      tr.dataset.matches = String(row.matches);
      tr.dataset.status = row.status;
      cells(row, s).forEach((cell, i) => {
        const td = el("td", (columns[i].text ? "text" : "") + (columns[i].narrow ? " narrow" : ""));
        if (cell instanceof Node) td.append(cell); else td.textContent = String(cell);
        tr.append(td);
      });
      table.append(tr);
    });
  }
  function read() {
    Promise.all([arena.get("/api/leaderboard"), arena.get("/api/people")]).then(([bots, people]) => {
      boards.bots = bots.leaderboard;
      boards.people = people.leaderboard;
      const anchor = bots.leaderboard.find((r) => r.anchor !== null);
      document.getElementById("anchor-said").textContent = anchor ? " The anchor, " + anchor.name +
        ", is held at " + arena.fixed(anchor.anchor, 0) + ": every rating is measured against it, so " +
        "a figure means the same next month." : "";
      draw("bots");
      draw("people");
      arena.drawn();
    }).catch(arena.failed);
  }
  const again = arena.calm(read, 500);
  arena.follow(() => again());
  read();
})();
