#!/usr/bin/env node
// A Bananagrams player in JavaScript (Node, no packages), speaking protocol v2
// (protocol-v2.md). The same play as the Python, C++ and Go examples: lay the hand out as one
// crossword of dictionary words, hardest letters first; peel when every tile is down; dump the
// hardest tile left over otherwise.
//
//     node example_player.js [--dict WORDLIST]
//
// The word list must be the game's: --dict WORDLIST if given; else the file the host names in
// $BANANAGRAMS_WORDLIST (the list the game is judged by, the host's own or the organiser's); else,
// run by hand, the host's built-in list ../wordlist/scowl-80.txt (beside this folder, in the
// source tree and once installed). If it cannot be read, the player says which file and why in
// one line on stderr and exits 1, before sending anything.
"use strict";
const fs = require("fs");
const path = require("path");
const util = require("util");

const DEFAULT_DICT = path.join(path.dirname(fs.realpathSync(__filename)), "..", "wordlist",
  "scowl-80.txt");
const HARDEST_FIRST = "QZXJKVWYBFHGMPCUDLOTNSRAIE";

const A = "A".charCodeAt(0);
const index = (letter) => letter.charCodeAt(0) - A;
// Letter counts: 26 numbers, A to Z.
function counts(letters) {
  const c = new Array(26).fill(0);
  for (const l of letters) c[index(l)]++;
  return c;
}
const total = (c) => c.reduce((a, b) => a + b, 0);

// Says in one line on stderr why the word list cannot be read, and exits: nothing has been sent.
function cannotRead(file, why) {
  fs.writeSync(2, `example_player.js: cannot read the word list ${file}: ${why}\n`);
  process.exit(1);
}

// Words of two letters or more, upper case, longest first (then alphabetical), each with its
// letter counts.
function loadWords(file) {
  let text;
  try {
    text = fs.readFileSync(file, "latin1");
  } catch (error) {
    // "no such file or directory", as the system says it; else Node's own message.
    const system = util.getSystemErrorMap().get(error.errno);
    cannotRead(file, system ? system[1] : error.message);
  }
  const words = new Set();
  for (const line of text.split("\n")) {
    const w = line.trim();
    if (/^[A-Za-z]{2,}$/.test(w)) words.add(w.toUpperCase());
  }
  if (words.size === 0) cannotRead(file, "it holds no words of two letters or more");
  return [...words]
    .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
    .map((text) => ({ text, letters: counts(text) }));
}

// How many letters of the word the hand lacks.
function lacking(word, hand) {
  let missing = 0;
  for (let i = 0; i < 26; i++) missing += Math.max(0, word.letters[i] - hand[i]);
  return missing;
}

// A crossword of as much of the hand as it can place: { cells: Map "x,y" -> letter, left }.
function build(hand, words) {
  const size = total(hand);
  const usable = words.filter((w) => w.text.length <= size + 1 && lacking(w, hand) <= 1);
  const start = usable.find((w) => lacking(w, hand) === 0);
  const cells = new Map();
  const left = [...hand];
  if (!start) return { cells, left };
  [...start.text].forEach((l, i) => {
    cells.set(`${i},0`, l);
    left[index(l)]--;
  });
  // The hand only shrinks and the grid only fills: each tile is tried as an anchor once.
  const anchors = [...cells.keys()];
  for (let a = 0; a < anchors.length && total(left) > 0; a++) {
    const [x, y] = anchors[a].split(",").map(Number);
    const anchor = cells.get(anchors[a]);
    const spare = [...left];
    spare[index(anchor)]++; // the word may use the anchor's tile, already on the grid
    for (const word of usable) {
      if (word.text.length > total(left) + 1 || !word.text.includes(anchor)) continue;
      if (lacking(word, spare) > 0) continue;
      let spot = null;
      for (let i = 0; i < word.text.length && !spot; i++) {
        if (word.text[i] !== anchor) continue;
        for (const [dx, dy] of [[1, 0], [0, 1]])
          spot = spot || lay(cells, word.text, x - dx * i, y - dy * i, dx, dy, left);
      }
      if (spot) {
        for (const [at, l] of spot) {
          cells.set(at, l);
          anchors.push(at);
          left[index(l)]--;
        }
        break;
      }
    }
  }
  return { cells, left };
}

// The new tiles for `word` at (x, y) going (dx, dy), if it crosses only what it shares and the
// hand has the rest; null otherwise.
function lay(cells, word, x, y, dx, dy, left) {
  const key = (px, py) => `${px},${py}`;
  if (cells.has(key(x - dx, y - dy)) || cells.has(key(x + dx * word.length, y + dy * word.length)))
    return null;
  const placed = new Map();
  const need = new Array(26).fill(0);
  for (let k = 0; k < word.length; k++) {
    const px = x + dx * k, py = y + dy * k;
    const here = cells.get(key(px, py));
    if (here !== undefined) {
      if (here !== word[k]) return null;
      continue;
    }
    // A new tile may not touch anything sideways.
    if (cells.has(key(px + dy, py + dx)) || cells.has(key(px - dy, py - dx))) return null;
    placed.set(key(px, py), word[k]);
    need[index(word[k])]++;
  }
  if (placed.size === 0 || need.some((n, i) => n > left[i])) return null;
  return placed;
}

// The grid as the protocol writes it: width, height (3 digits each), then the rows.
function gridText(cells) {
  const xs = [], ys = [];
  for (const at of cells.keys()) {
    const [x, y] = at.split(",").map(Number);
    xs.push(x);
    ys.push(y);
  }
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  let rows = "";
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) rows += cells.get(`${x},${y}`) || ".";
  const pad = (n) => String(n).padStart(3, "0");
  return pad(x1 - x0 + 1) + pad(y1 - y0 + 1) + rows;
}

function main() {
  const at = process.argv.indexOf("--dict", 2);
  if (at === process.argv.length - 1) {
    fs.writeSync(2, "example_player.js: --dict needs a file\n");
    process.exit(1);
  }
  const words = loadWords(
    at >= 0 ? process.argv[at + 1] : process.env.BANANAGRAMS_WORDLIST || DEFAULT_DICT
  );
  const send = (text) => fs.writeSync(1, text); // unbuffered: every message leaves at once
  const hand = counts("");
  const add = (letters) => {
    for (const l of letters) hand[index(l)]++;
  };
  let seen = 0; // the newest peel whose tile is in the hand
  let waiting = true; // for the hand, or the answer to our last move
  let refused = false; // a dump was refused: none again until a new tile comes
  let pending = "";
  send("v002R");
  process.stdin.on("data", (data) => {
    pending += data.toString("latin1");
    let dot;
    while ((dot = pending.indexOf(".")) >= 0) {
      const m = pending.slice(0, dot);
      pending = pending.slice(dot + 1);
      const kind = m[0];
      if (kind === "H") {
        // H nnnn letters: the hand
        seen = Number(m.slice(1, 5));
        waiting = false;
        add(m.slice(5));
      } else if (kind === "P") {
        // P nnnn tile bunch: a peel dealt us a tile
        seen = Number(m.slice(1, 5));
        refused = false;
        add(m[5]);
      } else if (kind === "A" || kind === "D") {
        // our peel accepted; our dump's three tiles
        waiting = false;
        if (kind === "D") add(m.slice(1));
      } else if (kind === "N") {
        // stale: the tiles we lacked came in P messages
        seen = Math.max(seen, Number(m.slice(1, 5)));
        waiting = false;
      } else if (kind === "X") {
        // dump refused: the tile stays ours
        add(m[1]);
        waiting = false;
        refused = true;
      } else if (kind === "E") {
        process.exit(0); // the game is over for us
      }
      if (waiting) continue;
      const { cells, left } = build(hand, words);
      if (total(left) === 0) {
        send("P" + String(seen).padStart(4, "0") + gridText(cells));
        waiting = true;
      } else if (!refused) {
        const tile = [...HARDEST_FIRST].find((l) => left[index(l)] > 0);
        hand[index(tile)]--;
        send("D" + tile);
        waiting = true;
      }
    }
  });
  process.stdin.on("end", () => process.exit(0));
}

main();
