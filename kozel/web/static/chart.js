// A small SVG line chart: one line per series, rounds (or games) along the bottom.
import { s } from "./dom.js";

const COLOURS = ["#c0392b", "#2e86c1", "#27ae60", "#8e44ad", "#d68910", "#17a589", "#566573"];
// (seven: a tournament has up to seven players)

export function lineChart(series, { width = 560, height = 220, label = "" } = {}) {
  const pad = { left: 40, right: 12, top: 12, bottom: 28 };
  const n = Math.max(1, ...series.map((x) => x.values.length));
  const all = series.flatMap((x) => x.values);
  const lo = Math.min(0, ...all);
  const hi = Math.max(1, ...all);
  const X = (i) => pad.left + (n === 1 ? 0 : (i * (width - pad.left - pad.right)) / (n - 1));
  const Y = (v) => pad.top + ((hi - v) * (height - pad.top - pad.bottom)) / (hi - lo || 1);
  const svg = s("svg", { class: "chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label });
  const ticks = 4;
  for (let k = 0; k <= ticks; k++) {
    const v = Math.round(lo + ((hi - lo) * k) / ticks);
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
