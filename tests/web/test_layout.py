"""The layout drawing (kozel/web/static/layout.js) run in the browser on thousands of real
layouts from random games: every tile is drawn once, with its own two halves, and no two tiles
overlap, on a phone and on a desktop."""

from __future__ import annotations

import json
from typing import Any

from kozel.games import DONKEY, GOAT
from kozel.match import Match
from kozel.round import Round
from kozel.views import view_for
from tests.randomplay import play_random
from tests.web.conftest import Contexts

CHECK = """async ([layouts, widths]) => {
  const { geometry } = await import("/static/layout.js");
  const problems = [];
  for (const [i, layout] of layouts.entries()) {
    const names = [layout.first, ...layout.arms.flatMap((a) => a.tiles)];
    for (const width of widths) {
      const { tiles } = geometry(layout, width);
      const drawn = tiles.map((t) => t.name).sort();
      if (JSON.stringify(drawn) !== JSON.stringify([...names].sort()))
        problems.push(`layout ${i}, width ${width}: drew ${drawn}, not ${names}`);
      for (const t of tiles) {
        const halves = t.name.split("-").map(Number).sort().join("-");
        if ([t.first, t.second].sort().join("-") !== halves)
          problems.push(`layout ${i}: ${t.name} drawn as ${t.first}|${t.second}`);
      }
      const box = (t) => [t.x, t.y, t.x + (t.vertical ? 1 : 2), t.y + (t.vertical ? 2 : 1)];
      for (let a = 0; a < tiles.length; a++)
        for (let b = a + 1; b < tiles.length; b++) {
          const [ax0, ay0, ax1, ay1] = box(tiles[a]);
          const [bx0, by0, bx1, by1] = box(tiles[b]);
          const w = Math.min(ax1, bx1) - Math.max(ax0, bx0);
          const h = Math.min(ay1, by1) - Math.max(ay0, by0);
          if (w > 1e-6 && h > 1e-6)
            problems.push(`layout ${i}, width ${width}: ${tiles[a].name} on ${tiles[b].name}`);
        }
    }
  }
  return problems.slice(0, 10);
}"""


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
    page = contexts.page()
    page.goto("/rules/goat")
    # widths in half-tile units: a 360-px phone (22-px halves) and a desktop (30-px halves)
    problems = page.evaluate(CHECK, [every, [14, 35]])
    assert problems == []
