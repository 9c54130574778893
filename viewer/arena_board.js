// The arena's leaderboard (GET /): the bots' board and the people's, apart, as /api/leaderboard
// and /api/people give them (the same rows in the same order), each rating drawn as a bar over
// its interval (the rating plus and minus three deviations, on one scale for both boards),
// provisional rows marked, and what each is doing now. Read again whenever the stream says a
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
    { key: "conservative", name: "rated", value: (r) => r.conservative, narrow: true },
    { key: "rating", name: "rating \u00b1 deviation", text: true, value: (r) => r.rating.mu },
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
    box.title = "rated " + arena.fixed(row.conservative) + ": the bar's low end";
    const cell = el("div", "rating-cell");
    cell.append(el("span", "figure", arena.rating(row.rating)), box);
    return cell;
  }
  function cells(row, s) {
    const name = el("span");
    name.append(arena.link(arena.accountPath(row.kind, row.name), row.name));
    if (row.provisional) name.append(" ", el("span", "tag", "provisional"));
    if (row.kind === "house") name.append(" ", el("span", "tag quiet", "house"));
    const status = el("span", "status " + row.status, arena.STATUS[row.status] || row.status);
    if (row.paused) status.append(el("span", "why", row.paused));  // why, on any screen
    return [row.rank, name, row.owner, arena.fixed(row.conservative), bar(row, s), row.matches,
            arena.when(row.last_match), status];
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
        sorts[which] = { key: c.key, down: sort.key === c.key ? !sort.down : c.key === "conservative" ||
                         c.key === "rating" || c.key === "matches" || c.key === "last" };
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
      draw("bots");
      draw("people");
      arena.drawn();
    }).catch(arena.failed);
  }
  const again = arena.calm(read, 500);
  arena.follow(() => again());
  read();
})();
