// A person's seat (GET /play#TOKEN, docs/remote.md): a client of protocol v003 over the seat's
// WebSocket, like any bot's; the host needs no rule for people. Everything the page shows comes
// from what the seat is sent, and from the games' rules and word list, which the server serves
// any player (GET /rules).
//
// The page holds the person's tiles, on the board or in the hand, and sends what they do: a
// peel (the board's grid, as of the newest peel whose tile it holds), a dump. Before a peel goes
// it checks the grid itself (every tile joined, every word in the game's word list) and marks on
// the board what is wrong; the person sends it anyway only by saying so. The board is as large as
// what is laid, with room around it; the hand stays in view at the foot of the screen.
//
// The seat's bytes and the page's own moves are kept in the browser (localStorage, by token):
// a reload, or a closed tab opened again, takes the seat back within the host's grace, is sent
// every byte again, and comes back to the same game, the tiles where they were.
//
// In an arena (GET /play there, docs/arena.md) the page has no token: a person signs in with
// the name and code of an account, chooses an opponent (a house bot, or whoever is waiting) and
// waits in the queue over one connection (/person, a session: docs/remote.md), which then
// carries each game of the match (a binary "start" begins a game afresh, "end" lets it go)
// until the arena closes it at the match's end. The game under way is kept there too (by the
// person's name, with its match and rotation): a connection that drops is taken again at once
// (/person?resume=1&received=N), and a reload or a tab opened again comes back into the match
// while the arena holds it (--remote-grace), sent the game's bytes again, the tiles where they
// were; a match over is not come back to (the arena answers that nothing is held).
//
// Mouse or finger: tap a tile (in the hand or on the board) to take it, then a square to lay it
// there, or the hand to take it back. Keys: click a square to put the cursor there (again to turn
// it); a letter lays a tile of it from the hand at the cursor, which moves on (across or down);
// the arrows move the cursor, space turns it, Backspace takes the tile before it back, Delete the
// one under it; Enter peels; Escape lets a taken tile go.
"use strict";
(function () {
  const MARGIN = 2;  // empty squares around what is laid (1 on a phone)
  const EMPTY_REACH = 3;  // an empty board: this far around the cursor
  const GRACE_MS = 10000;  // the host's default --remote-grace, until /rules says it
  const OPENING_MS = 60000;  // a seat not open yet is tried again this long
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const arena = JSON.parse($("seat").textContent);  // null: a host's or a tournament's seat
  const token = arena ? "" : decodeURIComponent(location.hash.slice(1));
  let storeKey = token ? "bananagrams-seat:" + token : "";  // an arena's: by name, once known
  const body = document.body;
  let kept = token ? restore() : null;  // the page's moves and layout before a reload

  const state = {
    version: null, seat: null, players: null,
    peel: 0, peelsSeen: 0, myPeels: 0, myDumps: 0, bunch: null,
    tiles: [], nextId: 0, taken: null,
    cursor: { x: 0, y: 0 }, across: true, cursorChosen: false,
    phase: "connecting", over: false, outcome: null,
    received: 0, inbox: "", socket: null, retryUntil: 0, everConnected: false,
    match: null,   // an arena's game: {id, rotation, rotations, table, you} of its start's "match"
    sent: [],      // the page's messages, in order: {m} ({m, id} for a dump)
    pending: [],   // dumps not yet answered: {letter, id}
    lastGrid: null,  // the tiles of the last peel sent: [{id, letter, x, y}]
    marks: null,     // what the check found: {loose: Set, bad: Set, words: []}
    confirm: false,  // a peel that failed the check waits for "Send anyway"
    rules: null, words: null, wordsNote: "the word list is loading",
    dealtAt: 0, lastPeelAt: 0, lastAckAt: 0, lastWasMyPeel: false,
    dealt: null,   // a peel's tile, until it is known whose peel it was
    replaying: false,
  };

  // ---- what is said ----
  // A line of what happened; the status line too, unless it holds something wrong that the
  // person has not yet acted on, which news of the game does not push away.
  function say(text, kind) {
    $("said").prepend(el("li", kind || "", text));
    if (!state.replaying && (kind === "bad" || $("status").className !== "bad")) status(text, kind);
  }
  // The status line: an error stays only until the person does something else.
  function status(text, kind) {
    $("status").textContent = text;
    $("status").className = kind || "";
  }
  function clearError() {
    if ($("status").className === "bad") status("");
  }
  function setPhase(phase) {
    state.phase = phase;
    body.dataset.phase = phase;
    $("phase").textContent = {
      connecting: "connecting...", waiting: "waiting for the deal", playing: "playing",
      over: "the game is over", lost: "the connection is lost",
    }[phase];
  }

  // ---- tiles ----
  const at = (x, y) => state.tiles.find((t) => t.pos && t.pos.x === x && t.pos.y === y);
  const hand = () => state.tiles.filter((t) => !t.pos);
  const laid = () => state.tiles.filter((t) => t.pos);
  // Tiles come: `fresh` ones (a peel's, a dump's) are shown as new until the next peel.
  function addTiles(letters, fresh) {
    for (const letter of letters)
      state.tiles.push({ id: state.nextId++, letter: letter, pos: null, fresh: fresh });
  }
  function removeTile(tile) {
    state.tiles = state.tiles.filter((t) => t !== tile);
    if (state.taken === tile) state.taken = null;
  }
  function lay(tile, x, y) {
    if (at(x, y)) return false;
    tile.pos = { x: x, y: y };
    tile.fresh = false;
    changed();
    return true;
  }
  function takeBack(tile) {
    tile.pos = null;
    changed();
  }
  function step(sign) {
    if (state.across) state.cursor.x += sign;
    else state.cursor.y += sign;
  }
  // Every change of the board: what is marked is checked again, and the layout kept.
  function changed() {
    clearError();
    if (state.marks) state.marks = problems(laid());
    if (state.confirm && (!state.marks || clean(state.marks))) state.confirm = false;
    save();
  }

  // ---- the grid and its check ----
  function box(tiles) {
    const xs = tiles.map((t) => t.pos.x), ys = tiles.map((t) => t.pos.y);
    return { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) };
  }
  // The board's grid as the protocol has it: its tiles' bounding box, width and height in three
  // digits each, then its rows, '.' for an empty square.
  function grid(tiles) {
    const b = box(tiles);
    const w = b.right - b.left + 1, h = b.bottom - b.top + 1;
    const cells = new Array(w * h).fill(".");
    for (const t of tiles) cells[(t.pos.y - b.top) * w + (t.pos.x - b.left)] = t.letter;
    return String(w).padStart(3, "0") + String(h).padStart(3, "0") + cells.join("");
  }
  // What is wrong with a grid, as the host would judge it: the tiles joined to nothing (all but
  // the largest group), and the words (runs of two or more, across and down) the word list does
  // not hold.
  function problems(tiles) {
    const byPlace = new Map(tiles.map((t) => [t.pos.x + "," + t.pos.y, t]));
    const next = (t, dx, dy) => byPlace.get((t.pos.x + dx) + "," + (t.pos.y + dy));
    const group = new Map();
    let largest = null, largestSize = 0;
    for (const t of tiles) {
      if (group.has(t)) continue;
      const members = [t];
      group.set(t, members);
      for (let i = 0; i < members.length; i++)
        for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
          const n = next(members[i], dx, dy);
          if (n && !group.has(n)) { group.set(n, members); members.push(n); }
        }
      if (members.length > largestSize) { largest = members; largestSize = members.length; }
    }
    const loose = new Set(tiles.filter((t) => group.get(t) !== largest).map((t) => t.id));
    const bad = new Set(), words = [];
    if (state.words)
      for (const t of tiles)
        for (const [dx, dy] of [[1, 0], [0, 1]]) {
          if (next(t, -dx, -dy) || !next(t, dx, dy)) continue;
          const run = [t];
          for (let n = next(t, dx, dy); n; n = next(n, dx, dy)) run.push(n);
          const word = run.map((r) => r.letter).join("");
          if (!state.words.has(word)) {
            words.push(word);
            for (const r of run) bad.add(r.id);
          }
        }
    return { loose: loose, bad: bad, words: words };
  }
  const clean = (found) => found.loose.size === 0 && found.words.length === 0;
  function describe(found) {
    const parts = [];
    if (found.words.length)
      parts.push(found.words.slice(0, 4).join(", ") + (found.words.length > 4 ? " and " +
        (found.words.length - 4) + " more" : "") + (found.words.length === 1 ? " is" : " are") +
        " not in the word list");
    if (found.loose.size)
      parts.push(found.loose.size + (found.loose.size === 1 ? " tile is" : " tiles are") +
        " not joined to the rest");
    return parts.join("; ");
  }

  // ---- what the person does ----
  function send(message, extra) {
    if (!state.socket || state.socket.readyState !== WebSocket.OPEN) {
      say("not connected: " + (message[0] === "P" ? "the peel" : "the dump") +
          " was not sent; it can be made again once the seat is back", "bad");
      return false;
    }
    state.socket.send(message);
    state.sent.push(Object.assign({ m: message }, extra || {}));
    save();
    return true;
  }
  function peel(anyway) {
    if (state.phase !== "playing") return;
    if (state.pending.length)
      return say("your dump has not been answered yet: peel once its tiles have come", "bad");
    if (hand().length)
      return say("lay every tile on the board first: " + hand().length + " left in your hand", "bad");
    const tiles = laid();
    if (!tiles.length) return say("nothing on the board", "bad");
    if (!anyway) {
      const found = problems(tiles);
      if (!clean(found)) {
        state.marks = found;
        state.confirm = true;
        say("Not sent: " + describe(found) + ". Move the marked tiles, or send anyway (and be " +
            "out if the host agrees).", "bad");
        return draw();
      }
      if (!state.words) say(state.wordsNote + ": the words were not checked", "bad");
    }
    const message = "P" + String(state.peel).padStart(4, "0") + grid(tiles);
    if (!send(message)) return draw();
    state.lastGrid = tiles.map((t) => ({ id: t.id, letter: t.letter, x: t.pos.x, y: t.pos.y }));
    state.confirm = false;
    state.marks = null;
    say("peel sent: the host is judging it");
    draw();
  }
  function dump() {
    if (state.phase !== "playing" || !state.taken) return;
    const tile = state.taken;
    if (!send("D" + tile.letter, { id: tile.id })) return;
    state.pending.push({ letter: tile.letter, id: tile.id });
    tile.pos = null;
    tile.dumping = true;
    state.taken = null;
    say("dump of " + tile.letter + " sent");
    changed();
    draw();
  }
  function allBack() {
    for (const t of laid()) t.pos = null;
    state.taken = null;
    changed();
    draw();
  }
  function clickSquare(x, y) {
    const t = at(x, y);
    if (state.taken && !t) {
      lay(state.taken, x, y);
      state.taken = null;
    } else if (t) {
      state.taken = state.taken === t ? null : t;
    } else if (state.cursorChosen && state.cursor.x === x && state.cursor.y === y) {
      state.across = !state.across;
    }
    state.cursor = { x: x, y: y };
    state.cursorChosen = true;
    clearError();
    draw();
  }
  // A tile of the hand of this letter, to take (the one taken, if it is one).
  function handTile(letter) {
    if (state.taken && !state.taken.pos && state.taken.letter === letter) return state.taken;
    return hand().find((t) => t.letter === letter && !t.dumping) || null;
  }
  // The hand, tapped: a tile taken from the board goes back, whatever was under the finger;
  // else a tile of the letter tapped is taken (or let go).
  function clickHand(letter) {
    if (state.taken && state.taken.pos) {
      takeBack(state.taken);
      state.taken = null;
    } else if (letter !== null) {
      const t = handTile(letter);
      if (t) state.taken = state.taken === t ? null : t;
    }
    clearError();
    draw();
  }
  // A letter typed at the cursor: over a tile of that letter, the cursor passes it (a word typed
  // through one laid before); over another, the letter goes on the next empty square.
  function typeLetter(letter) {
    const c = state.cursor;
    const there = at(c.x, c.y);
    if (there && there.letter === letter) { step(1); draw(); return; }
    const t = hand().find((tile) => tile.letter === letter && !tile.dumping);
    if (!t) return say("no " + letter + " in your hand", "bad");
    while (at(c.x, c.y)) step(1);
    lay(t, c.x, c.y);
    step(1);
    draw();
  }
  function key(e) {
    moveOn(e);
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    // Enter or space on a focused button (Peel, Send anyway) is that button's click.
    if (e.target && e.target.closest && e.target.closest("button.action") &&
        (e.key === "Enter" || e.key === " ")) return;
    // Typing in the arena's sign-in form is the form's: letters, arrows, Enter (submit).
    if (e.target && e.target.closest && e.target.closest("form")) return;
    const c = state.cursor;
    const moves = { ArrowLeft: [-1, 0, true], ArrowRight: [1, 0, true], ArrowUp: [0, -1, false],
                    ArrowDown: [0, 1, false] };
    if (moves[e.key]) {
      const [dx, dy, across] = moves[e.key];
      c.x += dx;
      c.y += dy;
      state.across = across;
    } else if (e.key === " ") {
      state.across = !state.across;
    } else if (e.key === "Backspace") {
      step(-1);
      const t = at(c.x, c.y);
      if (t) takeBack(t);
    } else if (e.key === "Delete") {
      const t = at(c.x, c.y);
      if (t) takeBack(t);
    } else if (e.key === "Enter") {
      e.preventDefault();
      return peel(false);
    } else if (e.key === "Escape") {
      state.taken = null;
    } else if (/^[a-zA-Z]$/.test(e.key)) {
      e.preventDefault();
      return typeLetter(e.key.toUpperCase());
    } else {
      return;
    }
    e.preventDefault();
    clearError();
    draw();
  }

  // ---- taps and drags (a mouse's, a finger's or a pen's) ----
  // A press that does not move is a tap: on a square, on a tile of the hand, or on the hand. A
  // tile pressed and moved is dragged: let go over a square, it is laid there (or moved); over the
  // hand, it goes back. Taps are read from the pointer's own events, not from the clicks a
  // browser makes of them, which a touch screen does not always make after a drag.
  let press = null;
  function pressed(e) {
    moveOn(e);
    if (e.button > 0) return;
    const target = e.target.closest("#board .square, #hand .tile, #tray");
    if (!target || e.target.closest("button.action")) return;
    let tile = null;
    if (state.phase === "playing" && target.matches("#board .square.tile"))
      tile = at(Number(target.dataset.x), Number(target.dataset.y));
    else if (state.phase === "playing" && target.matches("#hand .tile:not(.dumping)"))
      tile = handTile(target.dataset.letter);
    press = { target: target, tile: tile, x: e.clientX, y: e.clientY, pointer: e.pointerId,
              ghost: null };
  }
  function moved(e) {
    if (!press || e.pointerId !== press.pointer || !press.tile) return;
    if (!press.ghost) {
      if (Math.hypot(e.clientX - press.x, e.clientY - press.y) < 8) return;
      press.ghost = el("div", "tile drag-ghost", press.tile.letter);
      body.appendChild(press.ghost);
    }
    press.ghost.style.left = (e.clientX - 22) + "px";
    press.ghost.style.top = (e.clientY - 22) + "px";
    e.preventDefault();
  }
  function released(e) {
    if (!press || e.pointerId !== press.pointer) return;
    const done = press;
    press = null;
    if (done.ghost) done.ghost.remove();
    if (e.type === "pointercancel") return;
    if (!done.ghost) {
      if (Math.hypot(e.clientX - done.x, e.clientY - done.y) >= 8) return;
      if (done.target.matches("#board .square"))
        return clickSquare(Number(done.target.dataset.x), Number(done.target.dataset.y));
      const tile = done.target.matches("#hand .tile:not(.dumping)") ? done.target : null;
      return clickHand(tile ? tile.dataset.letter : null);
    }
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const square = under && under.closest("#board .square");
    if (square) {
      const x = Number(square.dataset.x), y = Number(square.dataset.y);
      if (!at(x, y)) {
        lay(done.tile, x, y);
        state.cursor = { x: x, y: y };
        state.cursorChosen = true;
      }
    } else if (under && under.closest("#tray") && done.tile.pos) {
      takeBack(done.tile);
    }
    state.taken = null;
    draw();
  }

  // ---- drawing ----
  // The squares shown: what is laid and the cursor, with room around them.
  function window_() {
    const points = laid().map((t) => t.pos).concat([state.cursor]);
    const xs = points.map((p) => p.x), ys = points.map((p) => p.y);
    const reach = !laid().length ? EMPTY_REACH : window.innerWidth <= 700 ? 1 : MARGIN;
    return { left: Math.min(...xs) - reach, top: Math.min(...ys) - reach,
             right: Math.max(...xs) + reach, bottom: Math.max(...ys) + reach };
  }
  // Squares as large as the board area allows, a finger's at the least on a phone (40 px, with
  // the hand's tiles 44): a larger board scrolls.
  function squareSize(columns, rows) {
    const wrap = $("board-wrap");
    const narrow = window.innerWidth <= 700 ||
      (window.matchMedia && window.matchMedia("(pointer: coarse)").matches);
    const fitWidth = (wrap.clientWidth - 20) / columns - 2;
    const fitHeight = narrow ? Infinity : (wrap.clientHeight - 20) / rows - 2;
    return Math.max(narrow ? 40 : 30, Math.min(56, Math.floor(Math.min(fitWidth, fitHeight))));
  }
  function draw() {
    const w = window_();
    const columns = w.right - w.left + 1, rows = w.bottom - w.top + 1;
    const board = $("board");
    board.textContent = "";
    board.style.setProperty("--sq", squareSize(columns, rows) + "px");
    board.style.gridTemplateColumns = "repeat(" + columns + ", var(--sq))";
    const marks = state.marks;
    let cursorSquare = null;
    for (let y = w.top; y <= w.bottom; y++)
      for (let x = w.left; x <= w.right; x++) {
        const t = at(x, y);
        const square = el("button", "square" + (t ? " tile" : ""), t ? t.letter : "");
        square.dataset.x = x;
        square.dataset.y = y;
        square.tabIndex = -1;
        square.setAttribute("aria-label", t ? t.letter : "empty square");
        if (state.cursor.x === x && state.cursor.y === y) {
          square.classList.add(state.across ? "cursor-across" : "cursor-down");
          if (!t) square.appendChild(el("span", "cursor-mark", state.across ? "→" : "↓"));
          cursorSquare = square;
        }
        if (t && state.taken === t) square.classList.add("taken");
        if (t && marks && marks.loose.has(t.id)) square.classList.add("loose");
        if (t && marks && marks.bad.has(t.id)) square.classList.add("badword");
        board.appendChild(square);
      }
    const marked = marks && board.querySelector(".loose, .badword");
    if (marked && state.confirm) marked.scrollIntoView({ block: "nearest", inline: "nearest" });
    else if (cursorSquare) cursorSquare.scrollIntoView({ block: "nearest", inline: "nearest" });
    drawHand();
    body.dataset.hand = hand().filter((t) => !t.dumping).map((t) => t.letter).sort().join("");
    body.dataset.tiles = String(state.tiles.length);
    body.dataset.marked = marks ? String(marks.loose.size + marks.bad.size) : "0";
    drawTable();
    const playing = state.phase === "playing";
    $("peel").disabled = !playing;
    $("dump").disabled = !playing || !state.taken;
    $("all-back").disabled = !playing || !laid().length;
    $("send-anyway").hidden = !(playing && state.confirm);
  }
  // The hand: a stack a letter (its count on it), so that a large hand stays a few rows; a tile
  // being dumped apart, faded.
  function drawHand() {
    const tray = $("hand");
    tray.textContent = "";
    const stacks = new Map();
    for (const t of hand().sort((a, b) => a.letter.localeCompare(b.letter) || a.id - b.id)) {
      const key = t.dumping ? "dumping" + t.id : t.letter;
      if (!stacks.has(key)) stacks.set(key, []);
      stacks.get(key).push(t);
    }
    for (const tiles of stacks.values()) {
      const first = tiles[0];
      const tile = el("button", "tile" + (tiles.some((t) => t.fresh) ? " new" : "") +
                      (tiles.includes(state.taken) ? " taken" : "") +
                      (first.dumping ? " dumping" : ""), first.letter);
      tile.dataset.letter = first.letter;
      tile.dataset.count = String(tiles.length);
      tile.tabIndex = -1;
      tile.title = first.dumping ? "being dumped" : tiles.length + " " + first.letter;
      if (tiles.length > 1) tile.appendChild(el("span", "count", String(tiles.length)));
      tray.appendChild(tile);
    }
    if (!stacks.size && state.phase === "playing" && !state.marks)
      tray.appendChild(el("span", "muted empty-hand", "every tile is on the board: Peel"));
    else if (!stacks.size && state.phase !== "playing" && state.phase !== "over")
      tray.appendChild(el("span", "muted empty-hand", "no tiles yet"));
  }
  // The name of the player in seat `s` (from 1) of this game: an arena's match says its table,
  // whose entrants turn seats each game (seat s of rotation r, both from 1, holds entrant
  // (s - 1 + r - 1) mod K); else "Player s".
  function seatName(s) {
    const m = state.match;
    if (!m || !m.table || !m.table.length) return "Player " + s;
    return m.table[(s - 1 + m.rotation - 1) % m.table.length].name;
  }
  // The match so far, in a line: its game under way and each game's result.
  function drawMatch() {
    const line = $("match-line");
    const m = state.match;
    line.hidden = !m;
    if (!m) return;
    const others = (m.table || []).map((e) => e.name).filter((n) => n !== m.you);
    line.textContent = "Match " + m.id + (others.length ? " against " + others.join(", ") : "") +
      ": game " + m.rotation + " of " + m.rotations +
      person.results.map((r) => " \u00b7 game " + r.game + ": " + r.text).join("");
  }
  // Who is where: the person's seat and tiles, the others' peels and tiles, the bunch.
  function drawTable() {
    drawMatch();
    $("you").textContent = state.seat === null ? (arena ? person.name : "") : state.match ?
      person.name + ", seat " + state.seat + " of " + state.players :
      "You are player " + state.seat + " of " + state.players;
    $("counts").textContent = state.tiles.length + " tiles, " + hand().length + " in your hand";
    const others = $("others");
    const total = state.rules ? state.rules.tiles : null;
    const theirs = total !== null && state.bunch !== null ? total - state.bunch - state.tiles.length : null;
    const peels = state.peelsSeen - state.myPeels;
    if (state.players === null) {
      others.textContent = "";
    } else {
      const who = state.players === 2 ? seatName(state.seat === 1 ? 2 : 1) :
        "The other " + (state.players - 1) + " players";
      others.textContent = who + ": " + peels + (peels === 1 ? " peel" : " peels") +
        (theirs === null || state.phase === "waiting" ? "" :
          ", " + theirs + (theirs === 1 ? " tile" : " tiles") + (state.players === 2 ? "" : " in all"));
    }
    others.dataset.peels = String(peels);
    $("bunch").textContent = state.bunch === null ? "" : "Bunch: " + state.bunch;
    $("bunch").dataset.count = state.bunch === null ? "" : String(state.bunch);
  }

  // ---- what the host says (protocol-v2.md) ----
  const lengths = { V: null, H: null, P: 11, A: 6, N: null, D: 5, X: 7 };
  // The next whole message of the inbox, or null.
  function nextMessage() {
    const box = state.inbox;
    if (!box) return null;
    const kind = box[0];
    if (kind === "E") {
      if (box.length < 10) return null;
      const n = parseInt(box.substr(6, 4), 10);
      if (box.length < 11 + n) return null;
      return box.substr(0, 11 + n);
    }
    if (lengths[kind]) return box.length >= lengths[kind] ? box.substr(0, lengths[kind]) : null;
    const end = box.indexOf(".");
    return end < 0 ? null : box.substr(0, end + 1);
  }
  // The tile a peel dealt, said once it is known whose peel it was (the person's: `mine`).
  function sayDealt(mine) {
    const dealt = state.dealt;
    state.dealt = null;
    const who = state.players === 2 ? seatName(state.seat === 1 ? 2 : 1) : "Another player";
    if (!dealt)
      return mine ? say("Your peel was accepted: the bunch could not give everyone a tile",
                        "good") : undefined;
    say((mine ? "Your peel was accepted: you got " : who + " peeled: you got ") + dealt.letter +
        "; " + dealt.bunch + " left in the bunch", mine ? "good" : "");
  }
  function handle(m) {
    const kind = m[0];
    const now = Date.now();
    if (state.dealt && kind !== "A") sayDealt(false);
    if (kind === "V") {
      state.version = parseInt(m.substr(1, 3), 10);
      if (m.length >= 9) {
        state.seat = parseInt(m.substr(4, 2), 10);
        state.players = parseInt(m.substr(6, 2), 10);
      }
      setPhase("waiting");
      const game = state.match;
      if (!game) say("You are player " + state.seat + " of " + state.players + "; waiting for the deal");
      else say("Game " + game.rotation + " of " + game.rotations + ": you are seat " + state.seat +
               " of " + state.players + (game.rotation === 1 ? " (the seats turn each game, so " +
               "that each player plays the same deal from every seat)" : "") + "; waiting for the deal");
    } else if (kind === "H") {
      state.peel = parseInt(m.substr(1, 4), 10);
      addTiles(m.slice(5, -1), false);
      state.dealtAt = now;
      if (state.rules && state.rules.players === state.players) state.bunch = state.rules.bunch;
      setPhase("playing");
      say("your hand: " + m.slice(5, -1).length + " tiles; lay them out and peel");
    } else if (kind === "P") {
      state.peel = state.peelsSeen = parseInt(m.substr(1, 4), 10);
      state.bunch = parseInt(m.substr(6, 4), 10);
      state.lastPeelAt = now;
      state.lastWasMyPeel = false;
      for (const t of state.tiles) t.fresh = false;
      addTiles(m[5], true);
      // Whose peel it was the next message says (the person's own is followed by its A, in the
      // same turn of the host's), or, when none comes at once, another player's.
      state.dealt = { letter: m[5], bunch: state.bunch };
      clearTimeout(state.dealtTimer);
      state.dealtTimer = setTimeout(() => { if (state.dealt) { sayDealt(false); draw(); } }, 300);
    } else if (kind === "A") {
      // Its peel is numbered n (bananas deals no tile: its A alone says so).
      state.peelsSeen = Math.max(state.peelsSeen, parseInt(m.substr(1, 4), 10));
      state.myPeels += 1;
      state.lastWasMyPeel = true;
      state.lastAckAt = now;
      sayDealt(true);
    } else if (kind === "N") {
      say("Your peel was too late: another player peeled first. Lay " + m.slice(9, -1) +
          " too and peel again.", "bad");
    } else if (kind === "D") {
      dumped(m.substr(1, 3));
    } else if (kind === "X") {
      refused(parseInt(m.substr(2, 4), 10));
    } else if (kind === "E") {
      end(m, now);
    }
  }
  // A dump answered: the tile dumped goes (the one sent, or one of its letter), three come.
  function dumped(three) {
    const dump = state.pending.shift();
    if (dump) {
      const tile = state.tiles.find((t) => t.id === dump.id) ||
        state.tiles.find((t) => t.letter === dump.letter && !t.pos) ||
        state.tiles.find((t) => t.letter === dump.letter);
      if (tile) removeTile(tile);
    }
    addTiles(three, true);
    state.myDumps += 1;
    if (state.bunch !== null) state.bunch -= 2;
    say("your dump gave you " + three);
  }
  function refused(bunch) {
    const dump = state.pending.shift();
    const tile = dump && state.tiles.find((t) => t.id === dump.id);
    if (tile) tile.dumping = false;
    state.bunch = bunch;
    say("your dump was refused: only " + bunch + " tiles in the bunch; the " +
        (dump ? dump.letter : "tile") + " stays yours", "bad");
  }
  // How the game ended, as far as the seat's bytes and the rules tell: a sentence, and whether
  // another player's peel ended it (bananas deals no tile: no P says that peel).
  function howItEnded(outcome, winner, reason, now) {
    if (outcome === "Q")
      return { text: /^illegal peel/.test(reason) ?
        "Your peel was not a legal grid: the marked tiles show why." :
        reason ? "The host put you out: " + reason + "." : "The host put you out." };
    const rules = state.rules;
    const stalled = rules && rules.stall_timeout_ms && state.bunch !== null && state.bunch < 3 &&
      now - Math.max(state.lastPeelAt, state.dealtAt) >= rules.stall_timeout_ms - 1000;
    // An arena's game with a person at it has the people's clock.
    const clock = rules && ((arena && rules.people_game_timeout_ms) || rules.game_timeout_ms);
    const timedOut = clock && now - state.dealtAt >= clock - 1000;
    if (winner === null)
      return { text: timedOut ? "Time ran out with a tie for the fewest tiles: no winner." :
        stalled ? "The game stalled with a tie for the fewest tiles: no winner." :
          "The game ended without a winner." };
    const who = winner === state.seat ? "You" : seatName(winner);
    const holds = who === "You" ? " hold" : " holds";
    if (outcome === "W" && state.lastWasMyPeel && now - state.lastAckAt < 3000)
      return { text: "Bananas! Your peel found too few tiles in the bunch for everyone: you won." };
    if (timedOut) return { text: "Time ran out: " + who + holds + " the fewest tiles." };
    if (stalled) return { text: "The game stalled: " + who + holds + " the fewest tiles." };
    if (outcome === "W") return { text: "You are the last player left: you won." };
    return { text: "Bananas: " + seatName(winner) + " peeled with too few tiles in the bunch for everyone.",
             othersPeel: true };
  }
  function end(m, now) {
    const outcome = m[1];
    const standing = parseInt(m.substr(2, 2), 10);
    const winner = m.substr(4, 2) === "--" ? null : parseInt(m.substr(4, 2), 10);
    const reason = m.slice(10, -1).replace(/_/g, " ");
    state.over = true;
    state.outcome = outcome;
    body.dataset.outcome = outcome;
    setPhase("over");
    const title = { W: "You won!", L: "You lost.", Q: "You are out." }[outcome] || "The game is over.";
    $("outcome").textContent = title + (standing && state.players > 2 ? " You stand " + standing +
                                        " of " + state.players + "." : "");
    const how = howItEnded(outcome, winner, reason, now);
    if (how.othersPeel) state.peelsSeen += 1;
    $("how").textContent = how.text;
    if (outcome === "Q" && state.lastGrid && /^illegal peel/.test(reason)) markRefusal(reason);
    // The host's own words where the board shows nothing of them (they count columns and rows
    // from the grid's corner, which the page does not show).
    $("host-said").textContent = reason && !(state.marks && !clean(state.marks)) ?
      "The host said: " + reason : "";
    if (state.match) {
      person.results.push({ game: state.match.rotation,
                            text: { W: "you won", L: "you lost", Q: "you were out" }[outcome] || "over" });
      $("outcome").textContent = "Game " + state.match.rotation + " of " + state.match.rotations + ": " +
        $("outcome").textContent;
      $("close-end").textContent = state.match.rotation < state.match.rotations ?
        "Show my board (the next game comes in a moment)" : "Show my board";
    }
    showEnd(state.match ? String(state.match.rotation) : "");
    say(title + " " + $("how").textContent, outcome === "W" ? "good" : "bad");
  }
  // A peel the host refused: its grid back on the board as it was sent, marked as the page's
  // check marks it, and the tile the host names.
  function markRefusal(reason) {
    for (const g of state.lastGrid) {
      const t = state.tiles.find((tile) => tile.id === g.id);
      if (t) t.pos = { x: g.x, y: g.y };
    }
    const tiles = laid();
    state.marks = problems(tiles);
    const named = /column (\d+), row (\d+) is not joined/.exec(reason);
    if (named && tiles.length) {
      const b = box(tiles);
      const t = at(b.left + Number(named[1]), b.top + Number(named[2]));
      if (t) state.marks.loose.add(t.id);
    }
    for (const word of reason.matchAll(/([A-Z]{2,}) \((across|down) from column (\d+), row (\d+)\)/g))
      if (!state.marks.words.includes(word[1])) state.marks.words.push(word[1]);
    $("marked").textContent = clean(state.marks) ? "" : "On your board, marked: " + describe(state.marks) + ".";
  }
  function receive(text) {
    state.received += text.length;
    state.inbox += text;
    for (let m = nextMessage(); m !== null; m = nextMessage()) {
      state.inbox = state.inbox.substr(m.length);
      handle(m);
    }
    draw();
  }

  // ---- kept in the browser, for a reload ----
  function save() {
    if (state.replaying || !storeKey) return;
    try {
      localStorage.setItem(storeKey, JSON.stringify({
        match: state.match, results: arena ? person.results : undefined, sent: state.sent,
        laid: laid().map((t) => [t.id, t.pos.x, t.pos.y]),
        cursor: state.cursor, across: state.across, lastGrid: state.lastGrid,
      }));
    } catch (e) { /* full or forbidden: a reload then starts the page afresh */ }
  }
  function restore() {
    if (!storeKey) return null;
    try {
      const kept = JSON.parse(localStorage.getItem(storeKey) || "null");
      if (kept && Array.isArray(kept.sent) && kept.sent.length) return kept;
    } catch (e) { /* unreadable: afresh */ }
    return null;
  }
  // What the page sent before a reload, and its dumps not yet answered, are its own again.
  function takeKeptMoves() {
    state.sent = kept.sent;
    state.pending = kept.sent.filter((s) => s.m[0] === "D").map((s) => ({ letter: s.m[1], id: s.id }));
  }
  // Nothing kept to come back to (a match over, a new one begun).
  function forgetKept() {
    kept = null;
    try { if (storeKey) localStorage.removeItem(storeKey); } catch (e) { /* gone with the page */ }
  }
  // After every byte the seat was sent has been read again: the tiles where they were.
  function placeKept(kept) {
    for (const [id, x, y] of kept.laid || []) {
      const t = state.tiles.find((tile) => tile.id === id);
      if (t && !at(x, y)) { t.pos = { x: x, y: y }; t.fresh = false; }
    }
    if (kept.cursor) state.cursor = kept.cursor;
    state.across = kept.across !== false;
    state.lastGrid = kept.lastGrid || null;
  }

  // ---- the connection ----
  // `again`: the seat's connection dropped, and is taken again with what the page had received.
  // Else the page has just opened: a seat taken before (a reload) is sent at once every byte it
  // had been sent, which is read again before anything is sent; a seat never taken is sent
  // nothing until its handshake.
  function connect(again) {
    if (arena) return connectPerson();
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/seat/" +
      encodeURIComponent(token) + "?received=" + state.received;
    const socket = new WebSocket(url);
    state.socket = socket;
    socket.onopen = () => {
      state.everConnected = true;
      state.retryUntil = 0;
      $("connection").textContent = "connected";
      $("connection").className = "live";
      if (again) return say("connected again");
      state.replaying = true;
      state.replayDone = setTimeout(finishReplay, 600);
    };
    socket.onmessage = (e) => {
      receive(String(e.data));
      if (state.replaying) {
        clearTimeout(state.replayDone);
        state.replayDone = setTimeout(finishReplay, 300);
      }
    };
    socket.onclose = (e) => {
      stopWatchingQueue();
      $("connection").textContent = "closed";
      $("connection").className = "";
      finishReplay();
      if (state.over) return;
      if (e.code === 1000) return say("the host closed the seat: " + (e.reason || "the game is over"), "bad");
      // Dropped: taken again, with what it had received, while the host's grace may last.
      const grace = state.rules ? state.rules.remote_grace_ms : GRACE_MS;
      if (!state.retryUntil) state.retryUntil = Date.now() + (state.everConnected ? grace : OPENING_MS);
      if (!state.everConnected && Date.now() < state.retryUntil) {
        // Not taken yet: its game may not have begun (a tournament's turn to come).
        $("connection").textContent = "waiting for the seat to open...";
        setTimeout(() => connect(false), 2000);
        return;
      }
      if (state.everConnected && Date.now() < state.retryUntil) {
        $("connection").textContent = "reconnecting...";
        giveBackDumps();
        draw();
        setTimeout(() => connect(true), 500);
        return;
      }
      setPhase("lost");
      say(state.everConnected ? "the connection is lost, and the host's grace is over" :
          "the seat could not be taken within a minute: its game is over, another page holds " +
          "it, or the token is wrong", "bad");
    };
  }
  // A dump sent as the connection went may be lost: its tile is the person's again until an
  // answer comes (which then takes it).
  function giveBackDumps() {
    for (const d of state.pending) {
      const t = state.tiles.find((tile) => tile.id === d.id);
      if (t) t.dumping = false;
    }
  }
  // The page has read what the seat was sent before it opened: nothing (a seat taken afresh,
  // which says its handshake now), or a game under way, whose tiles go back where they were.
  function finishReplay() {
    if (!state.replaying) return;
    state.replaying = false;
    clearTimeout(state.replayDone);
    if (state.received === 0) {
      // A seat taken afresh says its handshake now (an arena's game came back to before its
      // answer has its handshake sent already).
      if (!arena || !state.sent.length) {
        state.sent = [];
        state.pending = [];
        send("v003R");
      }
      return draw();
    }
    if (kept) {
      placeKept(kept);
      giveBackDumps();
      say(state.over ? "the game is over" : "back in your seat: your tiles are where you left them");
    } else {
      say("this seat's game was begun on another page: its dumps are not known here, so your " +
          "tiles may not be the host's", "bad");
    }
    save();
    draw();
  }

  // ---- in an arena: signed in, in the queue, a match's games over one connection ----
  const person = {
    name: "", code: "", opponent: "", games: 0, signup: false,
    retryUntil: 0,     // a connection within a match is tried again until then
    matchOver: null,   // its match_over message: nothing to come back to
    results: [],       // each game of the match over: {game, text}
  };
  // The person acts in a game after the one whose result the end box shows: it goes.
  function moveOn(e) {
    const shown = $("end").dataset.game;
    if ($("end").hidden || !shown || !state.match || Number(shown) >= state.match.rotation) return;
    if (e && e.target && e.target.closest && e.target.closest("#end")) return;
    $("end").hidden = true;
  }
  function showSignIn(text, kind) {
    loadOpponents();
    $("end").hidden = true;  // the same place: the last game's end is in what happened
    $("sign-in").hidden = false;
    $("sign-in-said").textContent = text || "";
    $("sign-in-said").className = kind || "muted";
    $("sign-up").hidden = !arena.people_open;
    const kept = keptPerson();
    if (kept && !$("person-name").value) {
      $("person-name").value = kept.name;
      $("person-code").value = kept.code;
    }
  }
  // The house bots that play now, read again each time the form is shown and the list is gone
  // to (one may have been added since), the one chosen kept where it still plays.
  function loadOpponents() {
    fetch("/api/leaderboard", { cache: "no-store" }).then((r) => r.json()).then((board) => {
      const select = $("opponent"), chosen = select.value;
      while (select.options.length > 1) select.remove(1);
      for (const row of board.leaderboard.filter((r) => r.kind === "house" && r.state === "active")) {
        // Named in words where the organiser said what it is ("level 1: a person's pace"), with
        // the one rating the pages show.
        const option = el("option", "", row.name + (row.about ? ": " + row.about : "") + " (rating " +
                          row.rating.mu.toFixed(1) + (row.provisional ? "?" : "") + ")");
        option.value = row.name;
        select.append(option);
      }
      select.value = [...select.options].some((o) => o.value === chosen) ? chosen : "";
    }).catch(() => { /* whoever is waiting, then */ });
  }
  // A new account's code, where it can be copied, until the person says it is kept: it is
  // shown this once (the arena keeps only its hash; this browser keeps it too).
  function showCode() {
    $("code-shown").value = person.code;
    $("code-box").hidden = false;
  }
  function copyCode() {
    $("code-shown").select();
    const done = () => { $("code-copied").textContent = "copied"; };
    const fallback = () => { if (document.execCommand("copy")) done(); };
    if (navigator.clipboard) navigator.clipboard.writeText(person.code).then(done, fallback);
    else fallback();
  }
  // An account of this name, with a code the page draws (the arena keeps only its hash).
  function signUp() {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
    const bytes = crypto.getRandomValues(new Uint8Array(24));
    $("person-code").value = Array.from(bytes, (b) => alphabet[b & 63]).join("");
    $("person-code").type = "text";
    person.signup = true;
    $("sign-in-form").requestSubmit();
  }
  function keptPerson() {
    try {
      const kept = JSON.parse(localStorage.getItem("bananagrams-arena-person") || "null");
      return kept && kept.name && kept.code ? kept : null;
    } catch (e) { return null; }
  }
  function signIn(e) {
    e.preventDefault();
    person.name = $("person-name").value.trim();
    person.code = $("person-code").value.trim();
    person.opponent = $("opponent").value;
    try {
      localStorage.setItem("bananagrams-arena-person", JSON.stringify({ name: person.name, code: person.code }));
    } catch (err) { /* not kept */ }
    storeKey = "bananagrams-arena-game:" + person.name;
    forgetKept();  // a new match: nothing before it is come back to
    $("sign-in").hidden = true;
    $("end").hidden = true;
    $("you").textContent = person.name;
    Object.assign(person, { games: 0, retryUntil: 0, matchOver: null, results: [] });
    $("again").hidden = true;
    status("");  // the last match's end said: a new match begins
    connectPerson(null);
  }
  // Whether the arena plays match `id` now (/api/live): a promise.
  function stillPlays(id) {
    return fetch("/api/live", { cache: "no-store" }).then((r) => r.json())
      .then((live) => live.playing.some((m) => m.match === id));
  }
  // The page opened again (a reload, a tab opened again) with a game of a match kept: back into
  // it where the arena still plays that match; else signed in afresh.
  function comeBackOnOpen(me) {
    stillPlays(kept.match.id).then((plays) => {
      if (!plays) throw new Error("over");
      person.name = me.name;
      person.code = me.code;
      person.results = kept.results || [];
      $("sign-in").hidden = true;
      $("you").textContent = person.name;
      say("coming back into your match " + kept.match.id);
      person.retryUntil = Date.now() + comeBackMs();
      connectPerson({ received: 0 });
    }).catch(() => {
      forgetKept();
      showSignIn("Your last match is over: its result is on your page.");
    });
  }
  // How long a dropped connection is tried again: the arena's grace, and as long again for a
  // connection the arena has not yet seen go (it holds the seat from then).
  function comeBackMs() {
    return 2 * (state.rules ? state.rules.remote_grace_ms : GRACE_MS) + 5000;
  }
  // What the arena's refusal of a ticket (POST /person/ticket: docs/arena.md, "People") means
  // for the person, in a sentence of its own: by its kind, else the arena's own words.
  function refusalSaid(answer) {
    const wait = answer.retry_after_s ? " in " + answer.retry_after_s + " s" : " in a moment";
    const said = {
      "wrong-code": "That name and code are not an account's here. A code is case-sensitive: " +
        "check it, or sign up with a new name.",
      "name-taken": "The name " + person.name + " is taken: choose another, or sign in with its code.",
      "bad-name": "A name is 1 to 40 letters, digits and _ . - (no spaces), with a letter or digit.",
      "sign-up-closed": "People do not sign up here: the arena's organiser makes accounts.",
      "sign-ups-a-minute": "Many people signed up in the last minute: try again" + wait + ".",
      "playing-already": "You are playing from another page already: finish that match, or close " +
        "that page and try again" + wait + ".",
      "not-a-house-bot": (person.opponent || "That opponent") + " does not play now: choose another.",
      "address-failures": "Too many wrong codes came from your address in the last minute: try again" +
        wait + ".",
      "connections-a-minute": "You connected many times in the last minute: try again" + wait + ".",
      "nothing-held": "Your match is over: nothing of it is held for you.",
      "restarting": "The arena is restarting: try again" + wait + ".",
    };
    return said[answer.refused] || "Not let in: " + (answer.why || "HTTP " + answer.status) + ".";
  }
  // A ticket for one connection (POST /person/ticket), which keeps the code out of every URL:
  // a promise of {ticket} or of {refused, why, retry_after_s} (the status beside it).
  function askTicket(resume) {
    const asked = { name: person.name, code: person.code, opponent: resume ? "" : person.opponent,
                    signup: !resume && person.signup, resume: !!resume };
    return fetch("/person/ticket", { method: "POST", cache: "no-store", body: JSON.stringify(asked),
                                     headers: { "Content-Type": "application/json" } })
      .then((r) => r.json().catch(() => ({})).then((answer) => Object.assign(answer, { status: r.status })));
  }
  // `resume`: none, to queue for a match; or {received}, to come back into the match held.
  function connectPerson(resume) {
    if (!resume) setPhase("connecting");
    askTicket(resume).then((answer) => {
      if (answer.ticket) {
        if (person.signup) showCode();  // the account is made: its code is shown now, once
        person.signup = false;
        return openPerson(resume, answer.ticket);
      }
      // Coming back: tried again while the match may still hold the seat (the last connection
      // not yet seen gone, or the arena restarting), as a refused connection is.
      if (resume) return answer.refused === "wrong-code" ? lostMatch(false) : comeBackAfterDrop(false);
      setPhase("lost");
      person.signup = false;
      showSignIn(refusalSaid(answer), "bad");
    }).catch(() => {
      if (resume) return comeBackAfterDrop(false);
      setPhase("lost");
      showSignIn("The arena could not be reached: try again in a moment.", "bad");
    });
  }
  function openPerson(resume, ticket) {
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host +
      "/person?session=1&ticket=" + encodeURIComponent(ticket) + (resume ?
        "&resume=1&received=" + resume.received : "&opponent=" + encodeURIComponent(person.opponent));
    const socket = new WebSocket(url);
    socket.binaryType = "arraybuffer";
    state.socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      $("connection").textContent = "connected";
      $("connection").className = "live";
      if (resume) return say("connected again: back in your match");
      body.dataset.phase = "queued";
      $("phase").textContent = "waiting in the queue";
      say("signed in as " + person.name + ": waiting to be matched against " +
          (person.opponent || "whoever is waiting"));
      watchQueue();
    };
    socket.onmessage = (e) => {
      if (typeof e.data === "string") {
        receive(e.data);
        if (state.replaying) {
          clearTimeout(state.replayDone);
          state.replayDone = setTimeout(finishReplay, 300);
        }
        return;
      }
      const message = JSON.parse(new TextDecoder().decode(e.data));
      if (message.type === "start" && message.bot === "resumed") resumed(message);
      else if (message.type === "start") { stopWatchingQueue(); newGame(message); }
      else if (message.type === "end") {
        const m = state.match;
        const more = m ? m.rotation < m.rotations : message.games_after > 0;
        say(more ? "the match's next game comes in a moment (the same deal, another seat)" :
          "that was the match's last game");
      } else if (message.type === "match_over") {
        person.matchOver = message;
        forgetKept();
      }
    };
    socket.onclose = (e) => {
      stopWatchingQueue();
      $("connection").textContent = "closed";
      $("connection").className = "";
      finishReplay();
      // Within a match and not let go (no close of the arena's): taken again.
      const dropped = e.code !== 1000 && e.code !== 1008 && e.code !== 1012 && !person.matchOver;
      if (dropped && (resume || person.games)) return comeBackAfterDrop(opened);
      if (!person.games && e.code !== 1000) {
        setPhase("lost");
        if (opened && e.code !== 1008)
          return showSignIn("The connection was lost while you waited to be matched.", "bad");
        person.signup = false;
        // Its ticket was good a moment ago: refused since (another page took the seat first, or
        // the arena has as many connections as it takes), which a refused handshake cannot say.
        return showSignIn(e.code === 1008 ? e.reason : "Not let in just now: you may be playing " +
          "from another page, or the arena is full. Try again in a moment.", "bad");
      }
      forgetKept();
      if (!state.over) setPhase("lost");
      say(person.games ? "the match is over" : "the arena closed the connection: " + (e.reason || ""),
          person.games ? "good" : "bad");
      showRating();
    };
  }
  // A connection within a match dropped (`wasOpen`), or one coming back was not let in: tried
  // again while the arena may hold the seat, and its match plays.
  function comeBackAfterDrop(wasOpen) {
    if (wasOpen || !person.retryUntil) person.retryUntil = Date.now() + comeBackMs();
    if (Date.now() >= person.retryUntil) return lostMatch(false);
    $("connection").textContent = "reconnecting...";
    giveBackDumps();
    draw();
    const again = () => connectPerson({ received: state.received });
    if (wasOpen) return setTimeout(again, 300);
    // Not let in: the arena may not have seen the last connection go yet, or hold nothing now
    // (the match over, which /api/live says).
    const id = state.match ? state.match.id : kept && kept.match ? kept.match.id : null;
    if (id === null) return setTimeout(again, 2000);
    stillPlays(id).then((plays) => plays ? setTimeout(again, 2000) : lostMatch(true))
      .catch(() => setTimeout(again, 2000));
  }
  function lostMatch(over) {
    forgetKept();
    person.retryUntil = 0;
    setPhase("lost");
    if (over) {
      say("the match is over");
      return showRating();
    }
    showSignIn("The connection was lost, and your match could not be come back to within its " +
               "grace: it went on without you.", "bad");
  }
  // Back into the match: into the game this page still holds (a dropped connection, sent what
  // it missed), or, the page opened again, into the game under way afresh, sent all of it again
  // and its tiles put back where they were kept.
  function resumed(message) {
    const match = message.match || null;
    person.retryUntil = 0;
    const same = state.match && match && state.match.id === match.id &&
      state.match.rotation === match.rotation && person.games;
    if (same) return say("back in your match: the game goes on");
    if (kept && kept.match && match && kept.match.id === match.id) person.results = kept.results || [];
    if (!(kept && kept.match && match && kept.match.id === match.id &&
          kept.match.rotation === match.rotation)) kept = null;
    startGame(match);
    person.games = match ? match.rotation : 1;
    if (kept) takeKeptMoves();
    state.replaying = true;
    state.replayDone = setTimeout(finishReplay, 600);
  }
  // A game of the match begins: everything of the last one goes.
  function startGame(match) {
    Object.assign(state, {
      version: null, seat: null, players: null, peel: 0, peelsSeen: 0, myPeels: 0, myDumps: 0,
      bunch: null, tiles: [], taken: null, over: false, outcome: null, received: 0, inbox: "",
      sent: [], pending: [], lastGrid: null, marks: null, confirm: false, dealt: null,
      cursor: { x: 0, y: 0 }, cursorChosen: false,
      match: match ? { id: match.id, rotation: match.rotation, rotations: match.rotations,
                       table: match.table || [], you: match.you } : null,
    });
    delete body.dataset.outcome;
    // The last game's result stays until the person moves on (moveOn).
    setPhase("waiting");
  }
  function newGame(message) {
    person.games = message.match ? message.match.rotation : person.games + 1;
    startGame(message.match);
    const after = message.games_after;
    const m = state.match;
    say(m ? "game " + m.rotation + " of " + m.rotations + " of the match begins" :
      "game " + person.games + " of the match begins" + (after ? " (" + after + " more after it)" : ""));
    send("v003R");
    draw();
  }
  // While queued: one's place in the queue (/api/queue, in the order its seats came), read every
  // two seconds until the match begins.
  let queueTimer = null;
  function watchQueue() {
    stopWatchingQueue();
    const look = () => fetch("/api/queue", { cache: "no-store" }).then((r) => r.json()).then((q) => {
      if (body.dataset.phase !== "queued") return;
      const mine = q.waiting.find((w) => w.bot === person.name);
      body.dataset.place = mine ? String(mine.place) : "";
      $("phase").textContent = mine ? "waiting in the queue: " + ordinal(mine.place) + " of " + q.waiting.length +
        ", " + Math.round(mine.waiting_ms / 1000) + " s so far" : "waiting in the queue";
    }).catch(() => { /* said again at the next look */ });
    look();
    queueTimer = setInterval(look, 2000);
  }
  function stopWatchingQueue() {
    if (queueTimer) clearInterval(queueTimer);
    queueTimer = null;
  }
  // The match's end, over its last board: the place, the rating it left and the change it made
  // (the API's before and after), links to the match and the person's page, and Play again.
  // One rating: the mean, marked "?" while provisional (fewer than 10 matches).
  const PROVISIONAL_MATCHES = 10;
  function showRating() {
    $("again").hidden = false;
    fetch("/api/people/" + encodeURIComponent(person.name), { cache: "no-store" }).then((r) => r.json()).then((p) => {
      const now = p.versions[p.versions.length - 1];
      const n = now.matches_played;
      const last = now.matches[now.matches.length - 1];
      const change = last ? last.change : 0;
      const provisional = n < PROVISIONAL_MATCHES;
      body.dataset.ratingChange = last ? change.toFixed(2) : "";
      const players = person.matchOver && person.matchOver.players;
      $("outcome").textContent = "The match is over" + (last ? ": you placed " + ordinal(last.rank) +
        (players ? " of " + players : "") : "");
      $("how").textContent = "Your rating: " + now.rating.mu.toFixed(1) + (provisional ? "?" : "") +
        (last ? " (" + (change >= 0 ? "+" : "\u2212") + Math.abs(change).toFixed(1) + " in this match)" : "") +
        " after " + n + (n === 1 ? " match" : " matches") + (provisional ? "; the ? goes once you have " +
        "played " + PROVISIONAL_MATCHES + ", when the arena is surer of it" : "") + ".";
      $("marked").textContent = "";
      $("host-said").textContent = "";
      $("end-own-page").href = "/people/" + encodeURIComponent(person.name);
      if (last) $("end-match-page").href = "/matches/" + last.match;
      $("end-match-page").hidden = !last;
      showMatchEnd();
    }).catch(() => showSignIn("Play again?"));
  }
  function showMatchEnd() {
    $("sign-in").hidden = true;
    $("end-links").hidden = false;
    $("play-again").hidden = false;
    $("close-end").textContent = "Show my board";
    showEnd("");
  }
  // The end box, under the status line: of game `game` of the match ("": of the whole).
  function showEnd(game) {
    $("end").style.top = ($("status").getBoundingClientRect().bottom + 6) + "px";
    $("end").hidden = false;
    $("end").dataset.game = game;
  }
  function playAgain() {
    $("again").hidden = true;
    $("end-links").hidden = true;
    $("play-again").hidden = true;
    showSignIn("Play again?");
  }

  // ---- the rules and the word list, which the server serves every player ----
  function loadRules() {
    fetch("/rules").then((r) => r.ok ? r.json() : Promise.reject(new Error("HTTP " + r.status)))
      .then((rules) => {
        state.rules = rules;
        if (state.phase === "playing" && state.bunch === null && rules.players === state.players)
          state.bunch = rules.bunch - 2 * state.myDumps;
        draw();
        return fetch(rules.word_list.url);
      })
      .then((r) => r.ok ? r.text() : Promise.reject(new Error("HTTP " + r.status)))
      .then((text) => {
        state.words = new Set(text.split("\n").filter((w) => w).map((w) => w.toUpperCase()));
        state.wordsNote = "";
        body.dataset.words = String(state.words.size);
        $("words").textContent = "Before a peel goes, the page checks its words against the " +
          "game's word list (" + state.rules.word_list.name + ", " +
          state.words.size.toLocaleString("en") + " words), as the host will.";
      })
      .catch((error) => {
        state.wordsNote = "the word list could not be had (" + error.message + ")";
        $("words").textContent = state.wordsNote + ": only joins are checked";
      });
  }

  // ---- wiring ----
  $("peel").addEventListener("click", () => peel(false));
  $("send-anyway").addEventListener("click", () => peel(true));
  $("dump").addEventListener("click", dump);
  $("all-back").addEventListener("click", allBack);
  $("close-end").addEventListener("click", () => { $("end").hidden = true; });
  document.addEventListener("keydown", key);
  document.addEventListener("pointerdown", pressed);
  document.addEventListener("pointermove", moved, { passive: false });
  document.addEventListener("pointerup", released);
  document.addEventListener("pointercancel", released);
  window.addEventListener("resize", draw);
  // In an arena's match, closing or reloading the page asks first (it would come back within the
  // grace, but a closed tab may not be opened again in time).
  window.addEventListener("beforeunload", (e) => {
    if (!arena || !person.games || person.matchOver || state.phase === "lost") return;
    e.preventDefault();
    e.returnValue = "";
  });
  setPhase("connecting");
  draw();
  if (arena) {
    $("sign-in-form").addEventListener("submit", signIn);
    $("sign-up").addEventListener("click", signUp);
    $("copy-code").addEventListener("click", copyCode);
    $("code-kept").addEventListener("click", () => { $("code-box").hidden = true; });
    $("play-again").addEventListener("click", playAgain);
    $("again").addEventListener("click", playAgain);
    $("to-board").hidden = false;
    $("opponent").addEventListener("focus", loadOpponents);
    setPhase("lost");
    $("phase").textContent = "not signed in";
    $("connection").textContent = "";
    loadRules();
    const me = keptPerson();
    if (me) {
      storeKey = "bananagrams-arena-game:" + me.name;
      kept = restore();
    }
    if (kept && kept.match) return comeBackOnOpen(me);
    return showSignIn();
  }
  if (!token) {
    setPhase("lost");
    say("no seat's token in this page's address (…/play#TOKEN)", "bad");
    return;
  }
  loadRules();
  if (kept) takeKeptMoves();
  connect(false);
})();
