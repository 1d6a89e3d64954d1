"""The layout drawing (kozel/web/static/layout.js) run in the browser on thousands of real
layouts from random games: every tile is drawn once, with its own two halves, no two tiles
overlap, in every shape the drawing may take and in the shape it picks for a phone's and a
desktop's board, and the drawing fits the board."""

from __future__ import annotations

import json
from typing import Any

from kozel.games import DONKEY, GOAT
from kozel.match import Match
from kozel.round import Round
from kozel.views import view_for
from tests.randomplay import play_random
from tests.web.conftest import Contexts

CHECK = """async ([layouts, shapes, boards, every]) => {
  const { fit, geometry } = await import("/static/layout.js");
  const problems = [];
  const sizes = boards.map(() => ({}));
  const check = (i, where, tiles, names) => {
    const drawn = tiles.map((t) => t.name).sort();
    if (JSON.stringify(drawn) !== JSON.stringify([...names].sort()))
      problems.push(`layout ${i}, ${where}: drew ${drawn}, not ${names}`);
    for (const t of tiles) {
      const halves = t.name.split("-").map(Number).sort().join("-");
      if ([t.first, t.second].sort().join("-") !== halves)
        problems.push(`layout ${i}, ${where}: ${t.name} drawn as ${t.first}|${t.second}`);
    }
    const box = (t) => [t.x, t.y, t.x + (t.vertical ? 1 : 2), t.y + (t.vertical ? 2 : 1)];
    for (let a = 0; a < tiles.length; a++)
      for (let b = a + 1; b < tiles.length; b++) {
        const [ax0, ay0, ax1, ay1] = box(tiles[a]);
        const [bx0, by0, bx1, by1] = box(tiles[b]);
        const w = Math.min(ax1, bx1) - Math.max(ax0, bx0);
        const h = Math.min(ay1, by1) - Math.max(ay0, by0);
        if (w > 1e-6 && h > 1e-6)
          problems.push(`layout ${i}, ${where}: ${tiles[a].name} on ${tiles[b].name}`);
      }
  };
  for (const [i, layout] of layouts.entries()) {
    const names = [layout.first, ...layout.arms.flatMap((a) => a.tiles)];
    // the real boards for every layout; the other shapes and boards for every `every`-th
    if (i % every === 0)
      for (const shape of shapes)
        check(i, JSON.stringify(shape), geometry(layout, shape).tiles, names);
    boards.forEach(([width, height, u, minU], k) => {
      if (k >= 2 && i % every !== 0) return;
      const fitted = fit(layout, width, height, { u, minU });
      check(i, `${width}x${height}`, fitted.geo.tiles, names);
      const size = Math.floor(fitted.u);
      sizes[k][size] = (sizes[k][size] || 0) + 1;
      const drawn = [(fitted.box.width + 0.6) * fitted.u, (fitted.box.height + 0.6) * fitted.u];
      if (drawn[0] > width + 1e-6 || drawn[1] > height + 1e-6)
        problems.push(`layout ${i}: ${drawn} does not fit ${width}x${height}`);
    });
  }
  return { problems: problems.slice(0, 10), sizes };
}"""

# the shapes the drawing tries (how far the chains run left and right, how far a cross's up
# and down arms run straight), the smallest and the lopsided among them
SHAPES = [
    {"left": 3, "right": 3, "leg": 9},
    {"left": 4, "right": 12, "leg": 3},
    {"left": 14, "right": 5, "leg": 5},
]
# boards in pixels (width, height, largest and smallest half-tile): a phone's (360×740), a
# desktop's (1280×800), and a phone's squeezed to 150 px high
BOARDS = [[316, 245, 24, 9], [624, 395, 30, 12], [316, 150, 24, 9]]


def layouts() -> list[dict[str, Any]]:
    seen: dict[str, dict[str, Any]] = {}

    def keep(match: Match, rnd: Round) -> None:
        if rnd.layout.first >= 0:
            layout = view_for(match, None).to_dict()["layout"]
            seen[json.dumps(layout, sort_keys=True)] = layout

    for seed in range(12):
        play_random(GOAT, GOAT.options({}), seed, keep)
        play_random(GOAT, GOAT.options({"players": 2}), seed, keep)
        play_random(DONKEY, DONKEY.options({}), seed, keep)
        play_random(DONKEY, DONKEY.options({"players": 2, "bazaar_reserve": 2}), seed, keep)
    return list(seen.values())


def test_layouts_are_drawn_whole_and_without_overlaps(contexts: Contexts) -> None:
    every = layouts()
    assert len(every) > 2000
    assert any(layout["spinner"] and layout["spinner"] != layout["first"] for layout in every)
    assert any(arm["closed"] for layout in every for arm in layout["arms"])
    assert max(len(a["tiles"]) for layout in every for a in layout["arms"]) >= 10
    page = contexts.page()
    page.goto("/rules/goat")
    result = page.evaluate(CHECK, [every, SHAPES, BOARDS, 3])
    assert result["problems"] == []
    # tiles stay readable: a phone's board draws every layout with halves of 18 px or more
    # (most at the full 24), a desktop's at the full 30, a squeezed phone's at 12 or more
    smallest = [min(int(size) for size in sizes) for sizes in result["sizes"]]
    assert smallest[0] >= 18 and smallest[1] == 30 and smallest[2] >= 12, result["sizes"]
