// The layout drawn as SVG, always inside the board it is given. A line (Goat) snakes: each
// arm runs sideways and, where the next tile would leave the board, turns a corner (the corner
// tile along the turn) and comes back one row further out — the right arm downwards, the left
// arm upwards. A cross (Donkey) is a pinwheel round the spinner: the left and right arms snake
// like the line, and the up and down arms run a few tiles straight, then turn a corner and
// snake sideways too, each arm in its own quarter, so no arm grows off the board. Doubles lie
// across the chain. The drawing tries the largest tiles first and a few shapes (where the
// first tile stands, how far the up and down arms run straight) and takes the first that fits.
import { s } from "./dom.js";
import { halves, tileGroup } from "./tiles.js";

// The other half of a tile, given one of its halves.
const other = (name, value) => {
  const [a, b] = halves(name);
  return a === value ? b : a;
};

/** An arm's tiles from the first tile outwards, each with its inner and outer half: the
 * outer half as the view gives it (`outer`, the engine's), the inner one the tile's other. */
function oriented(arm) {
  if (!arm) return [];
  return arm.tiles.map((name, i) => ({ name, inner: other(name, arm.outer[i]), outer: arm.outer[i] }));
}

/** The value an arm grows from (a half of the first tile, or the spinner's): its first
 * tile's inner half, or the value it shows while it has none. */
function startOf(arm) {
  return arm.tiles.length ? other(arm.tiles[0], arm.outer[0]) : arm.shows;
}

/** For every tile laid on an arm, the value it was laid against (its inner half): a Map. */
export function laidOn(layout) {
  const on = new Map();
  for (const arm of layout.arms) {
    for (const item of oriented(arm)) on.set(item.name, item.inner);
  }
  return on;
}

/** Split the layout into a centre tile and four chains (left, right, up, down). */
export function chains(layout) {
  const arms = {};
  for (const arm of layout.arms) arms[arm.arm] = arm;
  const closed = (k) => Boolean(arms[k] && arms[k].closed);
  const marked = (list, k) =>
    list.map((item, i) => ({ ...item, arm: k, faceDown: closed(k) && i === list.length - 1 }));
  // the first tile lies with the half arm 0 grows from on the left, arm 1's on the right
  const a = startOf(arms[0]);
  const b = startOf(arms[1]);
  if (!layout.spinner || layout.spinner === layout.first) {
    return {
      center: { name: layout.first, first: a, second: b, double: a === b, arm: null },
      left: marked(oriented(arms[0]), 0),
      right: marked(oriented(arms[1]), 1),
      up: marked(oriented(arms[2]), 2),
      down: marked(oriented(arms[3]), 3),
    };
  }
  // the spinner was laid later on arm k: re-root the drawing at it
  const k = arms[0].tiles.includes(layout.spinner) ? 0 : 1;
  const along = marked(oriented(arms[k]), k);
  const at = along.findIndex((item) => item.name === layout.spinner);
  const spinner = along[at];
  const back = along
    .slice(0, at)
    .reverse()
    .map((item) => ({ ...item, inner: item.outer, outer: item.inner, faceDown: false }));
  const firstTile = { name: layout.first, inner: k === 0 ? a : b, outer: k === 0 ? b : a, arm: null };
  const opposite = [...back, firstTile, ...marked(oriented(arms[1 - k]), 1 - k)];
  const beyond = along.slice(at + 1);
  const v = spinner.inner;
  return {
    center: { name: spinner.name, first: v, second: v, double: true, arm: k, faceDown: spinner.faceDown },
    left: k === 0 ? beyond : opposite,
    right: k === 0 ? opposite : beyond,
    up: marked(oriented(arms[2]), 2),
    down: marked(oriented(arms[3]), 3),
  };
}

const add = (p, d, k) => [p[0] + d[0] * k, p[1] + d[1] * k];
const dot = (p, d) => p[0] * d[0] + p[1] * d[1];
// a tile that is not a double: where the next tile of an arm would go (its marker)
const NEXT = { name: null, inner: -1, outer: -2, arm: null, faceDown: false };

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

/**
 * Lay one more tile of a chain. `at` is where the chain stands: `p` (the end of the last tile,
 * on its centre line), `d` (the way it walks), `half` (half the across-width of the last tile),
 * `bend` (while the chain still runs straight out of a cross: how far, then which way it
 * turns), with the chain's `box` (how far left and right it may go) and `turn` (the way its
 * rows stack). Returns the tile placed and where the chain stands after it.
 */
function place(item, at) {
  const { p, d, half, bend, box, turn } = at;
  const across = item.inner === item.outer;
  const len = across ? 1 : 2;
  const end = dot(add(p, d, len), d);
  const straight = () => ({ tile: rect(item, p, d, len, across ? 2 : 1), at: { ...at, p: add(p, d, len), half: across ? 1 : 0.5 } });
  if (bend) {
    // out of the cross: at least `min` from the centre (clear of the side arms' doubles)
    if (end <= bend.leg || dot(p, d) < bend.min) return straight();
    // a square corner: this tile runs along bend.to beside the last cell, the chain goes on that way
    const corner = add(add(p, d, -0.5), bend.to, half);
    return { tile: rect(item, corner, bend.to, 2, 1), at: { ...at, p: add(corner, bend.to, 2), d: bend.to, half: 0.5, bend: null } };
  }
  const reach = d[0] > 0 ? box.x1 : -box.x0;
  if (end <= reach) return straight();
  // a U-turn: this tile runs along `turn` beside the last cell, and the chain comes back
  const corner = add(add(p, d, -0.5), turn, half);
  return { tile: rect(item, corner, turn, 2, 1), at: { ...at, p: add(add(p, d, -1), turn, half + 1.5), d: [-d[0], -d[1]], half: 0.5 } };
}

/** Lay a chain; returns its tiles and the centre of where its next tile would go. */
function walk(items, at) {
  const placed = [];
  for (const item of items) {
    const next = place(item, at);
    placed.push(next.tile);
    at = next.at;
  }
  const { tile } = place(NEXT, at);
  const long = tile.vertical ? [0.5, 1] : [1, 0.5];
  return { placed, next: [tile.x + long[0], tile.y + long[1]] };
}

/**
 * Geometry of the whole layout in half-tile units, the first tile (or the spinner) at the
 * origin: `left` and `right` say how far the chains may run each way, `leg` how far the up and
 * down arms of a cross run straight before they turn. Returns {tiles, arms: {arm: {next}}}.
 */
export function geometry(layout, { left = 8, right = 8, leg = 5 } = {}) {
  const c = chains(layout);
  const cross = Boolean(layout.spinner);
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
  const L = Math.max(3, left);
  const R = Math.max(3, right);
  // a cross is a pinwheel: right arm rows stack down at x >= 1, down arm rows run left below
  // it, left arm rows stack up at x <= -1, up arm rows run right above it; quarters never meet
  const straight = { leg: Math.max(3, leg), min: 2.5 };
  const sides = cross
    ? {
        right: { arm: 1, p: [ex, 0], d: [1, 0], half, box: { x0: 1, x1: R }, turn: [0, 1] },
        left: { arm: 0, p: [-ex, 0], d: [-1, 0], half, box: { x0: -L, x1: -1 }, turn: [0, -1] },
        down: { arm: 3, p: [0, 1], d: [0, 1], half: 0.5, box: { x0: -L, x1: 1 }, turn: [0, 1], bend: { ...straight, to: [-1, 0] } },
        up: { arm: 2, p: [0, -1], d: [0, -1], half: 0.5, box: { x0: -1, x1: R }, turn: [0, -1], bend: { ...straight, to: [1, 0] } },
      }
    : {
        right: { arm: 1, p: [ex, 0], d: [1, 0], half, box: { x0: -L, x1: R }, turn: [0, 1] },
        left: { arm: 0, p: [-ex, 0], d: [-1, 0], half, box: { x0: -L, x1: R }, turn: [0, -1] },
      };
  const arms = {};
  const tiles = [centerTile];
  // every side's chain ends with its own arm's tiles (a re-rooted side with the far arm's)
  for (const [side, { arm, ...at }] of Object.entries(sides)) {
    const walked = walk(c[side], { bend: null, ...at });
    tiles.push(...walked.placed);
    arms[arm] = { next: walked.next };
  }
  return { tiles, arms };
}

/** The box round the tiles and the markers of every arm's next tile. */
export function extent(geo) {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  const grow = (x0, y0, x1, y1) => {
    minX = Math.min(minX, x0);
    minY = Math.min(minY, y0);
    maxX = Math.max(maxX, x1);
    maxY = Math.max(maxY, y1);
  };
  for (const t of geo.tiles) grow(t.x, t.y, t.x + (t.vertical ? 1 : 2), t.y + (t.vertical ? 2 : 1));
  for (const { next } of Object.values(geo.arms)) grow(next[0] - MARK, next[1] - MARK, next[0] + MARK, next[1] + MARK);
  return { minX, minY, maxX, maxY, width: maxX - minX, height: maxY - minY };
}

const MARK = 0.6; // a marker's radius, in half-tile units
const PAD = 0.3; // room round the drawing, in half-tile units

/** The shapes tried, the most natural first: the first tile in the middle, then off to one
 * side (one arm much longer than the other); a cross's up and down arms long, then shorter. */
function shapes(cross, cols, rows) {
  const out = [];
  const legs = cross ? [...new Set([Math.floor(rows / 2) - 1, 7, 5, 3].filter((l) => l >= 3 && l <= 9))] : [0];
  for (const leg of legs) {
    for (const share of [0.5, 0.4, 0.6, 0.3, 0.7]) out.push({ left: cols * share, right: cols * (1 - share), leg });
  }
  return out;
}

/**
 * The largest half-tile size (from `u` down to `minU` pixels) at which some shape of the
 * layout fits `width` × `height` pixels, and that shape's geometry. When none fits even at
 * `minU`, the most compact shape at whatever size fits. Returns {geo, u, box}.
 */
export function fit(layout, width, height, { u = 30, minU = 12 } = {}) {
  const cross = Boolean(layout.spinner);
  let best = null;
  for (let size = Math.floor(u); size >= minU; size--) {
    const cols = width / size - 2 * PAD;
    const rows = height / size - 2 * PAD;
    for (const shape of shapes(cross, Math.floor(cols), rows)) {
      const geo = geometry(layout, shape);
      const box = extent(geo);
      if (box.width <= cols && box.height <= rows) return { geo, u: size, box };
      if (size === minU) {
        const scale = Math.min(width / (box.width + 2 * PAD), height / (box.height + 2 * PAD));
        if (!best || scale > best.u) best = { geo, u: scale, box };
      }
    }
  }
  return best;
}

/**
 * Draw the layout into an <svg> no larger than `width` × `height` pixels (half-tiles of at
 * most `u` pixels). `targets` = arm numbers that may be clicked (with onArm); `last` = the
 * tile laid last; `recent` = a Map from tile to the seat position ("left", "across", "right")
 * whose latest tile it is. Returns the svg; its `geometry` property holds {geo, u}.
 */
export function drawLayout(layout, { width, height, u = 30, minU = 12, targets = [], onArm, last, recent } = {}) {
  const { geo, u: size, box } = fit(layout, width, height ?? width, { u, minU });
  const vbX = (box.minX - PAD) * size;
  const vbY = (box.minY - PAD) * size;
  const vbW = (box.width + 2 * PAD) * size;
  const vbH = (box.height + 2 * PAD) * size;
  const svg = s("svg", {
    class: "layout-svg",
    viewBox: `${vbX} ${vbY} ${vbW} ${vbH}`,
    width: Math.floor(vbW),
    height: Math.floor(vbH),
    role: "img",
  });
  for (const t of geo.tiles) {
    const by = recent && recent.get(t.name);
    const cls = [t.name === last ? "last" : "", by ? "recent" : "", t.faceDown ? "closed" : ""].join(" ");
    const g = tileGroup(t.first, t.second, t.x * size, t.y * size, t.vertical, size, {
      faceDown: t.faceDown,
      cls,
    });
    g.setAttribute("data-tile", t.name);
    if (by) g.setAttribute("data-by", by);
    svg.append(g);
  }
  for (const arm of targets) {
    const end = geo.arms[arm];
    if (!end) continue;
    const [cx, cy] = end.next;
    const g = s(
      "g",
      {
        class: "arm-target",
        "data-arm": arm,
        tabindex: 0,
        role: "button",
        onclick: () => onArm && onArm(arm),
        onkeydown: (e) => {
          if ((e.key === "Enter" || e.key === " ") && onArm) {
            e.preventDefault();
            onArm(arm);
          }
        },
      },
      s("circle", { cx: cx * size, cy: cy * size, r: size * 0.55 }),
      s("text", { x: cx * size, y: cy * size, dy: "0.35em" }, String(arm)),
    );
    svg.append(g);
  }
  svg.geometry = { geo, u: size };
  return svg;
}
