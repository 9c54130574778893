// What the game page and the live page share: a grid's tiles within their bounding box, so
// that a 999x999 grid with its tiles in a corner is drawn as small as its tiles. A grid is the
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
