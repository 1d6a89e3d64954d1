"""The layout drawing (kozel/web/static/layout.js) run in the browser on thousands of real
layouts from random games: every tile is drawn once, with its own two halves, no two tiles
overlap, in every shape the drawing may take and in the shape it picks for a phone's and a
desktop's board; and the table page, given positions from the engine at 360×740 and 1280×800,
keeps the whole layout inside its board with the hand above the fold."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kozel.games import DONKEY, GOAT
from kozel.layout.match import Match
from kozel.layout.round import Round
from kozel.layout.views import view_for
from tests.randomplay import play_random
from tests.web.conftest import DESKTOP, PHONE, Contexts

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


# Show positions one by one in the table page of the club (its header included) and measure.
MEASURE = """async (messages) => {
  const { TablePage } = await import("/static/table.js");
  const { rules } = await import("/static/options.js");
  await rules();
  const main = document.getElementById("page");
  const box = (selector) => {
    const el = main.querySelector(selector);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return [r.left + scrollX, r.top + scrollY, r.right + scrollX, r.bottom + scrollY];
  };
  const out = [];
  for (const message of messages) {
    const table = new TablePage(message.game);
    table.main = main;
    table.socket = { send: () => true };
    await table.receive(message);
    const svg = main.querySelector(".layout-svg");
    out.push({
      board: box(".board"), layout: box(".layout"), svg: box(".layout-svg"),
      hand: box(".hand-box"), tiles: main.querySelectorAll(".layout-svg g.tile").length,
      u: svg ? svg.geometry.u : null, wide: document.documentElement.scrollWidth,
    });
  }
  return out;
}"""


def positions(count: int) -> list[dict[str, Any]]:
    """Table states of seat 0 from random Goat and Donkey games of four and of two (Goat's
    longest lines come with two players and a bazaar): the layouts with the most tiles, the
    largest hands, and others."""
    found: list[dict[str, Any]] = []

    def keep(match: Match, rnd: Round) -> None:
        if rnd.turn is not None and rnd.layout.first >= 0:
            found.append(view_for(match, 0).to_dict())

    for seed in range(3):
        for rules, raw in [
            (GOAT, {}),
            (GOAT, {"players": 2}),
            (DONKEY, {}),
            (DONKEY, {"players": 2, "bazaar_reserve": 2}),
        ]:
            play_random(rules, rules.options(raw), 100 + seed, keep)
    found.sort(key=lambda view: -sum(len(a["tiles"]) for a in view["layout"]["arms"]))
    hands = sorted(found, key=lambda view: -len(view["hand"]))
    picked = found[: count // 3] + hands[: count // 3] + found[:: max(1, len(found) // count)]
    return [
        {
            "type": "state", "game": 7, "version": 5, "status": "playing", "you": 0,
            "seats": ["alice", *("bot:expert" for _ in view["hand_sizes"][1:])],
            "seconds_per_move": 60, "rated": False, "view": view, "rounds": [],
            "clock": {"seat": view["turn"], "deadline_ms": 0, "remaining_ms": 30_000},
        }
        for view in picked[:count]
    ]  # fmt: skip


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_table_keeps_the_layout_on_its_board_above_the_hand(
    contexts: Contexts, shots: Path, viewport: dict[str, int]
) -> None:
    """Goat's long lines and Donkey's crosses at their largest, and others: the layout drawn
    inside the board, the board and the hand within the first screen, nothing wider than it."""
    messages = positions(80)
    assert {m["view"]["game"] for m in messages} == {"goat", "donkey"}
    assert max(len(m["view"]["history"]) for m in messages) >= 20
    page = contexts.page(viewport=viewport, reduced_motion=True)
    page.goto("/")
    page.click("#guest")
    page.wait_for_selector("#play-computer")
    page.goto("/rules/goat")
    page.wait_for_selector(".rules-text h2")
    shown = page.evaluate(MEASURE, messages)
    width, height = viewport["width"], viewport["height"]
    for message, seen in zip(messages, shown, strict=True):
        laid = 1 + sum(len(a["tiles"]) for a in message["view"]["layout"]["arms"])
        assert seen["tiles"] == laid
        (bx0, by0, bx1, by1), (sx0, sy0, sx1, sy1) = seen["layout"], seen["svg"]
        assert bx0 <= sx0 and sx1 <= bx1 and by0 <= sy0 and sy1 <= by1, (seen, message["view"])
        assert seen["board"][1] <= by0 and by1 <= seen["board"][3]
        assert seen["hand"][3] <= height, f"the hand ends at {seen['hand'][3]} px"
        assert seen["wide"] <= width
        assert seen["u"] >= (12 if width < 720 else 20), seen
    if viewport == PHONE:  # the README's picture: the longest Donkey cross, on a phone
        crosses = [m for m in messages if m["view"]["game"] == "donkey"]
        longest = max(
            crosses, key=lambda m: sum(len(a["tiles"]) for a in m["view"]["layout"]["arms"])
        )
        page.evaluate(MEASURE, [longest])
        page.screenshot(path=shots / "donkey-cross-phone.png")
