// A person's seat (GET /play#TOKEN, docs/remote.md): a client of protocol v003 over the seat's
// WebSocket, like any bot's; the host needs no rule for people. The page holds the person's
// tiles, on the board or in the hand, and sends what they do: a peel (the board's grid, as of
// the newest peel whose tile it holds), a dump. What the host says comes back as the protocol's
// messages, and is shown: the hand, each tile dealt, a peel accepted or stale, a dump, the end
// and its reason (a grid refused: which tiles, which words).
//
// Mouse: click a tile (in the hand or on the board) to take it, then a square to lay it there,
// or the hand to take it back; click a square to put the cursor on it, twice to turn it. Keys:
// a letter lays a tile of it from the hand at the cursor, which moves on (across or down);
// the arrows move the cursor, space turns it, Backspace takes the tile before it back, Delete
// the one under it; Enter peels; Escape lets a taken tile go.
"use strict";
(function () {
  const SIZE = 48;  // the board's squares each way
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const token = decodeURIComponent(location.hash.slice(1));
  const state = {
    seat: null, players: null, peel: 0, bunch: null, tiles: [], nextId: 0, taken: null,
    cursor: { x: 4, y: 4 }, across: true,
    phase: "connecting", received: 0, inbox: "", socket: null, retryUntil: 0, over: false,
  };
  const body = document.body;

  function say(text, kind) {
    const line = el("li", kind || "", text);
    $("said").prepend(line);
    $("status").textContent = text;
    $("status").className = kind || "";
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
  function addTiles(letters) {
    for (const letter of letters) state.tiles.push({ id: state.nextId++, letter: letter, pos: null, fresh: true });
  }
  function removeTile(tile) {
    state.tiles = state.tiles.filter((t) => t !== tile);
    if (state.taken === tile) state.taken = null;
  }
  function lay(tile, x, y) {
    if (x < 0 || y < 0 || x >= SIZE || y >= SIZE || at(x, y)) return false;
    tile.pos = { x: x, y: y };
    tile.fresh = false;
    return true;
  }
  function step(sign) {
    const c = state.cursor;
    if (state.across) c.x = Math.max(0, Math.min(SIZE - 1, c.x + sign));
    else c.y = Math.max(0, Math.min(SIZE - 1, c.y + sign));
  }
  // The board's grid as the protocol has it: its tiles' bounding box, width and height in three
  // digits each, then its rows, '.' for an empty square.
  function grid() {
    const laid = state.tiles.filter((t) => t.pos);
    if (!laid.length) return null;
    const xs = laid.map((t) => t.pos.x), ys = laid.map((t) => t.pos.y);
    const left = Math.min(...xs), top = Math.min(...ys);
    const w = Math.max(...xs) - left + 1, h = Math.max(...ys) - top + 1;
    const cells = new Array(w * h).fill(".");
    for (const t of laid) cells[(t.pos.y - top) * w + (t.pos.x - left)] = t.letter;
    return String(w).padStart(3, "0") + String(h).padStart(3, "0") + cells.join("");
  }

  // ---- drawing ----
  function draw() {
    const board = $("board");
    board.textContent = "";
    for (let y = 0; y < SIZE; y++)
      for (let x = 0; x < SIZE; x++) {
        const t = at(x, y);
        const square = el("button", "square" + (t ? " tile" : ""), t ? t.letter : "");
        square.dataset.x = x;
        square.dataset.y = y;
        if (state.cursor.x === x && state.cursor.y === y)
          square.classList.add(state.across ? "cursor-across" : "cursor-down");
        if (t && state.taken === t) square.classList.add("taken");
        square.tabIndex = -1;
        board.appendChild(square);
      }
    const tray = $("hand");
    tray.textContent = "";
    for (const t of hand().sort((a, b) => a.letter.localeCompare(b.letter))) {
      const tile = el("button", "tile" + (t.fresh ? " new" : "") + (state.taken === t ? " taken" : ""), t.letter);
      tile.dataset.id = t.id;
      tile.tabIndex = -1;
      tray.appendChild(tile);
    }
    body.dataset.hand = hand().map((t) => t.letter).sort().join("");
    body.dataset.tiles = String(state.tiles.length);
    $("counts").textContent = state.tiles.length + " tiles, " + hand().length + " in your hand" +
      (state.bunch === null ? "" : "; " + state.bunch + " in the bunch") +
      (state.players === null ? "" : "; " + state.players + " players, you are seat " + (state.seat + 1));
    $("peel").disabled = state.phase !== "playing";
    $("dump").disabled = state.phase !== "playing" || !state.taken;
  }

  // ---- what the person does ----
  function send(text) {
    if (state.socket && state.socket.readyState === WebSocket.OPEN) state.socket.send(text);
    else say("not connected: " + text[0] + " not sent", "bad");
  }
  function peel() {
    if (state.phase !== "playing") return;
    if (hand().length) return say("lay every tile on the board first: " + hand().length + " left in your hand", "bad");
    const g = grid();
    if (!g) return say("nothing on the board", "bad");
    send("P" + String(state.peel).padStart(4, "0") + g);
    say("peel sent, as of peel " + state.peel);
  }
  function dump() {
    if (state.phase !== "playing" || !state.taken) return;
    const tile = state.taken;
    send("D" + tile.letter);
    removeTile(tile);
    state.dumped = tile;
    say("dump of " + tile.letter + " sent");
    draw();
  }
  function clickSquare(x, y) {
    const t = at(x, y);
    if (state.taken && !t) {
      lay(state.taken, x, y);
      state.taken = null;
    } else if (t && state.taken !== t) {
      state.taken = t;
    } else if (t && state.taken === t) {
      state.taken = null;
    } else if (state.cursor.x === x && state.cursor.y === y) {
      state.across = !state.across;
    }
    state.cursor = { x: x, y: y };
    draw();
  }
  function clickHand(id) {
    const t = state.tiles.find((tile) => tile.id === id);
    if (state.taken && state.taken.pos && !t) {
      state.taken.pos = null;
      state.taken = null;
    } else if (t) {
      state.taken = state.taken === t ? null : t;
    }
    draw();
  }
  function typeLetter(letter) {
    const c = state.cursor;
    if (at(c.x, c.y)) { step(1); draw(); return; }
    const t = hand().find((tile) => tile.letter === letter);
    if (!t) return say("no " + letter + " in your hand", "bad");
    lay(t, c.x, c.y);
    step(1);
    draw();
  }
  function key(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const c = state.cursor;
    const moves = { ArrowLeft: [-1, 0, true], ArrowRight: [1, 0, true], ArrowUp: [0, -1, false], ArrowDown: [0, 1, false] };
    if (moves[e.key]) {
      const [dx, dy, across] = moves[e.key];
      c.x = Math.max(0, Math.min(SIZE - 1, c.x + dx));
      c.y = Math.max(0, Math.min(SIZE - 1, c.y + dy));
      state.across = across;
    } else if (e.key === " ") {
      state.across = !state.across;
    } else if (e.key === "Backspace") {
      step(-1);
      const t = at(c.x, c.y);
      if (t) t.pos = null;
    } else if (e.key === "Delete") {
      const t = at(c.x, c.y);
      if (t) t.pos = null;
    } else if (e.key === "Enter") {
      peel();
    } else if (e.key === "Escape") {
      state.taken = null;
    } else if (/^[a-zA-Z]$/.test(e.key)) {
      e.preventDefault();
      return typeLetter(e.key.toUpperCase());
    } else {
      return;
    }
    e.preventDefault();
    draw();
  }

  // ---- what the host says (protocol-v2.md) ----
  const lengths = { V: 9, H: null, P: 11, A: 6, N: null, D: 5, X: 7 };
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
  function handle(m) {
    const kind = m[0];
    if (kind === "V") {
      state.seat = parseInt(m.substr(4, 2), 10);
      state.players = parseInt(m.substr(6, 2), 10);
      setPhase("waiting");
      say("seated: seat " + (state.seat + 1) + " of " + state.players + "; waiting for the deal");
    } else if (kind === "H") {
      state.peel = parseInt(m.substr(1, 4), 10);
      addTiles(m.slice(5, -1));
      setPhase("playing");
      say("your hand: " + m.slice(5, -1).length + " tiles; lay them out and peel");
    } else if (kind === "P") {
      state.peel = parseInt(m.substr(1, 4), 10);
      state.bunch = parseInt(m.substr(6, 4), 10);
      addTiles(m[5]);
      say("peel " + state.peel + " dealt you " + m[5] + "; " + state.bunch + " in the bunch");
    } else if (kind === "A") {
      say("your peel was accepted as peel " + parseInt(m.substr(1, 4), 10), "good");
    } else if (kind === "N") {
      say("your peel was stale: peel " + parseInt(m.substr(1, 4), 10) + " came first; lay " +
          m.slice(9, -1) + " too and peel again", "bad");
    } else if (kind === "D") {
      addTiles(m.substr(1, 3));
      say("your dump gave you " + m.substr(1, 3));
    } else if (kind === "X") {
      state.bunch = parseInt(m.substr(2, 4), 10);
      if (state.dumped) { state.dumped.pos = null; state.tiles.push(state.dumped); state.dumped = null; }
      say("your dump was refused: only " + state.bunch + " tiles in the bunch", "bad");
    } else if (kind === "E") {
      end(m);
    }
  }
  function end(m) {
    const outcome = { W: "You won!", L: "You lost.", Q: "You are out." }[m[1]] || "The game is over.";
    const standing = parseInt(m.substr(2, 2), 10);
    const winner = m.substr(4, 2) === "--" ? null : parseInt(m.substr(4, 2), 10);
    const reason = m.slice(10, -1).replace(/_/g, " ");
    state.over = true;
    body.dataset.outcome = m[1];
    setPhase("over");
    $("end").hidden = false;
    $("outcome").textContent = outcome + (standing ? " Your standing: " + standing + "." : "") +
      (winner === null ? " No winner." : winner === state.seat ? "" : " Seat " + (winner + 1) + " won.");
    $("reason").textContent = reason;
    say(outcome + (reason ? " " + reason : ""), m[1] === "W" ? "good" : "bad");
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

  // ---- the connection ----
  function connect(first) {
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/seat/" +
      encodeURIComponent(token) + (first ? "" : "?received=" + state.received);
    const socket = new WebSocket(url);
    state.socket = socket;
    socket.onopen = () => {
      $("connection").textContent = "connected";
      if (first) send("v003R");
      else say("connected again");
    };
    socket.onmessage = (e) => receive(String(e.data));
    socket.onclose = (e) => {
      $("connection").textContent = "closed";
      if (state.over) return;
      if (e.code === 1000 || e.code === 1001) return say("the host closed the seat: " + (e.reason || e.code), "bad");
      // Dropped: taken again, with what it had received, while the host's grace may last.
      if (!state.retryUntil) state.retryUntil = Date.now() + 10000;
      if (Date.now() < state.retryUntil && state.seat !== null) {
        setTimeout(() => connect(false), 500);
        return;
      }
      setPhase("lost");
      say(state.seat === null ? "the seat could not be taken (a wrong token, taken, or over)" :
          "the connection is lost", "bad");
    };
  }

  $("board").addEventListener("click", (e) => {
    const square = e.target.closest(".square");
    if (square) clickSquare(Number(square.dataset.x), Number(square.dataset.y));
  });
  $("hand").addEventListener("click", (e) => {
    const tile = e.target.closest(".tile");
    clickHand(tile ? Number(tile.dataset.id) : null);
  });
  $("peel").addEventListener("click", peel);
  $("dump").addEventListener("click", dump);
  document.addEventListener("keydown", key);
  setPhase("connecting");
  draw();
  if (!token) {
    setPhase("lost");
    say("no seat's token in this page's address (…/play#TOKEN)", "bad");
  } else {
    connect(true);
  }
})();
