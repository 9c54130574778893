// What the pages share: a grid's tiles within their bounding box, so that a 999x999 grid with
// its tiles in a corner is drawn as small as its tiles; and the boards of a game as its log's
// records come (the live pages'). A grid is the
// protocol's text: width and height in three digits each, then the rows ('.' for empty).
// Null for no grid; no rows for a grid without tiles.
"use strict";
function tileBox(text) {
  if (!text || text.length < 6) return null;
  const w = parseInt(text.substr(0, 3), 10), h = parseInt(text.substr(3, 3), 10);
  const cells = text.substr(6);
  let top = h, left = w, bottom = -1, right = -1;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      if (cells[y * w + x] && cells[y * w + x] !== ".") {
        top = Math.min(top, y); bottom = Math.max(bottom, y);
        left = Math.min(left, x); right = Math.max(right, x);
      }
  if (bottom < 0) return { rows: [] };
  const rows = [];
  for (let y = top; y <= bottom; y++) rows.push(cells.substr(y * w + left, right - left + 1));
  return { rows: rows, width: right - left + 1, top: top, left: left, w: w };
}

// Bytes as the log holds them: a string, or {"hex": "..."}.
function logBytes(v) { return typeof v === "string" ? v : v && v.hex ? "(bytes)" : String(v || ""); }
// A game's boards before its first record: each seat's grid, its peels, and why it is out.
function newBoards(seats) {
  const n = seats.length;
  return { seats: seats, grids: Array(n).fill(""), pending: Array(n).fill(""), peels: Array(n).fill(0),
           out: Array(n).fill(""), bunch: null, stale: 0, dumps: 0 };
}
// A record of the game's event log, folded into what its boards show.
function foldBoards(game, r) {
  if (r.input && r.input.type === "peel") game.pending[r.input.player] = logBytes(r.input.grid);
  const d = r.decision;
  if (!d) return;
  if (d.type === "peel_accepted") {
    game.grids[d.player] = game.pending[d.player];
    game.peels[d.player] += 1;
    game.bunch = d.bunch;
  } else if (d.type === "peel_stale") game.stale += 1;
  else if (d.type === "dumped") { game.dumps += 1; game.bunch = d.bunch === undefined ? game.bunch : d.bunch; }
  else if (d.type === "dump_refused") game.bunch = d.bunch;
  else if (d.type === "disqualified") game.out[d.player] = logBytes(d.reason);
}
// A place as it is read: 1st, 2nd, 3rd, 11th, 22nd...
function ordinal(n) {
  return n + (n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" :
              n % 10 === 3 && n % 100 !== 13 ? "rd" : "th");
}
// A game's boards (newBoards) drawn: each seat's name, its peels or why it is out, its grid.
function seatBoards(game) {
  const make = (tag, cls, t) => {
    const e = document.createElement(tag);
    e.className = cls;
    if (t !== undefined) e.textContent = t;
    return e;
  };
  const boards = make("div", "boards");
  game.seats.forEach((name, p) => {
    const seat = make("div", "player" + (game.out[p] ? " out" : ""));
    seat.appendChild(make("h3", "", name));
    seat.appendChild(make("div", "status", game.out[p] ? "out: " + game.out[p] :
        game.peels[p] + (game.peels[p] === 1 ? " peel" : " peels")));
    seat.appendChild(boardElement(game.grids[p]));
    boards.appendChild(seat);
  });
  return boards;
}
// A grid drawn as tiles (its rows also in data-rows), or a note that there is none yet.
function boardElement(text) {
  const make = (cls, t) => {
    const e = document.createElement("div");
    e.className = cls;
    if (t !== undefined) e.textContent = t;
    return e;
  };
  const box = tileBox(text);
  if (!box || !box.rows.length) return make("empty-board", "no grid yet");
  const tiles = make("board");
  tiles.style.gridTemplateColumns = "repeat(" + box.width + ", var(--cell))";
  box.rows.forEach((row) => {
    for (const c of row) tiles.appendChild(c === "." ? make("cell") : make("cell tile", c));
  });
  tiles.dataset.rows = box.rows.join("|");
  return tiles;
}
