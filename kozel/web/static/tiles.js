// Domino tiles as SVG with real pips. A tile is "a-b" (low half first); drawing takes the two
// halves in the order they should appear (left/top first).
import { s } from "./dom.js";

// where each number's pips sit on a half (0..1 across and down)
export const SPOTS = {
  0: [],
  1: [[0.5, 0.5]],
  2: [[0.27, 0.27], [0.73, 0.73]],
  3: [[0.27, 0.27], [0.5, 0.5], [0.73, 0.73]],
  4: [[0.27, 0.27], [0.73, 0.27], [0.27, 0.73], [0.73, 0.73]],
  5: [[0.27, 0.27], [0.73, 0.27], [0.5, 0.5], [0.27, 0.73], [0.73, 0.73]],
  6: [[0.27, 0.25], [0.27, 0.5], [0.27, 0.75], [0.73, 0.25], [0.73, 0.5], [0.73, 0.75]],
};

export function halves(name) {
  const [a, b] = name.split("-").map(Number);
  return [a, b];
}

export function isDouble(name) {
  const [a, b] = halves(name);
  return a === b;
}

/** An SVG group: halves `first` (left or top) and `second`, at (x, y), u = half's side. */
export function tileGroup(first, second, x, y, vertical, u, { faceDown = false, cls = "" } = {}) {
  const w = vertical ? u : 2 * u;
  const hgt = vertical ? 2 * u : u;
  const g = s("g", { class: `tile ${cls}`.trim(), transform: `translate(${x} ${y})` });
  g.append(
    s("rect", {
      class: faceDown ? "tile-back" : "tile-face",
      x: 0.5, y: 0.5, width: w - 1, height: hgt - 1, rx: u * 0.14,
    }),
  );
  if (faceDown) return g;
  g.append(
    vertical
      ? s("line", { class: "tile-bar", x1: u * 0.12, x2: u * 0.88, y1: u, y2: u })
      : s("line", { class: "tile-bar", x1: u, x2: u, y1: u * 0.12, y2: u * 0.88 }),
  );
  [first, second].forEach((value, i) => {
    const ox = vertical ? 0 : i * u;
    const oy = vertical ? i * u : 0;
    for (const [px, py] of SPOTS[value]) {
      // a six runs along the tile: columns on a vertical tile, rows on a horizontal one
      const [cx, cy] = vertical ? [px, py] : [py, px];
      g.append(s("circle", { class: "pip", cx: ox + cx * u, cy: oy + cy * u, r: u * 0.09 }));
    }
  });
  return g;
}

/** A standalone <svg> of one tile (the hand, the review's hands). */
export function tileSvg(first, second, { vertical = false, u = 28, faceDown = false, label } = {}) {
  const w = vertical ? u : 2 * u;
  const hgt = vertical ? 2 * u : u;
  const svg = s("svg", {
    class: "tile-svg",
    viewBox: `0 0 ${w} ${hgt}`,
    width: w,
    height: hgt,
    role: "img",
    "aria-label": label || `${first}-${second}`,
  });
  svg.append(tileGroup(first, second, 0, 0, vertical, u, { faceDown }));
  return svg;
}
