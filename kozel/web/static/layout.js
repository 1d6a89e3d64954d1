// The layout drawn as SVG: a line that snakes to fit the width (Goat), a cross round the
// spinner (Donkey). Each arm is a chain of tiles laid by a "turtle": it walks away from the
// centre, and where the next tile would leave its box it turns a corner (the corner tile along
// the turn) and comes back one row further out. Doubles lie across the chain.
import { s } from "./dom.js";
import { halves, tileGroup } from "./tiles.js";

const other = (name, value) => {
  const [a, b] = halves(name);
  return a === value ? b : a;
};

/** Tiles of an arm from its start value outwards, each with its inner and outer half. */
function oriented(tiles, start) {
  let shows = start;
  return tiles.map((name) => {
    const inner = shows;
    const outer = other(name, inner);
    shows = outer;
    return { name, inner, outer };
  });
}

/** Split the layout into a centre tile and four chains (left, right, up, down). */
export function chains(layout) {
  const arms = {};
  for (const arm of layout.arms) arms[arm.arm] = arm;
  const tilesOf = (k) => (arms[k] ? arms[k].tiles : []);
  const closed = (k) => Boolean(arms[k] && arms[k].closed);
  const [a, b] = halves(layout.first);
  const marked = (list, k) =>
    list.map((item, i) => ({ ...item, arm: k, faceDown: closed(k) && i === list.length - 1 }));
  if (!layout.spinner || layout.spinner === layout.first) {
    const v = layout.spinner ? a : null;
    return {
      center: { name: layout.first, first: a, second: b, double: a === b, arm: null },
      left: marked(oriented(tilesOf(0), v ?? a), 0),
      right: marked(oriented(tilesOf(1), v ?? b), 1),
      up: marked(oriented(tilesOf(2), a), 2),
      down: marked(oriented(tilesOf(3), a), 3),
    };
  }
  // the spinner was laid later on arm k: re-root the drawing at it
  const k = tilesOf(0).includes(layout.spinner) ? 0 : 1;
  const along = marked(oriented(tilesOf(k), k === 0 ? a : b), k);
  const at = along.findIndex((item) => item.name === layout.spinner);
  const spinner = along[at];
  const back = along
    .slice(0, at)
    .reverse()
    .map((item) => ({ ...item, inner: item.outer, outer: item.inner, faceDown: false }));
  const firstTile = { name: layout.first, inner: k === 0 ? a : b, outer: k === 0 ? b : a, arm: null };
  const opposite = [...back, firstTile, ...marked(oriented(tilesOf(1 - k), k === 0 ? b : a), 1 - k)];
  const beyond = along.slice(at + 1);
  const v = spinner.inner;
  return {
    center: { name: spinner.name, first: v, second: v, double: true, arm: k, faceDown: spinner.faceDown },
    left: k === 0 ? beyond : opposite,
    right: k === 0 ? opposite : beyond,
    up: marked(oriented(tilesOf(2), v), 2),
    down: marked(oriented(tilesOf(3), v), 3),
  };
}

const add = (p, d, k) => [p[0] + d[0] * k, p[1] + d[1] * k];
const dot = (p, d) => p[0] * d[0] + p[1] * d[1];

/** Lay one chain; returns placed tiles and where the next tile of this arm would go. */
function walk(items, start, dir, turn, box, firstHalf) {
  const placed = [];
  let p = start;
  let d = dir;
  let half = firstHalf; // half the across-width of the last tile laid
  // how far the chain may go in direction d: the box's side that d points to
  const limit = (dd) => (dd[0] > 0 ? box.x1 : dd[0] < 0 ? -box.x0 : dd[1] > 0 ? box.y1 : -box.y0);
  for (const item of items) {
    const across = item.inner === item.outer;
    const len = across ? 1 : 2;
    if (dot(add(p, d, len), d) > limit(d)) {
      // a corner: this tile runs along `turn` beside the last cell, and the chain comes back
      placed.push(rect(item, add(add(p, d, -0.5), turn, half), turn, 2, 1));
      p = add(add(p, d, -1), turn, half + 1.5);
      d = [-d[0], -d[1]];
      half = 0.5;
      continue;
    }
    placed.push(rect(item, p, d, len, across ? 2 : 1));
    p = add(p, d, len);
    half = across ? 1 : 0.5;
  }
  return { placed, next: p, dir: d };
}

/** The tile starting at p (on its centre line), `len` along d and `wide` across it. */
function rect(item, p, d, len, wide) {
  const horizontal = d[0] !== 0;
  const end = add(p, d, len);
  const x = horizontal ? Math.min(p[0], end[0]) : p[0] - wide / 2;
  const y = horizontal ? p[1] - wide / 2 : Math.min(p[1], end[1]);
  const vertical = horizontal ? wide > len : len > wide;
  // halves are drawn left/top first: the inner half first when walking right or down
  const forward = d[0] + d[1] > 0;
  const [first, second] = forward ? [item.inner, item.outer] : [item.outer, item.inner];
  return { ...item, x, y, vertical, first, second };
}

/** Geometry of the whole layout for a width of `cols` half-tile units. */
export function geometry(layout, cols) {
  const c = chains(layout);
  const cross = Boolean(layout.spinner);
  const W = Math.max(8, cols) / 2;
  const H = Math.max(6, W);
  const center = c.center;
  const vertical = center.double;
  const centerTile = {
    name: center.name,
    arm: center.arm,
    faceDown: Boolean(center.faceDown),
    x: vertical ? -0.5 : -1,
    y: vertical ? -1 : -0.5,
    vertical,
    first: center.first,
    second: center.second,
  };
  const ex = vertical ? 0.5 : 1;
  const half = vertical ? 1 : 0.5;
  const inf = 1e9;
  // coming back, a cross's arm stops one unit short of the centre lines (the other arms' side)
  const boxes = cross
    ? {
        right: { x0: 1, x1: W, y0: -inf, y1: inf },
        left: { x0: -W, x1: -1, y0: -inf, y1: inf },
        down: { x0: -inf, x1: inf, y0: 1, y1: H },
        up: { x0: -inf, x1: inf, y0: -H, y1: -1 },
      }
    : {
        right: { x0: -W, x1: W, y0: -inf, y1: inf },
        left: { x0: -W, x1: W, y0: -inf, y1: inf },
      };
  const arms = {};
  const tiles = [centerTile];
  const plan = [
    ["right", 1, [ex, 0], [1, 0], [0, 1], half],
    ["left", 0, [-ex, 0], [-1, 0], [0, -1], half],
    ["down", 3, [0, 1], [0, 1], [-1, 0], 0.5],
    ["up", 2, [0, -1], [0, -1], [1, 0], 0.5],
  ];
  // every side's chain ends with its own arm's tiles (a re-rooted side with the far arm's)
  for (const [side, arm, start, dir, turn, firstHalf] of plan) {
    if (!boxes[side]) continue;
    const walked = walk(c[side], start, dir, turn, boxes[side], firstHalf);
    tiles.push(...walked.placed);
    arms[arm] = { next: walked.next, dir: walked.dir };
  }
  return { tiles, arms };
}

/** Draw the layout into an <svg>. `targets` = arm numbers that may be clicked (with onArm). */
export function drawLayout(layout, { width, u = 30, targets = [], onArm, last } = {}) {
  const cols = Math.floor(width / u) - 1;
  const geo = geometry(layout, cols);
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  const grow = (x0, y0, x1, y1) => {
    minX = Math.min(minX, x0);
    minY = Math.min(minY, y0);
    maxX = Math.max(maxX, x1);
    maxY = Math.max(maxY, y1);
  };
  for (const t of geo.tiles) grow(t.x, t.y, t.x + (t.vertical ? 1 : 2), t.y + (t.vertical ? 2 : 1));
  const markers = [];
  for (const arm of targets) {
    const end = geo.arms[arm];
    if (!end) continue;
    const [cx, cy] = add(end.next, end.dir, 0.6);
    grow(cx - 0.6, cy - 0.6, cx + 0.6, cy + 0.6);
    markers.push({ arm, cx, cy });
  }
  const pad = 0.3;
  const vbX = (minX - pad) * u;
  const vbY = (minY - pad) * u;
  const vbW = (maxX - minX + 2 * pad) * u;
  const vbH = (maxY - minY + 2 * pad) * u;
  const svg = s("svg", {
    class: "layout-svg",
    viewBox: `${vbX} ${vbY} ${vbW} ${vbH}`,
    width: Math.round(vbW),
    height: Math.round(vbH),
    role: "img",
  });
  for (const t of geo.tiles) {
    const cls = [t.name === last ? "last" : "", t.faceDown ? "closed" : ""].join(" ");
    const g = tileGroup(t.first, t.second, t.x * u, t.y * u, t.vertical, u, {
      faceDown: t.faceDown,
      cls,
    });
    g.setAttribute("data-tile", t.name);
    svg.append(g);
  }
  for (const m of markers) {
    const g = s(
      "g",
      {
        class: "arm-target",
        "data-arm": m.arm,
        tabindex: 0,
        role: "button",
        onclick: () => onArm && onArm(m.arm),
        onkeydown: (e) => {
          if ((e.key === "Enter" || e.key === " ") && onArm) {
            e.preventDefault();
            onArm(m.arm);
          }
        },
      },
      s("circle", { cx: m.cx * u, cy: m.cy * u, r: u * 0.55 }),
      s("text", { x: m.cx * u, y: m.cy * u, dy: "0.35em" }, String(m.arm)),
    );
    svg.append(g);
  }
  return svg;
}
