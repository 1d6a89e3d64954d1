// A small SVG line chart: one line per series, rounds (or games) along the bottom.
import { s } from "./dom.js";

const COLOURS = ["#c0392b", "#2e86c1", "#27ae60", "#8e44ad", "#d68910", "#17a589", "#566573"];
// (seven: a tournament has up to seven players)

/** The whole numbers the axis marks from `lo` to `hi`: round steps (1, 2 or 5 times a power
 * of ten), the finest that gives at most `most` intervals, from a multiple of the step at or
 * below `lo` to one at or above `hi` (0, 20, 40, 60, 80, 100 — never 0, 21, 43, 64, 85). */
export function ticks(lo, hi, most = 6) {
  const intervals = (step) => Math.ceil(hi / step) - Math.floor(lo / step);
  let step = 1;
  for (let power = 1; intervals(step) > most; power *= 10) {
    step = [1, 2, 5, 10].map((m) => m * power).find((x) => intervals(x) <= most) ?? 10 * power;
  }
  const out = [];
  for (let v = Math.floor(lo / step) * step; v <= Math.ceil(hi / step) * step; v += step) out.push(v);
  return out;
}

export function lineChart(series, { width = 560, height = 220, label = "" } = {}) {
  const pad = { left: 40, right: 12, top: 12, bottom: 28 };
  const n = Math.max(1, ...series.map((x) => x.values.length));
  const all = series.flatMap((x) => x.values);
  const marks = ticks(Math.min(0, ...all), Math.max(1, ...all));
  const lo = marks[0];
  const hi = marks[marks.length - 1];
  const X = (i) => pad.left + (n === 1 ? 0 : (i * (width - pad.left - pad.right)) / (n - 1));
  const Y = (v) => pad.top + ((hi - v) * (height - pad.top - pad.bottom)) / (hi - lo || 1);
  const svg = s("svg", { class: "chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label });
  for (const v of marks) {
    svg.append(s("line", { class: "grid", x1: pad.left, x2: width - pad.right, y1: Y(v), y2: Y(v) }));
    svg.append(s("text", { class: "tick", x: pad.left - 6, y: Y(v), dy: "0.35em", "text-anchor": "end" }, String(v)));
  }
  for (let i = 0; i < n; i += Math.max(1, Math.ceil(n / 12))) {
    svg.append(s("text", { class: "tick", x: X(i), y: height - 8, "text-anchor": "middle" }, String(i + 1)));
  }
  series.forEach((line, k) => {
    const colour = COLOURS[k % COLOURS.length];
    const points = line.values.map((v, i) => `${X(i)},${Y(v)}`).join(" ");
    svg.append(s("polyline", { class: "series", points, stroke: colour, "data-series": line.label }));
    line.values.forEach((v, i) => svg.append(s("circle", { cx: X(i), cy: Y(v), r: 3, fill: colour }, s("title", {}, `${line.label}: ${v}`))));
  });
  return svg;
}

export function legend(series) {
  const el = document.createElement("ul");
  el.className = "legend";
  series.forEach((line, k) => {
    const li = document.createElement("li");
    li.style.setProperty("--c", COLOURS[k % COLOURS.length]);
    li.textContent = line.label;
    el.append(li);
  });
  return el;
}
